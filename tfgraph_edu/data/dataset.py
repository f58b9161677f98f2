"""``tf.data.Dataset``: input pipelines as chains of small Python generators over numpy.

Every dataset knows its ``element_spec`` (a structure of TensorSpecs) and can start a
fresh pass, ``_flat_iter()``, yielding each element as a flat list of numpy arrays.
Iterating eagerly gives eager tensors; inside a tf.function, AutoGraph turns
``for x in dataset`` into a While loop over the iterator ops of ``ops/dataset_ops.py``.
``map`` and ``filter`` trace their function once into a graph, as TensorFlow does (a
Python ``print`` inside runs once, at tracing).

Deliberate departure: ``shuffle`` with a seed is reproducible, but its order is numpy's,
not TensorFlow's (TF's exact order comes from its own random kernels).
"""

from __future__ import annotations

import numpy as np

from .. import dtypes as _dt
from ..ops import convert
from ..ops._core import using_interpreter
from ..ops.composite import is_composite
from ..ops.extension_type import BatchableExtensionTypeSpec, ExtensionTypeSpec
from ..shapes import TensorShape, TensorSpec
from . import structure as _nest

INFINITE = -1
UNKNOWN = -2
AUTOTUNE = -1


def _is_ragged_spec(s) -> bool:
    return type(s).__name__ == "RaggedTensorSpec"


def _is_ragged(v) -> bool:
    return type(v).__name__ == "RaggedTensor"


def _eager(flat, spec):
    with using_interpreter(None):
        tensors = [v if isinstance(s, DatasetSpec) or _is_ragged(v)
                   else v.tensor(s) if isinstance(v, SparseRows)
                   else convert.constant(v, dtype=s.dtype)
                   for v, s in zip(flat, _nest.flatten(spec))]
    return _nest.pack(spec, tensors)


# -- sparse components (a SparseTensorSpec leaf: its indices, values and dense shape as
# NumPy arrays, a tuple, so that IteratorGetNext hands out the three in a graph) -----------
def _is_sparse_spec(s) -> bool:
    return type(s).__name__ == "SparseTensorSpec"


def _is_sparse(v) -> bool:
    return type(v).__name__ == "SparseTensor"


class SparseRows(tuple):
    """A SparseTensor's ``(indices, values, dense_shape)`` as NumPy arrays."""

    __slots__ = ()

    def __new__(cls, indices, values, dense_shape):
        return super().__new__(cls, (np.asarray(indices, np.int64).reshape(-1, len(dense_shape)),
                                     np.asarray(values), np.asarray(dense_shape, np.int64)))

    @classmethod
    def of(cls, sp):
        sp_eager = [convert.to_tensor(t) for t in (sp.indices, sp.values, sp.dense_shape)]
        if any(not hasattr(t, "numpy") for t in sp_eager):
            raise NotImplementedError("tfgraph_edu's tf.data takes a SparseTensor made "
                                      "eagerly only yet (not one of a tf.function's graph).")
        return cls(*[np.asarray(t.numpy()) for t in sp_eager])

    def tensor(self, spec):
        from ..ops.sparse_ops import SparseTensor
        with using_interpreter(None):
            out = SparseTensor(convert.constant(self[0], dtype=_dt.int64),
                               convert.constant(self[1], dtype=spec.dtype),
                               convert.constant(self[2], dtype=_dt.int64))
        out._shape_default = spec.shape
        return out

    def row(self, i):
        """Row ``i``: the entries whose first index is ``i``, without that index."""
        idx, vals, shape = self
        pick = idx[:, 0] == i
        return SparseRows(idx[pick, 1:], vals[pick], shape[1:])

    def dense(self):
        out = np.zeros(tuple(self[2]), dtype=self[1].dtype)
        if len(self[1]):
            out[tuple(self[0].T)] = self[1]
        return out


def _sparse_batch(rows):
    """Sparse rows stacked: a new first index, each dimension the largest of the rows'."""
    idx = [np.concatenate([np.full((len(r[0]), 1), i, np.int64), r[0]], axis=1)
           for i, r in enumerate(rows)]
    shape = np.max(np.stack([r[2] for r in rows]), axis=0)
    return SparseRows(np.concatenate(idx) if idx else np.zeros((0, len(shape) + 1), np.int64),
                      np.concatenate([r[1] for r in rows]), np.concatenate([[len(rows)], shape]))


def _sparse_spec(shape, dtype):
    from ..ops.sparse_ops import SparseTensorSpec
    return SparseTensorSpec(shape, dtype)


# -- ragged components (a RaggedTensorSpec leaf: a RaggedTensor, or a NumPy row when its
# ragged_rank is 0, as TF's slices of a 2-D ragged tensor are dense rows) ------------------
def _ragged_spec(shape, dtype, ragged_rank):
    from ..ops.ragged_ops import RaggedTensorSpec
    return RaggedTensorSpec(shape, dtype, ragged_rank)


def _ragged_row(rt, i):
    row = rt[i]
    return row if _is_ragged(row) else np.asarray(row.numpy())


def _ragged_batch(parts, spec):
    """Rows (NumPy arrays or RaggedTensors) stacked into one RaggedTensor."""
    from ..ops import ragged_dispatch
    with using_interpreter(None):
        rows = [p if _is_ragged(p) else convert.constant(p, dtype=spec.dtype) for p in parts]
        return ragged_dispatch._ragged_stack(rows)


class DatasetSpec:
    """``tf.data.DatasetSpec``: the spec of an element that is itself a dataset (``window``)."""

    def __init__(self, element_spec, dataset_shape=()):
        self.element_spec = element_spec
        self._shape = TensorShape(list(dataset_shape))

    @property
    def shape(self):
        return self._shape

    def __eq__(self, other):
        return (isinstance(other, DatasetSpec) and other.element_spec == self.element_spec
                and other._shape == self._shape)

    def __hash__(self):
        return hash(("DatasetSpec", repr(self.element_spec)))

    def __repr__(self):
        return f"DatasetSpec({_nest.spec_repr(self.element_spec)}, {self._shape!r})"


def _spec_of(arr, batch_dims=0) -> TensorSpec:
    arr = np.asarray(arr)
    dtype = _dt.NP_TO_DTYPE.get(arr.dtype)
    if dtype is None:
        raise TypeError(f"Unsupported element dtype {arr.dtype} in a dataset.")
    return TensorSpec(TensorShape(list(arr.shape[batch_dims:])), dtype)


def _to_flat_arrays(value):
    """A nested value of Python/numpy/tensors as flat numpy arrays (RaggedTensors kept)."""
    leaves = _nest.flatten(value)
    for v in leaves:
        if is_composite(v) and not _is_ragged(v) and not _is_sparse(v):
            raise NotImplementedError(
                f"tfgraph_edu's tf.data does not take a {type(v).__name__} as an element yet "
                "(TensorFlow 2.21 does): give the dataset its component tensors.")
    arrays = [v if _is_ragged(v) else SparseRows.of(v) if _is_sparse(v) else
              np.asarray(convert.to_tensor(v).numpy()) if convert.is_tensor(v)
              else np.asarray(convert.to_numpy(v)) for v in leaves]
    return arrays


def _map_specs(spec, tensor_fn, ext_fn):
    """``spec`` with each TensorSpec leaf given to ``tensor_fn`` and each extension type spec
    to ``ext_fn`` (tuples, namedtuples and dicts rebuilt)."""
    if isinstance(spec, ExtensionTypeSpec):
        return ext_fn(spec)
    if isinstance(spec, dict):
        return {k: _map_specs(v, tensor_fn, ext_fn) for k, v in spec.items()}
    if isinstance(spec, tuple):
        items = [_map_specs(v, tensor_fn, ext_fn) for v in spec]
        return type(spec)(*items) if hasattr(spec, "_fields") else tuple(items)
    if isinstance(spec, TensorSpec) or _is_ragged_spec(spec) or _is_sparse_spec(spec):
        return tensor_fn(spec)
    return spec


def _batchable(spec):
    if not isinstance(spec, BatchableExtensionTypeSpec):  # TF's error class and gist
        raise AttributeError(
            f"'{type(spec).__qualname__}' object has no attribute '_to_batched_tensor_list' "
            "(tf.data slices, batches and unbatches only tf.experimental."
            f"BatchableExtensionType values: derive {spec.value_type.__name__} from it)")
    return spec


def _full_spec(a):
    """The spec of a whole array or RaggedTensor given to ``from_tensor_slices``."""
    if _is_ragged(a):
        a._need_eager("in tf.data")
        return _ragged_spec(a.shape, a.dtype, a.ragged_rank)
    if isinstance(a, SparseRows):
        return _sparse_spec(TensorShape([int(d) for d in a[2]]), _spec_of(a[1]).dtype)
    return _spec_of(a)


def _leaf_spec(a):
    """The spec of a whole leaf of ``from_tensors``."""
    return a._type_spec if _is_ragged(a) else _full_spec(a)


def _slice_leaf(s):
    """The spec of one row of a tensor, RaggedTensor or SparseTensor of spec ``s``."""
    if _is_ragged_spec(s):
        return _ragged_spec(s.shape[1:], s.dtype, s.ragged_rank - 1)
    shape = TensorShape(None if s.shape.rank is None else s.shape.dims[1:])
    if _is_sparse_spec(s):
        return _sparse_spec(shape, s.dtype)
    return TensorSpec(shape, s.dtype)


def _rows(a) -> int:
    if isinstance(a, SparseRows):
        return int(a[2][0])
    return int(a.nrows().numpy()) if _is_ragged(a) else a.shape[0]


def _row(a, i):
    """Row ``i`` of one flat component (an array, a RaggedTensor or SparseRows)."""
    if isinstance(a, SparseRows):
        return a.row(i)
    if _is_ragged(a):
        return _ragged_row(a, i)
    return a[i] if a.ndim > 1 else np.asarray(a[i])


class Dataset:
    """A finite or infinite sequence of elements with a fixed ``element_spec``."""

    _name = "_Dataset"

    def __init__(self, element_spec, cardinality):
        self._element_spec = element_spec
        self._cardinality = cardinality

    # -- what it is ------------------------------------------------------------------------
    @property
    def element_spec(self):
        return self._element_spec

    def cardinality(self):
        """The number of elements as an int64 tensor: -1 infinite, -2 unknown."""
        with using_interpreter(None):
            return convert.constant(self._cardinality, dtype=_dt.int64)

    def __len__(self):
        if self._cardinality == INFINITE:
            raise TypeError("The dataset is infinite.")
        if self._cardinality == UNKNOWN:
            raise TypeError("The dataset length is unknown.")
        return self._cardinality

    def __repr__(self):
        return f"<{self._name} element_spec={_nest.spec_repr(self._element_spec)}>"

    def __bool__(self):
        return True

    # -- iteration -----------------------------------------------------------------------------
    def _flat_iter(self):
        raise NotImplementedError

    def __iter__(self):
        """An iterator over eager tensors; inside a tf.function, ``next`` on it is an
        ``IteratorGetNext`` node, so each call of the function takes the next element."""
        return OwnedIterator(self)

    def as_numpy_iterator(self):
        """Elements as numpy values (0-d arrays become numpy scalars, strings bytes)."""
        spec = self._element_spec
        for flat in self._flat_iter():
            if any(_is_ragged(a) for a in flat):
                raise NotImplementedError("tfgraph_edu's as_numpy_iterator does not give "
                                          "tf.RaggedTensorValue for ragged elements yet; "
                                          "iterate the dataset itself.")
            # a SparseTensor comes out dense, as TF 2.21's as_numpy_iterator gives it
            yield _nest.pack(spec, [_numpy_leaf(a.dense() if isinstance(a, SparseRows) else a)
                                    for a in flat])

    def _pipeline(self) -> str:
        """The chain of datasets feeding this one, source first: what the graph shows."""
        parents = [getattr(self, a) for a in ("_ds", "_a") if hasattr(self, a)]
        parents += list(getattr(self, "_members", []))
        own = self._name.lstrip("_").replace("Dataset", "") or "Dataset"
        if not parents:
            return own
        inner = ", ".join(p._pipeline() for p in parents)
        return f"{inner} -> {own}" if len(parents) == 1 else f"({inner}) -> {own}"

    def _as_graph_value(self):
        from ..ops.dataset_ops import DatasetValue
        return DatasetValue(self._flat_iter, self._pipeline())

    def _graph_iterator(self):
        from ..ops._core import REGISTRY, bind
        from ..ops.dataset_ops import MakeIterator
        handle = bind(REGISTRY["Const"], (), {"value": self._as_graph_value(),
                                              "dtype": _dt.variant}, "dataset")
        return bind(MakeIterator, (handle,), None, "MakeIterator")

    def _tf_dataset_for_stmt(self, extra_test, body, get_state, set_state, symbol_names, opts):
        from .graph_loop import dataset_for_stmt
        return dataset_for_stmt(self, extra_test, body, get_state, set_state, symbol_names, opts)

    def reduce(self, initial_state, reduce_func):
        """Folds ``reduce_func(state, element)`` over the elements (run eagerly)."""
        state = initial_state
        for elem in self:
            state = reduce_func(state, elem)
        return state

    # -- sources -------------------------------------------------------------------------------
    @staticmethod
    def range(*args, output_type=_dt.int64, name=None):
        """``range(stop)``, ``range(start, stop[, step])`` as int64 scalars."""
        if not 1 <= len(args) <= 3:
            raise ValueError("Invalid arguments to range: expected 1 to 3 arguments.")
        r = range(*[int(a) for a in args])
        return _RangeDataset(r, _dt.as_dtype(output_type))

    @staticmethod
    def from_tensor_slices(tensors, name=None):
        """One element per row of ``tensors`` (a tensor, or a tuple/dict of them)."""
        arrays = _to_flat_arrays(tensors)
        if any(not _is_ragged(a) and not isinstance(a, SparseRows) and a.ndim == 0
               for a in arrays) or any(isinstance(a, SparseRows) and len(a[2]) == 0
                                       for a in arrays):
            raise ValueError("Unbatching a tensor is only supported for rank >= 1")
        n = _rows(arrays[0])
        for a in arrays[1:]:
            if _rows(a) != n:
                raise ValueError(f"Dimensions {n} and {_rows(a)} are not compatible")
        spec = _map_specs(_nest.pack(tensors, [_full_spec(a) for a in arrays]), _slice_leaf,
                          lambda e: _batchable(e)._unbatch())
        return _SliceDataset(arrays, spec, n)

    @staticmethod
    def from_tensors(tensors, name=None):
        """A dataset of one element: ``tensors`` itself."""
        arrays = _to_flat_arrays(tensors)
        spec = _nest.pack(tensors, [_leaf_spec(a) for a in arrays])
        return _TensorDataset(arrays, spec)

    @staticmethod
    def from_generator(generator, output_types=None, output_shapes=None, args=None,
                       output_signature=None, name=None):
        """Elements from a Python generator function, called afresh for every pass."""
        if output_signature is None:
            if output_types is None:
                raise TypeError("The `output_signature` argument must be set.")
            types = output_types
            shapes = output_shapes if output_shapes is not None else _nest.map_structure(
                lambda _: TensorShape(None), output_types)
            output_signature = _nest.map_structure_up_to(
                types, lambda t, s: TensorSpec(s, t), types, shapes)
        return _GeneratorDataset(generator, tuple(args or ()), output_signature)

    @staticmethod
    def zip(*datasets, name=None):
        """Elements of several datasets side by side, as long as the shortest."""
        if len(datasets) == 1 and isinstance(datasets[0], (tuple, dict)):
            datasets = datasets[0]
        return _ZipDataset(datasets)

    # -- transformations -------------------------------------------------------------------------
    def batch(self, batch_size, drop_remainder=False, num_parallel_calls=None,
              deterministic=None, name=None):
        return _BatchDataset(self, int(batch_size), bool(drop_remainder))

    def padded_batch(self, batch_size, padded_shapes=None, padding_values=None,
                     drop_remainder=False, name=None):
        return _PaddedBatchDataset(self, int(batch_size), padded_shapes, padding_values,
                                   bool(drop_remainder))

    def shuffle(self, buffer_size, seed=None, reshuffle_each_iteration=True, name=None):
        return _ShuffleDataset(self, int(buffer_size), seed, reshuffle_each_iteration)

    def map(self, map_func, num_parallel_calls=None, deterministic=None, name=None):
        return _MapDataset(self, map_func, parallel=num_parallel_calls is not None)

    def filter(self, predicate, name=None):
        return _FilterDataset(self, predicate)

    def repeat(self, count=None, name=None):
        return _RepeatDataset(self, -1 if count is None else int(count))

    def take(self, count, name=None):
        return _TakeDataset(self, int(count))

    def apply(self, transformation_func):
        """``transformation_func(self)``, which must give a dataset back."""
        out = transformation_func(self)
        if not isinstance(out, Dataset):
            raise TypeError("`transformation_func` must return a `tf.data.Dataset` object. "
                            f"Got {type(out)}.")
        return out

    def skip(self, count, name=None):
        return _SkipDataset(self, int(count))

    def prefetch(self, buffer_size, name=None):
        return _PassThrough(self, "_PrefetchDataset")

    def cache(self, filename="", name=None):
        return _PassThrough(self, "_CacheDataset")

    def enumerate(self, start=0, name=None):
        return _ZipDataset((Dataset.range(start, 2 ** 62), self))

    def concatenate(self, dataset, name=None):
        return _ConcatenateDataset(self, dataset)

    def unbatch(self, name=None):
        return _UnbatchDataset(self)

    def ragged_batch(self, batch_size, drop_remainder=False, row_splits_dtype=_dt.int64,
                     name=None):
        """Like ``batch``, but a component whose shape is not fully known batches into a
        RaggedTensor (ragged in its first unknown dimension), as TF's."""
        return _BatchDataset(self, int(batch_size), bool(drop_remainder), ragged=True)

    def window(self, size, shift=None, stride=1, drop_remainder=False, name=None):
        """Datasets of ``size`` elements (every ``stride``-th), one starting every ``shift``
        elements (``size`` by default); the last ones shorter unless ``drop_remainder``.
        Eagerly only (a dataset of datasets cannot enter a tf.function here yet)."""
        size, stride = int(size), int(stride)
        shift = size if shift is None else int(shift)
        if size <= 0 or shift <= 0 or stride <= 0:
            raise ValueError("size, shift and stride must be positive.")
        return _WindowDataset(self, size, shift, stride, bool(drop_remainder))

    def flat_map(self, map_func, name=None):
        """The elements of the dataset ``map_func`` makes of each element, in order."""
        return _InterleaveDataset(self, map_func, 1, 1, "_FlatMapDataset")

    def interleave(self, map_func, cycle_length=None, block_length=None,
                   num_parallel_calls=None, deterministic=None, name=None):
        """Datasets made of ``cycle_length`` elements at a time, read in turn
        ``block_length`` elements each (TF's order; ``num_parallel_calls`` changes only the
        speed).  ``cycle_length`` None or AUTOTUNE: the CPU cores this process may use, as
        TF."""
        import os
        if cycle_length is None or cycle_length == AUTOTUNE:
            cycle_length = len(os.sched_getaffinity(0)) if hasattr(
                os, "sched_getaffinity") else (os.cpu_count() or 1)
        block_length = 1 if block_length is None else int(block_length)
        name_ = "_InterleaveDataset" if num_parallel_calls is None else \
            "_ParallelInterleaveDataset"
        return _InterleaveDataset(self, map_func, int(cycle_length), block_length, name_)


def _numpy_leaf(a):
    """A 0-d array as TF's as_numpy_iterator gives it: a numpy scalar, a string as bytes."""
    if a.ndim:
        return a
    value = a[()]
    return bytes(value) if isinstance(value, np.bytes_) else value


class OwnedIterator:
    """``iter(dataset)``: one pass, consumed by ``next`` eagerly or inside tf.function."""

    def __init__(self, dataset):
        from ..ops.dataset_ops import IteratorValue
        self._dataset = dataset
        self.element_spec = dataset.element_spec
        self._given = 0
        self._value = IteratorValue(self._counted(0))

    def _counted(self, skip):
        """The dataset's elements from ``skip`` on, counting those taken (for checkpoints)."""
        it = iter(self._dataset._flat_iter())
        for _ in range(skip):
            next(it, None)
        self._given = skip
        for item in it:
            self._given += 1
            yield item

    def _checkpoint_position(self) -> int:
        """How many elements this iterator has given (one read ahead is not given yet)."""
        ahead = self._value._next is not None and self._value._next is not self._value._END
        return self._given - ahead

    def _checkpoint_seek(self, position: int) -> None:
        """Go back (or on) to ``position``, as a restored checkpoint puts the iterator: the
        dataset is read again from its start (the same elements when it is deterministic)."""
        self._value._it, self._value._next = self._counted(position), None

    def __iter__(self):
        return self

    def __next__(self):
        from ..tracing.graph_builder import building_graph
        if building_graph() is not None:
            return self.get_next()
        if not self._value.has_next():
            raise StopIteration
        return _eager(self._value.get_next(), self.element_spec)

    def next(self):
        """``next(iterator)`` under its old name (TF keeps it; StopIteration at the end)."""
        return self.__next__()

    def get_next(self):
        """The next element; past the end, ``tf.errors.OutOfRangeError`` as in TF."""
        from ..tracing.graph_builder import building_graph
        if building_graph() is not None:
            from .graph_loop import get_next
            return get_next(self._graph_iterator(), self.element_spec)
        return _eager(self._value.get_next(), self.element_spec)

    def _graph_iterator(self):
        from .graph_loop import iterator_tensor
        return iterator_tensor(self._value)

    def _tf_dataset_for_stmt(self, extra_test, body, get_state, set_state, symbol_names, opts):
        from .graph_loop import dataset_for_stmt
        return dataset_for_stmt(self, extra_test, body, get_state, set_state, symbol_names, opts)

    def __repr__(self):
        return f"<tensorflow.python.data.ops.iterator_ops.OwnedIterator object at {id(self):#x}>"


# -- sources -------------------------------------------------------------------------------
class _RangeDataset(Dataset):
    _name = "_RangeDataset"

    def __init__(self, r, dtype):
        super().__init__(TensorSpec([], dtype), len(r))
        self._range, self._np = r, dtype.np_dtype

    def _flat_iter(self):
        t = self._np.type
        for i in self._range:
            yield [np.asarray(t(i))]


class _SliceDataset(Dataset):
    _name = "_TensorSliceDataset"

    def __init__(self, arrays, spec, n):
        super().__init__(spec, n)
        self._arrays = arrays

    def _flat_iter(self):
        for i in range(self._cardinality):
            yield [_row(a, i) for a in self._arrays]


class _TensorDataset(Dataset):
    _name = "_TensorDataset"

    def __init__(self, arrays, spec):
        super().__init__(spec, 1)
        self._arrays = arrays

    def _flat_iter(self):
        yield list(self._arrays)


class _GeneratorDataset(Dataset):
    _name = "_FlatMapDataset"

    def __init__(self, generator, args, signature):
        if any(not isinstance(s, TensorSpec) for s in _nest.flatten(signature)):
            raise NotImplementedError("tfgraph_edu's Dataset.from_generator takes an "
                                      "output_signature of tf.TensorSpecs only yet.")
        super().__init__(signature, UNKNOWN)
        self._gen, self._args = generator, args

    def _flat_iter(self):
        specs = _nest.flatten(self._element_spec)
        for value in self._gen(*self._args):
            leaves = _nest.flatten_up_to(self._element_spec, value)
            out = []
            for v, s in zip(leaves, specs):
                arr = np.asarray(convert.to_numpy(v, s.dtype))
                if not s.shape.is_compatible_with(TensorShape(list(arr.shape))):
                    from ..errors import InvalidArgumentError
                    raise InvalidArgumentError(
                        None, None, f"`generator` yielded an element of shape {arr.shape} "
                                    f"where an element of shape {s.shape} was expected.")
                out.append(arr)
            yield out


class _ZipDataset(Dataset):
    _name = "_ZipDataset"

    def __init__(self, datasets):
        self._parts = datasets
        members = list(datasets.values()) if isinstance(datasets, dict) else list(datasets)
        cards = [d._cardinality for d in members]
        finite = [c for c in cards if c >= 0]
        card = min(finite) if finite else (UNKNOWN if UNKNOWN in cards else INFINITE)
        if UNKNOWN in cards and finite:
            card = UNKNOWN
        spec = _nest.pack(datasets, [d._element_spec for d in members], shallow=True)
        super().__init__(spec, card)
        self._members = members

    def _flat_iter(self):
        its = [d._flat_iter() for d in self._members]
        while True:
            flat = []
            for it in its:
                nxt = next(it, None)
                if nxt is None:
                    return
                flat.extend(nxt)
            yield flat


class _ConcatenateDataset(Dataset):
    _name = "_ConcatenateDataset"

    def __init__(self, a, b):
        fa, fb = _nest.flatten(a._element_spec), _nest.flatten(b._element_spec)
        if len(fa) != len(fb) or any(x.dtype is not y.dtype or type(x) is not type(y)
                                     for x, y in zip(fa, fb)):
            raise TypeError(f"Incompatible dataset elements:\n  {a._element_spec} vs. "
                            f"  {b._element_spec}")
        if any(not isinstance(x, TensorSpec) and not _is_sparse_spec(x) for x in fa):
            raise NotImplementedError("tfgraph_edu's Dataset.concatenate takes datasets of "
                                      "tensors and SparseTensors only yet (not of ragged "
                                      "ones or extension types).")
        specs = [(_sparse_spec if _is_sparse_spec(x) else TensorSpec)(
            _common_shape(x.shape, y.shape), x.dtype) for x, y in zip(fa, fb)]
        cards = (a._cardinality, b._cardinality)
        card = (INFINITE if INFINITE in cards else UNKNOWN if UNKNOWN in cards
                else sum(cards))
        super().__init__(_nest.pack(a._element_spec, specs), card)
        self._a, self._b = a, b

    def _flat_iter(self):
        yield from self._a._flat_iter()
        yield from self._b._flat_iter()


# -- transformations ------------------------------------------------------------------------------
def _common_shape(a: TensorShape, b: TensorShape) -> TensorShape:
    if a.rank is None or b.rank is None or a.rank != b.rank:
        return TensorShape(None)
    return TensorShape([x if x == y else None for x, y in zip(a.dims, b.dims)])


class _BatchDataset(Dataset):
    _name = "_BatchDataset"

    def __init__(self, ds, size, drop_remainder, ragged=False):
        if size <= 0:
            from ..errors import InvalidArgumentError
            raise InvalidArgumentError(None, None, "Batch size must be greater than zero.")
        c = ds._cardinality
        if c >= 0:
            card = c // size if drop_remainder else -(-c // size)
        else:
            card = c
        known = size if drop_remainder else None

        def batch_leaf(s):
            shape = TensorShape([known]).concatenate(s.shape)
            if _is_sparse_spec(s):
                return _sparse_spec(shape, s.dtype)
            if _is_ragged_spec(s):
                return _ragged_spec(shape, s.dtype, s.ragged_rank + 1)
            if ragged and not s.shape.is_fully_defined():
                if s.shape.rank != 1:
                    raise NotImplementedError("tfgraph_edu batches into RaggedTensors the "
                                              "components of rank 1 only yet.")
                return _ragged_spec(shape, s.dtype, 1)
            return TensorSpec(shape, s.dtype)

        spec = _map_specs(ds._element_spec, batch_leaf, lambda e: _batchable(e)._batch(known))
        self._ragged_leaves = [_is_ragged_spec(s) for s in _nest.flatten(spec)]
        self._sparse_leaves = [_is_sparse_spec(s) for s in _nest.flatten(spec)]
        super().__init__(spec, card)
        self._ds, self._size, self._drop = ds, size, drop_remainder

    def _flat_iter(self):
        specs = _nest.flatten(self._element_spec)
        if not any(self._ragged_leaves) and not any(self._sparse_leaves):
            for rows in self._flat_iter_rows():
                yield _stack(rows)
            return
        for rows in self._flat_iter_rows():
            yield [_ragged_batch(parts, spec) if ragged else _sparse_batch(parts) if sparse
                   else _stack([[p] for p in parts])[0]
                   for parts, spec, ragged, sparse in zip(zip(*rows), specs,
                                                          self._ragged_leaves,
                                                          self._sparse_leaves)]

    def _flat_iter_rows(self):
        buf = []
        for flat in self._ds._flat_iter():
            buf.append(flat)
            if len(buf) == self._size:
                yield buf
                buf = []
        if buf and not self._drop:
            yield buf


def _stack(rows):
    out = []
    for parts in zip(*rows):
        shapes = {np.shape(p) for p in parts}
        if len(shapes) > 1:
            from ..errors import InvalidArgumentError
            a, b = sorted(shapes)[:2]
            raise InvalidArgumentError(
                None, None, f"Cannot batch tensors with different shapes in component 0. "
                            f"First element had shape {list(a)} and element 1 had shape "
                            f"{list(b)}.")
        out.append(np.stack(parts))
    return out


class _ShuffleDataset(Dataset):
    _name = "_ShuffleDataset"

    def __init__(self, ds, buffer_size, seed, reshuffle):
        super().__init__(ds._element_spec, ds._cardinality)
        self._ds, self._buffer = ds, max(1, buffer_size)
        from ..ops import random_ops
        op_seed = None if seed is None else int(seed)
        global_seed, op_seed = random_ops.get_seed(op_seed)
        self._seed = None if global_seed is None and op_seed is None else (
            (global_seed or 0) * 1_000_003 + (op_seed or 0))
        self._reshuffle = reshuffle
        self._passes = 0

    def _flat_iter(self):
        if self._seed is None:
            rng = np.random.default_rng()
        else:
            epoch = self._passes if self._reshuffle else 0
            rng = np.random.default_rng([self._seed, epoch])
        self._passes += 1
        buf = []
        for flat in self._ds._flat_iter():
            buf.append(flat)
            if len(buf) >= self._buffer:
                yield buf.pop(int(rng.integers(len(buf))))
        while buf:
            yield buf.pop(int(rng.integers(len(buf))))


class _RepeatDataset(Dataset):
    _name = "_RepeatDataset"

    def __init__(self, ds, count):
        c = ds._cardinality
        if count < 0:
            card = 0 if c == 0 else INFINITE
        else:
            card = c * count if c >= 0 else c
        super().__init__(ds._element_spec, card)
        self._ds, self._count = ds, count

    def _flat_iter(self):
        n = 0
        while self._count < 0 or n < self._count:
            empty = True
            for flat in self._ds._flat_iter():
                empty = False
                yield flat
            if empty:
                return
            n += 1


class _TakeDataset(Dataset):
    _name = "_TakeDataset"

    def __init__(self, ds, count):
        c = ds._cardinality
        if count < 0:
            card = c
        elif c >= 0:
            card = min(c, count)
        else:
            card = count if c == INFINITE else UNKNOWN
        super().__init__(ds._element_spec, card)
        self._ds, self._count = ds, count

    def _flat_iter(self):
        if self._count == 0:
            return
        for i, flat in enumerate(self._ds._flat_iter()):
            yield flat
            if self._count >= 0 and i + 1 >= self._count:
                return


class _SkipDataset(Dataset):
    _name = "_SkipDataset"

    def __init__(self, ds, count):
        c = ds._cardinality
        card = max(c - count, 0) if c >= 0 and count >= 0 else (0 if count < 0 and c >= 0 else c)
        super().__init__(ds._element_spec, card)
        self._ds, self._count = ds, count

    def _flat_iter(self):
        for i, flat in enumerate(self._ds._flat_iter()):
            if self._count < 0 or i < self._count:
                continue
            yield flat


class _PassThrough(Dataset):
    def __init__(self, ds, name):
        super().__init__(ds._element_spec, ds._cardinality)
        self._ds, self._name = ds, name

    def _flat_iter(self):
        return self._ds._flat_iter()


class _UnbatchDataset(Dataset):
    _name = "_UnbatchDataset"

    def __init__(self, ds):
        specs = _nest.flatten(ds._element_spec)
        if any(s.shape.rank == 0 for s in specs):
            raise ValueError("Cannot unbatch an input with scalar components.")
        super().__init__(_map_specs(ds._element_spec, _slice_leaf,
                                    lambda e: _batchable(e)._unbatch()), UNKNOWN)
        self._ds = ds

    def _flat_iter(self):
        for flat in self._ds._flat_iter():
            for i in range(_rows(flat[0])):
                yield [_row(a, i) if a.__class__ is not np.ndarray else np.asarray(a[i])
                       for a in flat]


def _known_dense_shape(value, spec):
    """A SparseTensor of a fully known spec with its dense shape a constant, as TF's
    tf.data functions see it (so ``x * 2`` or ``to_dense(x)`` keep the static shape)."""
    if not (_is_sparse_spec(spec) and spec.shape.is_fully_defined()):
        return value
    from ..ops.sparse_ops import SparseTensor
    out = SparseTensor(value.indices, value.values,
                       convert.constant(spec.shape.as_list(), dtype=_dt.int64))
    out._shape_default = spec.shape
    return out


class _Traced:
    """``map_func`` traced once into a concrete function for the element spec."""

    def __init__(self, func, spec, what):
        from ..function import function

        def call_with_element(*leaves):
            leaves = [_known_dense_shape(v, s) for v, s in zip(leaves, leaf_specs)]
            elem = _nest.pack(spec, leaves)
            out = func(*elem) if isinstance(elem, tuple) else func(elem)
            if isinstance(out, list):  # as in TF: a list returned at the top is a tuple,
                out = tuple(out)       # lists inside the structure become tensors
            return _nest.map_structure(
                lambda v: v if convert.is_tensor(v) or is_composite(v) else convert.to_tensor(v),
                out)

        call_with_element.__name__ = getattr(func, "__name__", what)
        leaf_specs = _nest.flatten(spec)
        self.concrete = function(call_with_element).get_concrete_function(*leaf_specs)
        self.output_spec = _nest.map_structure(
            lambda t: t._type_spec if _is_ragged(t) or _is_sparse(t)
            else TensorSpec(t.shape, t.dtype),
            self.concrete.structured_outputs)
        self._in_specs = leaf_specs

    def __call__(self, flat):
        with using_interpreter(None):
            args = [a if _is_ragged(a) else a.tensor(s) if isinstance(a, SparseRows)
                    else convert.constant(a) for a, s in zip(flat, self._in_specs)]
            out = self.concrete(*args)
        return [t if _is_ragged(t) else SparseRows.of(t) if _is_sparse(t)
                else np.asarray(t.numpy()) for t in _nest.flatten(out)]


class _MapDataset(Dataset):
    _name = "_MapDataset"

    def __init__(self, ds, func, parallel=False):
        self._fn = _Traced(func, ds._element_spec, "map_func")
        super().__init__(self._fn.output_spec, ds._cardinality)
        self._ds = ds
        if parallel:
            self._name = "_ParallelMapDataset"

    def _flat_iter(self):
        for flat in self._ds._flat_iter():
            yield self._fn(flat)


class _ElementsDataset(Dataset):
    """A dataset of elements already read (a window's): TF's ``_VariantDataset``."""

    _name = "_VariantDataset"

    def __init__(self, flats, spec):
        super().__init__(spec, len(flats))
        self._flats = flats

    def _flat_iter(self):
        yield from self._flats


class _WindowDataset(Dataset):
    _name = "_WindowDataset"

    def __init__(self, ds, size, shift, stride, drop_remainder):
        if len(_nest.flatten(ds._element_spec)) != 1:
            raise NotImplementedError("tfgraph_edu's Dataset.window takes datasets whose "
                                      "elements are single tensors yet.")
        super().__init__(DatasetSpec(ds._element_spec), UNKNOWN if ds._cardinality != INFINITE
                         else INFINITE)
        self._ds, self._size, self._shift = ds, size, shift
        self._stride, self._drop = stride, drop_remainder

    def _flat_iter(self):
        it = iter(self._ds._flat_iter())
        buffer: list = []  # elements from index ``first`` on
        first, start, done = 0, 0, False
        span = (self._size - 1) * self._stride + 1
        while True:
            while not done and first + len(buffer) < start + span:
                item = next(it, None)
                if item is None:
                    done = True
                else:
                    buffer.append(item)
            if start >= first + len(buffer):
                return
            picked = buffer[start - first::self._stride][:self._size]
            if len(picked) < self._size and self._drop:
                return
            yield [_ElementsDataset(picked, self._ds._element_spec)]
            start += self._shift
            drop = min(start - first, len(buffer))
            del buffer[:drop]
            first += drop


class _InterleaveDataset(Dataset):
    """``flat_map``/``interleave``.  Departure: TF traces ``map_func`` once; here it is
    called once on the first element to learn the element_spec, then once per element
    (eagerly), so Python side effects inside it (a ``print``) happen per element."""

    def __init__(self, ds, func, cycle_length, block_length, name):
        self._name = name
        self._ds, self._func = ds, func
        self._cycle, self._block = max(1, cycle_length), max(1, block_length)
        first = next(iter(ds._flat_iter()), None)
        if first is None:
            raise NotImplementedError(f"tfgraph_edu's Dataset.{name.strip('_')[:-7].lower()}"
                                      " needs a non-empty input dataset yet (it learns the "
                                      "element_spec from the first element).")
        inner = self._inner(first)
        super().__init__(inner._element_spec, UNKNOWN if ds._cardinality != INFINITE
                         else INFINITE)

    def _inner(self, flat):
        element = _eager(flat, self._ds._element_spec)
        out = (self._func(*element) if isinstance(element, tuple) else self._func(element))
        if not isinstance(out, Dataset):
            raise TypeError(f"The `map_func` argument must return a `Dataset` object. Got "
                            f"{type(out).__name__}.")
        return out

    def _flat_iter(self):
        """TF's order: slots visited in turn; an empty slot takes the next input element's
        dataset; a visit gives up to ``block_length`` elements, and a dataset that ends
        leaves its slot empty until the next visit."""
        outer = iter(self._ds._flat_iter())
        slots: list = [None] * self._cycle
        exhausted = False
        cur = 0
        while True:
            if slots[cur] is None and not exhausted:
                flat = next(outer, None)
                if flat is None:
                    exhausted = True
                else:
                    slots[cur] = iter(self._inner(flat)._flat_iter())
            if exhausted and all(it is None for it in slots):
                return
            it = slots[cur]
            if it is not None:
                for _ in range(self._block):
                    item = next(it, None)
                    if item is None:
                        slots[cur] = None
                        break
                    yield item
            cur = (cur + 1) % self._cycle


class _FilterDataset(Dataset):
    _name = "_FilterDataset"

    def __init__(self, ds, predicate):
        self._fn = _Traced(predicate, ds._element_spec, "predicate")
        out = _nest.flatten(self._fn.output_spec)
        if len(out) != 1 or out[0].dtype is not _dt.bool or out[0].shape.rank not in (0, None):
            raise ValueError(f"Invalid `predicate`. `predicate` must return a `tf.bool` scalar "
                             f"tensor, but its return type is {self._fn.output_spec}.")
        super().__init__(ds._element_spec, UNKNOWN if ds._cardinality != INFINITE else INFINITE)
        self._ds = ds

    def _flat_iter(self):
        for flat in self._ds._flat_iter():
            if bool(self._fn(flat)[0]):
                yield flat


class _PaddedBatchDataset(_BatchDataset):
    """``padded_batch``: rows padded to ``padded_shapes`` (a ``None`` dimension to the longest
    row of the batch) with ``padding_values`` (0, or ``b""`` for strings), then stacked."""

    _name = "_PaddedBatchDataset"

    def __init__(self, ds, size, padded_shapes, padding_values, drop_remainder):
        flat_specs = _nest.flatten(ds._element_spec)
        for s in flat_specs:
            if not isinstance(s, TensorSpec):  # TF's error and message
                raise TypeError(
                    "`padded_batch` is only supported for datasets that produce tensor "
                    "elements but type spec of elements in the input dataset is not a "
                    f"subclass of TensorSpec: `{s!r}`.")
        if padded_shapes is None:
            shapes = [s.shape for s in flat_specs]
            if any(sh.rank is None for sh in shapes):
                raise ValueError("You must provide `padded_shapes` argument because component "
                                 "0 has unknown rank.")
        else:
            shapes = _nest.flatten_up_to(ds._element_spec, padded_shapes) \
                if len(flat_specs) > 1 else [padded_shapes]
            shapes = [TensorShape(None if s is None else
                                  [None if d is None or d == -1 else int(d) for d in s])
                      for s in shapes]
        if padding_values is None:
            pads = [b"" if s.dtype == _dt.string else 0 for s in flat_specs]
        else:
            pads = _nest.flatten_up_to(ds._element_spec, padding_values) \
                if len(flat_specs) > 1 else [padding_values]
            pads = [p.numpy() if hasattr(p, "numpy") else p for p in pads]
        super().__init__(ds, size, drop_remainder)
        known = size if drop_remainder else None
        specs = [TensorSpec(TensorShape([known]).concatenate(sh), s.dtype)
                 for sh, s in zip(shapes, flat_specs)]
        self._element_spec = _nest.pack(ds._element_spec, specs)
        self._shapes, self._pads = shapes, pads

    def _flat_iter(self):
        for batch in super()._flat_iter_rows():
            out = []
            for j, (shape, pad) in enumerate(zip(self._shapes, self._pads)):
                rows = [np.asarray(r[j]) for r in batch]
                target = [max(r.shape[k] for r in rows) if d is None else d
                          for k, d in enumerate(shape.as_list())]
                for r in rows:
                    if any(n > t for n, t in zip(r.shape, target)):
                        from ..errors import InvalidArgumentError
                        raise InvalidArgumentError(
                            None, None, f"Attempted to pad to a smaller size than the input "
                                        f"element. Input shape {list(r.shape)}, padded shape "
                                        f"{target}.")
                padded = [np.pad(r, [(0, t - n) for n, t in zip(r.shape, target)],
                                 constant_values=pad) if r.ndim else r for r in rows]
                out.append(np.stack(padded).astype(rows[0].dtype))
            yield out
