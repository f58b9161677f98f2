"""The functions of ``tf.ragged`` beyond ``constant``: ``map_flat_values``, ``range``,
``boolean_mask``, ``stack`` (layer 1), made of ordinary ops (``ragged_rows.py``) so they run
inside a ``tf.function`` too."""

from __future__ import annotations

from .. import dtypes as _dt
from . import convert, math_ops, ragged_dispatch, ragged_rows, shape_ops
from .ragged_ops import RaggedTensor

I64 = _dt.int64
is_ragged = ragged_rows.is_ragged


def map_flat_values(op, *args, **kwargs):
    """``op`` applied to the flat values of the ragged arguments (their rows must agree);
    the result has their rows."""
    raggeds = [a for a in (*args, *kwargs.values()) if is_ragged(a)]
    if not raggeds:
        return op(*args, **kwargs)
    base = raggeds[0]
    for other in raggeds[1:]:
        if other.ragged_rank != base.ragged_rank:
            raise ValueError("All ragged inputs must have the same ragged_rank.")
        ragged_dispatch._check_same_splits(base.nested_row_splits, other.nested_row_splits)

    def flat(a):
        return a.flat_values if is_ragged(a) else a
    out = op(*[flat(a) for a in args], **{k: flat(v) for k, v in kwargs.items()})
    return base.with_flat_values(out)


def range(starts, limits=None, deltas=1, dtype=None, name=None,  # noqa: A001 - TF's name
          row_splits_dtype=I64):
    """``tf.ragged.range``: row ``i`` is ``tf.range(starts[i], limits[i], deltas[i])``."""
    if limits is None:
        starts, limits = 0, starts
    vals = [convert.to_tensor(v) if convert.is_tensor(v) else convert.to_tensor(v, dtype=dtype)
            if dtype is not None else convert.to_tensor(v) for v in (starts, limits, deltas)]
    if dtype is None:
        order = [_dt.int32, _dt.int64, _dt.float32, _dt.float64]
        dtype = order[max(order.index(v.dtype) for v in vals)]
    dtype = _dt.as_dtype(dtype)
    vals = [v if v.dtype is dtype else math_ops.cast(v, dtype) for v in vals]
    if any(v.shape.rank not in (0, 1) for v in vals):
        raise ValueError("starts, limits and deltas must be scalars or vectors")
    n = None
    for v in vals:
        if v.shape.rank == 1:
            n = shape_ops.shape(v)[0]
            break
    from .creation_ops import fill
    if n is None:
        n = convert.constant(1)
    start, limit, delta = [fill(shape_ops.expand_dims(n, 0), v) if v.shape.rank == 0 else v
                           for v in vals]
    if hasattr(delta, "numpy") and (delta.numpy() == 0).any():
        from ..errors import InvalidArgumentError
        raise InvalidArgumentError(None, None, "Requires delta != 0")
    # the length of each range: ceil((limit - start) / delta), at least 0
    span = math_ops.subtract(limit, start)
    if dtype.is_integer:
        lengths = math_ops.floordiv(math_ops.add(span, math_ops.subtract(
            delta, math_ops.sign(delta))), delta)
    else:
        from .math_extra_ops import ceil
        lengths = ceil(math_ops.truediv(span, delta))
    lengths = math_ops.maximum(math_ops.cast(lengths, I64), convert.constant(0, I64))
    splits = ragged_rows.splits_from_lengths(lengths)
    rows = ragged_rows.value_rowids(splits)
    from .indexing_ops import gather
    within = math_ops.subtract(_range64(splits[-1]), gather(splits, rows))
    values = math_ops.add(gather(start, rows),
                          math_ops.multiply(math_ops.cast(within, dtype), gather(delta, rows)))
    return RaggedTensor(values, splits)


def _range64(n):
    from .creation_ops import range_
    return range_(0, n, dtype=I64)


def boolean_mask(data, mask, name=None):
    """``tf.ragged.boolean_mask``: the items of ``data`` where ``mask`` is True, the masked
    dimensions ragged in the result."""
    if not is_ragged(mask):
        mask = convert.to_tensor(mask)
        if mask.shape.rank is None:
            raise ValueError("mask.shape.ndims must be known statically.")
        if mask.shape.rank == 1:
            from .indexing_ops import where
            keep = shape_ops.reshape(where(mask), [-1])
            return ragged_rows.gather_rows(data, keep) if is_ragged(data) else \
                ragged_rows.gather_rows(convert.to_tensor(data), keep)
        if not (hasattr(mask, "numpy")):
            raise NotImplementedError("tfgraph_edu's tf.ragged.boolean_mask takes a dense "
                                      "mask of rank > 1 eagerly only yet.")
        mask = RaggedTensor.from_tensor(mask, ragged_rank=mask.shape.rank - 1)
        if not is_ragged(data):
            data = RaggedTensor.from_tensor(convert.to_tensor(data),
                                            ragged_rank=mask.ragged_rank)
    if not is_ragged(data):
        raise ValueError("if mask is ragged, then data must be ragged too.")
    if data.ragged_rank < mask.ragged_rank:
        raise NotImplementedError("tfgraph_edu's tf.ragged.boolean_mask takes data with at "
                                  "least the mask's ragged_rank only yet.")
    return _mask(data, mask)


def _mask(data, mask):
    """Ragged ``data`` masked by ragged ``mask`` of the same rows (recursively)."""
    ragged_dispatch._check_same_splits(data.nested_row_splits[:1], mask.nested_row_splits[:1])
    from .indexing_ops import unsorted_segment_sum, where
    if is_ragged(mask.values):
        return data.with_values(_mask(data.values, mask.values))
    keep = shape_ops.reshape(where(mask.values), [-1])
    kept_rows = ragged_rows.gather_rows(mask.value_rowids(), keep)
    lengths = unsorted_segment_sum(convert.constant(1, I64) * math_ops.cast(
        math_ops.greater_equal(kept_rows, convert.constant(0, I64)), I64), kept_rows,
        data.nrows())
    return RaggedTensor(ragged_rows.gather_rows(data.values, keep),
                        ragged_rows.splits_from_lengths(lengths))


def stack(values, axis=0, name=None):
    """``tf.ragged.stack``: ragged or dense tensors stacked along a new ragged ``axis``."""
    return ragged_dispatch._ragged_stack(values, axis)


def row_splits_to_segment_ids(splits, name=None, out_type=None):
    ids = ragged_rows.value_rowids(ragged_rows.int64(splits))
    return ids if out_type is None else math_ops.cast(ids, out_type)
