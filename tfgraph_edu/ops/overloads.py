"""Python operators on tensors, shared by eager and symbolic tensors (layer 1).

As in TensorFlow 2, ``==`` is element-wise, tensors are unhashable (use
``t.ref()``), and ``&``, ``|``, ``^``, ``~`` are the logical ops on bool tensors.
"""

from __future__ import annotations

from . import indexing_ops, math_ops, numpy_behavior
from ._core import bind
from .convert import TensorBase


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


def _composite(other) -> bool:
    """A RaggedTensor operand: the tensor's operator gives way to the ragged one's
    (``__radd__``...), as TF's operators do."""
    return type(other).__name__ == "RaggedTensor"


def _r(fn, name):
    def reflected(self, other):
        try:
            return fn(other, self, name=name)
        except (TypeError, ValueError, NotImplementedError):
            if _composite(other):
                return NotImplemented
            raise
    return reflected


def _named(opdef, name):
    """``x <op> y`` as one bind with TensorFlow's node name for the operator (``add``…)."""
    def method(self, other):
        try:
            return bind(opdef, (self, other), None, name)
        except (TypeError, ValueError, NotImplementedError):
            if _composite(other):
                return NotImplemented
            raise

    def reflected(self, other):
        try:
            return bind(opdef, (other, self), None, name)
        except (TypeError, ValueError, NotImplementedError):
            if _composite(other):
                return NotImplemented
            raise
    return method, reflected


def _fn(fn, name):
    def method(self, other):
        try:
            return fn(self, other, name=name)
        except (TypeError, ValueError, NotImplementedError):
            if _composite(other):
                return NotImplemented
            raise
    return method, _r(fn, name)


class TensorOperators(TensorBase):
    """Operator overloads; subclasses provide ``shape`` and ``dtype``."""

    __slots__ = ()
    __array_priority__ = 100

    __add__, __radd__ = _named(math_ops.AddV2, "add")
    __sub__, __rsub__ = _named(math_ops.Sub, "sub")
    __mul__, __rmul__ = _named(math_ops.Mul, "mul")
    __truediv__, __rtruediv__ = _fn(math_ops.truediv, "truediv")
    __floordiv__, __rfloordiv__ = _named(math_ops.FloorDiv, "floordiv")
    __mod__, __rmod__ = _named(math_ops.FloorMod, "mod")
    __pow__, __rpow__ = _named(math_ops.Pow, "pow")
    __matmul__, __rmatmul__ = _fn(math_ops.matmul, None)
    __gt__ = _fn(math_ops.greater, None)[0]
    __ge__ = _fn(math_ops.greater_equal, None)[0]
    __lt__ = _fn(math_ops.less, None)[0]
    __le__ = _fn(math_ops.less_equal, None)[0]

    def __eq__(self, other):
        try:
            return math_ops.equal(self, other)
        except (TypeError, ValueError, NotImplementedError):
            return NotImplemented if _composite(other) else False

    def __ne__(self, other):
        try:
            return math_ops.not_equal(self, other)
        except (TypeError, ValueError, NotImplementedError):
            return NotImplemented if _composite(other) else True

    __neg__ = math_ops.negative
    __abs__ = math_ops.abs

    def __pos__(self):
        return self

    def __and__(self, other):
        return math_ops.logical_and(self, other)

    __rand__ = _r(math_ops.logical_and, None)

    def __or__(self, other):
        return math_ops.logical_or(self, other)

    __ror__ = _r(math_ops.logical_or, None)

    def __xor__(self, other):
        return math_ops.logical_xor(self, other)

    __rxor__ = _r(math_ops.logical_xor, "LogicalXor")

    def __invert__(self):
        return math_ops.logical_not(self)

    def __getitem__(self, key):
        if key.__class__ is not tuple and not isinstance(key, (int, slice)):
            from . import mask_ops
            if mask_ops.is_mask(key):  # tensor[bool mask] is tf.boolean_mask, as in TF
                return mask_ops.boolean_mask(self, key)
        return indexing_ops.getitem(self, key)

    def __getattr__(self, name):
        # only for names the tensor lacks: TF's hint for NumPy methods before they are on
        # (tnp.experimental_enable_numpy_behavior); other names get Python's own error, or
        # the one their property raised
        if name in numpy_behavior.HINTED and not numpy_behavior.STATE.enabled:
            raise numpy_behavior.missing_attribute(self, name)
        return object.__getattribute__(self, name)

    def __hash__(self):
        raise TypeError("Tensor is unhashable. Instead, use tensor.ref() as the key.")

    def ref(self) -> Reference:
        return Reference(self)

    def experimental_ref(self) -> Reference:
        return Reference(self)

    def get_shape(self):
        return self.shape
