"""More math the guides call: linspace, ceil/floor/round, log1p, reciprocal, is_nan,
clip_by_norm, bincount (DenseBincount), l2_loss, global_norm, clip_by_global_norm,
divide_no_nan (DivNoNan), count_nonzero (layer 1)."""

from __future__ import annotations

import numpy as np

from .. import dtypes as _dt
from ..errors import InvalidArgumentError
from ..shapes import TensorShape
from . import convert, creation_ops, indexing_ops, math_ops, reduction_ops
from ._core import bind, constant_value, define
from ._rules import binary, same

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
    """Scales ``t`` so its L2 norm over ``axes`` is at most ``clip_norm`` (public ops only);
    of an IndexedSlices, as TF, its values (rows named twice count twice)."""
    from .indexed_slices import IndexedSlices
    if isinstance(t, IndexedSlices):
        return IndexedSlices(clip_by_norm(t.values, clip_norm, axes, name), t.indices,
                             t.dense_shape)
    t = convert.to_tensor(t)
    l2sum = reduction_ops.reduce_sum(math_ops.multiply(t, t), axis=axes, keepdims=True)
    positive = math_ops.greater(l2sum, 0)
    safe = indexing_ops.where(positive, l2sum, creation_ops.ones_like(l2sum))
    l2norm = indexing_ops.where(positive, math_ops.sqrt(safe), l2sum)
    clip = math_ops.cast(clip_norm, t.dtype)
    scaled = math_ops.multiply(t, clip)
    return math_ops.divide(scaled, math_ops.maximum(l2norm, clip), name=name)


# -- DenseBincount (tf.math.bincount) -------------------------------------------------------------
def _bincount_kernel(arr, size, weights, binary_output=False):
    arr, n = np.asarray(arr), int(np.ravel(size)[0])
    if np.any(arr < 0):
        raise InvalidArgumentError(None, None, "Input arr must be non-negative!")
    w = np.asarray(weights)  # empty: count; else the weight of each value of arr
    rows = arr.reshape(-1, arr.shape[-1]) if arr.ndim == 2 else arr.reshape(1, -1)
    wrows = w.reshape(rows.shape) if w.size else None
    out = np.zeros((rows.shape[0], n), w.dtype)
    for r in range(rows.shape[0]):
        keep = rows[r] < n  # TF drops values at or above `size`
        counts = np.bincount(rows[r][keep], None if wrows is None else wrows[r][keep],
                             minlength=n)[:n]
        out[r] = (counts > 0) if binary_output else counts
    return out if arr.ndim == 2 else out[0]


def _bincount_shape(arr, size, weights, binary_output=False):
    n = constant_value(size)
    n = None if n is None else int(np.ravel(n)[0])
    if arr.shape.rank == 2:
        return TensorShape([arr.shape.dims[0], n]), weights.dtype
    return TensorShape([n]), weights.dtype


DenseBincount = define("DenseBincount", ("input", "size", "weights"), _bincount_kernel,
                       _bincount_shape, None, T=(2,), dtypes=_dt.NUMERIC,
                       input_dtypes={0: _dt.int32, 1: _dt.int32})


def bincount(arr, weights=None, minlength=None, maxlength=None, dtype=_dt.int32, name=None,
             axis=None, binary_output=False):
    """``tf.math.bincount``: how often each value 0, 1, ... occurs in ``arr`` (or the sum of
    its ``weights``); ``axis=-1`` counts each row of a 2-D ``arr`` (op ``DenseBincount``)."""
    arr = convert.to_tensor(arr)
    if not arr.dtype.is_integer:
        arr = math_ops.cast(arr, _dt.int32)
    if arr.dtype not in (_dt.int32, _dt.int64):  # TF's DenseBincount Tidx
        from . import _core
        from ._rules import attr_not_allowed, param_not_allowed
        if _core.interpreter().executing_eagerly:
            raise attr_not_allowed("DenseBincount", "Tidx", arr.dtype, (_dt.int32, _dt.int64))
        raise param_not_allowed("input", arr.dtype, (_dt.int32, _dt.int64))
    if axis not in (None, -1):
        raise ValueError(f"Unsupported value for argument axis={axis}. Only 0 and -1 are "
                         "currently supported.")
    if axis is None:
        from . import shape_ops
        arr = shape_ops.reshape(arr, [-1])
    elif arr.shape.rank != 2:
        raise ValueError("tf.math.bincount with axis=-1 needs a 2-D `arr`.")
    from . import concat_ops, shape_ops
    # one more than the largest value; 0 for an empty arr (its max taken together with -1)
    flat = concat_ops.concat([shape_ops.reshape(arr, [-1]), convert.to_tensor([-1], arr.dtype)],
                             0)
    size = math_ops.add(reduction_ops.reduce_max(flat), 1)
    if minlength is not None:
        size = math_ops.maximum(convert.to_tensor(minlength, arr.dtype), size)
    if maxlength is not None:
        size = math_ops.minimum(convert.to_tensor(maxlength, arr.dtype), size)
    if weights is None:
        w = creation_ops.zeros([0], _dt.as_dtype(dtype))
    else:
        w = shape_ops.reshape(convert.to_tensor(weights), shape_ops.shape(arr))
    return bind(DenseBincount, (arr, math_ops.cast(size, _dt.int32), w),
                {"binary_output": bool(binary_output)}, name)


# -- L2Loss, tf.linalg.global_norm, tf.clip_by_global_norm ----------------------------------------
L2Loss = define("L2Loss", ("t",), lambda t: np.asarray(np.sum(np.square(t)) / 2, t.dtype),
                lambda t: (TensorShape([]), t.dtype),
                lambda op, g: (math_ops.multiply(op.inputs[0], g),), T=(0,), dtypes=F)


def l2_loss(t, name=None):
    """``tf.nn.l2_loss``: half the sum of the squares of ``t`` (op ``L2Loss``)."""
    return bind(L2Loss, (t,), None, name)


def _check_list(t_list):
    if not isinstance(t_list, (list, tuple)):
        raise TypeError(f"`t_list` should be a sequence of tensors. Received {type(t_list)}.")


def global_norm(t_list, name=None):
    """``tf.linalg.global_norm``: the L2 norm of all the tensors of ``t_list`` together
    (``None`` entries are skipped), as ``sqrt(sum(2 * l2_loss(t)))``."""
    _check_list(t_list)
    from .indexed_slices import IndexedSlices
    ts = [convert.to_tensor(t.values if isinstance(t, IndexedSlices) else t)
          for t in t_list if t is not None]  # of an IndexedSlices its values, as TF
    if not ts:
        raise ValueError("`t_list` has no tensors to take the norm of.")
    half_squares = [l2_loss(t) for t in ts]
    from . import concat_ops
    total = reduction_ops.reduce_sum(concat_ops.stack(half_squares))
    return math_ops.sqrt(math_ops.multiply(total, convert.to_tensor(2, total.dtype)), name=name)


def clip_by_global_norm(t_list, clip_norm, use_norm=None, name=None):
    """``tf.clip_by_global_norm``: every tensor scaled by ``clip_norm / max(global_norm,
    clip_norm)``; returns ``(list_clipped, global_norm)`` (``None`` entries stay None; an
    infinite or NaN norm makes every entry NaN, as in TF)."""
    _check_list(t_list)
    from .indexed_slices import IndexedSlices
    norm = global_norm(t_list) if use_norm is None else convert.to_tensor(use_norm)
    clip = math_ops.cast(clip_norm, norm.dtype)
    one = convert.to_tensor(1.0, norm.dtype)
    scale = math_ops.multiply(clip, math_ops.minimum(math_ops.divide(one, norm),
                                                     math_ops.divide(one, clip)))
    # TF turns a non-finite norm into NaN in every output: scale + (norm - norm)
    scale = math_ops.add(scale, math_ops.subtract(norm, norm))
    out = []
    for t in t_list:
        if isinstance(t, IndexedSlices):  # its values scaled, still an IndexedSlices
            values = convert.to_tensor(t.values)
            out.append(IndexedSlices(math_ops.multiply(values, math_ops.cast(scale,
                                                                            values.dtype)),
                                     t.indices, t.dense_shape))
            continue
        t = None if t is None else convert.to_tensor(t)
        out.append(None if t is None else math_ops.multiply(t, math_ops.cast(scale, t.dtype)))
    return out, norm


# -- DivNoNan (tf.math.divide_no_nan), tf.math.count_nonzero ----------------------------------
def _div_no_nan_kernel(x, y):
    with np.errstate(all="ignore"):
        return np.where(y == 0, np.zeros((), x.dtype), x / y).astype(x.dtype)


def _div_no_nan_grad(op, g):
    x, y = op.inputs
    gx = bind(DivNoNan, (g, y))
    gy = math_ops.multiply(g, bind(DivNoNan, (bind(DivNoNan, (math_ops.negative(x), y)), y)))
    return math_ops.reduce_to(gx, x), math_ops.reduce_to(gy, y)


DivNoNan = define("DivNoNan", ("x", "y"), _div_no_nan_kernel, binary, _div_no_nan_grad,
                  T=(0, 1), dtypes=F)


def divide_no_nan(x, y, name=None):
    """``tf.math.divide_no_nan``: ``x / y``, and 0 wherever ``y`` is 0 (op ``DivNoNan``);
    integers are divided as floats, as ``/`` does in TF."""
    x, y = convert.matching_tensors(x, y)
    if x.dtype.is_integer:
        target = _dt.float32 if x.dtype.size <= 2 else _dt.float64
        x, y = math_ops.cast(x, target), math_ops.cast(y, target)
    return bind(DivNoNan, (x, y), None, name)


def count_nonzero(input, axis=None, keepdims=None, dtype=_dt.int64, name=None):  # noqa: A002
    """``tf.math.count_nonzero``: how many elements are not zero (not ``""`` for strings),
    as TF builds it: NotEqual, Cast, Sum."""
    x = convert.to_tensor(input)
    zero = convert.to_tensor(b"" if x.dtype is _dt.string else
                             False if x.dtype is _dt.bool else 0, x.dtype)
    hits = math_ops.cast(math_ops.not_equal(x, zero), _dt.as_dtype(dtype))
    return reduction_ops.reduce_sum(hits, axis=axis, keepdims=bool(keepdims), name=name)
