"""``tf.RaggedTensor``: dimensions whose slices have different lengths, eagerly and in graphs.

A ragged tensor is a composite value (see ``composite.py``): ``values`` cut into rows by
``row_splits`` (row ``i`` is ``values[row_splits[i]:row_splits[i + 1]]``).  ``values`` is a
tensor or itself a ragged tensor, so a ragged tensor has any number of ragged dimensions
(``ragged_rank``); the innermost tensor is ``flat_values`` and the splits from the outside in
are ``nested_row_splits``.  It is a loop variable, a tf.function argument or result (its
components: ``flat_values`` then every splits vector), and the iterable of a ``for`` loop.

Rows are computed with ordinary ops (``ragged_rows.py``), so indexing, slicing, ``from_*``
factories with ``validate=False``, arithmetic and the ops of ``ragged_dispatch.py`` run inside a
``tf.function`` as well; ``numpy()``, ``to_list()``, ``to_tensor()``, ``to_sparse()``,
``from_tensor`` and ``from_sparse`` run eagerly (inside a function they say so).  Printing
follows TensorFlow (``<tf.RaggedTensor [[1, 2], [3]]>``; in a graph
``tf.RaggedTensor(values=..., row_splits=...)``).  ``tf.sparse`` lives in ``sparse_ops.py``.
"""

from __future__ import annotations

import numpy as np

from .. import dtypes as _dt
from ..errors import InvalidArgumentError
from ..shapes import TensorShape, TensorSpec
from . import convert, math_ops, ragged_rows, shape_ops
from ._core import using_interpreter
from .composite import CompositeTensor, TypeSpec
from .sparse_ops import SparseTensor, SparseTensorSpec, to_dense  # noqa: F401 - re-exported

I64 = _dt.int64


def _eager_const(arr, dtype=None):
    with using_interpreter(None):
        return convert.constant(arr, dtype)


def _eager(t) -> bool:
    return hasattr(t, "numpy")


class RaggedTensorSpec(TypeSpec):
    """``tf.RaggedTensorSpec``: shape (``[nrows, None, ...]``), dtype, ragged rank, splits dtype."""

    @property
    def value_type(self):
        """The class of the values this spec describes: RaggedTensor."""
        return RaggedTensor

    def __init__(self, shape=None, dtype=_dt.float32, ragged_rank=None,
                 row_splits_dtype=_dt.int64, flat_values_spec=None):
        super().__init__(shape, _dt.as_dtype(dtype))
        rank = self._shape.rank
        if ragged_rank is None:
            if rank is None:
                raise ValueError("Must specify ragged_rank or a shape with a known rank.")
            ragged_rank = rank - 1
        if rank is not None and not 0 <= ragged_rank < max(rank, 1):
            raise ValueError(f"ragged_rank must be non-negative and less than rank; got "
                             f"ragged_rank={ragged_rank}, rank={rank}")
        self._ragged_rank = int(ragged_rank)
        self._row_splits_dtype = _dt.as_dtype(row_splits_dtype)
        if self._row_splits_dtype is not I64:
            raise NotImplementedError("tfgraph_edu's tf.RaggedTensorSpec takes "
                                      "row_splits_dtype=tf.int64 only yet.")
        if flat_values_spec is not None:
            raise NotImplementedError("tfgraph_edu's tf.RaggedTensorSpec does not take "
                                      "flat_values_spec yet.")

    ragged_rank = property(lambda self: self._ragged_rank)
    row_splits_dtype = property(lambda self: self._row_splits_dtype)

    @staticmethod
    def _with_shape(spec, shape):
        return RaggedTensorSpec(shape, spec.dtype, spec._ragged_rank, spec._row_splits_dtype)

    def _key(self):
        return super()._key() + (self._ragged_rank, self._row_splits_dtype.name)

    def _component_specs(self):
        dims, r = self._shape.dims, self._ragged_rank
        if r == 0:  # a dense tensor (TF's spec of a 1-D slice of a ragged tensor)
            return [TensorSpec(self._shape, self._dtype)]
        nrows = dims[0] if dims else None
        inner = dims[r + 1:] if dims is not None else None
        flat = TensorSpec([None] + list(inner) if inner is not None else None, self._dtype)
        splits = [TensorSpec([None if nrows is None else nrows + 1], self._row_splits_dtype)]
        return [flat] + splits + [TensorSpec([None], self._row_splits_dtype)] * (r - 1)

    def _from_components(self, components):
        if self._ragged_rank == 0:
            return components[0]
        return RaggedTensor.from_nested_row_splits(components[0], components[1:],
                                                   validate=False)

    def __repr__(self):
        return (f"RaggedTensorSpec({self._shape!r}, tf.{self._dtype.name}, "
                f"{self._ragged_rank}, tf.{self._row_splits_dtype.name})")


def _formatter(x) -> str:
    """TF's element printer: arrays with ", " between items, an empty one as its list."""
    if isinstance(x, np.ndarray):
        return np.array2string(x, separator=", ") if x.size else repr(x.tolist())
    return str(x)


def _invalid(api):
    del api  # TF's factories all check through one function, named in its message
    return InvalidArgumentError(None, None, "Arguments to _from_row_partition do not form a "
                                            "valid RaggedTensor")


class RaggedTensor(CompositeTensor):
    """Rows of varying length: ``values`` (a tensor or a RaggedTensor) cut at ``row_splits``."""

    def __init__(self, values, row_splits, uniform_row_length=None):
        self._values = values
        self._row_splits = row_splits
        self._uniform_row_length = uniform_row_length  # a Python int, or None

    # -- factories ------------------------------------------------------------------------------
    @staticmethod
    def _values_of(values):
        return values if isinstance(values, RaggedTensor) else convert.to_tensor(values)

    @classmethod
    def from_row_splits(cls, values, row_splits, name=None, validate=True):
        values = cls._values_of(values)
        splits = ragged_rows.int64(row_splits)
        if splits.shape.rank not in (None, 1):
            raise ValueError("row_splits must be a vector (rank 1).")
        if validate and _eager(splits):
            s = splits.numpy()
            n = ragged_rows.nvals(values)
            n = int(n.numpy()) if _eager(n) else None
            if (s.size == 0 or s[0] != 0 or np.any(np.diff(s) < 0)
                    or (n is not None and s[-1] != n)):
                raise _invalid("from_row_splits")
        return cls(values, splits)

    @classmethod
    def from_row_lengths(cls, values, row_lengths, name=None, validate=True):
        lengths = ragged_rows.int64(row_lengths)
        if validate and _eager(lengths) and np.any(lengths.numpy() < 0):
            raise _invalid("from_row_lengths")
        return cls.from_row_splits(values, ragged_rows.splits_from_lengths(lengths),
                                   validate=validate)

    @classmethod
    def from_value_rowids(cls, values, value_rowids, nrows=None, name=None, validate=True):
        ids = ragged_rows.int64(value_rowids)
        if nrows is None:
            nrows = math_ops.add(math_ops.maximum(ids[-1], convert.constant(-1, I64)), 1) \
                if (ids.shape.dims or [None])[0] != 0 else convert.constant(0, I64)
        nrows = ragged_rows.int64(nrows)
        if validate and _eager(ids) and _eager(nrows):
            a, n = ids.numpy(), int(nrows.numpy())
            if a.ndim != 1 or np.any(np.diff(a) < 0) or np.any(a < 0) or (a.size and a[-1] >= n):
                raise _invalid("from_value_rowids")
        from .indexing_ops import unsorted_segment_sum
        ones = math_ops.cast(math_ops.greater_equal(ids, convert.constant(0, I64)), I64)
        lengths = unsorted_segment_sum(ones, ids, nrows)
        return cls.from_row_lengths(values, lengths, validate=validate)

    @classmethod
    def from_row_starts(cls, values, row_starts, name=None, validate=True):
        values = cls._values_of(values)
        starts = ragged_rows.int64(row_starts)
        total = shape_ops.expand_dims(ragged_rows.nvals(values), 0)
        from .concat_ops import concat
        return cls.from_row_splits(values, concat([starts, total], 0), validate=validate)

    @classmethod
    def from_row_limits(cls, values, row_limits, name=None, validate=True):
        from .concat_ops import concat
        limits = ragged_rows.int64(row_limits)
        return cls.from_row_splits(values, concat([convert.constant([0], I64), limits], 0),
                                   validate=validate)

    @classmethod
    def from_uniform_row_length(cls, values, uniform_row_length, nrows=None, name=None,
                                validate=True):
        """Rows of one length (a uniform dimension, printed and shaped as TF's)."""
        values = cls._values_of(values)
        width = int(uniform_row_length)
        total = ragged_rows.nvals(values)
        if nrows is None:
            nrows = (math_ops.floordiv(total, convert.constant(width, I64)) if width
                     else convert.constant(0, I64))
        from .creation_ops import range_
        splits = math_ops.multiply(range_(0, math_ops.add(ragged_rows.int64(nrows), 1),
                                          dtype=I64), convert.constant(width, I64))
        if validate and _eager(splits) and _eager(total) and (
                int(splits.numpy()[-1]) != int(total.numpy())):
            raise _invalid("from_uniform_row_length")
        return cls(values, splits, width)

    @classmethod
    def from_nested_row_splits(cls, flat_values, nested_row_splits, name=None, validate=True):
        if isinstance(nested_row_splits, (list, tuple)) is False:
            raise TypeError("nested_row_splits must be a list of Tensors")
        result = cls._values_of(flat_values)
        for splits in reversed(list(nested_row_splits)):
            result = cls.from_row_splits(result, splits, validate=validate)
        return result

    @classmethod
    def from_nested_row_lengths(cls, flat_values, nested_row_lengths, name=None,
                                validate=True):
        result = cls._values_of(flat_values)
        for lengths in reversed(list(nested_row_lengths)):
            result = cls.from_row_lengths(result, lengths, validate=validate)
        return result

    @classmethod
    def from_nested_value_rowids(cls, flat_values, nested_value_rowids, nested_nrows=None,
                                 name=None, validate=True):
        nested_nrows = nested_nrows or [None] * len(nested_value_rowids)
        result = cls._values_of(flat_values)
        for ids, n in reversed(list(zip(nested_value_rowids, nested_nrows))):
            result = cls.from_value_rowids(result, ids, n, validate=validate)
        return result

    @classmethod
    def from_tensor(cls, tensor, lengths=None, padding=None, ragged_rank=1, name=None,
                    row_splits_dtype=I64):
        """A dense tensor's rows; ``padding`` (trailing values equal to it dropped) or
        ``lengths`` (each row's length) shorten them, as TF's (eager only here)."""
        t = convert.to_tensor(tensor)
        rank = t.shape.rank
        if not _eager(t):
            raise NotImplementedError("tfgraph_edu's RaggedTensor.from_tensor runs eagerly "
                                      "only (not inside a tf.function) yet.")
        if lengths is not None and padding is not None:
            raise ValueError("Specify argument `lengths` or `padding`, but not both.")
        if not 0 < ragged_rank < rank:
            raise ValueError(f"ragged_rank must be greater than 0 and less than "
                             f"rank(tensor); got ragged_rank={ragged_rank}")
        if ragged_rank > 1 and (lengths is not None or padding is not None):
            raise NotImplementedError("tfgraph_edu's RaggedTensor.from_tensor takes lengths= "
                                      "or padding= with ragged_rank=1 only yet.")
        arr = t.numpy()
        if ragged_rank > 1:
            inner = cls.from_tensor(arr.reshape((-1,) + arr.shape[2:]),
                                    ragged_rank=ragged_rank - 1)
            return cls(inner, _eager_const(np.arange(arr.shape[0] + 1) * arr.shape[1], I64),
                       arr.shape[1])
        if lengths is not None:
            lens = np.asarray(convert.to_tensor(lengths, dtype_hint=I64).numpy(), np.int64)
            lens = np.minimum(lens, arr.shape[1])
        elif padding is not None:
            pad = np.asarray(convert.to_tensor(padding, dtype=t.dtype).numpy())
            is_pad = arr == pad
            is_pad = is_pad.reshape(is_pad.shape[:2] + (-1,)).all(axis=2)
            keep = ~is_pad
            lens = np.where(keep.any(axis=1),
                            arr.shape[1] - np.argmax(keep[:, ::-1], axis=1), 0).astype(np.int64)
        else:
            lens = np.full(arr.shape[0], arr.shape[1], np.int64)
        flat = np.concatenate([row[:n] for row, n in zip(arr, lens)]) if len(arr) else \
            arr.reshape((0,) + arr.shape[2:])
        splits = np.concatenate([[0], np.cumsum(lens)]).astype(np.int64)
        return cls(_eager_const(flat, t.dtype), _eager_const(splits, I64))

    @classmethod
    def from_sparse(cls, st_input, name=None, row_splits_dtype=I64):
        """A 2-D SparseTensor's rows (its indices in row-major order, TF's requirement)."""
        if not isinstance(st_input, SparseTensor):
            raise TypeError(f"Expected SparseTensor, got {type(st_input).__name__}")
        idx = st_input.indices.numpy()
        shape = st_input.dense_shape.numpy()
        if len(shape) != 2:
            raise ValueError("rank(st_input) must be 2.")
        rows = idx[:, 0] if idx.size else np.zeros([0], np.int64)
        if idx.size and (np.any(np.diff(rows) < 0) or np.any(
                (np.diff(rows) == 0) & (np.diff(idx[:, 1]) <= 0))):
            raise InvalidArgumentError(None, None, "SparseTensor is not right-ragged (its "
                                                   "indices are not in row-major order)")
        return cls.from_value_rowids(st_input.values, rows, nrows=int(shape[0]))

    # -- structure ------------------------------------------------------------------------------
    values = property(lambda self: self._values)
    row_splits = property(lambda self: self._row_splits)

    @property
    def flat_values(self):
        v = self._values
        while isinstance(v, RaggedTensor):
            v = v._values
        return v

    @property
    def nested_row_splits(self):
        out, rt = [], self
        while isinstance(rt, RaggedTensor):
            out.append(rt._row_splits)
            rt = rt._values
        return tuple(out)

    @property
    def ragged_rank(self) -> int:
        v = self._values
        return 1 + (v.ragged_rank if isinstance(v, RaggedTensor) else 0)

    @property
    def dtype(self):
        return self.flat_values.dtype

    @property
    def row_splits_dtype(self):
        return self._row_splits.dtype

    @property
    def uniform_row_length(self):
        if self._uniform_row_length is None:
            return None
        return convert.constant(self._uniform_row_length, I64)

    @property
    def shape(self) -> TensorShape:
        s = self._row_splits.shape
        n = s.dims[0] - 1 if s.rank == 1 and s.dims[0] is not None else None
        inner = self._values.shape
        rest = TensorShape(inner.dims[1:]) if inner.rank is not None else TensorShape(None)
        return TensorShape([n, self._uniform_row_length]).concatenate(rest)

    @property
    def _type_spec(self) -> RaggedTensorSpec:
        return RaggedTensorSpec(self.shape, self.dtype, self.ragged_rank, I64)

    def _ag_components(self):
        return [self.flat_values, *self.nested_row_splits]

    def _ag_rebuild(self, components):
        out = super()._ag_rebuild(components)
        return self._copy_uniform(out)

    def _copy_uniform(self, out):
        """``out`` (same structure) with this tensor's uniform row lengths."""
        a, b = self, out
        while isinstance(a, RaggedTensor) and isinstance(b, RaggedTensor):
            b._uniform_row_length = a._uniform_row_length
            a, b = a._values, b._values
        return out

    def with_values(self, new_values):
        return RaggedTensor(self._values_of(new_values), self._row_splits,
                            self._uniform_row_length)

    def with_flat_values(self, new_values):
        if isinstance(self._values, RaggedTensor):
            return self.with_values(self._values.with_flat_values(new_values))
        return self.with_values(new_values)

    def with_row_splits_dtype(self, dtype):
        if _dt.as_dtype(dtype) is not I64:
            raise NotImplementedError("tfgraph_edu's RaggedTensor keeps int64 row_splits only "
                                      "yet.")
        return self

    def nrows(self, out_type=None, name=None):
        n = math_ops.subtract(shape_ops.shape(self._row_splits, out_type=I64)[0],
                              convert.constant(1, I64))
        return n if out_type is None else math_ops.cast(n, out_type)

    def row_lengths(self, axis=1, name=None):
        if axis == 0:
            return self.nrows()
        if axis == 1:
            return math_ops.subtract(self._row_splits[1:], self._row_splits[:-1])
        if isinstance(self._values, RaggedTensor):
            return self.with_values(self._values.row_lengths(axis - 1))
        raise ValueError(f"axis={axis} is not a ragged dimension")

    def nested_row_lengths(self, name=None):
        return tuple(math_ops.subtract(s[1:], s[:-1]) for s in self.nested_row_splits)

    def row_starts(self, name=None):
        return self._row_splits[:-1]

    def row_limits(self, name=None):
        return self._row_splits[1:]

    def value_rowids(self, name=None):
        return ragged_rows.value_rowids(self._row_splits)

    def nested_value_rowids(self, name=None):
        return tuple(ragged_rows.value_rowids(s) for s in self.nested_row_splits)

    def bounding_shape(self, axis=None, name=None, out_type=None):
        """``[nrows, longest row, ...]`` (int64), or its entries at ``axis``."""
        from .concat_ops import stack
        from .reduction_ops import reduce_max
        dims = [self.nrows()]
        rt = self
        while isinstance(rt, RaggedTensor):
            lengths = math_ops.subtract(rt._row_splits[1:], rt._row_splits[:-1])
            longest = reduce_max(lengths) if lengths.shape.dims != [0] else \
                convert.constant(0, I64)
            dims.append(math_ops.maximum(longest, convert.constant(0, I64)))
            rt = rt._values
        flat = shape_ops.shape(rt, out_type=I64)
        dims += [flat[i] for i in range(1, rt.shape.rank)]
        out = stack(dims)
        if axis is not None:
            out = out[axis] if isinstance(axis, int) else \
                stack([out[a] for a in axis])
        return out if out_type is None else math_ops.cast(out, out_type)

    def merge_dims(self, outer_axis, inner_axis):
        """Dimensions ``outer_axis``..``inner_axis`` merged into one (ragged ones only here)."""
        rank = self.shape.rank
        if rank is not None:
            outer_axis = outer_axis + rank if outer_axis < 0 else outer_axis
            inner_axis = inner_axis + rank if inner_axis < 0 else inner_axis
        if inner_axis < outer_axis:
            raise ValueError(f"Expected outer_axis ({outer_axis}) to be less than or equal to "
                             f"inner_axis ({inner_axis})")
        if outer_axis == inner_axis:
            return self
        if inner_axis > self.ragged_rank:
            raise NotImplementedError("tfgraph_edu's RaggedTensor.merge_dims merges ragged "
                                      "dimensions only yet.")
        if outer_axis > 1:
            return self.with_values(self._values.merge_dims(outer_axis - 1, inner_axis - 1))
        if outer_axis == 1:  # rows of rows: splits composed
            from .indexing_ops import gather
            values, splits = self._values, self._row_splits
            for _ in range(inner_axis - outer_axis):
                splits = gather(values.row_splits, splits)
                values = values.values
            return RaggedTensor(values, splits)
        out = self
        for _ in range(inner_axis):
            out = out._values
        return out

    # -- NumPy and Python values (eager) ------------------------------------------------------
    def _need_eager(self, api):
        if not all(_eager(t) for t in self._ag_components()):
            raise NotImplementedError(f"tfgraph_edu's RaggedTensor {api} runs eagerly only "
                                      "(not inside a tf.function) yet.")

    def to_list(self):
        if not all(_eager(t) for t in self._ag_components()):
            raise ValueError("RaggedTensor.to_list() is only supported in eager mode.")
        splits = self._row_splits.numpy().tolist()
        if isinstance(self._values, RaggedTensor):
            inner = self._values.to_list()
        else:
            inner = self._values.numpy().tolist()
        return [inner[splits[i]:splits[i + 1]] for i in range(len(splits) - 1)]

    def numpy(self):
        """As TF's: rows of one length make one array, else an object array of rows."""
        if not all(_eager(t) for t in self._ag_components()):
            raise ValueError("RaggedTensor.numpy() is only supported in eager mode.")
        values = self._values.numpy()
        splits = self._row_splits.numpy()
        rows = [values[splits[i]:splits[i + 1]] for i in range(len(splits) - 1)]
        if not rows:
            return np.zeros((0, 0) + values.shape[1:], dtype=values.dtype)
        ragged = any(len(row) != len(rows[0]) for row in rows)
        if ragged:
            out = np.empty(len(rows), dtype=object)
            out[:] = rows
            return out
        return np.array(rows)

    def _dense_np(self, default, shape):
        """The padded NumPy array of ``to_tensor``."""
        flat = self.flat_values.numpy()
        fill = default if default is not None else (b"" if flat.dtype == object else 0)
        lists = self.to_list()
        inner = flat.shape[1:]
        dims = [len(lists)] + [0] * self.ragged_rank

        def widths(x, d):
            for row in x:
                dims[d] = max(dims[d], len(row))
                if d < self.ragged_rank:
                    widths(row, d + 1)
        for row in lists:
            if self.ragged_rank >= 1:
                dims[1] = max(dims[1], len(row))
                if self.ragged_rank > 1:
                    widths(row, 2)
        full = dims + list(inner)
        if shape is not None:
            want = list(shape.dims if isinstance(shape, TensorShape) else shape)
            if len(want) != len(full):
                raise ValueError(f"shape {want} does not match the rank {len(full)}")
            full = [f if w is None or (isinstance(w, int) and w < 0) else int(w)
                    for f, w in zip(full, want)]
        out = np.full(full, fill, dtype=flat.dtype)

        def put(x, pos, d):
            if d == self.ragged_rank + 1:
                v = np.asarray(x, dtype=flat.dtype)
                cut = tuple(slice(0, min(a, b)) for a, b in zip(v.shape, full[d:]))
                out[tuple(pos) + cut] = v[cut]
                return
            for j, row in enumerate(x[:full[d]]):
                put(row, pos + [j], d + 1)
        for i, row in enumerate(lists[:full[0]]):
            put(row, [i], 1)
        return out

    def to_tensor(self, default_value=None, name=None, shape=None):
        """A dense tensor, short rows padded with ``default_value`` (zero by default)."""
        if not all(_eager(t) for t in self._ag_components()):
            raise NotImplementedError("tfgraph_edu's RaggedTensor.to_tensor runs eagerly only "
                                      "(not inside a tf.function) yet.")
        if default_value is not None:
            default_value = convert.to_tensor(default_value, dtype=self.dtype).numpy()
        return _eager_const(self._dense_np(default_value, shape), self.dtype)

    def to_sparse(self, name=None):
        """A SparseTensor of the values at their indices, shape the bounding shape."""
        self._need_eager("to_sparse")
        idx = np.zeros([int(self.nrows().numpy()), 1], np.int64)
        idx[:, 0] = np.arange(idx.shape[0])
        rt = self
        while isinstance(rt, RaggedTensor):
            splits = rt._row_splits.numpy()
            lengths = np.diff(splits)
            cols = np.arange(int(splits[-1])) - np.repeat(splits[:-1], lengths)
            idx = np.concatenate([np.repeat(idx, lengths, axis=0), cols[:, None]], axis=1)
            rt = rt._values
        flat = rt.numpy()
        for d in flat.shape[1:]:
            idx = np.concatenate([np.repeat(idx, d, axis=0),
                                  np.tile(np.arange(d), idx.shape[0])[:, None]], axis=1)
        values = _eager_const(flat.reshape(-1), self.dtype) if flat.ndim > 1 else rt
        return SparseTensor(_eager_const(idx.astype(np.int64).reshape(-1, idx.shape[1]), I64),
                            values, self.bounding_shape())

    # -- indexing ---------------------------------------------------------------------------------
    def __getitem__(self, key):
        from . import ragged_getitem
        return ragged_getitem.getitem(self, key)

    def __iter__(self):
        if _eager(self._row_splits):
            return iter([self[i] for i in range(int(self._row_splits.shape[0]) - 1)])
        return self._graph_rows()

    def _graph_rows(self):
        """Python's iteration of a symbolic ragged tensor outside AutoGraph: as in TF, rows
        by index until the index after the last, whose slice TF refuses (ValueError)."""
        n = self.shape.dims[0]
        if n is None:
            raise TypeError("Iterating over a symbolic tf.RaggedTensor with an unknown number "
                            "of rows is not allowed outside AutoGraph.")
        for i in range(n):
            yield self[i]
        raise ValueError(f"slice index {n} of dimension 0 out of bounds.")

    # -- operators: elementwise, with TF's broadcasting (ragged_dispatch.py) ---------------------
    def _binary(self, other, fn, reverse=False):
        from . import ragged_dispatch
        args = (other, self) if reverse else (self, other)
        return ragged_dispatch.elementwise(fn, args)

    def __add__(self, o):
        return self._binary(o, math_ops.add)

    def __radd__(self, o):
        return self._binary(o, math_ops.add, True)

    def __sub__(self, o):
        return self._binary(o, math_ops.subtract)

    def __rsub__(self, o):
        return self._binary(o, math_ops.subtract, True)

    def __mul__(self, o):
        return self._binary(o, math_ops.multiply)

    def __rmul__(self, o):
        return self._binary(o, math_ops.multiply, True)

    def __truediv__(self, o):
        return self._binary(o, math_ops.truediv)

    def __rtruediv__(self, o):
        return self._binary(o, math_ops.truediv, True)

    def __floordiv__(self, o):
        return self._binary(o, math_ops.floordiv)

    def __rfloordiv__(self, o):
        return self._binary(o, math_ops.floordiv, True)

    def __mod__(self, o):
        return self._binary(o, math_ops.floormod)

    def __rmod__(self, o):
        return self._binary(o, math_ops.floormod, True)

    def __pow__(self, o):
        return self._binary(o, math_ops.pow)

    def __rpow__(self, o):
        return self._binary(o, math_ops.pow, True)

    def __lt__(self, o):
        return self._binary(o, math_ops.less)

    def __le__(self, o):
        return self._binary(o, math_ops.less_equal)

    def __gt__(self, o):
        return self._binary(o, math_ops.greater)

    def __ge__(self, o):
        return self._binary(o, math_ops.greater_equal)

    def __eq__(self, o):
        """Elementwise, as TF's; None or rows that differ give False (TF's words)."""
        if o is None:
            return False
        try:
            return self._binary(o, math_ops.equal)
        except (InvalidArgumentError, ValueError):
            return False

    def __ne__(self, o):
        if o is None:
            return True
        try:
            return self._binary(o, math_ops.not_equal)
        except (InvalidArgumentError, ValueError):
            return True

    def __hash__(self):
        raise TypeError("RaggedTensor is unhashable.")

    def __and__(self, o):
        return self._binary(o, math_ops.logical_and)

    def __or__(self, o):
        return self._binary(o, math_ops.logical_or)

    def __neg__(self):
        return self.with_flat_values(math_ops.negative(self.flat_values))

    def __abs__(self):
        return self.with_flat_values(math_ops.abs(self.flat_values))

    def __invert__(self):
        return self.with_flat_values(math_ops.logical_not(self.flat_values))

    def __bool__(self):
        raise TypeError("RaggedTensor may not be used as a boolean.")

    def __repr__(self):
        if not all(_eager(t) for t in self._ag_components()):
            return (f"tf.RaggedTensor(values={self._values!s}, "
                    f"row_splits={self._row_splits!s})")
        # TF's layout: NumPy's array2string of numpy() (rows of one length print as a
        # matrix, long rows wrap), every element as str()
        with np.printoptions(formatter={"all": _formatter}):
            return f"<tf.RaggedTensor {_formatter(self.numpy())}>"

    __str__ = __repr__


# -- tf.ragged.constant -------------------------------------------------------------------------
def _scalar_and_max_depth(x):
    """(depth of the scalars or None, depth of the deepest list), as TF finds them."""
    if isinstance(x, (list, tuple)) or (isinstance(x, np.ndarray) and x.ndim):
        scalar_depth, max_depth = None, 1
        for child in x:
            d, m = _scalar_and_max_depth(child)
            if d is not None:
                if scalar_depth is not None and scalar_depth != d + 1:
                    raise ValueError("all scalar values must have the same nesting depth")
                scalar_depth = d + 1
            max_depth = max(max_depth, m + 1)
        return scalar_depth, max_depth
    return 0, 0


def _default_inner_shape(pylist, ragged_rank):
    def inner_shape(item):
        if not isinstance(item, (list, tuple)) and np.ndim(item) == 0:
            return ()
        if len(item) > 0:
            return (len(item),) + inner_shape(item[0])
        return (0,)

    def check(item, shape):
        nested = isinstance(item, (list, tuple)) or np.ndim(item) != 0
        if nested != bool(shape):
            raise ValueError("inner values have inconsistent shape")
        if nested:
            if shape[0] != len(item):
                raise ValueError("inner values have inconsistent shape")
            for child in item:
                check(child, shape[1:])

    flat = pylist
    for dim in range(ragged_rank):
        if not all(isinstance(v, (list, tuple)) or np.ndim(v) != 0 for v in flat):
            raise ValueError(f"pylist has scalar values depth {dim + 1}, but ragged_rank="
                             f"{ragged_rank} requires scalar value depth greater than "
                             f"{ragged_rank}")
        flat = sum((list(v) for v in flat), [])
    shape = inner_shape(flat)[1:]
    check(flat, (len(flat),) + tuple(shape))
    return shape


def _flat_constant(values, dtype, shape):
    flat = [values] if False else values
    kinds = set()

    def walk(v):
        if isinstance(v, (list, tuple)):
            for c in v:
                walk(c)
        else:
            kinds.add(isinstance(v, (str, bytes)))
    walk(flat)
    if len(kinds) > 1:  # TF's error for strings mixed with numbers
        raise ValueError("Can't convert Python sequence with mixed types to Tensor.")
    if not flat:
        return convert.constant(np.zeros(shape, (dtype or _dt.float32).np_dtype), dtype)
    t = convert.constant(flat, dtype)
    if tuple(t.shape.dims) != tuple(shape):
        t = shape_ops.reshape(t, list(shape))
    return t


def constant(pylist, dtype=None, ragged_rank=None, inner_shape=None, name=None,
             row_splits_dtype=I64):
    """``tf.ragged.constant``: a RaggedTensor from a nested list with rows of any length."""
    if dtype is not None:
        dtype = _dt.as_dtype(dtype)
    if isinstance(pylist, RaggedTensor):
        raise TypeError("pylist may not be a RaggedTensor.")
    if not isinstance(pylist, (list, tuple)) and np.ndim(pylist) == 0:
        if ragged_rank is not None and ragged_rank != 0:
            raise ValueError(f"Invalid pylist={pylist!r}: incompatible with "
                             f"ragged_rank={ragged_rank}")
        return convert.constant(pylist, dtype)
    scalar_depth, max_depth = _scalar_and_max_depth(pylist)
    if scalar_depth is not None and max_depth > scalar_depth:
        raise ValueError(f"Invalid pylist={pylist!r}: empty list nesting is greater than "
                         "scalar value nesting")
    if ragged_rank is not None and max_depth < ragged_rank:
        raise ValueError(f"Invalid pylist={pylist!r}, max depth smaller than ragged_rank="
                         f"{ragged_rank}")
    if inner_shape is not None and ragged_rank is not None:
        expected = ragged_rank + len(inner_shape) + 1
        if ((scalar_depth is not None and expected != scalar_depth)
                or (scalar_depth is None and expected < max_depth)):
            raise ValueError(f"Invalid pylist={pylist!r}: incompatible with ragged_rank="
                             f"{ragged_rank} and dim(inner_shape)={len(inner_shape)}")
    if ragged_rank == 0 or (ragged_rank is None and (
            max_depth < 2 or (inner_shape is not None and max_depth - len(inner_shape) < 2))):
        return _flat_constant(list(pylist), dtype, inner_shape if inner_shape is not None
                              else np.shape(pylist))
    if inner_shape is None:
        inner_shape = () if ragged_rank is None else _default_inner_shape(pylist, ragged_rank)
    inner_shape = tuple(inner_shape)
    if ragged_rank is None:
        ragged_rank = max(1, (max_depth if scalar_depth is None else scalar_depth)
                          - 1 - (0 if scalar_depth is None else len(inner_shape)))
    nested_splits, values = [], list(pylist)
    for _ in range(ragged_rank):
        splits, flat = [0], []
        for row in values:
            splits.append(splits[-1] + len(row))
            flat.extend(row)
        nested_splits.append(splits)
        values = flat
    flat_values = _flat_constant(values, dtype, (len(values),) + inner_shape)
    # constants of the current interpreter: Const nodes inside a tf.function, as in TF
    result = flat_values
    for splits in reversed(nested_splits):
        result = RaggedTensor(result, convert.constant(np.asarray(splits, np.int64), I64))
    return result


def constant_value(pylist, dtype=None, ragged_rank=None, inner_shape=None,
                   row_splits_dtype="int64"):
    raise NotImplementedError("tfgraph_edu does not implement tf.ragged.constant_value "
                              "(RaggedTensorValue) yet; use tf.ragged.constant.")


def ragged_from_rows(rows, dtype, inner=()):
    """Rows of numpy arrays as a RaggedTensor (for ops whose batch result is ragged)."""
    flat = np.concatenate(rows) if rows else np.zeros([0, *inner], dtype.np_dtype)
    if dtype is _dt.string:
        flat = np.asarray(flat, dtype=object)
    splits = np.concatenate([[0], np.cumsum([len(r) for r in rows])]).astype(np.int64)
    return RaggedTensor(_eager_const(flat, dtype), _eager_const(splits, I64))
