"""Python operators on tensors, shared by eager and symbolic tensors (layer 1).

As in TensorFlow 2, ``==`` is element-wise, tensors are unhashable (use
``t.ref()``), and ``&``, ``|``, ``^``, ``~`` are the logical ops on bool tensors and the
bitwise ones on integer tensors.
"""

from __future__ import annotations

import numpy as np

from .. import dtypes as _dt
from .. import errors as _errors
from ..shapes import TensorShape
from . import bitwise_ops, indexing_ops, math_ops, numpy_behavior
from ._core import bind, interpreter
from ._rules import broadcast_shapes
from .convert import TensorBase, constant, to_tensor


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


def _equality(fn, x, other, if_none: bool):
    """``x == other`` / ``x != other`` as TF 2.21's operators: None compares as a Python
    bool; a Python value is converted to ``x``'s dtype strictly (``int_tensor == 1.5`` is a
    TypeError, an object no tensor can hold a ValueError: never a quiet False); shapes that
    cannot broadcast compare as a scalar False (True for ``!=``), TF's Equal with
    ``incompatible_shape_error=False``."""
    if other is None:
        return if_none
    if _composite(other):
        return NotImplemented
    if interpreter().executing_eagerly and (_symbolic(x) or _symbolic(other)):
        # a traced graph's tensor outside its trace (the engine's own lists of them): the
        # identity, as TF compares tensors outside functions
        return (x is other) != if_none
    if not isinstance(other, (TensorBase, np.ndarray, np.generic)):
        other = to_tensor(other, dtype=x.dtype)
    shape = getattr(other, "shape", None)
    if shape is not None and not _broadcastable(x.shape, TensorShape(shape)):
        return constant(if_none)
    return fn(x, other)


def _symbolic(t) -> bool:
    return isinstance(t, TensorBase) and getattr(t, "graph", None) is not None


def _broadcastable(a, b) -> bool:
    try:
        broadcast_shapes(a, b)
    except (ValueError, _errors.InvalidArgumentError):
        return False
    return True


# id(tensor) -> (weak reference to it, its ``assign``): a variable's slice ``v[key]`` can be
# assigned (TF's ``v[key].assign(value)``), filled by eager/variables.py
SLICE_OF: dict = {}


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
    __gt__ = _fn(math_ops.greater, None)[0]
    __ge__ = _fn(math_ops.greater_equal, None)[0]
    __lt__ = _fn(math_ops.less, None)[0]
    __le__ = _fn(math_ops.less_equal, None)[0]

    def __eq__(self, other):
        return _equality(math_ops.equal, self, other, False)

    def __ne__(self, other):
        return _equality(math_ops.not_equal, self, other, True)

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
        if key.__class__ is not tuple and not isinstance(key, (int, slice)):
            from . import mask_ops
            if mask_ops.is_mask(key):  # tensor[bool mask] is tf.boolean_mask, as in TF
                return mask_ops.boolean_mask(self, key)
        return indexing_ops.getitem(self, key)

    def __getattr__(self, name):
        # only for names the tensor lacks: ``v[key].assign`` of a variable's slice; TF's hint
        # for NumPy methods before they are on (tnp.experimental_enable_numpy_behavior);
        # other names get Python's own error, or the one their property raised
        if name == "assign":
            entry = SLICE_OF.get(id(self))
            if entry is not None and entry[0]() is self:
                return entry[1]
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
