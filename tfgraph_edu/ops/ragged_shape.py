"""``tf.experimental.DynamicRaggedShape`` and ``tf.experimental.RowPartition`` (layer 1), as
far as the ragged tensor guide uses them: ``tf.shape`` of a RaggedTensor, printing, indexing
(a uniform dimension's size, TF's ValueError for a ragged one, a slice of the outer
dimensions), ``from_lengths``, and the shape given to ``tf.reshape``, ``tf.zeros``,
``tf.ones`` and ``tf.fill``.  Broadcasting between such shapes
(``tf.experimental.DynamicRaggedShape.broadcast_*``) is not implemented: it raises
AttributeError naming it."""

from __future__ import annotations

import numpy as np

from .. import dtypes as _dt
from . import convert, math_ops, ragged_rows, shape_ops

I64 = _dt.int64


class RowPartition:
    """``tf.experimental.RowPartition``: how one dimension is cut into rows (its splits)."""

    def __init__(self, row_splits):
        self._row_splits = ragged_rows.int64(row_splits)

    @classmethod
    def from_row_splits(cls, row_splits, validate=True, dtype=None, dtype_hint=None):
        return cls(row_splits)

    @classmethod
    def from_row_lengths(cls, row_lengths, validate=True, dtype=None, dtype_hint=None):
        return cls(ragged_rows.splits_from_lengths(row_lengths))

    def row_splits(self):
        return self._row_splits

    def row_lengths(self):
        return math_ops.subtract(self._row_splits[1:], self._row_splits[:-1])

    def nrows(self):
        return math_ops.subtract(shape_ops.shape(self._row_splits, out_type=I64)[0],
                                 convert.constant(1, I64))

    def nvals(self):
        return self._row_splits[-1]

    def __repr__(self):
        if hasattr(self._row_splits, "numpy"):
            return f"tf.RowPartition(row_splits={self._row_splits.numpy()})"
        return f"tf.RowPartition(row_splits={self._row_splits})"


def _ints(x) -> list:
    if hasattr(x, "numpy"):
        return [int(v) for v in np.ravel(x.numpy())]
    return [int(v) for v in np.ravel(np.asarray(x))]


class DynamicRaggedShape:
    """A (possibly ragged) shape: the row partitions of its ragged dims, and the shape of the
    flat values (``inner_shape``)."""

    def __init__(self, row_partitions, inner_shape, dtype=None, validate=False,
                 static_inner_shape=None):
        self._partitions = tuple(row_partitions)
        self._dtype = _dt.as_dtype(dtype) if dtype is not None else (
            I64 if self._partitions else (getattr(inner_shape, "dtype", None) or I64))
        self._inner = convert.to_tensor(inner_shape, dtype_hint=self._dtype)
        if self._inner.dtype is not self._dtype:
            self._inner = math_ops.cast(self._inner, self._dtype)

    @classmethod
    def from_lengths(cls, lengths, num_row_partitions=None, dtype=I64):
        """From ``[4, (2, 1, 0, 8), 12]``: ints for uniform dims, tuples for ragged ones."""
        lengths = list(lengths)
        if not lengths:
            return cls((), convert.constant(np.zeros([0], np.int64), I64), dtype)
        partitions, i = [], 1
        while i < len(lengths) and isinstance(lengths[i], (list, tuple)):
            partitions.append(RowPartition.from_row_lengths(list(lengths[i])))
            i += 1
        if any(isinstance(x, (list, tuple)) for x in lengths[i:]):
            raise NotImplementedError("tfgraph_edu's DynamicRaggedShape.from_lengths takes the "
                                      "ragged dims right after the first one only yet.")
        if partitions:
            nvals = int(np.sum(_ints(partitions[-1].row_lengths())))
            inner = [nvals] + [int(x) for x in lengths[i:]]
        else:
            inner = [int(x) for x in lengths]
        return cls(partitions, convert.constant(np.asarray(inner, np.int64), I64), dtype)

    @classmethod
    def from_tensor(cls, t, dtype=None):
        from .ragged_ops import RaggedTensor
        dtype = _dt.as_dtype(dtype or _dt.int32)
        if isinstance(t, RaggedTensor):
            parts = [RowPartition(s) for s in t.nested_row_splits]
            inner = shape_ops.shape(t.flat_values, out_type=dtype)
            return cls(parts, inner, dtype)
        return cls((), shape_ops.shape(convert.to_tensor(t), out_type=dtype), dtype)

    row_partitions = property(lambda self: self._partitions)
    inner_shape = property(lambda self: self._inner)
    dtype = property(lambda self: self._dtype)
    num_row_partitions = property(lambda self: len(self._partitions))

    @property
    def rank(self):
        n = self._inner.shape.dims[0] if self._inner.shape.rank == 1 else None
        return None if n is None else n + len(self._partitions)

    def _lengths(self):
        """[nrows, lengths of each ragged dim (a tuple, or an int when all rows agree), inner
        dims] (eager)."""
        inner = _ints(self._inner)
        if not self._partitions:
            return inner
        out = [int(_ints(self._partitions[0].nrows())[0])]
        for p in self._partitions:
            out.append(tuple(_ints(p.row_lengths())))
        return out + inner[1:]

    def __repr__(self):
        if not hasattr(self._inner, "numpy"):
            return (f"<DynamicRaggedShape row_partitions={self._partitions} "
                    f"inner_shape={self._inner}>")
        parts = []
        for x in self._lengths():
            parts.append(str(x) if not isinstance(x, tuple) else
                         "(" + ", ".join(str(v) for v in x) + ("," if len(x) == 1 else "") + ")")
        return (f"<DynamicRaggedShape lengths=[{', '.join(parts)}] "
                f"num_row_partitions={len(self._partitions)}>")

    def __getitem__(self, index):
        rank = self.rank
        if isinstance(index, slice):
            if index.step not in (None, 1) or index.start not in (None, 0):
                raise NotImplementedError("tfgraph_edu's DynamicRaggedShape takes slices "
                                          "[:k] only yet.")
            stop = rank if index.stop is None else index.stop
            stop = stop + rank if stop < 0 else stop
            if stop == 0:
                return DynamicRaggedShape((), convert.constant(np.zeros([0], np.int64), I64),
                                          self._dtype)
            keep = min(stop - 1, len(self._partitions))
            if keep < len(self._partitions):
                if keep == 0:
                    return DynamicRaggedShape((), shape_ops.reshape(
                        math_ops.cast(self._partitions[0].nrows(), self._dtype), [1]),
                        self._dtype)
                nvals = self._partitions[keep - 1].nvals()
                inner = shape_ops.reshape(math_ops.cast(nvals, self._dtype), [1])
                return DynamicRaggedShape(self._partitions[:keep], inner, self._dtype)
            inner = self._inner[:stop - len(self._partitions)]
            return DynamicRaggedShape(self._partitions, inner, self._dtype)
        index = int(index)
        if rank is not None and index < 0:
            index += rank
        if not self._partitions:
            return self._inner[index]
        if index == 0:
            return math_ops.cast(self._partitions[0].nrows(), self._dtype)
        if index <= len(self._partitions):
            raise ValueError(f"Index {index} is not uniform")
        return self._inner[index - len(self._partitions)]

    def _to_ragged(self, flat):
        """``flat`` (the flat values, shaped ``inner_shape``) with this shape's rows."""
        from .ragged_ops import RaggedTensor
        return RaggedTensor.from_nested_row_splits(
            flat, [p.row_splits() for p in self._partitions], validate=False)


def is_dynamic_shape(x) -> bool:
    return isinstance(x, DynamicRaggedShape)


def shape_of(rt, out_type=_dt.int32, name=None):
    """``tf.shape`` of a RaggedTensor."""
    return DynamicRaggedShape.from_tensor(rt, out_type)


def reshape(tensor, shape, name=None):
    """``tf.reshape`` to a DynamicRaggedShape: the values in order, cut into its rows."""
    t = convert.to_tensor(tensor)
    flat = shape_ops.reshape(t, shape._inner)
    return shape._to_ragged(flat)


def fill(dims, value, name=None):
    from .creation_ops import fill as dense_fill
    return dims._to_ragged(dense_fill(dims._inner, value))


def zeros(shape, dtype=_dt.float32, name=None, layout=None):
    from .creation_ops import zeros as dense_zeros
    return shape._to_ragged(dense_zeros(shape._inner, dtype))


def ones(shape, dtype=_dt.float32, name=None, layout=None):
    from .creation_ops import ones as dense_ones
    return shape._to_ragged(dense_ones(shape._inner, dtype))
