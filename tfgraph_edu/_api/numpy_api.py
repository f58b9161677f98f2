"""``tf.experimental.numpy`` (``tnp``): NumPy's functions and dtype rules on tensors.

Every function is made of the engine's ops (so it runs eagerly, in ``tf.function`` and under
``GradientTape``); the dtypes follow ``tnp``'s rules in TF 2.21: Python ints are int64 and
floats float64 (float32 with ``prefer_float32``), mixed operands take NumPy's result type,
float functions of ints give float64, ``sum``/``prod`` of small ints give int64.
``experimental_enable_numpy_behavior`` also gives tensors NumPy's methods, operators and
indexing (``ops/numpy_behavior.py``). A NumPy name not here says it is not implemented.
"""

from __future__ import annotations

import builtins

import numpy as np

from .. import dtypes as _dt
from .._missing import module_getattr as _module_getattr
from ..eager.variables import Variable as _Variable
from ..ops import (
    concat_ops,
    convert,
    creation_ops,
    indexing_ops,
    linalg_ops,
    math_extra_ops,
    math_ops,
    numpy_behavior,
    reduction_ops,
    shape_ops,
)
from ..ops.convert import TensorBase as ndarray  # noqa: F401 - tnp.ndarray is tf.Tensor
from ..ops.overloads import TensorOperators as _TensorOperators
from . import numpy_random as random  # noqa: F401

# -- dtypes and constants (NumPy's own type objects, as tnp has them) --------------------------
bool_ = np.bool_
int8, int16, int32, int64 = np.int8, np.int16, np.int32, np.int64
uint8, uint16, uint32, uint64 = np.uint8, np.uint16, np.uint32, np.uint64
float16, float32, float64 = np.float16, np.float32, np.float64
complex64, complex128 = np.complex64, np.complex128
float_, int_, complex_ = np.float64, np.int64, np.complex128
object_, string_, unicode_ = np.object_, np.bytes_, np.str_
inexact = np.inexact
newaxis = None
pi, e, inf = np.pi, np.e, np.inf
iinfo, finfo, issubdtype = np.iinfo, np.finfo, np.issubdtype
result_type = numpy_behavior.result_type


def promote_types(type1, type2):
    """NumPy's ``promote_types`` of two dtypes (a NumPy dtype, as tnp returns)."""
    return np.promote_types(_dt.as_dtype(type1).as_numpy_dtype, _dt.as_dtype(type2).as_numpy_dtype)


# the classes whose operators promote once NumPy behaviour is on: tensors', and the copy of
# them that tf.Variable's class is made from
_OPERATOR_CLASSES = (_TensorOperators, _Variable.__bases__[0])


# -- switching NumPy behaviour on --------------------------------------------------------------
def experimental_enable_numpy_behavior(prefer_float32=False, dtype_conversion_mode="legacy"):
    """Tensors get NumPy's methods (``.T``, ``.reshape``, ``.astype``…), operators promote
    their operands as NumPy does, and indexing follows NumPy ('legacy' dtype conversion)."""
    numpy_behavior.check_mode(dtype_conversion_mode)
    if dtype_conversion_mode == "off":
        raise NotImplementedError(
            "tnp.experimental_enable_numpy_behavior(dtype_conversion_mode='off') is not "
            "implemented in tfgraph_edu yet; the default 'legacy' mode is.")
    numpy_behavior.switch_on(prefer_float32, dtype_conversion_mode)
    for cls in _OPERATOR_CLASSES:
        numpy_behavior.install_operators(cls)
    for name, value in _METHODS.items():
        setattr(_TensorOperators, name, value)


def _disable_numpy_behavior():
    """Undo the switch (for tests; TensorFlow itself has no way back)."""
    numpy_behavior.switch_off()
    for cls in _OPERATOR_CLASSES:
        numpy_behavior.uninstall_operators(cls)
    for name in _METHODS:
        if name in _TensorOperators.__dict__:
            delattr(_TensorOperators, name)


# -- conversion --------------------------------------------------------------------------------
def _np_dtype(dtype):
    return _dt.as_dtype(result_type(dtype)) if dtype is not None else None


def asarray(a, dtype=None):
    """A tensor of ``a``: a tensor as it is (cast to ``dtype`` if given), other values with
    tnp's dtypes (Python int int64, float float64; in the 'all'/'safe' modes TF's weak int32
    and float32)."""
    if numpy_behavior.STATE.flexible and dtype is None and not convert.is_tf_type(a) and \
            not isinstance(a, np.ndarray | np.generic) and not _holds_tensor(a):
        return convert.constant(a)  # weak, as tf.constant makes it in these modes
    dtype = _np_dtype(dtype)
    if convert.is_tf_type(a):
        t = convert.to_tensor(a)
        return t if dtype is None or t.dtype == dtype else math_ops.cast(t, dtype)
    if isinstance(a, list | tuple) and convert.holds_graph_tensor(a) or _holds_tensor(a):
        _not_flexible("tnp.asarray of a list holding tensors")
        t = convert.to_tensor(a)
        target = dtype or result_type(a)
        return t if t.dtype == target else math_ops.cast(t, target)
    target = dtype or (_dt.bool if isinstance(a, builtins.bool) else result_type(a))
    value = np.asarray(a)
    if value.dtype.kind in "SUO":
        return convert.constant(value)
    return convert.constant(value.astype(target.as_numpy_dtype), dtype=target)


def _asarray(a, dtype=None):
    """``asarray`` inside the other tnp functions, which the 'all'/'safe' modes do not have."""
    _not_flexible("this tnp function")
    return asarray(a, dtype)


def _holds_tensor(a) -> bool:
    if isinstance(a, list | tuple):
        return builtins.any(_holds_tensor(v) for v in a)
    return convert.is_tf_type(a)


def array(val, dtype=None, copy=True, ndmin=0):  # noqa: ARG001 - tensors are immutable
    t = asarray(val, dtype)
    for _ in builtins.range(ndmin - (t.shape.rank or 0)):
        t = shape_ops.expand_dims(t, 0)
    return t


asanyarray = asarray


def copy(a):
    from ..ops import identity_ops
    return identity_ops.identity(_asarray(a))


def _float(x):
    """``x`` as a tensor, ints and bools as the default float (float64)."""
    _not_flexible("tnp's float functions")
    t = _asarray(x)
    if not (t.dtype.is_floating or t.dtype.is_complex):
        t = math_ops.cast(t, numpy_behavior.default_float())
    return t


def _not_flexible(what):
    if numpy_behavior.STATE.flexible:
        raise NotImplementedError(
            f"{what} under dtype_conversion_mode='{numpy_behavior.STATE.mode}' is not "
            "implemented in tfgraph_edu yet (tnp.asarray/array of Python values, tf.constant, "
            "the operators, tf.add/subtract/multiply/divide/pow/maximum/minimum, tf.abs and "
            "tf.negative are); use the default 'legacy' mode.")


def _promote(*values):
    _not_flexible("tnp's promotion of several operands")
    target = result_type(*values)
    out = []
    for v in values:
        t = _asarray(v) if not convert.is_tf_type(v) else convert.to_tensor(v)
        out.append(t if t.dtype == target else math_ops.cast(t, target))
    return out


# -- creation ----------------------------------------------------------------------------------
def _shape(shape):
    if isinstance(shape, int | np.integer):
        return [int(shape)]
    return shape


def zeros(shape, dtype=float):
    _not_flexible("this tnp function")
    return creation_ops.zeros(_shape(shape), dtype=_np_dtype(dtype))


def ones(shape, dtype=float):
    _not_flexible("this tnp function")
    return creation_ops.ones(_shape(shape), dtype=_np_dtype(dtype))


empty = zeros


def full(shape, fill_value, dtype=None):
    value = _asarray(fill_value, dtype)
    return shape_ops.broadcast_to(value, _shape(shape))


def zeros_like(a, dtype=None):
    a = _asarray(a)
    return creation_ops.zeros_like(a, dtype=_np_dtype(dtype) or a.dtype)


def ones_like(a, dtype=None):
    a = _asarray(a)
    return creation_ops.ones_like(a, dtype=_np_dtype(dtype) or a.dtype)


def full_like(a, fill_value, dtype=None):
    a = _asarray(a)
    return shape_ops.broadcast_to(_asarray(fill_value, _np_dtype(dtype) or a.dtype),
                                  shape_ops.shape(a))


empty_like = zeros_like


def eye(N, M=None, k=0, dtype=float):  # noqa: N803 - NumPy's names
    _not_flexible("this tnp function")
    if k:
        raise NotImplementedError("tnp.eye with k != 0 is not implemented in tfgraph_edu yet")
    return linalg_ops.eye(N, M, dtype=_np_dtype(dtype))


def identity(n, dtype=float):
    return eye(n, dtype=dtype)


def arange(start, stop=None, step=1, dtype=None):
    """``range`` as a tensor, of ``result_type(start, stop, step)`` unless ``dtype`` says."""
    if stop is None:
        start, stop = 0, start
    target = _np_dtype(dtype) or result_type(start, stop, step)
    work = target if target.is_floating or target.is_integer else _dt.float64
    out = creation_ops.range_(_asarray(start, work), _asarray(stop, work), _asarray(step, work),
                              dtype=work)
    return out if work == target else math_ops.cast(out, target)


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=float, axis=0):
    if not endpoint or retstep:
        raise NotImplementedError("tnp.linspace with endpoint=False or retstep=True is not "
                                  "implemented in tfgraph_edu yet")
    target = _np_dtype(dtype) or _dt.float64
    work = target if target.is_floating else _dt.float64
    out = math_extra_ops.linspace(_asarray(start, work), _asarray(stop, work), num, axis=axis)
    return out if work == target else math_ops.cast(out, target)


# -- shapes ------------------------------------------------------------------------------------
def shape(a):
    return _asarray(a).shape


def size(a):
    return np.int64(_asarray(a).shape.num_elements())


def ndim(a):
    return _asarray(a).shape.rank


def reshape(a, newshape, order="C"):
    a = _asarray(a)
    if order == "F":
        rank = a.shape.rank
        flipped = shape_ops.reshape(shape_ops.transpose(a, list(builtins.range(rank))[::-1]),
                                    list(_shape(newshape))[::-1])
        return shape_ops.transpose(flipped, list(builtins.range(len(_shape(newshape))))[::-1])
    if order != "C":
        raise ValueError(f"Unsupported order argument {order}")
    return shape_ops.reshape(a, _shape(newshape))


def ravel(a):
    return shape_ops.reshape(_asarray(a), [-1])


def transpose(a, axes=None):
    return shape_ops.transpose(_asarray(a), axes)


def expand_dims(a, axis):
    return shape_ops.expand_dims(_asarray(a), axis)


def squeeze(a, axis=None):
    return shape_ops.squeeze(_asarray(a), axis)


def broadcast_to(array, shape):  # noqa: A002 - NumPy's name
    return shape_ops.broadcast_to(_asarray(array), shape)


def concatenate(arys, axis=0):
    return concat_ops.concat(_promote(*arys), axis)


def stack(arrays, axis=0):
    return concat_ops.stack(_promote(*arrays), axis)


def where(condition, x=None, y=None):
    condition = math_ops.cast(_asarray(condition), _dt.bool)
    if x is None and y is None:
        raise NotImplementedError("tnp.where with only a condition is not implemented in "
                                  "tfgraph_edu yet")
    x, y = _promote(x, y)
    return indexing_ops.where(condition, x, y)


def clip(a, a_min, a_max):
    a, lo, hi = _promote(a, a_min, a_max)
    return math_ops.minimum(math_ops.maximum(a, lo), hi)


# -- elementwise -------------------------------------------------------------------------------
def _binary(fn, doc):
    def op(x1, x2):
        return fn(*_promote(x1, x2))
    op.__doc__ = doc
    return op


add = _binary(math_ops.add, "``x1 + x2`` with NumPy's result dtype.")
subtract = _binary(math_ops.subtract, "``x1 - x2`` with NumPy's result dtype.")
multiply = _binary(math_ops.multiply, "``x1 * x2`` with NumPy's result dtype.")
maximum = _binary(math_ops.maximum, "The larger of each pair, NumPy's result dtype.")
minimum = _binary(math_ops.minimum, "The smaller of each pair, NumPy's result dtype.")
power = _binary(math_ops.pow, "``x1 ** x2`` with NumPy's result dtype.")
floor_divide = _binary(math_ops.floordiv, "``x1 // x2`` with NumPy's result dtype.")
mod = remainder = _binary(math_ops.floormod, "``x1 % x2`` (sign of x2), NumPy's result dtype.")
equal = _binary(math_ops.equal, "``x1 == x2`` element by element.")
not_equal = _binary(math_ops.not_equal, "``x1 != x2`` element by element.")
greater = _binary(math_ops.greater, "``x1 > x2`` element by element.")
greater_equal = _binary(math_ops.greater_equal, "``x1 >= x2`` element by element.")
less = _binary(math_ops.less, "``x1 < x2`` element by element.")
less_equal = _binary(math_ops.less_equal, "``x1 <= x2`` element by element.")
logical_and = _binary(math_ops.logical_and, "Logical and of bools.")
logical_or = _binary(math_ops.logical_or, "Logical or of bools.")


def true_divide(x1, x2):
    """``x1 / x2``; ints are divided as the default float (float64)."""
    x1, x2 = _promote(x1, x2)
    if not (x1.dtype.is_floating or x1.dtype.is_complex):
        x1 = math_ops.cast(x1, numpy_behavior.default_float())
        x2 = math_ops.cast(x2, numpy_behavior.default_float())
    return math_ops.truediv(x1, x2)


divide = true_divide


def _unary_float(fn, doc):
    def op(x):
        return fn(_float(x))
    op.__doc__ = doc
    return op


sqrt = _unary_float(math_ops.sqrt, "Square root; ints give float64.")
exp = _unary_float(math_ops.exp, "e to the x; ints give float64.")
log = _unary_float(math_ops.log, "Natural log; ints give float64.")
log1p = _unary_float(math_extra_ops.log1p, "log(1 + x); ints give float64.")
sin = _unary_float(math_ops.sin, "Sine; ints give float64.")
cos = _unary_float(math_ops.cos, "Cosine; ints give float64.")
tanh = _unary_float(math_ops.tanh, "Hyperbolic tangent; ints give float64.")
reciprocal = _unary_float(math_extra_ops.reciprocal, "1 / x; ints give float64.")


def _unary(fn, doc):
    def op(x):
        return fn(_asarray(x))
    op.__doc__ = doc
    return op


square = _unary(math_ops.square, "x * x, same dtype.")
negative = _unary(math_ops.negative, "-x, same dtype.")
absolute = abs = _unary(math_ops.abs, "|x|, same dtype.")  # noqa: A001 - NumPy's name
sign = _unary(math_ops.sign, "-1, 0 or 1, same dtype.")
logical_not = _unary(math_ops.logical_not, "Logical not of bools.")


def floor(x):
    return math_extra_ops.floor(_float(x))


def ceil(x):
    return math_extra_ops.ceil(_float(x))


def matmul(x1, x2):
    """Matrix product with NumPy's result dtype."""
    return math_ops.matmul(*_promote(x1, x2))


def dot(a, b):
    """NumPy's ``dot``: products of scalars and vectors, matrix products, and for N-d
    arrays the sum over a's last axis and b's second-to-last."""
    a, b = _promote(a, b)
    ra, rb = a.shape.rank, b.shape.rank
    if ra == 0 or rb == 0:
        return math_ops.multiply(a, b)
    if ra <= 2 and rb <= 2:
        return linalg_ops.tensordot(a, b, [[ra - 1], [0]])
    return linalg_ops.tensordot(a, b, [[ra - 1], [rb - 2]])


def tensordot(a, b, axes=2):
    return linalg_ops.tensordot(*_promote(a, b), axes)


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    a, b = _promote(a, b)
    a, b = _float(a), _float(b)
    close = math_ops.less_equal(math_ops.abs(math_ops.subtract(a, b)),
                                math_ops.add(_asarray(atol, a.dtype),
                                             math_ops.multiply(_asarray(rtol, a.dtype),
                                                               math_ops.abs(b))))
    if equal_nan:
        close = math_ops.logical_or(close, math_ops.logical_and(math_extra_ops.is_nan(a),
                                                                math_extra_ops.is_nan(b)))
    return close


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    return reduction_ops.reduce_all(isclose(a, b, rtol, atol, equal_nan))


# -- reductions --------------------------------------------------------------------------------
def _axis(axis):
    return list(axis) if isinstance(axis, tuple) else axis


def _to_int64(t):
    """``sum``/``prod`` widen bools and ints narrower than 64 bits to int64, as NumPy does."""
    if t.dtype == _dt.bool or t.dtype.is_integer and t.dtype.size < 8:
        return math_ops.cast(t, _dt.int64)
    return t


def sum(a, axis=None, dtype=None, keepdims=False):  # noqa: A001 - NumPy's name
    t = _asarray(a, dtype) if dtype is not None else _to_int64(_asarray(a))
    return reduction_ops.reduce_sum(t, _axis(axis), keepdims=builtins.bool(keepdims))


def prod(a, axis=None, dtype=None, keepdims=False):
    t = _asarray(a, dtype) if dtype is not None else _to_int64(_asarray(a))
    return reduction_ops.reduce_prod(t, _axis(axis), keepdims=builtins.bool(keepdims))


def mean(a, axis=None, dtype=None, out=None, keepdims=False):
    if out is not None:
        raise ValueError("Setting out is not supported.")
    t = _asarray(a, dtype) if dtype is not None else _float(a)
    return reduction_ops.reduce_mean(t, _axis(axis), keepdims=builtins.bool(keepdims))


def amax(a, axis=None, keepdims=False):
    return reduction_ops.reduce_max(_asarray(a), _axis(axis), keepdims=builtins.bool(keepdims))


def amin(a, axis=None, keepdims=False):
    return reduction_ops.reduce_min(_asarray(a), _axis(axis), keepdims=builtins.bool(keepdims))


max = amax  # noqa: A001 - NumPy's name
min = amin  # noqa: A001 - NumPy's name


def var(a, axis=None, dtype=None, keepdims=False):
    t = _asarray(a, dtype) if dtype is not None else _float(a)
    return reduction_ops.reduce_variance(t, _axis(axis), keepdims=builtins.bool(keepdims))


def std(a, axis=None, keepdims=False):
    return reduction_ops.reduce_std(_float(a), _axis(axis), keepdims=builtins.bool(keepdims))


def all(a, axis=None, keepdims=False):  # noqa: A001 - NumPy's name
    t = math_ops.cast(_asarray(a), _dt.bool)
    return reduction_ops.reduce_all(t, _axis(axis), keepdims=builtins.bool(keepdims))


def any(a, axis=None, keepdims=False):  # noqa: A001 - NumPy's name
    t = math_ops.cast(_asarray(a), _dt.bool)
    return reduction_ops.reduce_any(t, _axis(axis), keepdims=builtins.bool(keepdims))


def argmax(a, axis=None):
    t = _asarray(a)
    if axis is None:
        t, axis = shape_ops.reshape(t, [-1]), 0
    return reduction_ops.argmax(t, axis)


def argmin(a, axis=None):
    t = _asarray(a)
    if axis is None:
        t, axis = shape_ops.reshape(t, [-1]), 0
    return reduction_ops.argmin(t, axis)


def cumsum(a, axis=None, dtype=None):
    t = _asarray(a, dtype) if dtype is not None else _to_int64(_asarray(a))
    if axis is None:
        t, axis = shape_ops.reshape(t, [-1]), 0
    return reduction_ops.cumsum(t, axis)


# -- more of NumPy's array functions -------------------------------------------------------------
def atleast_1d(*arys):
    return _atleast(arys, 1)


def atleast_2d(*arys):
    return _atleast(arys, 2)


def atleast_3d(*arys):
    return _atleast(arys, 3)


def _atleast(arys, n):
    out = []
    for a in arys:
        t = _asarray(a)
        rank = t.shape.rank
        if rank < n:  # NumPy: a scalar -> [[x]]; a row -> [row]; 3-d adds a last axis too
            new = [1] * (n - rank) + t.shape.as_list() if n < 3 or rank == 0 else (
                [1] + t.shape.as_list() + [1] if rank == 1 else t.shape.as_list() + [1])
            t = shape_ops.reshape(t, new)
        out.append(t)
    return out[0] if len(out) == 1 else out


def vstack(tup):
    return concatenate([atleast_2d(a) for a in tup], 0)


def hstack(tup):
    parts = [atleast_1d(a) for a in tup]
    return concatenate(parts, 0 if parts[0].shape.rank == 1 else 1)


def dstack(tup):
    return concatenate([atleast_3d(a) for a in tup], 2)


def append(arr, values, axis=None):
    if axis is None:
        return concatenate([ravel(arr), ravel(values)], 0)
    return concatenate([arr, values], axis)


def tile(A, reps):  # noqa: N803 - NumPy's name
    a = _asarray(A)
    reps = [int(r) for r in ([reps] if isinstance(reps, int | np.integer) else reps)]
    rank = a.shape.rank
    if len(reps) > rank:
        a = shape_ops.reshape(a, [1] * (len(reps) - rank) + a.shape.as_list())
    reps = [1] * (a.shape.rank - len(reps)) + reps
    return shape_ops.tile(a, reps)


def _axes_of(t, axis):
    if axis is None:
        return list(builtins.range(t.shape.rank))
    return [axis] if isinstance(axis, int | np.integer) else list(axis)


def flip(m, axis=None):
    t = _asarray(m)
    return shape_ops.reverse(t, _axes_of(t, axis))


def fliplr(m):
    return flip(m, 1)


def flipud(m):
    return flip(m, 0)


def roll(a, shift, axis=None):
    t = _asarray(a)
    if axis is None:
        return shape_ops.reshape(shape_ops.roll(ravel(t), shift, 0), shape_ops.shape(t))
    return shape_ops.roll(t, shift, axis)


def swapaxes(a, axis1, axis2):
    t = _asarray(a)
    perm = list(builtins.range(t.shape.rank))
    axis1, axis2 = axis1 % len(perm), axis2 % len(perm)
    perm[axis1], perm[axis2] = perm[axis2], perm[axis1]
    return shape_ops.transpose(t, perm)


def moveaxis(a, source, destination):
    t = _asarray(a)
    rank = t.shape.rank
    src = [s % rank for s in ([source] if isinstance(source, int) else source)]
    dst = [d % rank for d in ([destination] if isinstance(destination, int) else destination)]
    perm = [i for i in builtins.range(rank) if i not in src]
    for d, s in sorted(zip(dst, src)):
        perm.insert(d, s)
    return shape_ops.transpose(t, perm)


def sort(a, axis=-1, kind="quicksort", order=None):  # noqa: ARG001 - NumPy's signature
    t = _asarray(a)
    if axis is None:
        t, axis = ravel(t), 0
    from ..ops import sort_ops
    return sort_ops.sort(t, axis)


def argsort(a, axis=-1, kind="quicksort", order=None):  # noqa: ARG001 - NumPy's signature
    t = _asarray(a)
    if axis is None:
        t, axis = ravel(t), 0
    from ..ops import sort_ops
    return math_ops.cast(sort_ops.argsort(t, axis, stable=True), _dt.int64)


def take(a, indices, axis=None):
    t = _asarray(a)
    if axis is None:
        t, axis = ravel(t), 0
    return indexing_ops.gather(t, _asarray(indices), axis=axis)


def split(ary, indices_or_sections, axis=0):
    t = _asarray(ary)
    if isinstance(indices_or_sections, int | np.integer):
        return concat_ops.split(t, int(indices_or_sections), axis)
    n = t.shape.as_list()[axis]
    edges = [0, *[int(i) for i in indices_or_sections], n]
    return concat_ops.split(t, [b - a for a, b in zip(edges, edges[1:])], axis)


def outer(a, b):
    a, b = _promote(a, b)
    return math_ops.multiply(shape_ops.reshape(a, [-1, 1]), shape_ops.reshape(b, [1, -1]))


def inner(a, b):
    a, b = _promote(a, b)
    if a.shape.rank == 0 or b.shape.rank == 0:
        return math_ops.multiply(a, b)
    return linalg_ops.tensordot(a, b, [[a.shape.rank - 1], [b.shape.rank - 1]])


def einsum(subscripts, *operands, **kwargs):
    if kwargs:
        raise NotImplementedError(f"tnp.einsum's {sorted(kwargs)} arguments are not "
                                  "implemented in tfgraph_edu yet")
    return linalg_ops.einsum(subscripts, *_promote(*operands))


def count_nonzero(a, axis=None):
    return math_extra_ops.count_nonzero(_asarray(a), _axis(axis), dtype=_dt.int64)


def isnan(x):
    return math_extra_ops.is_nan(_float(x))


def _log_base(x, base):
    """ln(x) / ln(base), with ln(base) a float64 as in TF's tnp: a float32 ``x`` gives float64
    (the float32 logarithm divided in float64)."""
    t = math_ops.log(_float(x))
    if not t.dtype.is_complex:
        t = math_ops.cast(t, _dt.float64)
    return math_ops.truediv(t, _asarray(np.log(base), t.dtype))


def log2(x):
    return _log_base(x, 2.0)


def log10(x):
    return _log_base(x, 10.0)


def around(a, decimals=0):
    """Rounded half to even (as NumPy and TF); ``decimals`` digits kept."""
    t = _asarray(a)
    if not t.dtype.is_floating:
        return t
    if not decimals:
        return math_extra_ops.round(t)
    scale = _asarray(10.0 ** decimals, t.dtype)
    return math_ops.truediv(math_extra_ops.round(math_ops.multiply(t, scale)), scale)


round = around  # noqa: A001 - NumPy's name


def fabs(x):
    return math_ops.abs(_asarray(x))


def positive(x):
    return _asarray(x)


def logical_xor(x1, x2):
    return math_ops.logical_xor(*_promote(x1, x2))


def meshgrid(*xi, indexing="xy", **kwargs):
    if kwargs:
        raise NotImplementedError(f"tnp.meshgrid's {sorted(kwargs)} arguments are not "
                                  "implemented in tfgraph_edu yet")
    return list(shape_ops.meshgrid(*[_asarray(x) for x in xi], indexing=indexing))


def pad(array, pad_width, mode, constant_values=0):  # noqa: A002 - NumPy's name
    if mode != "constant":
        raise NotImplementedError(f"tnp.pad with mode={mode!r} is not implemented in "
                                  "tfgraph_edu yet (mode='constant' is)")
    from ..ops import pad_ops
    # TF's tnp takes pad_width as the [rank, 2] paddings only (not NumPy's short forms)
    widths = _asarray(pad_width, np.int32)
    if widths.shape.rank != 2 or widths.shape.as_list()[1] != 2:
        from ..errors import InvalidArgumentError
        raise InvalidArgumentError(None, None, "paddings must be a matrix with 2 columns: "
                                   f"{widths.shape.as_list()}; give tnp.pad one [before, "
                                   "after] pair per axis")
    return pad_ops.pad(_asarray(array), widths, constant_values=constant_values)


def average(a, axis=None, weights=None):
    if weights is None:
        return mean(a, axis)
    a, w = _promote(_float(a), weights)
    if axis is None:
        return math_ops.truediv(reduction_ops.reduce_sum(math_ops.multiply(a, w)),
                                reduction_ops.reduce_sum(w))
    if w.shape.rank == 1 and a.shape.rank > 1:  # weights along one axis
        shape = [1] * a.shape.rank
        shape[axis] = -1
        w = shape_ops.reshape(w, shape)
    return math_ops.truediv(reduction_ops.reduce_sum(math_ops.multiply(a, w), axis),
                            reduction_ops.reduce_sum(w * ones_like(a, w.dtype), axis))


def ptp(a, axis=None, keepdims=False):
    return math_ops.subtract(amax(a, axis, keepdims), amin(a, axis, keepdims))


def diff(a, n=1, axis=-1):
    t = _asarray(a)
    for _ in builtins.range(n):
        rank = t.shape.rank
        ax = axis % rank
        hi = tuple(builtins.slice(1, None) if i == ax else builtins.slice(None)
                   for i in builtins.range(rank))
        lo = tuple(builtins.slice(None, -1) if i == ax else builtins.slice(None)
                   for i in builtins.range(rank))
        t = math_ops.subtract(indexing_ops.getitem(t, hi), indexing_ops.getitem(t, lo))
    return t


def diag(v, k=0):
    if k:
        raise NotImplementedError("tnp.diag with k != 0 is not implemented in tfgraph_edu yet")
    t = _asarray(v)
    if t.shape.rank == 1:
        return linalg_ops.matrix_diag(t)
    if t.shape.rank == 2:
        rows, cols = t.shape.as_list()
        if rows != cols:
            t = indexing_ops.getitem(t, (builtins.slice(0, builtins.min(rows, cols)),
                                         builtins.slice(0, builtins.min(rows, cols))))
        return linalg_ops.matrix_diag_part(t)
    raise ValueError("Input must be 1- or 2-d.")


def trace(a):
    return reduction_ops.reduce_sum(diag(a))


def nonzero(a):
    """The indices of the non-zero elements, one int64 vector per axis."""
    t = _asarray(a)
    found = indexing_ops.where(math_ops.not_equal(t, zeros_like(t)))
    return tuple(indexing_ops.getitem(found, (builtins.slice(None), i))
                 for i in builtins.range(t.shape.rank))


def isscalar(num):
    return np.isscalar(num) or convert.is_tf_type(num) and _asarray(num).shape.rank == 0


def iscomplexobj(x):
    return _asarray(x).dtype.is_complex


def isrealobj(x):
    return not iscomplexobj(x)


# -- the NumPy methods tensors get once NumPy behaviour is on ----------------------------------
def _m_reshape(self, *args, order="C"):
    newshape = args[0] if len(args) == 1 else list(args)
    return reshape(self, newshape, order=order)


def _m_astype(self, dtype):
    return math_ops.cast(self, _dt.as_dtype(dtype))


def _m_tolist(self):
    value = getattr(self, "_value", None)
    if value is None:
        raise ValueError("Symbolic Tensors do not support the tolist API.")
    return np.asarray(value).tolist()


def _m_size(self):
    n = self.shape.num_elements()
    if n is None:
        return reduction_ops.reduce_prod(math_ops.cast(shape_ops.shape(self), _dt.int64))
    return np.int64(n)


_METHODS = {
    "T": property(lambda self: transpose(self)),
    "astype": _m_astype,
    "clip": lambda self, a_min, a_max: clip(self, a_min, a_max),
    "ravel": lambda self: ravel(self),
    "reshape": _m_reshape,
    "tolist": _m_tolist,
    "size": property(_m_size),
    "transpose": lambda self, axes=None: transpose(self, axes),
    "max": lambda self, axis=None, keepdims=False: amax(self, axis, keepdims),
    "min": lambda self, axis=None, keepdims=False: amin(self, axis, keepdims),
    "mean": lambda self, axis=None, dtype=None, out=None, keepdims=False:
        mean(self, axis, dtype, out, keepdims),
    "flatten": lambda self: ravel(self),
}

__getattr__ = _module_getattr("experimental.numpy", __name__)
