"""Composite tensors: values made of ordinary tensors (``tf.SparseTensor``, ``tf.RaggedTensor``).

As in TensorFlow, a composite value is described by a *type spec* (``SparseTensorSpec``,
``RaggedTensorSpec``: a shape and a dtype, nothing about the values) and is carried through
graphs as its component tensors: a loop variable, an ``if`` output, a tf.function argument or
result is flattened into them and rebuilt from them on the other side.  This module holds the
protocol both classes follow; the control flow (``control_flow/cond_while.py``), AutoGraph and
``tf.function`` use only it.

- ``value._ag_components()``: the component tensors, in a fixed order.
- ``value._ag_rebuild(components)``: a value of the same spec (the loop's or function's shape)
  from new components.
- ``value._type_spec``: its spec; ``spec._from_components(components)`` rebuilds a value,
  ``spec._component_specs()`` gives the components' ``TensorSpec``s (with the dims a loop or a
  function argument lets vary left unknown).
"""

from __future__ import annotations

from ..shapes import TensorShape, TensorSpec


class TypeSpec:
    """A composite value's type: shape and dtype (and what the subclass adds)."""

    value_type = None

    def __init__(self, shape, dtype):
        self._shape = shape if isinstance(shape, TensorShape) else TensorShape(shape)
        self._dtype = dtype

    shape = property(lambda self: self._shape)
    dtype = property(lambda self: self._dtype)

    def _key(self):
        dims = self._shape.dims
        return (type(self).__name__, self._dtype.name, None if dims is None else tuple(dims))

    def __eq__(self, other):
        return type(other) is type(self) and other._key() == self._key()

    def __hash__(self):
        return hash(self._key())

    def is_compatible_with(self, other) -> bool:
        other = getattr(other, "_type_spec", other)
        return (type(other) is type(self) and other.dtype is self.dtype
                and self._shape.is_compatible_with(other.shape))

    def _component_specs(self) -> list[TensorSpec]:  # pragma: no cover - abstract
        raise NotImplementedError

    def _from_components(self, components):  # pragma: no cover - abstract
        raise NotImplementedError


def is_composite(value) -> bool:
    return isinstance(value, CompositeTensor)


class CompositeTensor:
    """Base of the composite value classes."""

    _loop_shape = None  # set on a loop's template when a shape invariant relaxes it

    @property
    def _type_spec(self) -> TypeSpec:  # pragma: no cover - abstract
        raise NotImplementedError

    def _ag_components(self) -> list:  # pragma: no cover - abstract
        raise NotImplementedError

    def _ag_rebuild(self, components):
        spec = self._type_spec
        if self._loop_shape is not None:
            spec = type(spec)._with_shape(spec, self._loop_shape)
        return spec._from_components(list(components))

    def get_shape(self) -> TensorShape:
        return self.shape

    def _relaxed(self, shape):
        """A copy whose loop template shape is ``shape`` (from a shape invariant)."""
        out = self._type_spec._from_components(self._ag_components())
        out._loop_shape = shape
        return out

    def _invariant_shape(self, invariant) -> TensorShape:
        """The composite shape a loop carries for ``tf.while_loop``'s shape invariant."""
        return TensorShape(invariant) if not isinstance(invariant, TensorShape) else invariant
