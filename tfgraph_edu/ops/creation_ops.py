"""New tensors from a shape or a recipe: Fill (``tf.fill``, ``tf.zeros``, ``tf.ones``),
ZerosLike, OnesLike, Range, OneHot (layer 1)."""

from __future__ import annotations

import builtins
import os

import numpy as np

from .. import dtypes as _dt
from ..errors import InvalidArgumentError, OpError, ResourceExhaustedError
from ..shapes import TensorShape
from . import (
    concat_ops,
    convert,
    math_ops,
    reduction_ops,
    shape_ops,
)
from ._core import bind, constant_value, define, interpreter, shape_error, type_name
from ._rules import (
    attr_not_allowed,
    fmt,
    ints,
    known_ints,
    no_cpu_kernel,
    param_not_allowed,
    partial_ints,
    same,
)

I32 = _dt.int32


# -- Fill, zeros, ones ----------------------------------------------------------------------------
def _fill_shape(dims, value):
    want = partial_ints(dims)
    if value.shape.rank not in (None, 0):
        raise shape_error(f"value must be a scalar, got shape {fmt(value.shape)}")
    if want is None:
        return TensorShape(None), value.dtype
    if any(d is not None and d < 0 for d in want):
        raise shape_error("Fill dimensions must be >= 0")
    return TensorShape(want), value.dtype


def _shape_text(dims) -> str:
    return "[" + ",".join(str(d) for d in dims) + "]"


_MAX_ELEMENTS = 2 ** 63 - 1
_INT32_MAX = 2 ** 31 - 1


def _memory_bytes() -> float:
    """The machine's memory: a tensor larger than this cannot be allocated (TF's allocator
    reports it as ResourceExhaustedError; numpy might start and get the process killed)."""
    try:
        return float(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES"))
    except (AttributeError, ValueError, OSError):
        return float("inf")


_MEMORY = _memory_bytes()


def _too_big(dims, np_dtype) -> bool:
    n = 1
    for d in dims:
        n *= d
    return n > _MAX_ELEMENTS or n * np.dtype(np_dtype).itemsize > _MEMORY


def full(dims, value, np_dtype):
    """``np.full`` with TensorFlow's errors (the Fill kernel's): a negative dimension or more
    than 2**63 - 1 elements is InvalidArgumentError, more than memory holds is
    ResourceExhaustedError - never numpy's own ValueError or MemoryError."""
    n = 1
    for d in dims:
        if d < 0:
            raise InvalidArgumentError(None, None, f"Dimension {d} must be >= 0")
        n *= d
    if n > _MAX_ELEMENTS:
        raise InvalidArgumentError(None, None, f"Shape {_shape_text(dims)} would have more "
                                   "than 2**63 - 1 elements")
    dtype = np.dtype(np_dtype)
    if n * dtype.itemsize <= _MEMORY:
        try:
            return np.full(dims, value, dtype=dtype)
        except (MemoryError, ValueError):
            pass
    tf_dtype = _dt.NP_TO_DTYPE.get(dtype)
    raise ResourceExhaustedError(
        None, None, f"OOM when allocating tensor with shape{_shape_text(dims)} and type "
        f"{type_name(tf_dtype) if tf_dtype is not None else dtype} on "
        "/job:localhost/replica:0/task:0/device:CPU:0 by allocator cpu")


def _fill_kernel(dims, value):
    dims, value = np.asarray(dims), np.asarray(value)
    if dims.ndim != 1:
        raise InvalidArgumentError(None, None, "dims must represent a vector, got shape "
                                   f"{_shape_text(dims.shape)}")
    if value.ndim != 0:
        raise InvalidArgumentError(None, None, "value must represent a scalar, got shape "
                                   f"{_shape_text(value.shape)}")
    return full(ints(dims), value, value.dtype)


Fill = define("Fill", ("dims", "value"), _fill_kernel,
              _fill_shape, lambda op, g: (None, reduction_ops.reduce_sum(g)),
              input_dtypes={0: I32})
ZerosLike = define("ZerosLike", ("x",), np.zeros_like, same, lambda op, g: (None,), T=(0,))
OnesLike = define("OnesLike", ("x",), np.ones_like, same, lambda op, g: (None,), T=(0,))


def fill(dims, value, name=None):
    """A tensor of shape ``dims`` filled with the scalar ``value`` (op ``Fill``)."""
    return bind(Fill, (dims, value), None, name)


def _static_shape(shape_arg):
    if convert.is_tensor(shape_arg):
        v = constant_value(shape_arg)
        return None if v is None else ints(v)
    if isinstance(shape_arg, TensorShape):
        return tuple(shape_arg.as_list())
    if isinstance(shape_arg, (int, np.integer)):
        return (int(shape_arg),)
    try:
        return tuple(int(d) for d in shape_arg)
    except TypeError:
        return None


def _filled(shape_arg, dtype, value, name):
    dtype = _dt.as_dtype(dtype)
    dims = _static_shape(shape_arg)
    if dims is not None and not convert.is_tensor(shape_arg) and not any(
            convert.is_tensor(d) for d in np.ravel(np.asarray(shape_arg, dtype=object))):
        if not (any(d < 0 for d in dims) or _too_big(dims, dtype.np_dtype)):
            return convert.constant(np.full(dims, value, dtype=dtype.np_dtype), dtype, name=name)
        if interpreter().executing_eagerly or builtins.max(dims) > _INT32_MAX:
            try:  # raises the Fill kernel's error, as TF's eager zeros/ones do
                full(dims, value, dtype.np_dtype)
            except OpError as e:
                raise type(e)(None, None, f"{e.message} [Op:Fill] name: ") from None
        # in a graph: a Fill node, whose shape rule (or kernel, when run) raises TF's error
    value = convert.constant(np.asarray(value).astype(dtype.np_dtype) if dtype.is_bool else value,
                             dtype, name=f"{name}/Const" if name else "Const")
    return fill(pack_shape(shape_arg), value, name=name)


def pack_shape(shape_arg):
    """A shape given as a tensor or as a list that may contain scalar tensors."""
    if convert.is_tensor(shape_arg):
        return shape_arg
    if convert.holds_graph_tensor(shape_arg):  # TF's list packing to int32 (its dtype rule)
        return convert.to_tensor(list(shape_arg), I32)
    if any(convert.is_tensor(d) for d in shape_arg):
        return concat_ops.stack([cast_int32(d) for d in shape_arg])
    return convert.constant(list(shape_arg), I32)


def cast_int32(d):
    return math_ops.cast(d, I32) if convert.is_tensor(d) else d


def zeros(shape, dtype=_dt.float32, name="zeros"):
    """A tensor of zeros: a ``Const`` for a static shape, ``Fill`` otherwise (as TF does)."""
    return _filled(shape, dtype, 0, name)


def ones(shape, dtype=_dt.float32, name="ones"):
    """A tensor of ones (``Const`` or ``Fill``)."""
    return _filled(shape, dtype, 1, name)


def zeros_like(input, dtype=None, name=None):  # noqa: A002
    """Zeros with the shape (and dtype) of ``input`` (op ``ZerosLike``)."""
    x = convert.to_tensor(input)
    if _static_shape_in_graph(x):  # TF traces a known shape as zeros(shape): a small Const
        return zeros(x.shape.as_list(), dtype or x.dtype, name=name or "zeros_like")
    if dtype is not None and _dt.as_dtype(dtype) is not x.dtype:
        return zeros(shape_ops.shape(x), dtype, name=name or "zeros_like")
    return bind(ZerosLike, (x,), None, name or "zeros_like")


def _static_shape_in_graph(x) -> bool:
    """While tracing, TF's ``zeros_like``/``ones_like`` of a tensor whose shape is fully
    known and small (under 1000 elements) build a ``Const`` instead of the ``*Like`` op."""
    return (not interpreter().executing_eagerly and x.shape.is_fully_defined()
            and x.dtype.name != "variant" and int(np.prod(x.shape.as_list())) < 1000)


def ones_like(input, dtype=None, name=None):  # noqa: A002
    """Ones with the shape (and dtype) of ``input`` (op ``OnesLike``)."""
    x = convert.to_tensor(input)
    if _static_shape_in_graph(x):
        return ones(x.shape.as_list(), dtype or x.dtype, name=name or "ones_like")
    if dtype is not None and _dt.as_dtype(dtype) is not x.dtype:
        return ones(shape_ops.shape(x), dtype, name=name or "ones_like")
    return bind(OnesLike, (x,), None, name or "ones_like")


# -- Range ----------------------------------------------------------------------------------------
def _range_direction_error(s, lim, d):
    """TF's Range refuses a step that leads away from the limit (it gives no empty range)."""
    if d > 0 and s > lim:
        return f"Requires start <= limit when delta > 0: {s:g}/{lim:g}"
    if d < 0 and s < lim:
        return f"Requires start >= limit when delta < 0: {s:g}/{lim:g}"
    return None


# TF 2.21's CPU kernels of Range; its OpDef also allows these, which find no kernel
RANGE_KERNELS = (_dt.int64, _dt.int32, _dt.float64, _dt.float32, _dt.float16)
_RANGE_NO_KERNEL = frozenset({_dt.int8, _dt.int16, _dt.uint16, _dt.uint32, _dt.uint64})
_RANGE_NP = frozenset(d.np_dtype for d in RANGE_KERNELS)


def _range_kernel(start, limit, delta, Tidx=None):
    if np.asarray(start).dtype not in _RANGE_NP:
        raise no_cpu_kernel("Range", np.asarray(start).dtype, RANGE_KERNELS, "Tidx")
    if delta == 0:
        raise InvalidArgumentError(None, None, "Requires delta != 0: 0")
    wrong_way = _range_direction_error(start, limit, delta)
    if wrong_way:
        raise InvalidArgumentError(None, None, wrong_way)
    return np.arange(start, limit, delta, dtype=np.asarray(start).dtype)


def _range_shape(start, limit, delta, Tidx=None):
    vals = [constant_value(t) for t in (start, limit, delta)]
    if any(v is None for v in vals):
        return TensorShape([None]), start.dtype
    s, lim, d = (v.item() for v in vals)
    if d == 0:
        raise shape_error("Requires delta != 0: 0")
    if _range_direction_error(s, lim, d):
        raise shape_error(_range_direction_error(s, lim, d))
    n = builtins.max(0, int(np.ceil((lim - s) / d)))
    return TensorShape([n]), start.dtype


Range = define("Range", ("start", "limit", "delta"), _range_kernel, _range_shape, None,
               T=(0, 1, 2), dtypes=frozenset(RANGE_KERNELS) | _RANGE_NO_KERNEL)


# the dtypes TF 2.21's Range OpDef lists (bfloat16 aside), in its order
_RANGE_OPDEF = (_dt.float16, _dt.float32, _dt.float64, _dt.int8, _dt.int16, _dt.int32, _dt.int64,
                _dt.uint16, _dt.uint32, _dt.uint64)


def range_(start, limit=None, delta=1, dtype=None, name="range"):
    """``tf.range``: a 1-D tensor from ``start`` up to ``limit`` by ``delta`` (op ``Range``)."""
    if limit is None:
        start, limit = 0, start
    vals = (start, limit, delta)
    if dtype is None:
        dts = [v.dtype if convert.is_tensor(v) else convert.to_numpy(v).dtype for v in vals]
        order = [np.dtype(np.int32), np.dtype(np.int64), np.dtype(np.float32),
                 np.dtype(np.float64)]
        nps = [np.dtype(getattr(d, "np_dtype", d)) for d in dts]
        if any(d not in order for d in nps):
            raise AssertionError()  # TF's tf.range asserts its inferred dtypes so, wordless
        best = builtins.max((order.index(d) for d in nps), default=0)
        dtype = _dt.NP_TO_DTYPE[order[best]]
    dtype = _dt.as_dtype(dtype)
    if dtype not in Range.dtypes:
        if interpreter().executing_eagerly:
            raise attr_not_allowed("Range", "Tidx", dtype, _RANGE_OPDEF)
        raise param_not_allowed("start", dtype, _RANGE_OPDEF)
    interp = interpreter()
    graph = None if interp.executing_eagerly else getattr(interp, "graph", None)
    if graph is None:
        vals = tuple(math_ops.cast(v, dtype) if convert.is_tensor(v)
                     else convert.constant(v, dtype) for v in vals)
        return bind(Range, vals, {"Tidx": dtype}, name)
    scope = graph.unique_name(name or "range", mark_as_used=False)
    with graph.name_scope(scope + "/"):  # TF's range/start, range/limit, range/delta
        vals = tuple(math_ops.cast(v, dtype) if convert.is_tensor(v)
                     else convert.constant(v, dtype, name=part)
                     for v, part in zip(vals, ("start", "limit", "delta")))
    return bind(Range, vals, {"Tidx": dtype}, name or "range")


# -- OneHot ---------------------------------------------------------------------------------------
def _one_hot_kernel(indices, depth, on, off, axis=-1):
    d = int(np.ravel(depth)[0])
    hot = np.arange(d) == np.expand_dims(indices, -1)
    out = np.where(hot, on, off).astype(np.asarray(on).dtype)
    return np.moveaxis(out, -1, axis) if axis != -1 else out


def _one_hot_shape(indices, depth, on, off, axis=-1):
    d = known_ints(depth)
    s = indices.shape
    if s.rank is None:
        return TensorShape(None), on.dtype
    dims = list(s.dims)
    dims.insert(len(dims) if axis == -1 else axis, None if d is None else d[0])
    return TensorShape(dims), on.dtype


OneHot = define("OneHot", ("indices", "depth", "on_value", "off_value"), _one_hot_kernel,
                _one_hot_shape, lambda op, g: (None, None, None, None), T=(2, 3),
                input_dtypes={1: I32})


_ONE_HOT_INDICES = (_dt.uint8, _dt.int8, _dt.int32, _dt.int64)  # TF 2.21's OneHot TI


def one_hot(indices, depth, on_value=None, off_value=None, axis=None, dtype=None, name=None):
    """One-hot vectors of length ``depth`` (op ``OneHot``).  The dtype is TF's: ``dtype``, else
    ``on_value``'s, else ``off_value``'s (so ``on_value=5`` gives int32, strings a string
    tensor), else float32; values of another dtype than ``dtype`` or each other are TF's
    TypeError."""
    want = _dt.as_dtype(dtype) if dtype is not None else None

    def given(v):
        if convert.is_tensor(v):
            return v
        if want is not None:
            try:  # dtype is only a hint: 1.5 with dtype=int32 stays float32, and fails below
                return convert.to_tensor(v, want)
            except (TypeError, ValueError):
                pass
        return convert.to_tensor(v)

    on = None if on_value is None else given(on_value)
    off = None if off_value is None else given(off_value)
    for value, what in ((on, "on_value"), (off, "off_value")):
        if value is not None and want is not None and value.dtype != want:
            raise TypeError(f"dtype {value.dtype} of {what} does not match dtype parameter "
                            f"{want}")
    if want is None:
        want = on.dtype if on is not None else off.dtype if off is not None else _dt.float32
    if on is not None and off is not None and on.dtype != off.dtype:
        raise TypeError(f"dtype {on.dtype} of on_value does not match dtype {off.dtype} of "
                        "off_value")
    on = convert.to_tensor(1, want) if on is None else on
    off = convert.to_tensor(0, want) if off is None else off
    if convert.is_tensor(indices) and indices.dtype not in _ONE_HOT_INDICES:
        if interpreter().executing_eagerly:
            raise attr_not_allowed("OneHot", "TI", indices.dtype, _ONE_HOT_INDICES)
        raise param_not_allowed("indices", indices.dtype, _ONE_HOT_INDICES)
    return bind(OneHot, (indices, depth, on, off), {"axis": -1 if axis is None else int(axis)},
                name)

