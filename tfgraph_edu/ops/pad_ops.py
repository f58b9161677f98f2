"""``tf.pad`` with a fill value other than zero: op ``PadV2`` (TensorFlow picks ``Pad``
when ``constant_values`` is 0 and ``PadV2`` otherwise; so do we)."""

from __future__ import annotations

import numpy as np

from .. import dtypes as _dt
from ..errors import InvalidArgumentError
from . import array_ops
from ._core import bind, define, shape_error
from ._rules import fmt


def _kernel(x, paddings, constant_values):
    if np.ndim(constant_values) != 0:
        raise InvalidArgumentError(None, None, "constant_values must be a scalar. Shape of "
                                   f"constant_values was {list(np.shape(constant_values))}")
    return np.pad(x, np.asarray(paddings).reshape(-1, 2).tolist(),
                  constant_values=np.asarray(constant_values, dtype=x.dtype))


def _shape(x, paddings, constant_values):
    if constant_values.shape.rank not in (None, 0):
        raise shape_error(f"constant_values must be a scalar. Shape of constant_values was "
                          f"{fmt(constant_values.shape)}")
    return array_ops._pad_shape(x, paddings)


def _grad(op, g):
    """As ``Pad``'s: the slice of ``g`` the input occupies; none for the fill value."""
    x, p = op.inputs[0], op.inputs[1]
    begin = array_ops.reshape(array_ops.slice_(p, [0, 0], array_ops.stack([array_ops.rank(x), 1])),
                              [-1])
    return array_ops.slice_(g, begin, array_ops.shape(x)), None, None


PadV2 = define("PadV2", ("input", "paddings", "constant_values"), _kernel, _shape, _grad,
               T=(0, 2), input_dtypes={1: _dt.int32})


def pad(tensor, paddings, mode="CONSTANT", constant_values=0, name=None):
    """``tensor`` padded by ``paddings`` (``[[before, after], ...]`` per dimension) with
    ``constant_values``: op ``Pad`` for 0, ``PadV2`` otherwise."""
    if str(mode).upper() != "CONSTANT":
        raise NotImplementedError("tfgraph_edu implements tf.pad with mode='CONSTANT' only "
                                  "(REFLECT and SYMMETRIC, op MirrorPad, are not here).")
    if not hasattr(constant_values, "dtype") and constant_values == 0:
        return array_ops.pad(tensor, paddings, name=name)
    return bind(PadV2, (tensor, paddings, constant_values), None, name)
