"""Segment reductions: ``tf.math.segment_sum/mean/max/min`` over sorted segment ids and
``tf.math.unsorted_segment_max/min`` (layer 1).  ``unsorted_segment_sum`` lives in indexing_ops
(gather's gradient uses it).

As in TensorFlow: sorted ids must be non-decreasing and non-negative, and an empty segment
gives 0; an unsorted segment nobody writes gives the dtype's lowest (max) or highest (min)
value (the finite lowest/highest for floats), ids >= ``num_segments`` are an error and the
rows of negative ids are dropped.
"""

from __future__ import annotations

import numpy as np

from .. import dtypes as _dt
from ..errors import InvalidArgumentError
from ..shapes import TensorShape
from . import creation_ops, indexing_ops, math_ops, shape_ops
from ._core import bind, constant_value, define


def _check_sorted(data, ids):
    ids = np.asarray(ids)
    if ids.ndim != 1:
        raise InvalidArgumentError(None, None, "segment_ids should be a vector.")
    if ids.shape[0] != np.shape(data)[0]:
        raise InvalidArgumentError(
            None, None, "segment_ids should be the same size as dimension 0 of input.")
    if ids.size and (ids[0] < 0 or np.any(np.diff(ids) < 0)):
        raise InvalidArgumentError(None, None, "segment ids are not increasing")
    return int(ids[-1]) + 1 if ids.size else 0


def _sorted_kernel(reduce, empty):
    def kernel(data, ids):
        n = _check_sorted(data, ids)
        out = np.full((n,) + np.shape(data)[1:], empty, dtype=data.dtype)
        if not ids.size:
            return out
        starts = np.flatnonzero(np.r_[True, ids[1:] != ids[:-1]])
        out[ids[starts]] = reduce.reduceat(data, starts, axis=0)
        return out
    return kernel


def _mean_kernel(data, ids):
    total = _sorted_kernel(np.add, 0)(data, ids)
    counts = np.bincount(ids, minlength=total.shape[0]).reshape((-1,) + (1,) * (data.ndim - 1))
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = total / np.maximum(counts, 1)
    return mean.astype(data.dtype)


def _sorted_shape(data, ids):
    ds = data.shape
    if ds.rank is None:
        return TensorShape(None), data.dtype
    known = constant_value(ids)
    n = (int(known[-1]) + 1 if known.size else 0) if known is not None else None
    return TensorShape([n] + ds.dims[1:]), data.dtype


def _expand_rows(counts, like):
    """A vector over rows reshaped to broadcast against ``like`` ([N, 1, ...])."""
    rank = like.shape.rank
    return shape_ops.reshape(counts, [-1] + [1] * (rank - 1))


def _sum_grad(op, g):
    return indexing_ops.gather(g, op.inputs[1]), None


def _mean_grad(op, g):
    data, ids = op.inputs
    counts = bind(SegmentSum, (creation_ops.ones_like(ids, dtype=g.dtype), ids), None, None)
    counts = math_ops.maximum(counts, creation_ops.ones_like(counts))
    return indexing_ops.gather(math_ops.divide(g, _expand_rows(counts, g)), ids), None


def _extreme_grad(sum_op, extra=()):
    """Max/min: the gradient goes to the elements equal to the result, shared among ties."""
    def grad(op, g):
        data, ids = op.inputs[0], op.inputs[1]
        selected = math_ops.cast(
            math_ops.equal(data, indexing_ops.gather(op.outputs[0], ids)), g.dtype)
        counts = bind(sum_op, (selected, ids) + tuple(op.inputs[2:]), None, None)
        share = math_ops.divide(g, math_ops.maximum(counts, creation_ops.ones_like(counts)))
        return (math_ops.multiply(selected, indexing_ops.gather(share, ids)), None) + extra
    return grad


_REAL = _dt.NUMERIC
SegmentSum = define("SegmentSum", ("data", "segment_ids"), _sorted_kernel(np.add, 0),
                    _sorted_shape, _sum_grad, T=(0,), dtypes=_REAL, input_dtypes={1: _dt.int32})
SegmentMean = define("SegmentMean", ("data", "segment_ids"), _mean_kernel, _sorted_shape,
                     _mean_grad, T=(0,), dtypes=_REAL, input_dtypes={1: _dt.int32})
SegmentMax = define("SegmentMax", ("data", "segment_ids"), _sorted_kernel(np.maximum, 0),
                    _sorted_shape, _extreme_grad(SegmentSum), T=(0,), dtypes=_REAL,
                    input_dtypes={1: _dt.int32})
SegmentMin = define("SegmentMin", ("data", "segment_ids"), _sorted_kernel(np.minimum, 0),
                    _sorted_shape, _extreme_grad(SegmentSum), T=(0,), dtypes=_REAL,
                    input_dtypes={1: _dt.int32})


def segment_sum(data, segment_ids, name=None):
    """Sum of the rows of ``data`` in each segment of sorted ids (op ``SegmentSum``)."""
    return bind(SegmentSum, (data, segment_ids), None, name)


def segment_mean(data, segment_ids, name=None):
    """Mean of the rows in each segment of sorted ids (op ``SegmentMean``)."""
    return bind(SegmentMean, (data, segment_ids), None, name)


def segment_max(data, segment_ids, name=None):
    """Max of the rows in each segment of sorted ids; empty segments 0 (op ``SegmentMax``)."""
    return bind(SegmentMax, (data, segment_ids), None, name)


def segment_min(data, segment_ids, name=None):
    """Min of the rows in each segment of sorted ids; empty segments 0 (op ``SegmentMin``)."""
    return bind(SegmentMin, (data, segment_ids), None, name)


# -- unsorted max / min ----------------------------------------------------------------------
def check_segment_ids(ids, n):
    """TF refuses an id >= num_segments; it drops the rows of negative ids (returned: the
    mask of rows kept, or None when all are)."""
    flat = np.ravel(ids)
    bad = np.flatnonzero(flat >= n)
    if bad.size:
        i = int(bad[0])
        raise InvalidArgumentError(
            None, None, f"segment_ids[{i}] = {int(flat[i])} is out of range [0, {n})")
    return None if not flat.size or flat.min() >= 0 else np.asarray(ids) >= 0


def _unsorted_kernel(reduce, fill):
    def kernel(data, ids, num):
        n = int(np.ravel(num)[0])
        keep = check_segment_ids(ids, n)
        out = np.full((n,) + np.shape(data)[np.ndim(ids):], fill(data.dtype), dtype=data.dtype)
        if keep is not None:
            ids, data = np.asarray(ids)[keep], np.asarray(data)[keep]
        reduce.at(out, ids, data)
        return out
    return kernel


def _lowest(dt):
    return np.iinfo(dt).min if dt.kind in "iu" else np.finfo(dt).min


def _highest(dt):
    return np.iinfo(dt).max if dt.kind in "iu" else np.finfo(dt).max


UnsortedSegmentMax = define(
    "UnsortedSegmentMax", ("data", "segment_ids", "num_segments"),
    _unsorted_kernel(np.maximum, _lowest), indexing_ops.UnsortedSegmentSum.shape,
    _extreme_grad(indexing_ops.UnsortedSegmentSum, (None,)), T=(0,), dtypes=_REAL,
    input_dtypes={1: _dt.int32, 2: _dt.int32})
UnsortedSegmentMin = define(
    "UnsortedSegmentMin", ("data", "segment_ids", "num_segments"),
    _unsorted_kernel(np.minimum, _highest), indexing_ops.UnsortedSegmentSum.shape,
    _extreme_grad(indexing_ops.UnsortedSegmentSum, (None,)), T=(0,), dtypes=_REAL,
    input_dtypes={1: _dt.int32, 2: _dt.int32})


def unsorted_segment_max(data, segment_ids, num_segments, name=None):
    """Max of the rows sent to each of ``num_segments`` buckets (op ``UnsortedSegmentMax``)."""
    return bind(UnsortedSegmentMax, (data, segment_ids, num_segments), None, name)


def unsorted_segment_min(data, segment_ids, num_segments, name=None):
    """Min of the rows sent to each of ``num_segments`` buckets (op ``UnsortedSegmentMin``)."""
    return bind(UnsortedSegmentMin, (data, segment_ids, num_segments), None, name)
