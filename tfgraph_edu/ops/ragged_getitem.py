"""``rt[...]`` on a ``tf.RaggedTensor``, as TensorFlow indexes it (layer 1).

The first key picks rows (an index: that row, a tensor or a ragged tensor; a slice: a ragged
tensor of those rows); every further key applies to all rows at once: a slice cuts each row of
a ragged dimension (``rt[:, :2]``), an index in a ragged dimension is TF's ValueError ("Cannot
index into an inner ragged dimension."), keys on uniform dimensions go to the values.
Built from ordinary ops (``ragged_rows.py``), so it runs inside a ``tf.function`` too.
"""

from __future__ import annotations

import numpy as np

from .. import dtypes as _dt
from ..errors import InvalidArgumentError
from . import convert, math_ops, ragged_rows

I64 = _dt.int64


def _int_key(k):
    if isinstance(k, (bool, np.bool_)):
        return None
    if isinstance(k, (int, np.integer)):
        return int(k)
    return None


def getitem(rt, key):
    keys = list(key) if isinstance(key, tuple) else [key]
    for k in keys:
        if k is Ellipsis or k is None:
            raise NotImplementedError("tfgraph_edu's RaggedTensor[...] does not take Ellipsis "
                                      "or tf.newaxis yet.")
        if isinstance(k, (list, np.ndarray)) or (convert.is_tensor(k) and k.shape.rank != 0):
            raise TypeError("Cannot index a RaggedTensor with a list or a non-scalar tensor; "
                            "use tf.gather.")
    return _getitem(rt, keys)


def _getitem(rt, keys):
    if not keys:
        return rt
    if not ragged_rows.is_ragged(rt):
        return rt[tuple(keys)]
    row_key, inner = keys[0], keys[1:]
    if isinstance(row_key, slice):
        return _inner(_slice_rows(rt, row_key), inner)
    k = _int_key(row_key)
    splits = rt.row_splits
    if k is not None and hasattr(splits, "numpy"):
        n = int(splits.shape[0]) - 1
        if not -n <= k < n:  # TF's words (its strided slice of the row starts)
            raise InvalidArgumentError(None, None, f"slice index {k} of dimension 0 out of "
                                                   "bounds.")
        k %= n
        start, stop = int(splits.numpy()[k]), int(splits.numpy()[k + 1])
    else:
        idx = row_key if k is None else convert.constant(k, I64)
        start, stop = splits[:-1][idx], splits[1:][idx]
    values = rt.values
    row = values[start:stop] if not ragged_rows.is_ragged(values) else _span(values, start,
                                                                             stop)
    return _getitem(row, inner)


def _span(rt, start, stop):
    """Rows ``start:stop`` of a ragged tensor (bounds within its rows)."""
    s = rt.row_splits
    new = s[start:stop + 1] if isinstance(stop, int) else s[start:math_ops.add(stop, 1)]
    first = new[0]
    return type(rt)(_span_values(rt.values, first, new[-1]), math_ops.subtract(new, first))


def _span_values(values, start, stop):
    if ragged_rows.is_ragged(values):
        return _span(values, start, stop)
    return values[start:stop]


def _slice_rows(rt, key):
    if key.start is None and key.stop is None and key.step is None:
        return rt
    s = rt.row_splits
    starts, limits = s[:-1][key], s[1:][key]
    splits, idx = ragged_rows.ranges(starts, limits)
    del splits
    lengths = math_ops.subtract(limits, starts)
    return type(rt)(ragged_rows.gather_rows(rt.values, idx),
                    ragged_rows.splits_from_lengths(lengths))


def _bound(k, lengths, default):
    """A Python slice bound clamped into each row, as TF's (a vector over the rows)."""
    zero = convert.constant(0, I64)
    if k is None:
        return default
    if not isinstance(k, (int, np.integer)):
        raise NotImplementedError("tfgraph_edu slices a RaggedTensor's inner dimension with "
                                  "int bounds only yet.")
    if int(k) >= 0:
        return math_ops.minimum(convert.constant(int(k), I64), lengths)
    return math_ops.maximum(math_ops.add(lengths, convert.constant(int(k), I64)), zero)


def _inner(rt, keys):
    """``keys`` applied to the dimensions after the first of ``rt``."""
    if not keys:
        return rt
    if not ragged_rows.is_ragged(rt):
        return rt[(slice(None),) + tuple(keys)]
    key, rest = keys[0], keys[1:]
    if isinstance(key, slice):
        if key.start is None and key.stop is None and key.step is None:
            return rt.with_values(_inner(rt.values, rest))
        if key.step not in (None, 1):
            raise NotImplementedError("tfgraph_edu slices a RaggedTensor's inner dimension "
                                      "with step 1 only yet.")
        starts, limits = rt.row_splits[:-1], rt.row_splits[1:]
        lengths = math_ops.subtract(limits, starts)
        lo = _bound(key.start, lengths, math_ops.multiply(lengths, convert.constant(0, I64)))
        hi = math_ops.maximum(_bound(key.stop, lengths, lengths), lo)
        splits, idx = ragged_rows.ranges(math_ops.add(starts, lo), math_ops.add(starts, hi))
        values = ragged_rows.gather_rows(rt.values, idx)
        return type(rt)(_inner(values, rest), splits)
    if rt._uniform_row_length is not None and _int_key(key) is not None:
        width = rt._uniform_row_length
        k = _int_key(key)
        if not -width <= k < width:
            raise InvalidArgumentError(None, None, f"slice index {k} of dimension 1 out of "
                                                   "bounds.")
        k %= width
        idx = math_ops.add(rt.row_splits[:-1], convert.constant(k, I64))
        return _inner(ragged_rows.gather_rows(rt.values, idx), rest)
    raise ValueError("Cannot index into an inner ragged dimension.")
