"""``tf.RaggedTensor`` (rows of different lengths) and ``tf.sparse.SparseTensor``, eagerly.

Both are composite values built from ordinary tensors: a ragged tensor is ``values`` plus
``row_splits`` (row ``i`` is ``values[row_splits[i]:row_splits[i + 1]]``), a sparse tensor is
``indices``, ``values`` and ``dense_shape``.  Printing follows TensorFlow.

Deliberate departure: only one ragged dimension (2-D ragged tensors), and neither type is
carried through graph control flow or out of a tf.function (NotImplementedError naming the
API, never a dropped value).
"""

from __future__ import annotations

import numpy as np

from .. import dtypes as _dt
from ..errors import InvalidArgumentError
from ..shapes import TensorShape
from . import convert
from ._core import bind, define, interpreter, using_interpreter


class _NotInGraphs:
    """tfgraph_edu's composite tensors live eagerly: as the state of a tensor loop or ``if``
    and as a tf.function's result they raise NotImplementedError naming the API (TF carries
    them there; we do not yet, and never silently drop them)."""

    _api = ""

    def _refuse_in_graph(self, where):
        raise NotImplementedError(
            f"{self._api} {where} is not supported by tfgraph_edu yet (TensorFlow carries it "
            "as its component tensors). Convert it first (tf.sparse.to_dense, "
            "RaggedTensor.to_tensor), or keep the composite work outside the tf.function.")

    def _ag_components(self):
        if not interpreter().executing_eagerly:
            self._refuse_in_graph("as the state of a tensor loop or `if` in a graph")
        return [self]

    def _ag_rebuild(self, flat):
        return flat[0]


def _eager_const(arr, dtype=None):
    with using_interpreter(None):
        return convert.constant(arr, dtype)


class RaggedTensor(_NotInGraphs):
    """Rows of varying length: ``values`` cut at ``row_splits``."""

    _api = "tf.RaggedTensor"

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

    values = property(lambda self: self._values)
    flat_values = property(lambda self: self._values)
    row_splits = property(lambda self: self._row_splits)
    dtype = property(lambda self: self._values.dtype)

    @property
    def shape(self) -> TensorShape:
        nrows = int(self._row_splits.shape[0]) - 1
        return TensorShape([nrows, None]).concatenate(self._values.shape.dims[1:])

    @property
    def ragged_rank(self) -> int:
        return 1

    def nrows(self):
        return _eager_const(np.int64(int(self._row_splits.shape[0]) - 1))

    def row_lengths(self):
        return _eager_const(np.diff(self._row_splits.numpy()).astype(np.int64))

    def to_list(self):
        vals = self._values.numpy()
        splits = self._row_splits.numpy()
        return [vals[splits[i]:splits[i + 1]].tolist() for i in range(len(splits) - 1)]

    def to_tensor(self, default_value=None):
        """A dense tensor, short rows padded with ``default_value`` (zero by default)."""
        rows = self.to_list()
        width = max((len(r) for r in rows), default=0)
        vals = self._values.numpy()
        fill = default_value if default_value is not None else (
            b"" if vals.dtype == object else 0)
        out = np.full((len(rows), width) + vals.shape[1:], fill, dtype=vals.dtype)
        splits = self._row_splits.numpy()
        for i in range(len(rows)):
            out[i, :splits[i + 1] - splits[i]] = vals[splits[i]:splits[i + 1]]
        return _eager_const(out, self.dtype)

    def __repr__(self):
        return f"<tf.RaggedTensor {self.to_list()!r}>"

    __str__ = __repr__

    def _tf_function_arg(self):
        raise TypeError("tfgraph_edu does not pass tf.RaggedTensor into a tf.function; call "
                        "to_tensor() first, or keep the ragged work outside the function.")


def constant(pylist, dtype=None, ragged_rank=None, inner_shape=None, name=None,
             row_splits_dtype=_dt.int64):
    """``tf.ragged.constant``: a RaggedTensor from a nested list with rows of any length."""
    if not isinstance(pylist, (list, tuple)):
        return convert.constant(pylist, dtype)
    if any(isinstance(r, (list, tuple)) and any(isinstance(x, (list, tuple)) for x in r)
           for r in pylist):
        raise NotImplementedError("tfgraph_edu's tf.ragged.constant takes two levels of "
                                  "nesting (one ragged dimension).")
    rows = [list(r) if isinstance(r, (list, tuple)) else [r] for r in pylist]
    flat = [x for r in rows for x in r]
    values = _eager_const(flat if flat else np.zeros([0], np.float32), dtype)
    splits = np.concatenate([[0], np.cumsum([len(r) for r in rows])]).astype(np.int64)
    return RaggedTensor(values, _eager_const(splits, _dt.int64))


def ragged_from_rows(rows, dtype):
    """Rows of numpy arrays as a RaggedTensor (for ops whose batch result is ragged)."""
    flat = np.concatenate(rows) if rows else np.zeros([0], dtype.np_dtype)
    if dtype is _dt.string:
        flat = np.asarray(flat, dtype=object)
    splits = np.concatenate([[0], np.cumsum([len(r) for r in rows])]).astype(np.int64)
    return RaggedTensor(_eager_const(flat, dtype), _eager_const(splits, _dt.int64))


# -- sparse ---------------------------------------------------------------------------------
def _sparse_to_dense_kernel(indices, output_shape, values, default_value, validate_indices=True):
    out = np.full(tuple(int(d) for d in output_shape), default_value, dtype=values.dtype)
    vals = np.broadcast_to(values, (indices.shape[0],))
    for idx, v in zip(indices, vals):
        if any(i < 0 or i >= d for i, d in zip(idx, out.shape)):
            raise InvalidArgumentError(None, None, f"indices[{list(idx)}] is out of bounds: "
                                                   f"need 0 <= index < {list(out.shape)}")
        out[tuple(idx)] = v
    return out


def _sparse_to_dense_shape(indices, output_shape, values, default_value, **_):
    from ._core import constant_value
    shape = constant_value(output_shape)
    return TensorShape(None if shape is None else [int(d) for d in shape]), values.dtype


SparseToDense = define("SparseToDense", ("sparse_indices", "output_shape", "sparse_values",
                                         "default_value"),
                       _sparse_to_dense_kernel, _sparse_to_dense_shape, None, T=(2, 3))


class SparseTensor(_NotInGraphs):
    """``tf.sparse.SparseTensor``: the non-zero ``values`` at ``indices`` of ``dense_shape``."""

    _api = "tf.sparse.SparseTensor"

    def __init__(self, indices, values, dense_shape):
        self.indices = convert.to_tensor(indices, dtype=_dt.int64)
        self.values = convert.to_tensor(values)
        self.dense_shape = convert.to_tensor(dense_shape, dtype=_dt.int64)

    dtype = property(lambda self: self.values.dtype)

    @property
    def shape(self) -> TensorShape:
        return TensorShape([int(d) for d in self.dense_shape.numpy()])

    def __repr__(self):
        return (f"SparseTensor(indices={self.indices!s}, values={self.values!s}, "
                f"dense_shape={self.dense_shape!s})")

    __str__ = __repr__


def to_dense(sp_input, default_value=None, validate_indices=True, name=None):
    """``tf.sparse.to_dense``: the dense tensor, zeros (or ``default_value``) elsewhere."""
    if default_value is None:
        default_value = b"" if sp_input.dtype is _dt.string else 0
    default = convert.to_tensor(default_value, dtype=sp_input.dtype)
    return bind(SparseToDense, (sp_input.indices, sp_input.dense_shape, sp_input.values,
                                default), {"validate_indices": validate_indices}, name)

