"""Reductions: sum, mean, prod, max, min, all, any, argmax/argmin, cumsum (layer 1).

As in TensorFlow the axes are an int32 input (``reduction_indices``) and
``keep_dims`` is an attribute; ``axis=None`` reduces over every dimension.
"""

from __future__ import annotations

import numpy as np

from .. import dtypes as _dt
from ..shapes import TensorShape
from . import convert, creation_ops, identity_ops, math_ops, shape_ops
from ._core import (
    bind,
    const_input,
    constant_value,
    define,
    interpreter,
    shape_error,
    using_interpreter,
)

I32 = _dt.int32
N = _dt.NUMERIC
_B = frozenset({_dt.bool})


def _axes(ndim: int, axes) -> tuple[int, ...]:
    out = []
    for a in np.ravel(axes):
        a = int(a)
        if not -ndim <= a < max(ndim, 1):
            raise shape_error(f"Invalid reduction dimension {a} for input with {ndim} dimensions.")
        out.append(a % ndim if ndim else 0)
    return tuple(sorted(set(out)))


def _reduce_shape(x, axes, keep_dims=False):
    a = constant_value(axes)
    s = x.shape
    if s.rank is None:
        return TensorShape(None), x.dtype
    if a is None:
        return TensorShape([None] * s.rank if keep_dims else None), x.dtype
    ax = _axes(s.rank, a)
    if keep_dims:
        return TensorShape([1 if i in ax else d for i, d in enumerate(s.dims)]), x.dtype
    return TensorShape([d for i, d in enumerate(s.dims) if i not in ax]), x.dtype


def _kernel(fn, errstate=False):
    def kernel(x, axes, keep_dims=False):
        nd = np.ndim(x)
        ax = tuple(axes.tolist()) if np.ndim(axes) else (int(axes),)
        if nd == 0 or not all(0 <= a < nd for a in ax):
            ax = _axes(nd, axes)  # negative axes, and the error for bad ones
            if nd == 0:
                return x
        if errstate:
            with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
                out = fn(x, axis=ax, keepdims=keep_dims)
        else:
            out = fn(x, axis=ax, keepdims=keep_dims)
        return out if x.dtype.kind == "b" or out.dtype == x.dtype else out.astype(x.dtype)
    kernel.__name__ = fn.__name__
    return kernel


def _mean(x, axis, keepdims):
    if x.dtype.kind in "iu":  # TF's integer mean truncates toward zero
        total = np.sum(x, axis=axis, keepdims=keepdims, dtype=np.int64)
        count = int(np.prod([x.shape[a] for a in axis])) if axis else 1
        return (np.trunc(total / max(count, 1))).astype(x.dtype)
    if x.size == 0:  # 0/0: NaN, as in TF (np.mean would also warn)
        return np.sum(x, axis=axis, keepdims=keepdims) / x.dtype.type(0)
    return np.mean(x, axis=axis, keepdims=keepdims)


def _identity_of(np_fn, dtype):
    """What TF's Max/Min give over no elements: the lowest (highest) value of the dtype."""
    if dtype.kind == "f":
        return -np.inf if np_fn is np.max else np.inf
    info = np.iinfo(dtype)
    return info.min if np_fn is np.max else info.max


def _extreme(np_fn):
    """``np.max``/``np.min`` that, like TF, reduce empty axes to the dtype's identity."""
    def fn(x, axis, keepdims):
        if x.size == 0:
            return np_fn(x, axis=axis, keepdims=keepdims, initial=_identity_of(np_fn, x.dtype))
        return np_fn(x, axis=axis, keepdims=keepdims)
    fn.__name__ = np_fn.__name__
    return fn


_max, _min = _extreme(np.max), _extreme(np.min)


def _kept_shape(x, axes):
    """shape(x) with the reduced axes set to 1 (the shape to reshape a gradient to)."""
    s = x.shape
    a = constant_value(axes)
    if s.is_fully_defined() and a is not None:
        ax = _axes(s.rank, a)
        return [1 if i in ax else d for i, d in enumerate(s.dims)]
    r = shape_ops.rank(x)
    ax = math_ops.floormod(math_ops.add(axes, r), r)
    ones = creation_ops.ones_like(ax)
    return bind(DynamicStitch, (creation_ops.range_(r), ax, shape_ops.shape(x), ones),
                {"N": 2})


def _broadcast_back(op, g):
    x, axes = op.inputs
    kept = _kept_shape(x, axes)
    return shape_ops.broadcast_to(shape_ops.reshape(g, kept), shape_ops.shape(x))


def _tiled_back(op, g):
    """TF 2.21's Sum gradient in a graph when the input's shape is known and the axes are
    constant: the gradient reshaped to the kept dimensions and tiled (a Const of the input's
    shape when every axis is reduced, else the tile multiples); None otherwise."""
    x, axes = op.inputs
    dims = x.shape.as_list() if x.shape.rank is not None else None
    a = constant_value(axes)
    if interpreter().executing_eagerly or dims is None or a is None:
        return None
    rank = len(dims)
    if np.array_equal(np.ravel(a), np.arange(rank)):  # every axis: TF's fast path
        g = shape_ops.reshape(g, [1] * rank)
        multiples = (convert.constant(np.array(dims, np.int32)) if None not in dims
                     else shape_ops.shape(x))
        return shape_ops.tile(g, multiples)
    if None in dims:
        return None
    kept = _kept_shape(x, axes)
    scaling = [d // max(k, 1) for d, k in zip(dims, kept)]
    return shape_ops.tile(shape_ops.reshape(g, kept), scaling)


def _sum_grad(op, g):
    tiled = _tiled_back(op, g)
    return (_broadcast_back(op, g) if tiled is None else tiled), None


def _mean_grad(op, g):
    x = op.inputs[0]
    out = op.outputs[0]
    tiled = _tiled_back(op, g)
    if tiled is not None and x.shape.is_fully_defined() and out.shape.is_fully_defined():
        # as TF 2.21 in a graph: the count of averaged elements as a constant of g's dtype
        factor = x.shape.num_elements() // max(out.shape.num_elements(), 1)
        return math_ops.truediv(tiled, convert.constant(factor, dtype=g.dtype)), None
    count = math_ops.truediv(math_ops.cast(shape_ops.size(x), _dt.float64),
                             math_ops.cast(shape_ops.size(out), _dt.float64))
    back = _broadcast_back(op, g) if tiled is None else tiled
    return math_ops.divide(back, math_ops.cast(count, g.dtype)), None


def _minmax_grad(op, g):
    x, axes = op.inputs
    kept = _kept_shape(x, axes)
    y = shape_ops.reshape(op.outputs[0], kept)
    hits = math_ops.cast(math_ops.equal(x, y), g.dtype)
    count = shape_ops.reshape(reduce_sum(hits, axes, keepdims=True), shape_ops.shape(y))
    share = math_ops.divide(shape_ops.reshape(g, kept), count)
    return math_ops.multiply(hits, share), None


def _prod_grad(op, g):
    x, axes = op.inputs
    kept = _kept_shape(x, axes)
    y = shape_ops.reshape(op.outputs[0], kept)
    return math_ops.multiply(math_ops.divide(y, x), shape_ops.reshape(g, kept)), None


def _reduce_special(fn):
    """A kernel with the axes resolved, for float inputs of known rank and constant axes."""
    def special(op):
        axes = const_input(op, 1)
        x = op.inputs[0]
        if axes is None or x.shape.rank in (None, 0) or not x.dtype.is_floating:
            return None
        ax = _axes(x.shape.rank, axes)
        keep = bool(op.attrs.get("keep_dims", False))
        return (lambda v: fn(v, axis=ax, keepdims=keep)), (0,)
    return special


def _mean_special(op):
    """Mean of a float input of known shape: the sum divided by the count, exactly as
    ``np.mean`` computes it, without its per-call argument handling."""
    axes = const_input(op, 1)
    x = op.inputs[0]
    if axes is None or not x.dtype.is_floating or not x.shape.is_fully_defined() or \
            x.shape.rank == 0:
        return None
    ax = _axes(x.shape.rank, axes)
    count = int(np.prod([x.shape.dims[a] for a in ax]))
    if count == 0:
        return None  # the general kernel: 0/0 is NaN, as in TF
    keep = bool(op.attrs.get("keep_dims", False))
    add = np.add.reduce
    # the count in the input's dtype: numpy 1.x turns float32 scalar / int into float64
    count = x.dtype.as_numpy_dtype(count)
    return (lambda v: add(v, axis=ax, keepdims=keep) / count), (0,)


_IN = {1: I32}
Sum = define("Sum", ("input", "reduction_indices"), _kernel(np.sum), _reduce_shape, _sum_grad,
             T=(0,), dtypes=N, input_dtypes=_IN, specialize=_reduce_special(np.add.reduce))
Mean = define("Mean", ("input", "reduction_indices"), _kernel(_mean, errstate=True),
              _reduce_shape, _mean_grad,
              T=(0,), dtypes=N, input_dtypes=_IN, specialize=lambda op: _mean_special(op))
Prod = define("Prod", ("input", "reduction_indices"), _kernel(np.prod), _reduce_shape,
              _prod_grad, T=(0,), dtypes=N, input_dtypes=_IN)
Max = define("Max", ("input", "reduction_indices"), _kernel(_max), _reduce_shape, _minmax_grad,
             T=(0,), dtypes=N, input_dtypes=_IN, specialize=_reduce_special(_max))
Min = define("Min", ("input", "reduction_indices"), _kernel(_min), _reduce_shape, _minmax_grad,
             T=(0,), dtypes=N, input_dtypes=_IN, specialize=_reduce_special(_min))
All = define("All", ("input", "reduction_indices"), _kernel(np.all), _reduce_shape, None,
             T=(0,), dtypes=_B, input_dtypes=_IN)
Any = define("Any", ("input", "reduction_indices"), _kernel(np.any), _reduce_shape, None,
             T=(0,), dtypes=_B, input_dtypes=_IN)


def _stitch_kernel(*args, N=2):
    idx, data = args[:N], args[N:]
    n = max((int(np.max(i)) + 1 for i in idx if np.size(i)), default=0)
    out = np.zeros(n, dtype=np.asarray(data[0]).dtype)
    for i, d in zip(idx, data):
        out[np.ravel(i)] = np.ravel(d)
    return out


def _stitch_shape(*args, N=2):
    idx = [constant_value(i) for i in args[:N]]
    if any(i is None for i in idx):
        return TensorShape([None]), args[N].dtype
    return TensorShape([max((int(np.max(i)) + 1 for i in idx if np.size(i)), default=0)]), \
        args[N].dtype


DynamicStitch = define("DynamicStitch", ("indices*",), _stitch_kernel, _stitch_shape, None,
                       doc="Interleaves 1-D data by indices; N index lists then N data lists.")


_ALL_AXES: dict[int, object] = {}  # eager int32 tensors [0, 1, ..., r-1], made once per rank


def _reduce(opdef, input_tensor, axis, keepdims, name):
    x = convert.to_tensor(input_tensor)
    if axis is None:
        r = x.ndim
        if r is None:
            axis = creation_ops.range_(shape_ops.rank(x))
        elif interpreter().executing_eagerly:
            axis = _ALL_AXES.get(r)
            if axis is None:
                with using_interpreter(None):
                    axis = _ALL_AXES[r] = convert.constant(np.arange(r, dtype=np.int32))
        else:  # as TF: a constant of its own, named Const, outside the op's scope
            axis = convert.constant(np.arange(r, dtype=np.int32))
    return bind(opdef, (x, axis), {"keep_dims": bool(keepdims)}, name)


def reduce_sum(input_tensor, axis=None, keepdims=False, name=None):
    """Sum over ``axis`` (all axes if None) (op ``Sum``)."""
    return _reduce(Sum, input_tensor, axis, keepdims, name)


def reduce_mean(input_tensor, axis=None, keepdims=False, name=None):
    """Mean over ``axis``; integer means truncate, as in TF (op ``Mean``)."""
    return _reduce(Mean, input_tensor, axis, keepdims, name)


def reduce_prod(input_tensor, axis=None, keepdims=False, name=None):
    """Product over ``axis`` (op ``Prod``)."""
    return _reduce(Prod, input_tensor, axis, keepdims, name)


def reduce_max(input_tensor, axis=None, keepdims=False, name=None):
    """Maximum over ``axis`` (op ``Max``)."""
    return _reduce(Max, input_tensor, axis, keepdims, name)


def reduce_min(input_tensor, axis=None, keepdims=False, name=None):
    """Minimum over ``axis`` (op ``Min``)."""
    return _reduce(Min, input_tensor, axis, keepdims, name)


def reduce_all(input_tensor, axis=None, keepdims=False, name=None):
    """Logical AND over ``axis`` of a bool tensor (op ``All``)."""
    return _reduce(All, input_tensor, axis, keepdims, name)


def reduce_any(input_tensor, axis=None, keepdims=False, name=None):
    """Logical OR over ``axis`` of a bool tensor (op ``Any``)."""
    return _reduce(Any, input_tensor, axis, keepdims, name)


def reduce_variance(input_tensor, axis=None, keepdims=False, name=None):
    """Population variance, built from ``Mean``, ``Sub`` and ``Square``."""
    x = convert.to_tensor(input_tensor)
    if x.dtype.is_integer:  # TF refuses rather than give an integer (truncated) variance
        raise TypeError("Input must be either real or complex. Received integer type "
                        f"<dtype: '{x.dtype.name}'>. Cast it first: tf.cast(x, tf.float32).")
    mean = reduce_mean(x, axis, keepdims=True)
    return reduce_mean(math_ops.square(math_ops.subtract(x, mean)), axis, keepdims, name=name)


def reduce_std(input_tensor, axis=None, keepdims=False, name=None):
    """Population standard deviation: ``sqrt(reduce_variance(...))``."""
    return math_ops.sqrt(reduce_variance(input_tensor, axis, keepdims), name=name)


def reduce_logsumexp(input_tensor, axis=None, keepdims=False, name=None):
    """log(sum(exp(x))) computed stably (max subtracted first)."""
    x = convert.to_tensor(input_tensor)
    m = stop_max = identity_ops.stop_gradient(reduce_max(x, axis, keepdims=True))
    s = reduce_sum(math_ops.exp(math_ops.subtract(x, m)), axis, keepdims=True)
    out = math_ops.add(math_ops.log(s), stop_max)
    if not keepdims:
        out = shape_ops.squeeze(out, axis if isinstance(axis, (list, tuple)) else
                                (None if axis is None else [axis]))
    return identity_ops.identity(out, name=name) if name else out


def _arg_kernel(fn):
    def kernel(x, dim, output_type=_dt.int64):
        a = int(np.ravel(dim)[0])
        return fn(x, axis=a).astype(output_type.np_dtype)
    return kernel


def _arg_shape(x, dim, output_type=_dt.int64):
    a = constant_value(dim)
    s = x.shape
    if s.rank is None or a is None:
        return TensorShape(None if s.rank is None else [None] * (s.rank - 1)), output_type
    ax = _axes(s.rank, a)[0]
    return TensorShape([d for i, d in enumerate(s.dims) if i != ax]), output_type


ArgMax = define("ArgMax", ("input", "dimension"), _arg_kernel(np.argmax), _arg_shape,
                lambda op, g: (None, None), T=(0,), dtypes=N, input_dtypes=_IN)
ArgMin = define("ArgMin", ("input", "dimension"), _arg_kernel(np.argmin), _arg_shape,
                lambda op, g: (None, None), T=(0,), dtypes=N, input_dtypes=_IN)


def argmax(input, axis=None, output_type=_dt.int64, name=None):  # noqa: A002
    """Index of the largest value along ``axis`` (default 0) (op ``ArgMax``)."""
    return bind(ArgMax, (input, 0 if axis is None else axis),
                {"output_type": _dt.as_dtype(output_type)}, name)


def argmin(input, axis=None, output_type=_dt.int64, name=None):  # noqa: A002
    """Index of the smallest value along ``axis`` (default 0) (op ``ArgMin``)."""
    return bind(ArgMin, (input, 0 if axis is None else axis),
                {"output_type": _dt.as_dtype(output_type)}, name)


def _cumsum_kernel(x, axis, exclusive=False, reverse=False):
    a = int(np.ravel(axis)[0])
    if reverse:
        x = np.flip(x, a)
    out = np.cumsum(x, axis=a, dtype=x.dtype)
    if exclusive:
        out = out - x
    return np.flip(out, a).copy() if reverse else out


def _cumsum_grad(op, g):
    return (bind(Cumsum, (g, op.inputs[1]), {"exclusive": op.get_attr("exclusive"),
                                             "reverse": not op.get_attr("reverse")}), None)


Cumsum = define("Cumsum", ("x", "axis"), _cumsum_kernel,
                lambda x, axis, exclusive=False, reverse=False: (x.shape, x.dtype),
                _cumsum_grad, T=(0,), dtypes=N, input_dtypes=_IN)


def cumsum(x, axis=0, exclusive=False, reverse=False, name=None):
    """Cumulative sum along ``axis`` (op ``Cumsum``)."""
    return bind(Cumsum, (x, axis), {"exclusive": bool(exclusive), "reverse": bool(reverse)}, name)


def _cumprod_kernel(x, axis, exclusive=False, reverse=False):
    a = int(np.ravel(axis)[0])
    if reverse:
        x = np.flip(x, a)
    out = np.cumprod(x, axis=a, dtype=x.dtype)
    if exclusive:  # the product of the entries before each one: shifted by one, 1 first
        out = np.concatenate([np.ones_like(np.take(out, [0], axis=a)),
                              np.take(out, range(out.shape[a] - 1), axis=a)], axis=a)
    return np.flip(out, a).copy() if reverse else out


def _cumprod_grad(op, g):
    """TF's rule: the reversed cumulative sum of ``g * cumprod(x)``, over ``x`` (so zeros in
    ``x`` give inf/nan, as in TF)."""
    x, axis = op.inputs
    exclusive, reverse = op.get_attr("exclusive"), op.get_attr("reverse")
    prod = bind(Cumprod, (x, axis), {"exclusive": exclusive, "reverse": reverse})
    out = bind(Cumsum, (math_ops.multiply(prod, g), axis),
               {"exclusive": exclusive, "reverse": not reverse})
    return math_ops.divide(out, x), None


Cumprod = define("Cumprod", ("x", "axis"), _cumprod_kernel,
                 lambda x, axis, exclusive=False, reverse=False: (x.shape, x.dtype),
                 _cumprod_grad, T=(0,), dtypes=N, input_dtypes=_IN)


def cumprod(x, axis=0, exclusive=False, reverse=False, name=None):
    """Cumulative product along ``axis`` (op ``Cumprod``)."""
    return bind(Cumprod, (x, axis), {"exclusive": bool(exclusive), "reverse": bool(reverse)},
                name)
