"""Picking elements: Slice, StridedSlice (``tensor[...]``), GatherV2, UnsortedSegmentSum,
and ``tf.where`` (SelectV2, Where) (layer 1)."""

from __future__ import annotations

import builtins
import math

import numpy as np

from .. import dtypes as _dt
from ..errors import InvalidArgumentError
from ..shapes import TensorShape
from . import (
    concat_ops,
    convert,
    creation_ops,
    math_ops,
    pad_ops,
    shape_ops,
)
from ._core import bind, constant_value, define, shape_error
from ._rules import broadcast_shapes, ints, known_ints, vector_len

I32 = _dt.int32


# -- Slice ----------------------------------------------------------------------------------------
def _slice_shape(x, begin, size_t):
    b, s = known_ints(begin), known_ints(size_t)
    r = x.shape.rank
    if r is None or s is None:
        return TensorShape(None if r is None else [None] * r), x.dtype
    dims = []
    for i, k in enumerate(s):
        d = x.shape.dims[i]
        if k == -1:
            dims.append(None if d is None or b is None else d - b[i])
        else:
            if d is not None and b is not None and b[i] + k > d:
                raise shape_error(f"Expected size[{i}] in [0, {d - b[i]}], but got {k}")
            dims.append(k)
    return TensorShape(dims), x.dtype


def _slice_kernel(x, begin, size_):
    idx = tuple(builtins.slice(b, None if s == -1 else b + s)
                for b, s in zip(ints(begin), ints(size_)))
    return np.asarray(x)[idx]


def _slice_grad(op, g):
    x, begin, _ = op.inputs
    after = math_ops.subtract(math_ops.subtract(shape_ops.shape(x), shape_ops.shape(g)), begin)
    return pad_ops.pad(g, concat_ops.stack([begin, after], axis=1)), None, None


Slice = define("Slice", ("input", "begin", "size"), _slice_kernel, _slice_shape, _slice_grad,
               T=(0,), input_dtypes={1: I32, 2: I32})


def slice_(input_, begin, size, name=None):
    """Extracts ``size`` elements from ``begin`` (op ``Slice``); ``tf.slice``."""
    return bind(Slice, (input_, begin, size), None, name)


# -- StridedSlice (tensor[...]) -------------------------------------------------------------------
_MASKS = ("begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask", "shrink_axis_mask")


def _index_tuple(begin, end, strides, begin_mask=0, end_mask=0, ellipsis_mask=0,
                 new_axis_mask=0, shrink_axis_mask=0):
    out = []
    for i, (b, e, s) in enumerate(zip(begin, end, strides)):
        bit = 1 << i
        if ellipsis_mask & bit:
            out.append(Ellipsis)
        elif new_axis_mask & bit:
            out.append(None)
        elif shrink_axis_mask & bit:
            out.append(int(b))
        else:
            out.append(builtins.slice(None if begin_mask & bit else int(b),
                                      None if end_mask & bit else int(e), int(s)))
    return tuple(out)


def _check_index(idx, shape_dims):
    """TF's out-of-range error for integer indices (numpy would say IndexError)."""
    dim = 0
    n_real = builtins.sum(1 for k in idx if k is not None and k is not Ellipsis)
    for k in idx:
        if k is Ellipsis:
            dim += len(shape_dims) - n_real
        elif k is None:
            continue
        else:
            if dim >= len(shape_dims):
                raise shape_error(f"Index out of range using input dim {dim}; input has only "
                                  f"{len(shape_dims)} dims")
            if isinstance(k, int) and dim < len(shape_dims):
                d = shape_dims[dim]
                if d is not None and not -d <= k < d:
                    raise shape_error(f"slice index {k} of dimension {dim} out of bounds.")
            dim += 1


def _strided_slice_kernel(x, begin, end, strides, **masks):
    idx = _index_tuple(ints(begin), ints(end), ints(strides), **masks)
    _check_index(idx, list(np.shape(x)))
    out = np.asarray(x)[idx]
    if isinstance(out, np.ndarray):
        return out.copy()
    # one element of a string (object) tensor is a Python bytes: kept a 0-d array
    return out if isinstance(out, np.generic) else np.asarray(out, dtype=np.asarray(x).dtype)


def _strided_slice_shape(x, begin, end, strides, **masks):
    b, e, s = known_ints(begin), known_ints(end), known_ints(strides)
    n = begin.shape.dims[0] if begin.shape.rank == 1 else None
    if (b is None and x.shape.rank is not None and n is not None and n <= x.shape.rank
            and masks.get("shrink_axis_mask", 0) == (1 << n) - 1
            and not masks.get("ellipsis_mask", 0) and not masks.get("new_axis_mask", 0)):
        # x[i] (x[i, j]...) with tensor indices, as a tensor loop iterates: the leading dims
        # go, the others stay known even though the indices are not
        return TensorShape(x.shape.dims[n:]), x.dtype
    if x.shape.rank is None or b is None or e is None or s is None:
        return _strided_slice_rank_only(x, n, s, masks), x.dtype
    if 0 in s:
        raise shape_error("strides[0] must be non-zero")
    idx = _index_tuple(b, e, s, **masks)
    dims = x.shape.dims
    _check_index(idx, dims)
    # apply the index to a zero-stride stand-in whose unknown dims are huge, then mark
    # the output dims that came from unknown input dims as unknown
    # (the stand-in's element count must stay below 2**62: the known dims count too)
    known = math.prod(d for d in dims if d is not None)
    budget = builtins.max(8, 62 - known.bit_length())
    big = 1 << (budget // builtins.max(1, dims.count(None)))
    stand_in = np.broadcast_to(np.int8(0), [big if d is None else d for d in dims])
    out_shape = list(stand_in[idx].shape)
    if any(d is None for d in dims):
        # map each output dim back to its input dim
        dim, result = 0, []
        n_real = builtins.sum(1 for k in idx if k is not None and k is not Ellipsis)
        for k in idx:
            if k is Ellipsis:
                for _ in range(len(dims) - n_real):
                    result.append(dims[dim])
                    dim += 1
            elif k is None:
                result.append(1)
            elif isinstance(k, int):
                dim += 1
            else:
                result.append(None if dims[dim] is None else out_shape[len(result)])
                dim += 1
        result.extend(dims[dim:])
        out_shape = result
    return TensorShape(out_shape), x.dtype


def _strided_slice_grad(op, g):
    x, begin, end, strides = op.inputs
    masks = {k: op.get_attr(k) for k in _MASKS}
    return (bind(StridedSliceGrad, (shape_ops.shape(x), begin, end, strides, g), masks),
            None, None, None)


def _strided_slice_rank_only(x, n, s, masks) -> TensorShape:
    """``x[:k]`` with a tensor ``k``: the rank is known (each shrunk axis goes), a sliced
    axis's length is not, the axes after the ``n`` indexed ones keep theirs (as in TF)."""
    r = x.shape.rank
    if (r is None or n is None or n > r or masks.get("ellipsis_mask", 0)
            or masks.get("new_axis_mask", 0)):
        return TensorShape(None)
    shrink = masks.get("shrink_axis_mask", 0)
    full = masks.get("begin_mask", 0) & masks.get("end_mask", 0)
    dims = []
    for i in range(n):
        if shrink & (1 << i):
            continue
        whole = full & (1 << i) and s is not None and s[i] == 1
        dims.append(x.shape.dims[i] if whole else None)
    return TensorShape(dims + list(x.shape.dims[n:]))


StridedSlice = define("StridedSlice", ("input", "begin", "end", "strides"),
                      _strided_slice_kernel, _strided_slice_shape, _strided_slice_grad,
                      T=(0,), input_dtypes={1: I32, 2: I32, 3: I32}, attrs=_MASKS)


def _ssg_kernel(shape_, begin, end, strides, dy, **masks):
    out = np.zeros(ints(shape_), dtype=dy.dtype)
    out[_index_tuple(ints(begin), ints(end), ints(strides), **masks)] = dy
    return out


def _ssg_shape(shape_, begin, end, strides, dy, **masks):
    want = known_ints(shape_)
    if want is None:
        n = vector_len(shape_)
        return TensorShape(None if n is None else [None] * n), dy.dtype
    return TensorShape(list(want)), dy.dtype


def _ssg_grad(op, g):
    _, begin, end, strides, _ = op.inputs
    masks = {k: op.get_attr(k) for k in _MASKS}
    return None, None, None, None, bind(StridedSlice, (g, begin, end, strides), masks)


StridedSliceGrad = define("StridedSliceGrad", ("shape", "begin", "end", "strides", "dy"),
                          _ssg_kernel, _ssg_shape, _ssg_grad,
                          input_dtypes={0: I32, 1: I32, 2: I32, 3: I32}, attrs=_MASKS)


def strided_slice(input_, begin, end, strides=None, begin_mask=0, end_mask=0, ellipsis_mask=0,
                  new_axis_mask=0, shrink_axis_mask=0, name=None):
    """Extracts a strided slice (op ``StridedSlice``), the op behind ``tensor[...]``."""
    if strides is None:
        strides = [1] * len(begin)
    masks = dict(begin_mask=begin_mask, end_mask=end_mask, ellipsis_mask=ellipsis_mask,
                 new_axis_mask=new_axis_mask, shrink_axis_mask=shrink_axis_mask)
    return bind(StridedSlice, (input_, begin, end, strides), masks, name)


def _scalar_index(k):
    if convert.is_tensor(k):
        if k.shape.rank not in (0, None) or not (k.dtype.is_integer):
            raise TypeError(_INDEX_HELP.format(k=k))
        return k
    if isinstance(k, (bool, np.bool_)):
        raise TypeError(_INDEX_HELP.format(k=repr(k)))
    try:
        return int(k.__index__())
    except (AttributeError, TypeError):
        raise TypeError(_INDEX_HELP.format(k=repr(k))) from None


_INDEX_HELP = ("Only integers, slices (`:`), ellipsis (`...`), tf.newaxis (`None`) and scalar "
               "tf.int32/tf.int64 tensors are valid indices, got {k}")


def getitem(tensor, key):
    """``tensor[key]`` the way TensorFlow does it: one ``StridedSlice`` op with masks."""
    parts, masks = slice_spec(key)
    return bind(StridedSlice, (tensor, *parts), masks, "strided_slice")


def slice_spec(key):
    """``(begin, end, strides), masks`` of the strided slice that ``x[key]`` is."""
    if not isinstance(key, tuple):
        key = (key,)
    begin, end, strides = [], [], []
    masks = dict.fromkeys(_MASKS, 0)
    for i, k in enumerate(key):
        bit = 1 << i
        if k is Ellipsis:
            masks["ellipsis_mask"] |= bit
            begin.append(0), end.append(0), strides.append(1)
        elif k is None:
            masks["new_axis_mask"] |= bit
            begin.append(0), end.append(0), strides.append(1)
        elif isinstance(k, builtins.slice):
            st = 1 if k.step is None else _scalar_index(k.step)
            if k.start is None:
                masks["begin_mask"] |= bit
                begin.append(0)
            else:
                begin.append(_scalar_index(k.start))
            if k.stop is None:
                masks["end_mask"] |= bit
                end.append(0)
            else:
                end.append(_scalar_index(k.stop))
            strides.append(st)
        else:
            k = _scalar_index(k)
            masks["shrink_axis_mask"] |= bit
            begin.append(k)
            end.append(math_ops.add(k, 1) if convert.is_tensor(k) else
                       (k + 1 if k != -1 else 0))
            if not convert.is_tensor(k) and k == -1:
                masks["end_mask"] |= bit
            strides.append(1)
    parts = (begin, end, strides)
    if any(convert.is_tensor(v) for p in parts for v in p):
        parts = tuple(concat_ops.stack([math_ops.cast(v, I32) if convert.is_tensor(v) else v
                                        for v in p])
                      for p in parts)
    return parts, masks


# -- GatherV2, UnsortedSegmentSum -----------------------------------------------------------------
def _gather_kernel(params, indices, axis, batch_dims=0):
    ax = int(np.ravel(axis)[0]) % builtins.max(np.ndim(params), 1)
    n = np.shape(params)[ax]
    bad = (indices < 0) | (indices >= n)
    if np.any(bad):
        pos = np.argwhere(bad)[0]
        where = ",".join(str(int(p)) for p in pos)
        val = int(np.asarray(indices)[tuple(pos)])
        at = f"[{where}]" if where else ""  # a scalar index: "indices = 5", as TF
        raise InvalidArgumentError(None, None, f"indices{at} = {val} is not in [0, {n})")
    return np.take(params, indices, axis=ax)


def _gather_shape(params, indices, axis, batch_dims=0):
    a = known_ints(axis)
    ps, is_ = params.shape, indices.shape
    if ps.rank is None or is_.rank is None or a is None:
        return TensorShape(None), params.dtype
    ax = a[0]
    if not -ps.rank <= ax < ps.rank:
        raise shape_error(f"Expected axis in the range [{-ps.rank}, {ps.rank}), but got {ax}")
    ax %= ps.rank
    return TensorShape(ps.dims[:ax] + is_.dims + ps.dims[ax + 1:]), params.dtype


def _gather_grad(op, g):
    params, indices, axis = op.inputs
    a = known_ints(axis)
    if a is None or params.shape.rank is None:
        raise NotImplementedError("The gradient of tf.gather needs a constant axis and a known "
                                  "rank here.")
    r = params.shape.rank
    ax = a[0] % r
    if ax:
        perm = [ax] + [i for i in range(r) if i != ax]
        moved = shape_ops.transpose(params, perm)
        gm = shape_ops.transpose(g, _gather_grad_perm(ax, indices.shape.rank, g.shape.rank))
        inner = _segment_grad(moved, indices, gm)
        return shape_ops.transpose(inner, shape_ops.invert_permutation(perm)), None, None
    return _rows_grad(params, indices, g), None, None


def _rows_grad(params, indices, g):
    """The gradient of a gather along axis 0: as TF, an IndexedSlices of the rows touched
    (``g`` reshaped to one row per index, the flat indices, the params' shape as int32);
    whoever needs it dense makes it so (``indexed_slices.densify``)."""
    from .indexed_slices import IndexedSlices
    n = indices.shape.num_elements() if indices.shape.is_fully_defined() else None
    tail = params.shape.dims[1:]
    if n is not None and None not in tail:  # static shapes: plain lists, as TF folds them
        rows = shape_ops.reshape(g, [n] + tail)
        flat_i = shape_ops.reshape(indices, [n])
    else:
        size = shape_ops.reshape(shape_ops.size(indices), [1])
        rows = shape_ops.reshape(g, concat_ops.concat([size, shape_ops.shape(params)[1:]], 0)
                                 if params.shape.rank > 1 else [-1])
        flat_i = shape_ops.reshape(indices, size)
    return IndexedSlices(rows, flat_i, shape_ops.shape(params))


def _gather_grad_perm(ax, ri, rg):
    # bring the index dims (ax .. ax+ri) of g to the front
    idx = list(range(ax, ax + ri))
    return idx + [i for i in range(rg) if i not in idx]


def _segment_grad(params, indices, g):
    flat_i = shape_ops.reshape(indices, [-1])
    inner = shape_ops.shape(params)[1:]
    flat_g = shape_ops.reshape(g, concat_ops.concat([[-1], inner], 0) if params.shape.rank > 1
                               else [-1])
    return unsorted_segment_sum(flat_g, flat_i, shape_ops.shape(params)[0])


GatherV2 = define("GatherV2", ("params", "indices", "axis"), _gather_kernel, _gather_shape,
                  _gather_grad, input_dtypes={1: I32, 2: I32})


def gather(params, indices, validate_indices=None, axis=None, batch_dims=0, name=None):
    """Gathers slices of ``params`` at ``indices`` along ``axis`` (op ``GatherV2``)."""
    if batch_dims:
        raise NotImplementedError("tfgraph_edu implements tf.gather with batch_dims=0 only.")
    return bind(GatherV2, (params, indices, 0 if axis is None else axis),
                {"batch_dims": 0}, name)


def _uss_kernel(data, ids, num):
    n = int(np.ravel(num)[0])
    from .segment_ops import check_segment_ids  # TF refuses ids >= n, drops negative ones
    keep = check_segment_ids(ids, n)
    if keep is not None:
        ids, data = np.asarray(ids)[keep], np.asarray(data)[keep]
    out = np.zeros((n,) + np.shape(data)[np.ndim(ids):], dtype=data.dtype)
    np.add.at(out, ids, data)
    return out


def _uss_shape(data, ids, num):
    n = known_ints(num)
    ds, is_ = data.shape, ids.shape
    if ds.rank is None or is_.rank is None:
        return TensorShape(None), data.dtype
    return TensorShape([None if n is None else n[0]] + ds.dims[is_.rank:]), data.dtype


UnsortedSegmentSum = define(
    "UnsortedSegmentSum", ("data", "segment_ids", "num_segments"), _uss_kernel, _uss_shape,
    lambda op, g: (gather(g, op.inputs[1]), None, None), input_dtypes={1: I32, 2: I32})


def unsorted_segment_sum(data, segment_ids, num_segments, name=None):
    """Sums the rows of ``data`` into ``num_segments`` buckets (op ``UnsortedSegmentSum``)."""
    return bind(UnsortedSegmentSum, (data, segment_ids, num_segments), None, name)


# -- SelectV2, Where (tf.where) -------------------------------------------------------------------
def _select_shape(c, t, e):
    if c.dtype is not _dt.bool:
        raise shape_error(f"condition must be a bool tensor, got {c.dtype.name}")
    return broadcast_shapes(broadcast_shapes(c.shape, t.shape), e.shape), t.dtype


def _select_grad(op, g):
    c, t, e = op.inputs
    z = creation_ops.zeros_like(g)
    return (None, math_ops.reduce_to(bind(SelectV2, (c, g, z)), t),
            math_ops.reduce_to(bind(SelectV2, (c, z, g)), e))


SelectV2 = define("SelectV2", ("condition", "t", "e"), np.where, _select_shape, _select_grad,
                  T=(1, 2))
def _where_shape(x):
    v = constant_value(x)
    n = None if v is None else int(np.count_nonzero(v))
    return TensorShape([n, x.shape.rank]), _dt.int64


Where = define("Where", ("input",), lambda x: np.argwhere(x).astype(np.int64), _where_shape,
               None)


def where(condition, x=None, y=None, name=None):
    """Elementwise choice ``x if condition else y`` (op ``SelectV2``), or the indices of the
    True elements when only ``condition`` is given (op ``Where``)."""
    if x is None and y is None:
        return bind(Where, (condition,), None, name)
    if x is None or y is None:
        raise ValueError("x and y must both be non-None or both be None.")
    return bind(SelectV2, (condition, x, y), None, name)

