"""Resource variables as ops: ReadVariableOp and the Assign*VariableOp family (layer 1).

A variable's storage is a :class:`ResourceHandle`; tensors of dtype ``resource``
carry it.  Reads and writes are ordinary stateful ops, so a traced function
records them as nodes and automatic control dependencies can order them.
"""

from __future__ import annotations

import operator
import weakref

import numpy as np

from .. import dtypes as _dt
from ..errors import InvalidArgumentError
from ..shapes import TensorShape
from ._core import define

RESOURCE_KEY = "resource-handle"
_dt.NP_TO_DTYPE[RESOURCE_KEY] = _dt.resource


LIVE_HANDLES: weakref.WeakSet = weakref.WeakSet()


class ResourceHandle:
    """The storage of one variable: its current numpy value, dtype and shape.  Every live
    handle is in ``LIVE_HANDLES`` (the instruments' in-place mode restores their values)."""

    __slots__ = ("value", "var_dtype", "var_shape", "name", "trainable", "__weakref__")
    dtype = RESOURCE_KEY  # what an EagerTensor holding this reports, as numpy arrays do
    shape = ()
    ndim = 0

    def __init__(self, value: np.ndarray, var_dtype, name: str, trainable: bool):
        self.value = value
        self.var_dtype = var_dtype
        self.var_shape = TensorShape(value.shape)
        self.name = name
        self.trainable = trainable
        LIVE_HANDLES.add(self)

    def __repr__(self):
        return f"<ResourceHandle {self.name!r} shape={self.var_shape} dtype={self.var_dtype.name}>"


def handle_shape(h) -> TensorShape:
    """The variable shape behind a resource tensor (eager or symbolic)."""
    v = getattr(h, "_value", None)
    if isinstance(v, ResourceHandle):
        return v.var_shape
    shape = getattr(h, "handle_shape", None)
    return TensorShape(None) if shape is None else shape


def _read_kernel(h, dtype):
    return h.value


_READ_VALUE = operator.attrgetter("value")  # h.value, called without a Python frame


def _check_assign(h, value, update: bool):
    """TF's kernel errors for a value of the wrong shape: an assignment may change the shape
    of a variable whose shape is not fully defined; ``assign_add``/``assign_sub`` may not."""
    if value.shape == h.value.shape:
        return
    got, want = _dims(value.shape), _dims(h.value.shape)
    if update:
        raise InvalidArgumentError(
            None, None, f"Cannot update variable with shape {want} using a Tensor with shape "
            f"{got}, shapes must be equal.")
    if not h.var_shape.is_compatible_with(TensorShape(value.shape)):
        raise InvalidArgumentError(
            None, None, "Trying to assign to variable with tensor with wrong shape. Expected "
            f"{want} got {got}")


def _dims(shape) -> str:
    return f"[{','.join(map(str, shape))}]"


def _assign_kernel(h, value, dtype):
    _check_assign(h, value, False)
    h.value = value
    return ()


def _assign_add_kernel(h, value, dtype):
    _check_assign(h, value, True)
    h.value = np.add(h.value, value)
    return ()


def _assign_sub_kernel(h, value, dtype):
    _check_assign(h, value, True)
    h.value = np.subtract(h.value, value)
    return ()


def _assign_shape(h, value, dtype):
    shape = handle_shape(h)
    if not shape.is_compatible_with(value.shape):
        from ._core import shape_error
        raise shape_error(f"Shapes must be equal rank, but are {shape.rank} and "
                          f"{value.shape.rank}" if shape.rank != value.shape.rank else
                          f"Trying to assign to variable with wrong shape. Expected {shape} got "
                          f"{value.shape}")
    return []


def _update_special(ufunc):
    """``h.value = ufunc(h.value, v)``; without the shape check when both shapes are known at
    trace time to be equal (a variable's shape never changes once it is fully defined)."""
    def special(op):
        h, v = op.inputs
        var_shape = handle_shape(h)
        if var_shape.is_fully_defined() and v.shape.is_fully_defined() and \
                v.shape == var_shape:
            def update(h, v):
                h.value = ufunc(h.value, v)
        else:
            def update(h, v):
                _check_assign(h, v, True)
                h.value = ufunc(h.value, v)
        return update, (0, 1)
    return special


ReadVariableOp = define(
    "ReadVariableOp", ("resource",), _read_kernel,
    lambda h, dtype: (handle_shape(h), dtype), lambda op, g: (g,), stateful=True, state="variable",
    specialize=lambda op: (_READ_VALUE, (0,)))
AssignVariableOp = define(
    "AssignVariableOp", ("resource", "value"), _assign_kernel, _assign_shape, None,
    stateful=True, state="variable", num_outputs=0)
AssignAddVariableOp = define(
    "AssignAddVariableOp", ("resource", "value"), _assign_add_kernel, _assign_shape, None,
    stateful=True, state="variable", num_outputs=0,
    specialize=_update_special(np.add))
AssignSubVariableOp = define(
    "AssignSubVariableOp", ("resource", "value"), _assign_sub_kernel, _assign_shape, None,
    stateful=True, state="variable", num_outputs=0,
    specialize=_update_special(np.subtract))
