"""Resource variables as ops: ReadVariableOp and the Assign*VariableOp family (layer 1).

A variable's storage is a :class:`ResourceHandle`; tensors of dtype ``resource``
carry it.  Reads and writes are ordinary stateful ops, so a traced function
records them as nodes and automatic control dependencies can order them.
"""

from __future__ import annotations

import numpy as np

from .. import dtypes as _dt
from ..errors import InvalidArgumentError
from ..shapes import TensorShape
from ._core import define

RESOURCE_KEY = "resource-handle"
_dt.NP_TO_DTYPE[RESOURCE_KEY] = _dt.resource


class ResourceHandle:
    """The storage of one variable: its current numpy value, dtype and shape."""

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


def _read_value(h):
    return h.value


def _check_assign(h, value, verb):
    if value.shape != h.value.shape and (verb != "assign to" or not h.var_shape.is_compatible_with(
            TensorShape(value.shape))):
        raise InvalidArgumentError(
            None, None,
            f"Trying to {verb} variable with wrong shape. Expected "
            f"[{','.join(map(str, h.value.shape))}] got [{','.join(map(str, value.shape))}]")


def _assign_kernel(h, value, dtype):
    _check_assign(h, value, "assign to")
    h.value = value
    return ()


def _assign_add_kernel(h, value, dtype):
    _check_assign(h, value, "add to")
    h.value = np.add(h.value, value)
    return ()


def _assign_sub_kernel(h, value, dtype):
    _check_assign(h, value, "subtract from")
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


ReadVariableOp = define(
    "ReadVariableOp", ("resource",), _read_kernel,
    lambda h, dtype: (handle_shape(h), dtype), lambda op, g: (g,), stateful=True,
    specialize=lambda op: (_read_value, (0,)))
AssignVariableOp = define(
    "AssignVariableOp", ("resource", "value"), _assign_kernel, _assign_shape, None,
    stateful=True, num_outputs=0)
AssignAddVariableOp = define(
    "AssignAddVariableOp", ("resource", "value"), _assign_add_kernel, _assign_shape, None,
    stateful=True, num_outputs=0,
    specialize=lambda op: ((lambda h, v: _assign_add_kernel(h, v, None)), (0, 1)))
AssignSubVariableOp = define(
    "AssignSubVariableOp", ("resource", "value"), _assign_sub_kernel, _assign_shape, None,
    stateful=True, num_outputs=0,
    specialize=lambda op: ((lambda h, v: _assign_sub_kernel(h, v, None)), (0, 1)))
