"""Ordering: TopKV2 (``tf.math.top_k``, and ``tf.sort``/``tf.argsort`` built on it as in
TensorFlow), Unique, UniqueWithCounts, LowerBound and UpperBound (``tf.searchsorted``) (layer 1)."""

from __future__ import annotations

import numpy as np

from .. import dtypes as _dt
from ..errors import InvalidArgumentError
from ..shapes import TensorShape
from . import convert, creation_ops, math_ops, reduction_ops, shape_ops
from ._core import bind, constant_value, define, shape_error
from ._rules import fmt, known_ints

I32 = _dt.int32
_SORTABLE = _dt.NUMERIC


# -- TopKV2 ---------------------------------------------------------------------------------------
def _descending_order(x):
    """Indices sorting the last axis from largest to smallest; equal values keep their order
    (lower index first), as TensorFlow's TopKV2 does.  Stable on the reversed array, so no
    value is negated (an int's minimum would overflow)."""
    n = x.shape[-1]
    order = np.argsort(x[..., ::-1], axis=-1, kind="stable")[..., ::-1]
    return (n - 1) - order


def _top_k_kernel(x, k, sorted=True):  # noqa: A002 - TensorFlow's attribute name
    x = np.asarray(x)
    k = int(np.ravel(k)[0])
    if x.ndim < 1:
        raise InvalidArgumentError(None, None, f"input must be >= 1-D, got shape {fmt(x.shape)}")
    if k < 0:
        raise InvalidArgumentError(None, None, f"Need k >= 0, got {k}")
    if x.shape[-1] < k:
        raise InvalidArgumentError(None, None, f"input must have at least k columns. Had "
                                               f"{x.shape[-1]}, needed {k}")
    idx = _descending_order(x)[..., :k]
    return np.take_along_axis(x, idx, -1), idx.astype(np.int32)


def _top_k_shape(x, k, sorted=True):  # noqa: A002
    kv = known_ints(k)
    if x.shape.rank is None:
        return [(TensorShape(None), x.dtype), (TensorShape(None), I32)]
    if x.shape.rank < 1:
        raise shape_error(f"Shape must be at least rank 1 but is rank {x.shape.rank}")
    last = x.shape.dims[-1]
    if kv is not None:
        if kv[0] < 0:
            raise shape_error(f"Dimension size, given by scalar input 1, must be non-negative "
                              f"but is {kv[0]}")
        if last is not None and last < kv[0]:
            raise shape_error(f"input must have last dimension >= k = {kv[0]} but is {last}")
    dims = x.shape.dims[:-1] + [None if kv is None else kv[0]]
    return [(TensorShape(dims), x.dtype), (TensorShape(dims), I32)]


def _top_k_grad(op, g_values, g_indices):
    """Each value's gradient goes back to the position it was taken from."""
    x, _ = op.inputs
    if g_values is None:
        return None, None
    depth = shape_ops.shape(x)[-1]
    hot = creation_ops.one_hot(op.outputs[1], depth, dtype=g_values.dtype)  # [..., k, n]
    return reduction_ops.reduce_sum(hot * shape_ops.expand_dims(g_values, -1), -2), None


TopKV2 = define("TopKV2", ("input", "k"), _top_k_kernel, _top_k_shape, _top_k_grad,
                T=(0,), dtypes=_SORTABLE, num_outputs=2, input_dtypes={1: I32})


class TopKV2Result(tuple):
    """``(values, indices)`` with TensorFlow's field names and printed form."""

    __slots__ = ()
    _fields = ("values", "indices")

    def __new__(cls, values, indices):
        return super().__new__(cls, (values, indices))

    values = property(lambda self: self[0])
    indices = property(lambda self: self[1])

    def __repr__(self):
        return f"TopKV2(values={self[0]!r}, indices={self[1]!r})"


def top_k(input, k=1, sorted=True, index_type=I32, name=None):  # noqa: A002
    """The ``k`` largest entries of the last axis and their indices (op ``TopKV2``); equal
    values come lower index first.  With ``sorted=False`` TensorFlow leaves the order
    unspecified; here it is the sorted order too."""
    if _dt.as_dtype(index_type) is not I32:
        raise NotImplementedError("tfgraph_edu implements tf.math.top_k with "
                                  "index_type=tf.int32 only.")
    values, indices = bind(TopKV2, (input, k), {"sorted": bool(sorted)}, name)
    return TopKV2Result(values, indices)


# -- tf.sort and tf.argsort: TopKV2 on the values (negated for ASCENDING), as TF builds them -----
def _check_direction(direction):
    if direction not in ("ASCENDING", "DESCENDING"):
        raise ValueError("Argument `direction` should be one of ASCENDING, DESCENDING. "
                         f"Received: direction={direction}")


def _flip(x):
    """An order-reversing map that is its own inverse: ``-x`` for floats, ``-x - 1`` (no
    overflow) for signed integers, ``max - x`` for unsigned ones."""
    if x.dtype.is_unsigned:
        return math_ops.subtract(convert.to_tensor(x.dtype.max, x.dtype), x)
    neg = math_ops.negative(x)
    return math_ops.subtract(neg, 1) if x.dtype.is_integer else neg


def _along_last(x, axis, fn):
    """``fn`` applied with ``axis`` moved last (a Transpose each way when it is not)."""
    rank = x.shape.rank
    if rank is None:
        raise NotImplementedError("tfgraph_edu's tf.sort/tf.argsort need the input's rank "
                                  "to be known.")
    shape_ops.shape(x)[axis]  # TF's StridedSlice: its error for an axis out of range
    axis = int(axis) % rank
    if axis == rank - 1:
        return fn(x)
    perm = list(range(rank))
    perm[axis], perm[-1] = perm[-1], perm[axis]
    return shape_ops.transpose(fn(shape_ops.transpose(x, perm)), perm)


def _sorted(x, direction, want_indices, name):
    x = convert.to_tensor(x)
    ascending = direction == "ASCENDING"

    def fn(v):
        n = shape_ops.shape(v)[-1]
        values, indices = bind(TopKV2, (_flip(v) if ascending else v, n), {"sorted": True},
                               name)
        if want_indices:
            return indices
        return _flip(values) if ascending else values
    return x, fn


def sort(values, axis=-1, direction="ASCENDING", name=None):
    """``tf.sort``: ``values`` sorted along ``axis`` (ops Neg, TopKV2, Neg as in TF)."""
    _check_direction(direction)
    x, fn = _sorted(values, direction, False, name)
    return _along_last(x, axis, fn)


def argsort(values, axis=-1, direction="ASCENDING", stable=False, name=None):
    """``tf.argsort``: the int32 indices that sort ``values`` along ``axis``; equal values
    keep their order (stable, whatever ``stable`` says, as TF's TopKV2 is)."""
    _check_direction(direction)
    x, fn = _sorted(values, direction, True, name)
    return _along_last(x, axis, fn)


# -- Unique ---------------------------------------------------------------------------------------
def _unique_kernel(x, out_idx=I32):
    x = np.asarray(x)
    if x.ndim != 1:
        raise InvalidArgumentError(None, None, "unique expects a 1D vector.")
    np_idx = _dt.as_dtype(out_idx).np_dtype
    if x.dtype.kind == "f" and np.isnan(x).any():
        # TF compares values with ==, so every NaN is a value of its own (numpy's unique
        # would merge them): first appearances by a dict, a new entry for each NaN
        seen: dict = {}
        firsts, idx = [], []
        for i, v in enumerate(x.tolist()):
            if v != v:
                idx.append(len(firsts))
                firsts.append(i)
                continue
            if v not in seen:
                seen[v] = len(firsts)
                firsts.append(i)
            idx.append(seen[v])
        return x[np.array(firsts, np.int64)], np.array(idx, np_idx)
    _, first, inverse = np.unique(x, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")  # the values in order of first appearance
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    return x[first[order]], rank[np.ravel(inverse)].astype(np_idx)


def _unique_shape(x, out_idx=I32):
    if x.shape.rank not in (None, 1):
        raise shape_error(f"Shape must be rank 1 but is rank {x.shape.rank}")
    v = constant_value(x)
    n = None if v is None or np.ndim(v) != 1 else len(_unique_kernel(v)[0])
    return [(TensorShape([n]), x.dtype), (TensorShape([x.shape.dims[0] if x.shape.rank else None]),
                                          _dt.as_dtype(out_idx))]


Unique = define("Unique", ("x",), _unique_kernel, _unique_shape, None, num_outputs=2)


class UniqueResult(tuple):
    """``(y, idx)`` with TensorFlow's field names and printed form."""

    __slots__ = ()
    _fields = ("y", "idx")

    def __new__(cls, y, idx):
        return super().__new__(cls, (y, idx))

    y = property(lambda self: self[0])
    idx = property(lambda self: self[1])

    def __repr__(self):
        return f"Unique(y={self[0]!r}, idx={self[1]!r})"


def unique(x, out_idx=I32, name=None):
    """``tf.unique``: the distinct values of a 1-D tensor in order of first appearance, and
    for each element the index of its value among them (op ``Unique``)."""
    out_idx = _dt.as_dtype(out_idx)
    if out_idx not in (I32, _dt.int64):
        raise TypeError(f"out_idx must be tf.int32 or tf.int64, got {out_idx!r}")
    y, idx = bind(Unique, (x,), {"out_idx": out_idx}, name)
    return UniqueResult(y, idx)


def _uwc_kernel(x, out_idx=I32):
    y, idx = _unique_kernel(x, out_idx)
    return y, idx, np.bincount(idx, minlength=len(y)).astype(idx.dtype)


def _uwc_shape(x, out_idx=I32):
    (ys, yd), (is_, idd) = _unique_shape(x, out_idx)
    return [(ys, yd), (is_, idd), (ys, idd)]


UniqueWithCounts = define("UniqueWithCounts", ("x",), _uwc_kernel, _uwc_shape, None,
                          num_outputs=3)


class UniqueWithCountsResult(tuple):
    """``(y, idx, count)`` with TensorFlow's field names and printed form."""

    __slots__ = ()
    _fields = ("y", "idx", "count")

    def __new__(cls, y, idx, count):
        return super().__new__(cls, (y, idx, count))

    y = property(lambda self: self[0])
    idx = property(lambda self: self[1])
    count = property(lambda self: self[2])

    def __repr__(self):
        return f"UniqueWithCounts(y={self[0]!r}, idx={self[1]!r}, count={self[2]!r})"


def unique_with_counts(x, out_idx=I32, name=None):
    """``tf.unique_with_counts``: ``tf.unique``'s ``y`` and ``idx``, and how often each value
    of ``y`` occurs (op ``UniqueWithCounts``)."""
    out_idx = _dt.as_dtype(out_idx)
    if out_idx not in (I32, _dt.int64):
        raise TypeError(f"out_idx must be tf.int32 or tf.int64, got {out_idx!r}")
    y, idx, count = bind(UniqueWithCounts, (x,), {"out_idx": out_idx}, name)
    return UniqueWithCountsResult(y, idx, count)


# -- LowerBound, UpperBound (tf.searchsorted) -----------------------------------------------------
def _bound_kernel(side):
    def kernel(sorted_inputs, values, out_type=I32):
        s, v = np.asarray(sorted_inputs), np.asarray(values)
        if s.shape[0] != v.shape[0]:
            raise InvalidArgumentError(None, None,
                                       "Leading dim_size of both tensors must match.")
        out = np.empty(v.shape, _dt.as_dtype(out_type).np_dtype)
        for row in range(v.shape[0]):
            if s.dtype.kind == "f" and (np.isnan(s[row]).any() or np.isnan(v[row]).any()):
                out[row] = [_binary_search(s[row].tolist(), x, side) for x in v[row].tolist()]
            else:
                out[row] = np.searchsorted(s[row], v[row], side=side)
        return out
    return kernel


def _binary_search(seq, value, side) -> int:
    """C++'s lower_bound / upper_bound step by step: numpy orders NaN last, while TF's
    comparisons with NaN are all false; this gives TF's answer when a NaN is involved."""
    first, count = 0, len(seq)
    while count > 0:
        step = count // 2
        it = first + step
        go_right = seq[it] < value if side == "left" else not value < seq[it]
        if go_right:
            first, count = it + 1, count - step - 1
        else:
            count = step
    return first


def _bound_shape(sorted_inputs, values, out_type=I32):
    for t in (sorted_inputs, values):
        if t.shape.rank not in (None, 2):
            raise shape_error(f"Shape must be rank 2 but is rank {t.shape.rank}")
    return values.shape, _dt.as_dtype(out_type)


LowerBound = define("LowerBound", ("sorted_inputs", "values"), _bound_kernel("left"),
                    _bound_shape, None, T=(0, 1), dtypes=_SORTABLE)
UpperBound = define("UpperBound", ("sorted_inputs", "values"), _bound_kernel("right"),
                    _bound_shape, None, T=(0, 1), dtypes=_SORTABLE)


def searchsorted(sorted_sequence, values, side="left", out_type=I32, name=None):
    """``tf.searchsorted``: where each of ``values`` would go in the last axis of
    ``sorted_sequence`` (ops LowerBound / UpperBound on the rows, as in TF)."""
    if side not in ("left", "right"):
        raise ValueError(f"Argument `side` must be either 'right' or 'left'. Received: "
                         f"`side` = {side}.")
    op = LowerBound if side == "left" else UpperBound
    seq, vals = convert.to_tensor(sorted_sequence), convert.to_tensor(values)
    seq2 = shape_ops.reshape(seq, [-1, shape_ops.shape(seq)[-1]])
    vals2 = shape_ops.reshape(vals, [-1, shape_ops.shape(vals)[-1]])
    out = bind(op, (seq2, vals2), {"out_type": _dt.as_dtype(out_type)}, name)
    return shape_ops.reshape(out, shape_ops.shape(vals))
