"""``tf.RaggedTensor``: rows of different lengths, eagerly and in graphs.

A ragged tensor is a composite value (see ``composite.py``): ``values`` plus ``row_splits``
(row ``i`` is ``values[row_splits[i]:row_splits[i + 1]]``).  It can be a loop variable, a
tf.function argument or result, and the iterable of a ``for`` loop in a tf.function (a loop
over its rows), as in TF; printing follows TensorFlow.

Deliberate departure: only one ragged dimension (2-D ragged tensors); arithmetic takes a
scalar, an ``[nrows, 1]`` tensor or a ragged tensor with the same row lengths; ``to_tensor``,
slicing (``rt[i, j]``, ``rt[:, a:b]``, ``rt[a:b]``), the ``from_*`` factories, ``to_sparse``
and ``bounding_shape`` run eagerly only.  Anything else raises NotImplementedError naming
the API.  ``tf.sparse`` lives in ``sparse_ops.py``.
"""

from __future__ import annotations

import numpy as np

from .. import dtypes as _dt
from ..errors import InvalidArgumentError
from ..shapes import TensorShape, TensorSpec
from . import convert, math_ops, shape_ops
from ._core import using_interpreter
from .composite import CompositeTensor, TypeSpec
from .sparse_ops import SparseTensor, SparseTensorSpec, to_dense  # noqa: F401 - re-exported


def _eager_const(arr, dtype=None):
    with using_interpreter(None):
        return convert.constant(arr, dtype)


class RaggedTensorSpec(TypeSpec):
    """``tf.RaggedTensorSpec``: shape (``[nrows, None, ...]``), dtype, ragged rank, splits dtype."""

    def __init__(self, shape=None, dtype=_dt.float32, ragged_rank=None,
                 row_splits_dtype=_dt.int64, flat_values_spec=None):
        super().__init__(shape, _dt.as_dtype(dtype))
        rank = self._shape.rank
        self._ragged_rank = ragged_rank if ragged_rank is not None else (
            rank - 1 if rank is not None else 1)
        self._row_splits_dtype = _dt.as_dtype(row_splits_dtype)
        if self._ragged_rank != 1:
            raise NotImplementedError("tfgraph_edu's tf.RaggedTensorSpec has one ragged "
                                      "dimension (ragged_rank=1).")

    @staticmethod
    def _with_shape(spec, shape):
        return RaggedTensorSpec(shape, spec.dtype, spec._ragged_rank, spec._row_splits_dtype)

    def _key(self):
        return super()._key() + (self._ragged_rank, self._row_splits_dtype.name)

    def _component_specs(self):
        dims = self._shape.dims
        nrows = dims[0] if dims else None
        inner = dims[2:] if dims is not None else None
        return [TensorSpec([None] + list(inner) if inner is not None else None, self._dtype),
                TensorSpec([None if nrows is None else nrows + 1], self._row_splits_dtype)]

    def _from_components(self, components):
        return RaggedTensor(components[0], components[1])

    def __repr__(self):
        return (f"RaggedTensorSpec({self._shape!r}, tf.{self._dtype.name}, "
                f"{self._ragged_rank}, tf.{self._row_splits_dtype.name})")


def _formatter(x) -> str:
    if isinstance(x, np.ndarray):
        return np.array2string(x, separator=", ") if x.size else repr(x.tolist())
    return str(x)


def _eager(t) -> bool:
    return hasattr(t, "numpy")


class RaggedTensor(CompositeTensor):
    """Rows of varying length: ``values`` cut at ``row_splits``."""

    def __init__(self, values, row_splits):
        self._values = values
        self._row_splits = row_splits

    @classmethod
    def from_row_splits(cls, values, row_splits, validate=True):
        values = convert.to_tensor(values)
        splits = np.asarray(convert.to_tensor(row_splits, dtype=_dt.int64).numpy())
        if validate and (splits.ndim != 1 or splits.size == 0 or splits[0] != 0
                         or np.any(np.diff(splits) < 0) or splits[-1] != values.shape[0]):
            raise InvalidArgumentError(None, None, "Arguments to from_row_splits do not form "
                                                   "a valid RaggedTensor")
        return cls(values, _eager_const(splits, _dt.int64))

    @classmethod
    def from_row_lengths(cls, values, row_lengths, validate=True):
        lengths = np.asarray(convert.to_tensor(row_lengths, dtype=_dt.int64).numpy())
        return cls.from_row_splits(values, np.concatenate([[0], np.cumsum(lengths)]), validate)

    @classmethod
    def from_value_rowids(cls, values, value_rowids, nrows=None, validate=True):
        ids = np.asarray(convert.to_tensor(value_rowids, dtype=_dt.int64).numpy())
        n = int(nrows) if nrows is not None else (int(ids[-1]) + 1 if ids.size else 0)
        if validate and (ids.ndim != 1 or np.any(np.diff(ids) < 0) or np.any(ids < 0)
                         or (ids.size and ids[-1] >= n)):
            raise InvalidArgumentError(None, None, "Arguments to from_value_rowids do not form "
                                                   "a valid RaggedTensor")
        lengths = np.bincount(ids, minlength=n)[:n] if ids.size else np.zeros(n, np.int64)
        return cls.from_row_lengths(values, lengths, validate)

    @classmethod
    def from_row_starts(cls, values, row_starts, validate=True):
        starts = np.asarray(convert.to_tensor(row_starts, dtype=_dt.int64).numpy())
        n_values = convert.to_tensor(values).shape.dims[0]
        return cls.from_row_splits(values, np.concatenate([starts, [n_values]]), validate)

    @classmethod
    def from_row_limits(cls, values, row_limits, validate=True):
        limits = np.asarray(convert.to_tensor(row_limits, dtype=_dt.int64).numpy())
        return cls.from_row_splits(values, np.concatenate([[0], limits]), validate)

    @classmethod
    def from_uniform_row_length(cls, values, uniform_row_length, nrows=None, validate=True):
        """Rows of one length; printed as TF prints it (a matrix), here a ragged dimension."""
        values = convert.to_tensor(values)
        width = int(uniform_row_length)
        total = values.shape.dims[0]
        n = int(nrows) if nrows is not None else (total // width if width else 0)
        return cls.from_row_splits(values, np.arange(n + 1) * width, validate)

    @classmethod
    def from_tensor(cls, tensor, lengths=None, padding=None, ragged_rank=1):
        """Rows of a 2-D tensor; ``padding`` (trailing values equal to it dropped) or
        ``lengths`` (each row's length) shorten them, as TF's."""
        if ragged_rank != 1:
            raise NotImplementedError("tfgraph_edu's RaggedTensor.from_tensor takes "
                                      "ragged_rank=1 yet.")
        t = convert.to_tensor(tensor)
        if t.shape.rank != 2 or not _eager(t):
            raise NotImplementedError("tfgraph_edu's RaggedTensor.from_tensor takes an eager "
                                      "2-D tensor yet.")
        arr = t.numpy()
        if lengths is not None and padding is not None:
            raise ValueError("Specify lengths or padding, but not both")
        if lengths is not None:
            lens = np.asarray(convert.to_tensor(lengths, dtype=_dt.int64).numpy())
        elif padding is not None:
            pad = convert.to_tensor(padding, dtype=t.dtype).numpy()
            lens = []
            for row in arr:
                keep = len(row)
                while keep and row[keep - 1] == pad:
                    keep -= 1
                lens.append(keep)
            lens = np.asarray(lens, np.int64)
        else:
            lens = np.full(arr.shape[0], arr.shape[1], np.int64)
        return ragged_from_rows([row[:n] for row, n in zip(arr, lens)], t.dtype)

    @classmethod
    def from_sparse(cls, st_input, name=None, row_splits_dtype=_dt.int64):
        """A 2-D SparseTensor's rows (its indices in row-major order, TF's requirement)."""
        if not isinstance(st_input, SparseTensor):
            raise TypeError(f"st_input must be a SparseTensor, got {type(st_input).__name__}")
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

    def bounding_shape(self, axis=None, name=None, out_type=None):
        """``[nrows, longest row, ...]`` (int64), or one of its entries."""
        self._need_eager("bounding_shape")
        splits = self._row_splits.numpy()
        lengths = np.diff(splits)
        shape = [len(splits) - 1, int(lengths.max()) if lengths.size else 0]
        shape += list(self._values.shape.dims[1:])
        out = np.asarray(shape if axis is None else shape[axis], np.int64)
        return _eager_const(out, out_type or _dt.int64)

    def to_sparse(self, name=None):
        """A SparseTensor of the values at ``[row, column]``, shape the bounding shape."""
        self._need_eager("to_sparse")
        if self._values.shape.rank != 1:
            raise NotImplementedError("tfgraph_edu's RaggedTensor.to_sparse takes 2-D ragged "
                                      "tensors yet.")
        splits = self._row_splits.numpy()
        lengths = np.diff(splits)
        rows = np.repeat(np.arange(len(lengths)), lengths)
        cols = np.arange(int(splits[-1])) - np.repeat(splits[:-1], lengths)
        indices = np.stack([rows, cols], axis=1).astype(np.int64).reshape(-1, 2)
        return SparseTensor(_eager_const(indices, _dt.int64), self._values,
                            self.bounding_shape())

    values = property(lambda self: self._values)
    flat_values = property(lambda self: self._values)
    row_splits = property(lambda self: self._row_splits)
    dtype = property(lambda self: self._values.dtype)

    @property
    def shape(self) -> TensorShape:
        n = self._row_splits.shape.dims[0] if self._row_splits.shape.rank == 1 else None
        inner = self._values.shape
        rest = TensorShape(inner.dims[1:]) if inner.rank is not None else TensorShape(None)
        return TensorShape([None if n is None else n - 1, None]).concatenate(rest)

    @property
    def ragged_rank(self) -> int:
        return 1

    @property
    def _type_spec(self) -> RaggedTensorSpec:
        return RaggedTensorSpec(self.shape, self.dtype, 1, self._row_splits.dtype)

    def _ag_components(self):
        return [self._values, self._row_splits]

    def nrows(self, out_type=None, name=None):
        n = shape_ops.shape(self._row_splits, out_type=_dt.int64)[0] - 1
        return n if out_type is None else math_ops.cast(n, out_type)

    def row_lengths(self, axis=1, name=None):
        return self._row_splits[1:] - self._row_splits[:-1]

    def to_list(self):
        if not _eager(self._values):
            raise ValueError("RaggedTensor.to_list() is only supported in eager mode.")
        vals = self._values.numpy()
        splits = self._row_splits.numpy()
        return [vals[splits[i]:splits[i + 1]].tolist() for i in range(len(splits) - 1)]

    def numpy(self):
        """As TF's: rows of one length make one array, else an object array of rows."""
        if not _eager(self._values):
            raise ValueError("RaggedTensor.numpy() is only supported in eager mode.")
        vals, splits = self._values.numpy(), self._row_splits.numpy()
        rows = [vals[splits[i]:splits[i + 1]] for i in range(len(splits) - 1)]
        if not rows:
            return np.zeros((0, 0) + vals.shape[1:], dtype=vals.dtype)
        if len({len(r) for r in rows}) == 1:
            return np.stack(rows)
        out = np.empty(len(rows), dtype=object)
        out[:] = rows
        return out

    def to_tensor(self, default_value=None, name=None, shape=None):
        """A dense tensor, short rows padded with ``default_value`` (zero by default)."""
        if not _eager(self._values):
            raise NotImplementedError("tfgraph_edu's RaggedTensor.to_tensor runs eagerly only "
                                      "(not inside a tf.function) yet.")
        splits = self._row_splits.numpy()
        nrows = len(splits) - 1
        want_rows, want_width = (None, None) if shape is None else (
            list(shape) + [None, None])[:2]
        if shape is not None and len(list(shape)) > 2:
            raise NotImplementedError("tfgraph_edu's RaggedTensor.to_tensor takes a shape of "
                                      "two dimensions yet.")
        # TF: a given shape drops rows and values past it, and pads up to it
        n_out = nrows if want_rows is None else int(want_rows)
        kept = range(min(nrows, n_out))
        width = (max((int(splits[i + 1] - splits[i]) for i in kept), default=0)
                 if want_width is None else int(want_width))
        vals = self._values.numpy()
        fill = default_value if default_value is not None else (
            b"" if vals.dtype == object else 0)
        out = np.full((n_out, width) + vals.shape[1:], fill, dtype=vals.dtype)
        for i in kept:
            n = min(int(splits[i + 1] - splits[i]), width)
            out[i, :n] = vals[splits[i]:splits[i] + n]
        return _eager_const(out, self.dtype)

    # -- rows ----------------------------------------------------------------------------------
    def __getitem__(self, key):
        if isinstance(key, tuple) and len(key) == 1:
            key = key[0]
        if isinstance(key, tuple):
            if len(key) > 2:
                raise NotImplementedError("tfgraph_edu's RaggedTensor[...] takes at most two "
                                          "indices (one ragged dimension) yet.")
            rows, cols = key
            if isinstance(cols, slice) and cols == slice(None):
                return self[rows]
            return self._index_columns(rows, cols)
        if isinstance(key, slice):
            return self._row_slice(key)
        if not (isinstance(key, (int, np.integer)) or convert.is_tensor(key)):
            raise NotImplementedError("tfgraph_edu's RaggedTensor[...] takes a row index (an "
                                      "int or a scalar tensor) or slices yet.")
        if isinstance(key, (int, np.integer)) and _eager(self._row_splits):
            n = int(self._row_splits.shape[0]) - 1
            if not -n <= key < n:
                raise InvalidArgumentError(None, None, f"slice index {key} of dimension 0 out "
                                                       f"of bounds.")
            key = key % n
        i = convert.to_tensor(key)
        start = self._row_splits[i]
        stop = self._row_splits[i + 1]
        return self._values[start:stop]

    def _need_eager(self, api):
        if not (_eager(self._values) and _eager(self._row_splits)):
            raise NotImplementedError(f"tfgraph_edu's RaggedTensor {api} runs eagerly only "
                                      "(not inside a tf.function) yet.")

    def _rows_np(self):
        vals, splits = self._values.numpy(), self._row_splits.numpy()
        return [vals[splits[i]:splits[i + 1]] for i in range(len(splits) - 1)], vals

    def _row_slice(self, key):
        """``rt[a:b:c]``: the rows picked, as a RaggedTensor (TF's)."""
        self._need_eager("[a:b] of rows")
        rows, vals = self._rows_np()
        return ragged_from_rows(rows[key], self.dtype, vals.shape[1:])

    def _index_columns(self, rows, cols):
        """``rt[i, j]`` (a value), ``rt[rows, a:b]`` (each row sliced), as TF's."""
        self._need_eager("[rows, columns]")
        if isinstance(cols, slice):
            picked = self[rows] if isinstance(rows, slice) else None
            if picked is None:  # rt[i, a:b]: a row, then a slice of it
                return self[rows][cols]
            prow, vals = picked._rows_np()
            return ragged_from_rows([r[cols] for r in prow], self.dtype, vals.shape[1:])
        if isinstance(rows, slice) or not isinstance(cols, (int, np.integer)):
            raise ValueError("Cannot index into an inner ragged dimension.")
        row = self[rows]
        return row[cols]

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

    def __len__(self):
        if self.shape.dims[0] is None:
            raise TypeError("len() of a RaggedTensor with an unknown number of rows.")
        return self.shape.dims[0]

    # -- element-wise arithmetic ---------------------------------------------------------------
    def _elementwise(self, other, fn, api):
        if isinstance(other, RaggedTensor):
            if other._row_splits is not self._row_splits:
                self._need_eager(f"{api} RaggedTensor with other row_splits")
                other._need_eager(f"{api} RaggedTensor with other row_splits")
                a, b = self._row_splits.numpy(), other._row_splits.numpy()
                if a.shape != b.shape:
                    raise InvalidArgumentError(
                        None, None, "Condition x == y did not hold. The two ragged tensors "
                        f"have different numbers of rows ({a.size - 1} and {b.size - 1}).")
                if (a != b).any():  # TF's assert_equal message on the row_splits
                    diff = np.nonzero(a != b)[0][:3]
                    raise InvalidArgumentError(
                        None, None, "Condition x == y did not hold.\n"
                        f"Indices of first {diff.size} different values:\n{diff[:, None]}\n"
                        f"Corresponding x values:\n{a[diff]}\n"
                        f"Corresponding y values:\n{b[diff]}\n"
                        f"First 3 elements of x:\n{a[:3]}\nFirst 3 elements of y:\n{b[:3]}")
            return RaggedTensor(fn(self._values, other._values), self._row_splits)
        other_t = convert.to_tensor(other, dtype=self.dtype) if not convert.is_tensor(
            other) else other
        if other_t.shape.rank != 0:
            dims = other_t.shape.dims
            n = self.shape.dims[0]
            if (self._values.shape.rank == 1 and dims is not None and len(dims) == 2
                    and dims[1] == 1 and n is not None and dims[0] == n):
                self._need_eager(f"{api} a column tensor")
                # one value per row (an [nrows, 1] tensor): repeated along each row, as TF
                lengths = np.diff(self._row_splits.numpy())
                per_value = _eager_const(np.repeat(other_t.numpy()[:, 0], lengths),
                                         other_t.dtype)
                return RaggedTensor(fn(self._values, per_value), self._row_splits)
            raise NotImplementedError(f"tfgraph_edu's RaggedTensor {api} takes a scalar, an "
                                      "[nrows, 1] tensor or a RaggedTensor with the same row "
                                      "lengths yet.")
        return RaggedTensor(fn(self._values, other_t), self._row_splits)

    def __add__(self, o):
        return self._elementwise(o, math_ops.add, "+")

    def __radd__(self, o):
        return self._elementwise(o, lambda a, b: math_ops.add(b, a), "+")

    def __sub__(self, o):
        return self._elementwise(o, math_ops.subtract, "-")

    def __rsub__(self, o):
        return self._elementwise(o, lambda a, b: math_ops.subtract(b, a), "-")

    def __mul__(self, o):
        return self._elementwise(o, math_ops.multiply, "*")

    def __rmul__(self, o):
        return self._elementwise(o, lambda a, b: math_ops.multiply(b, a), "*")

    def __mod__(self, o):
        return self._elementwise(o, math_ops.floormod, "%")

    def __repr__(self):
        if not _eager(self._values):
            return (f"tf.RaggedTensor(values={self._values!s}, "
                    f"row_splits={self._row_splits!s})")
        # TF's layout: NumPy's array2string of numpy() (rows of one length print as a
        # matrix, long rows wrap), every element as str()
        with np.printoptions(formatter={"all": _formatter}):
            return f"<tf.RaggedTensor {_formatter(self.numpy())}>"

    __str__ = __repr__


def _depths(x, d=0):
    """The nesting depth of every scalar of a nested list."""
    if isinstance(x, (list, tuple)):
        out = set()
        for v in x:
            out |= _depths(v, d + 1)
        return out
    return {d}


def constant(pylist, dtype=None, ragged_rank=None, inner_shape=None, name=None,
             row_splits_dtype=_dt.int64):
    """``tf.ragged.constant``: a RaggedTensor from a nested list with rows of any length."""
    if not isinstance(pylist, (list, tuple)):
        return convert.constant(pylist, dtype)
    depths = _depths(pylist)
    if len(depths) > 1:  # TF's words
        raise ValueError("all scalar values must have the same nesting depth")
    if depths and max(depths) > 2:
        raise NotImplementedError("tfgraph_edu's tf.ragged.constant takes two levels of "
                                  "nesting (one ragged dimension).")
    rows = [list(r) if isinstance(r, (list, tuple)) else [r] for r in pylist]
    flat = [x for r in rows for x in r]
    kinds = {isinstance(x, (str, bytes)) for x in flat}
    if len(kinds) > 1:  # TF's error for strings mixed with numbers
        raise ValueError("Can't convert Python sequence with mixed types to Tensor.")
    # constants of the current interpreter: Const nodes inside a tf.function, as in TF
    values = convert.constant(flat if flat else np.zeros([0], np.float32), dtype)
    splits = np.concatenate([[0], np.cumsum([len(r) for r in rows])]).astype(np.int64)
    return RaggedTensor(values, convert.constant(splits, _dt.int64))


def ragged_from_rows(rows, dtype, inner=()):
    """Rows of numpy arrays as a RaggedTensor (for ops whose batch result is ragged)."""
    flat = np.concatenate(rows) if rows else np.zeros([0, *inner], dtype.np_dtype)
    if dtype is _dt.string:
        flat = np.asarray(flat, dtype=object)
    splits = np.concatenate([[0], np.cumsum([len(r) for r in rows])]).astype(np.int64)
    return RaggedTensor(_eager_const(flat, dtype), _eager_const(splits, _dt.int64))
