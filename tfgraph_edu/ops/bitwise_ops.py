"""``tf.bitwise``: Invert, BitwiseAnd/Or/Xor, LeftShift, RightShift on integer tensors
(layer 1).  ``~``, ``&``, ``|`` and ``^`` on an integer tensor are these ops (on a bool tensor
they are the logical ops).  Integer results have no gradient."""

from __future__ import annotations

import numpy as np

from .. import dtypes as _dt
from ._core import bind, define
from ._rules import binary, same

_INTS = _dt.INTS


Invert = define("Invert", ("x",), np.invert, same, None, T=(0,), dtypes=_INTS, operator="~")
BitwiseAnd = define("BitwiseAnd", ("x", "y"), np.bitwise_and, binary, None, T=(0, 1),
                    dtypes=_INTS, operator="&")
BitwiseOr = define("BitwiseOr", ("x", "y"), np.bitwise_or, binary, None, T=(0, 1),
                   dtypes=_INTS, operator="|")
BitwiseXor = define("BitwiseXor", ("x", "y"), np.bitwise_xor, binary, None, T=(0, 1),
                    dtypes=_INTS, operator="^")
LeftShift = define("LeftShift", ("x", "y"), np.left_shift, binary, None,
                   T=(0, 1), dtypes=_INTS)
RightShift = define("RightShift", ("x", "y"), np.right_shift, binary, None,
                    T=(0, 1), dtypes=_INTS)


def invert(x, name=None):
    """Flips every bit of an integer tensor: ~5 is -6 (op ``Invert``)."""
    return bind(Invert, (x,), None, name)


def bitwise_and(x, y, name=None):
    """Element-wise AND of the bits of two integer tensors (op ``BitwiseAnd``)."""
    return bind(BitwiseAnd, (x, y), None, name)


def bitwise_or(x, y, name=None):
    """Element-wise OR of the bits (op ``BitwiseOr``)."""
    return bind(BitwiseOr, (x, y), None, name)


def bitwise_xor(x, y, name=None):
    """Element-wise XOR of the bits (op ``BitwiseXor``)."""
    return bind(BitwiseXor, (x, y), None, name)


def left_shift(x, y, name=None):
    """x << y element-wise (op ``LeftShift``)."""
    return bind(LeftShift, (x, y), None, name)


def right_shift(x, y, name=None):
    """x >> y element-wise, arithmetic for signed types (op ``RightShift``)."""
    return bind(RightShift, (x, y), None, name)
