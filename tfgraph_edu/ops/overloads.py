"""Python operators on tensors, shared by eager and symbolic tensors (layer 1).

As in TensorFlow 2, ``==`` is element-wise, tensors are unhashable (use
``t.ref()``), and ``&``, ``|``, ``^``, ``~`` are the logical ops on bool tensors and the
bitwise ones on integer tensors.
"""

from __future__ import annotations

from .. import dtypes as _dt
from . import bitwise_ops, indexing_ops, math_ops
from ._core import bind, interpreter
from .convert import TensorBase, to_tensor


class Reference:
    """A hashable reference to a tensor or variable (``t.ref()``)."""

    __slots__ = ("_obj",)

    def __init__(self, obj):
        self._obj = obj

    def deref(self):
        return self._obj

    def __hash__(self):
        return id(self._obj)

    def __eq__(self, other):
        return isinstance(other, Reference) and other._obj is self._obj

    def __repr__(self):
        return f"<Reference wrapping {self._obj!r}>"


def _r(fn, name):
    return lambda self, other: fn(other, self, name=name)


def _named(opdef, name):
    """``x <op> y`` as one bind with TensorFlow's node name for the operator (``add``…)."""
    def method(self, other):
        return bind(opdef, (self, other), None, name)

    def reflected(self, other):
        return bind(opdef, (other, self), None, name)
    return method, reflected


def _fn(fn, name):
    return (lambda self, other: fn(self, other, name=name)), _r(fn, name)


class TensorOperators(TensorBase):
    """Operator overloads; subclasses provide ``shape`` and ``dtype``."""

    __slots__ = ()
    __array_priority__ = 100

    __add__ = _named(math_ops.AddV2, "add")[0]

    def __radd__(self, other):
        if interpreter().executing_eagerly and not isinstance(other, TensorBase):
            # `1.5 + int_tensor`: TF converts the Python value to the tensor's dtype
            # strictly here (TypeError), unlike `int_tensor + 1.5` (InvalidArgumentError)
            other = to_tensor(other, dtype_hint=None, dtype=self.dtype)
        return bind(math_ops.AddV2, (other, self), None, "add")
    __sub__, __rsub__ = _named(math_ops.Sub, "sub")
    __mul__, __rmul__ = _named(math_ops.Mul, "mul")
    __truediv__, __rtruediv__ = _fn(math_ops.truediv, "truediv")
    __floordiv__, __rfloordiv__ = _named(math_ops.FloorDiv, "floordiv")
    __mod__, __rmod__ = _named(math_ops.FloorMod, "mod")
    __pow__, __rpow__ = _named(math_ops.Pow, "pow")
    __matmul__, __rmatmul__ = _fn(math_ops.matmul, None)
    __gt__ = math_ops.greater
    __ge__ = math_ops.greater_equal
    __lt__ = math_ops.less
    __le__ = math_ops.less_equal

    def __eq__(self, other):
        try:
            return math_ops.equal(self, other)
        except (TypeError, ValueError):
            return False

    def __ne__(self, other):
        try:
            return math_ops.not_equal(self, other)
        except (TypeError, ValueError):
            return True

    __neg__ = math_ops.negative
    __abs__ = math_ops.abs

    def __pos__(self):
        return self

    # & | ^ ~ are logical on bool tensors and bitwise on integer ones, as in TF
    def __and__(self, other):
        if self.dtype is not _dt.bool:
            return bitwise_ops.bitwise_and(self, other)
        return math_ops.logical_and(self, other)

    def __rand__(self, other):
        if self.dtype is not _dt.bool:
            return bitwise_ops.bitwise_and(other, self)
        return math_ops.logical_and(other, self)

    def __or__(self, other):
        if self.dtype is not _dt.bool:
            return bitwise_ops.bitwise_or(self, other)
        return math_ops.logical_or(self, other)

    def __ror__(self, other):
        if self.dtype is not _dt.bool:
            return bitwise_ops.bitwise_or(other, self)
        return math_ops.logical_or(other, self)

    def __xor__(self, other):
        if self.dtype is not _dt.bool:
            return bitwise_ops.bitwise_xor(self, other)
        return math_ops.logical_xor(self, other)

    def __rxor__(self, other):
        if self.dtype is not _dt.bool:
            return bitwise_ops.bitwise_xor(other, self)
        return math_ops.logical_xor(other, self, "LogicalXor")

    def __invert__(self):
        if self.dtype is not _dt.bool:
            return bitwise_ops.invert(self)
        return math_ops.logical_not(self)

    def __getitem__(self, key):
        return indexing_ops.getitem(self, key)

    def __hash__(self):
        raise TypeError("Tensor is unhashable. Instead, use tensor.ref() as the key.")

    def ref(self) -> Reference:
        return Reference(self)

    def experimental_ref(self) -> Reference:
        return Reference(self)

    def get_shape(self):
        return self.shape
