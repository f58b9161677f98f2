"""More elementwise math the guides call: linspace, ceil/floor/round, log1p, reciprocal,
is_nan, clip_by_norm (layer 1)."""

from __future__ import annotations

import numpy as np

from .. import dtypes as _dt
from ..errors import InvalidArgumentError
from ..shapes import TensorShape
from . import convert, creation_ops, indexing_ops, math_ops, reduction_ops
from ._core import bind, constant_value, define
from ._rules import same

F = _dt.FLOATS
_INT = frozenset({_dt.int32, _dt.int64})


# -- linspace --------------------------------------------------------------------------------
def _linspace_kernel(start, stop, num):
    n = int(num)
    if n <= 0:
        raise InvalidArgumentError(None, None, f"Requires num > 0: {n}")
    return np.linspace(start, stop, n).astype(start.dtype)


def _linspace_shape(start, stop, num):
    n = constant_value(num)
    return TensorShape([None if n is None else int(n)]), start.dtype


LinSpace = define("LinSpace", ("start", "stop", "num"), _linspace_kernel, _linspace_shape,
                  lambda op, g: (None, None, None), T=(0, 1), dtypes=F,
                  input_dtypes={2: _dt.int32})


def linspace(start, stop, num, name=None, axis=0):
    """``num`` evenly spaced values from ``start`` to ``stop`` inclusive (op ``LinSpace``).

    Integer ends become float64, as TensorFlow's ``tf.linspace(-2, 2, 201)`` does."""
    if axis != 0:
        raise NotImplementedError("tfgraph_edu's tf.linspace takes scalar ends (axis=0).")
    start, stop = convert.to_tensor(start), convert.to_tensor(stop)
    if start.dtype.is_integer:
        start = math_ops.cast(start, _dt.float64)
    if stop.dtype.is_integer:
        stop = math_ops.cast(stop, _dt.float64)
    if start.shape.rank not in (0, None) or stop.shape.rank not in (0, None):
        raise NotImplementedError("tfgraph_edu's tf.linspace takes scalar start and stop.")
    return bind(LinSpace, (start, stop, num), None, name)


# -- rounding --------------------------------------------------------------------------------
def _zero_grad(op, g):
    return (creation_ops.zeros_like(op.inputs[0]),)


Ceil = define("Ceil", ("x",), np.ceil, same, _zero_grad, T=(0,), dtypes=F)
Floor = define("Floor", ("x",), np.floor, same, _zero_grad, T=(0,), dtypes=F)
Round = define("Round", ("x",), np.round, same, _zero_grad, T=(0,), dtypes=_dt.NUMERIC)


def ceil(x, name=None):
    """Smallest integer not less than x, element-wise (op ``Ceil``)."""
    return bind(Ceil, (x,), None, name)


def floor(x, name=None):
    """Largest integer not greater than x, element-wise (op ``Floor``)."""
    return bind(Floor, (x,), None, name)


def round(x, name=None):  # noqa: A001 - TensorFlow's name
    """Rounds half to even, element-wise, as TensorFlow's ``Round`` (and numpy) do."""
    return bind(Round, (x,), None, name)


def _errstate(fn):
    def kernel(x):
        with np.errstate(divide="ignore", invalid="ignore"):
            return fn(x).astype(x.dtype, copy=False)
    return kernel


Log1p = define("Log1p", ("x",), _errstate(np.log1p), same,
               lambda op, g: (math_ops.divide(g, math_ops.add(op.inputs[0], 1)),),
               T=(0,), dtypes=F)
Reciprocal = define("Reciprocal", ("x",), _errstate(np.reciprocal), same,
                    lambda op, g: (math_ops.negative(math_ops.multiply(
                        g, math_ops.square(op.outputs[0]))),), T=(0,), dtypes=F)
IsNan = define("IsNan", ("x",), np.isnan, lambda x: (x.shape, _dt.bool), None, T=(0,), dtypes=F)


def log1p(x, name=None):
    """log(1 + x), accurate near zero (op ``Log1p``)."""
    return bind(Log1p, (x,), None, name)


def reciprocal(x, name=None):
    """1 / x element-wise (op ``Reciprocal``)."""
    return bind(Reciprocal, (x,), None, name)


def is_nan(x, name=None):
    """True where x is NaN (op ``IsNan``)."""
    return bind(IsNan, (x,), None, name)


def clip_by_norm(t, clip_norm, axes=None, name=None):
    """Scales ``t`` so its L2 norm over ``axes`` is at most ``clip_norm`` (public ops only)."""
    t = convert.to_tensor(t)
    l2sum = reduction_ops.reduce_sum(math_ops.multiply(t, t), axis=axes, keepdims=True)
    positive = math_ops.greater(l2sum, 0)
    safe = indexing_ops.where(positive, l2sum, creation_ops.ones_like(l2sum))
    l2norm = indexing_ops.where(positive, math_ops.sqrt(safe), l2sum)
    clip = math_ops.cast(clip_norm, t.dtype)
    scaled = math_ops.multiply(t, clip)
    return math_ops.divide(scaled, math_ops.maximum(l2norm, clip), name=name)
