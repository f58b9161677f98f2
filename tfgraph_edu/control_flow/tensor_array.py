"""``tf.TensorArray``: a list of tensors built up in a loop, eagerly or in a graph (layer 4b).

It is a thin value object over a tensor list (``variant`` tensor, the ``flow``):
``write`` returns a new TensorArray whose flow comes from ``TensorListSetItem``,
so inside a tf.function the array can be a loop variable of a While op.
"""

from __future__ import annotations

import numpy as np

from .. import dtypes as _dt
from ..ops import list_ops
from ..ops._core import bind
from ..ops.convert import is_tensor, to_tensor
from ..shapes import TensorShape, as_shape


class TensorArray:
    """``tf.TensorArray(dtype, size=0, dynamic_size=False, element_shape=None, ...)``."""

    def __init__(self, dtype, size=None, dynamic_size=None, clear_after_read=None,
                 tensor_array_name=None, handle=None, flow=None, infer_shape=True,
                 element_shape=None, colocate_with_first_write_call=True, name=None):
        self._dtype = _dt.as_dtype(dtype)
        self._element_shape = (TensorShape(None) if element_shape is None
                               else as_shape(element_shape))
        self._dynamic_size = bool(dynamic_size)
        self._infer_shape = infer_shape
        if flow is None:
            dims = self._element_shape.dims
            shape_vec = [-1] if dims is None else [-1 if d is None else d for d in dims]
            flow = bind(list_ops.TensorListReserve,
                        (np.array(shape_vec, np.int32), 0 if size is None else size),
                        {"element_dtype": self._dtype}, name or "TensorArrayV2")
        self._flow = flow

    dtype = property(lambda self: self._dtype)
    element_shape = property(lambda self: self._element_shape)
    dynamic_size = property(lambda self: self._dynamic_size)
    flow = property(lambda self: self._flow)

    def _with_flow(self, flow, element_shape=None) -> TensorArray:
        ta = TensorArray.__new__(TensorArray)
        ta._dtype, ta._dynamic_size, ta._infer_shape = (self._dtype, self._dynamic_size,
                                                        self._infer_shape)
        ta._element_shape = element_shape if element_shape is not None else self._element_shape
        ta._flow = flow
        return ta

    # AutoGraph carries a TensorArray through loops and conds by its flow tensor
    def _ag_components(self) -> list:
        return [self._flow]

    def _ag_rebuild(self, components) -> TensorArray:
        return self._with_flow(components[0])

    def write(self, index, value, name=None) -> TensorArray:
        value = to_tensor(value) if is_tensor(value) else to_tensor(value, self._dtype)
        if value.dtype is not self._dtype:
            raise TypeError(f"TensorArray dtype is {self._dtype.name} but Op is trying to "
                            f"write dtype {value.dtype.name}.")
        shape = self._element_shape
        if not shape.is_compatible_with(value.shape):
            raise ValueError(f"Could not write to TensorArray index {index}: its elements have "
                             f"shape {shape}, the value has shape {value.shape}.")
        merged = shape.merge_with(value.shape) if self._infer_shape else shape
        flow = bind(list_ops.TensorListSetItem, (self._flow, index, value),
                    {"element_dtype": self._dtype}, name or "TensorArrayV2Write")
        return self._with_flow(flow, merged)

    def read(self, index, name=None):
        return bind(list_ops.TensorListGetItem, (self._flow, index),
                    {"element_shape": self._element_shape, "element_dtype": self._dtype},
                    name or "TensorArrayV2Read")

    def stack(self, name=None):
        return bind(list_ops.TensorListStack, (self._flow,),
                    {"element_shape": self._element_shape, "element_dtype": self._dtype},
                    name or "TensorArrayV2Stack")

    def gather(self, indices, name=None):
        from ..ops.indexing_ops import gather
        return gather(self.stack(), indices, name=name)

    def unstack(self, value, name=None) -> TensorArray:
        value = to_tensor(value, self._dtype)
        flow = bind(list_ops.TensorListFromTensor, (value,), None, name or "TensorArrayUnstack")
        return self._with_flow(flow, TensorShape(value.shape.dims[1:]) if value.shape.rank
                               else self._element_shape)

    def size(self, name=None):
        return bind(list_ops.TensorListLength, (self._flow,), None, name or "TensorArrayV2Size")

    def close(self, name=None):
        return None

    def __repr__(self):
        return f"<tf.TensorArray dtype={self._dtype.name} element_shape={self._element_shape}>"
