"""Row arithmetic of ragged tensors, made of ordinary ops (layer 1).

A ragged tensor's rows are described by ``row_splits`` (row ``i`` is ``values[s[i]:s[i+1]]``).
Everything here works on those int64 vectors with ordinary ops (``UpperBound``, ``Cumsum``,
``GatherV2``, ...), so ragged operations built from it run eagerly and inside a
``tf.function`` alike, and have gradients where their ops do, as TensorFlow's do.

- ``value_rowids(splits)``: the row of every value;
- ``ranges(starts, limits)``: the splits and flat positions of the ranges ``[start, limit)``;
- ``gather_rows(x, idx)``: rows of a tensor or a ragged tensor picked by index;
- ``concat_rows(xs)``: tensors or ragged tensors stacked along their rows.
"""

from __future__ import annotations

from .. import dtypes as _dt
from . import concat_ops, convert, creation_ops, indexing_ops, math_ops, reduction_ops, shape_ops
from ._core import bind

I64 = _dt.int64


def is_ragged(x) -> bool:
    return type(x).__name__ == "RaggedTensor"


def int64(x):
    x = convert.to_tensor(x, dtype_hint=I64)
    return x if x.dtype is I64 else math_ops.cast(x, I64)


def nvals(x):
    """The number of rows of ``x`` (a tensor's first dim, a ragged tensor's nrows), int64."""
    if is_ragged(x):
        return x.nrows()
    return shape_ops.shape(x, out_type=I64)[0]


def splits_from_lengths(lengths):
    lengths = int64(lengths)
    zero = convert.constant([0], I64)
    return concat_ops.concat([zero, reduction_ops.cumsum(lengths)], 0)


def value_rowids(splits):
    """The row of every value (``UpperBound`` of the positions in the row limits)."""
    from .sort_ops import UpperBound
    total = splits[-1]
    positions = creation_ops.range_(0, total, dtype=I64)
    limits = shape_ops.expand_dims(splits[1:], 0)
    ids = bind(UpperBound, (limits, shape_ops.expand_dims(positions, 0)), {"out_type": I64})
    return ids[0]


def ranges(starts, limits):
    """(splits, positions): the ranges ``[starts[i], limits[i])`` one after another."""
    starts, limits = int64(starts), int64(limits)
    lengths = math_ops.maximum(math_ops.subtract(limits, starts), convert.constant(0, I64))
    splits = splits_from_lengths(lengths)
    rows = value_rowids(splits)
    offset = math_ops.subtract(indexing_ops.gather(starts, rows),
                               indexing_ops.gather(splits[:-1], rows))
    return splits, math_ops.add(creation_ops.range_(0, splits[-1], dtype=I64), offset)


def gather_rows(x, idx):
    """Rows ``idx`` of ``x`` (a tensor or a ragged tensor)."""
    if not is_ragged(x):
        return indexing_ops.gather(x, idx)
    idx = int64(idx)
    s = x.row_splits
    splits, inner = ranges(indexing_ops.gather(s[:-1], idx), indexing_ops.gather(s[1:], idx))
    return type(x)(gather_rows(x.values, inner), splits)


def concat_rows(xs):
    """``xs`` stacked along their rows (all tensors, or all ragged of one ragged rank)."""
    if not any(is_ragged(x) for x in xs):
        return concat_ops.concat(list(xs), 0)
    if not all(is_ragged(x) for x in xs):
        raise ValueError("concat_rows needs all ragged or all dense inputs")
    parts, offset = [xs[0].row_splits], xs[0].row_splits[-1]
    for x in xs[1:]:
        parts.append(math_ops.add(x.row_splits[1:], offset))
        offset = math_ops.add(offset, x.row_splits[-1])
    return type(xs[0])(concat_rows([x.values for x in xs]), concat_ops.concat(parts, 0))
