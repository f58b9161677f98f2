"""``tf.IndexedSlices``: some rows of a tensor, the gradient ``tf.gather`` gives its params.

The gradient of ``GatherV2`` along axis 0 (``indexing_ops``) is one: the rows the lookup
touched (``values``), which rows (``indices``) and the shape of the whole tensor
(``dense_shape``). It is made dense where TF makes it so: by ``tf.convert_to_tensor``, so by
any op it is given to (``_as_tensor``, an ``UnsortedSegmentSum`` of the rows), when it is added
to a dense gradient (``add``) and by the tape before a gradient function that needs a tensor
(``eager/tape.py``). It is a composite value, so it leaves a ``tf.function`` as itself.
"""

from __future__ import annotations

from .. import dtypes as _dt
from ..shapes import TensorShape, TensorSpec
from . import convert
from .composite import CompositeTensor, TypeSpec

__all__ = ["IndexedSlices", "IndexedSlicesSpec", "densify", "add", "is_indexed_slices"]


def _static_dims(dense_shape):
    """The shape ``dense_shape`` holds, as far as it is known without running anything."""
    if dense_shape is None:
        return TensorShape(None)
    if not convert.is_tensor(dense_shape):
        return TensorShape([int(d) for d in dense_shape])
    value = getattr(dense_shape, "_value", None)
    if value is not None:
        return TensorShape([int(d) for d in value])
    from ._rules import partial_ints  # in a graph: what is known of it (TF's rule)
    return TensorShape(partial_ints(dense_shape))


class IndexedSlicesSpec(TypeSpec):
    """``tf.IndexedSlicesSpec``: the dense shape, dtype and index dtypes of an IndexedSlices."""

    def __init__(self, shape=None, dtype=_dt.float32, indices_dtype=_dt.int64,
                 dense_shape_dtype=None, indices_shape=None):
        super().__init__(shape, _dt.as_dtype(dtype))
        self._indices_dtype = _dt.as_dtype(indices_dtype)
        self._dense_shape_dtype = (None if dense_shape_dtype is None
                                   else _dt.as_dtype(dense_shape_dtype))
        self._indices_shape = TensorShape(indices_shape if indices_shape is not None
                                          else [None])

    @staticmethod
    def _with_shape(spec, shape):
        return IndexedSlicesSpec(shape, spec.dtype, spec._indices_dtype,
                                 spec._dense_shape_dtype, spec._indices_shape)

    def _key(self):
        return super()._key() + (self._indices_dtype.name, getattr(
            self._dense_shape_dtype, "name", None), str(self._indices_shape))

    def _component_specs(self):
        dims = self._shape.dims
        n = self._indices_shape.dims[0] if self._indices_shape.rank else None
        values = TensorSpec(None if dims is None else [n] + list(dims[1:]), self._dtype)
        specs = [values, TensorSpec([n], self._indices_dtype)]
        if self._dense_shape_dtype is not None:
            specs.append(TensorSpec([self._shape.rank], self._dense_shape_dtype))
        return specs

    def _from_components(self, components):
        return IndexedSlices(*components)

    def __repr__(self):
        dense = "None" if self._dense_shape_dtype is None else repr(self._dense_shape_dtype)
        return (f"IndexedSlicesSpec({self._shape!r}, {self._dtype!r}, {self._indices_dtype!r}, "
                f"{dense}, {self._indices_shape!r})")


class IndexedSlices(CompositeTensor):
    """``values[i]`` is row ``indices[i]`` of a tensor of shape ``dense_shape``; rows named
    twice add up when it is made dense."""

    def __init__(self, values, indices, dense_shape=None):
        self._values = values  # kept as given, as TF (a NumPy array prints as one)
        self._indices = indices
        self._dense_shape = dense_shape

    values = property(lambda self: self._values)
    indices = property(lambda self: self._indices)
    dense_shape = property(lambda self: self._dense_shape)

    @property
    def dtype(self):
        return self._values.dtype if convert.is_tensor(self._values) else _dt.as_dtype(
            self._values.dtype)

    @property
    def shape(self) -> TensorShape:
        return _static_dims(self._dense_shape)

    @property
    def device(self):
        return self._values.device

    @property
    def name(self):
        return self._values.name

    @property
    def op(self):
        return self._values.op

    @property
    def graph(self):
        return self._values.graph

    @property
    def _type_spec(self) -> IndexedSlicesSpec:
        dense = self._dense_shape
        return IndexedSlicesSpec(self.shape, self.dtype, self._indices.dtype,
                                 None if dense is None else convert.to_tensor(dense).dtype,
                                 self._indices.shape)

    def _ag_components(self):
        parts = [convert.to_tensor(self._values), convert.to_tensor(self._indices)]
        if self._dense_shape is not None:
            parts.append(convert.to_tensor(self._dense_shape))
        return parts

    @property
    def get_shape(self):  # TF's IndexedSlices has none (its `shape` is the dense shape)
        raise AttributeError("'IndexedSlices' object has no attribute 'get_shape'")

    @property
    def _as_tensor_dtype(self):  # the dtype Python values beside it in an op take
        return self.dtype

    def _as_tensor(self):
        """``tf.convert_to_tensor`` of it: the dense tensor (rows named twice added)."""
        return densify(self)

    def __neg__(self):
        from . import math_ops
        return IndexedSlices(math_ops.negative(self._values), self._indices, self._dense_shape)

    def __str__(self):
        dense = "" if self._dense_shape is None else f", dense_shape={self._dense_shape!s}"
        return f"IndexedSlices(indices={self._indices!s}, values={self._values!s}{dense})"

    def __repr__(self):
        return f"<tensorflow.python.framework.indexed_slices.IndexedSlices object at {id(self):#x}>"


def is_indexed_slices(x) -> bool:
    return isinstance(x, IndexedSlices)


def densify(value: IndexedSlices):
    """The dense tensor ``value`` stands for (TF's conversion: an UnsortedSegmentSum)."""
    if value._dense_shape is None:
        raise ValueError("Tensor conversion requested for IndexedSlices for argument `value` "
                         f"without dense_shape: {value}")
    from . import indexing_ops
    dense_shape = convert.to_tensor(value._dense_shape)
    return indexing_ops.unsorted_segment_sum(convert.to_tensor(value._values),
                                             convert.to_tensor(value._indices), dense_shape[0])


def add(a, b):
    """The sum of two gradients of one tensor when either is an IndexedSlices, as TF's tape
    adds them: two IndexedSlices are concatenated (still an IndexedSlices), with a dense
    one the sum is dense."""
    from . import concat_ops, math_ops
    if isinstance(a, IndexedSlices) and isinstance(b, IndexedSlices):
        return IndexedSlices(concat_ops.concat([a.values, b.values], 0),
                             concat_ops.concat([a.indices, b.indices], 0), a.dense_shape)
    return math_ops.add(convert.to_tensor(a), convert.to_tensor(b))
