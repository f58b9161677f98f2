"""``tf.TensorArray``: a list of tensors built up in a loop, eagerly or in a graph (layer 4b).

It is a thin value object over a tensor list (``variant`` tensor, the ``flow``):
``write`` returns a new TensorArray whose flow comes from ``TensorListSetItem``,
so inside a tf.function the array can be a loop variable of a While op.

Eagerly, as in TensorFlow, every TensorArray made from the same one shares its contents:
after ``ta2 = ta.write(0, 5)``, ``ta.read(0)`` is 5 too.  They share one cell holding the
latest flow, and every write chains on it (so a GradientTape sees one chain of writes).
Eagerly, also as in TensorFlow, ``clear_after_read`` (the default) makes a read clear its
element: it reads as zeros in ``stack()`` and a second ``read`` of it is an error.  In a
graph reads clear nothing (TF's TensorArray in a tf.function ignores the option).
"""

from __future__ import annotations

import numpy as np

from .. import dtypes as _dt
from ..eager.tensor import EagerTensor
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
        # one cell shared by every array made from this one (as TF's): a write in a loop body
        # tells the array after the loop the shape of its elements
        self._shape_cell = [TensorShape(None) if element_shape is None
                            else as_shape(element_shape)]
        self._dynamic_size = bool(dynamic_size)
        self._infer_shape = infer_shape
        if flow is None:
            dims = self._element_shape.dims
            shape_vec = [-1] if dims is None else [-1 if d is None else d for d in dims]
            flow = bind(list_ops.TensorListReserve,
                        (np.array(shape_vec, np.int32), 0 if size is None else size),
                        {"element_dtype": self._dtype}, name or "TensorArrayV2")
        self._flow = flow
        self._clear_after_read = True if clear_after_read is None else bool(clear_after_read)
        # eagerly: the contents shared by the arrays made from this one, and the cleared items
        self._cell = [flow, set()]

    dtype = property(lambda self: self._dtype)
    element_shape = property(lambda self: self._shape_cell[0])
    _element_shape = element_shape
    dynamic_size = property(lambda self: self._dynamic_size)

    @property
    def flow(self):
        """The tensor list: eagerly the latest contents, in a graph this array's own."""
        return self._cell[0] if isinstance(self._flow, EagerTensor) else self._flow

    def _with_flow(self, flow, element_shape=None) -> TensorArray:
        ta = TensorArray.__new__(TensorArray)
        ta._dtype, ta._dynamic_size, ta._infer_shape = (self._dtype, self._dynamic_size,
                                                        self._infer_shape)
        ta._clear_after_read = self._clear_after_read
        if element_shape is not None:
            self._shape_cell[0] = element_shape
        ta._shape_cell = self._shape_cell
        ta._flow = flow
        if isinstance(flow, EagerTensor) and isinstance(self._flow, EagerTensor):
            ta._cell = self._cell  # eagerly one array: the old object sees the write too
            self._cell[0] = flow
        else:
            ta._cell = [flow, set()]
        return ta

    def _eager(self) -> bool:
        return isinstance(self._flow, EagerTensor)

    # AutoGraph carries a TensorArray through loops and conds by its flow tensor
    def _ag_components(self) -> list:
        return [self.flow]

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
        if self._eager():
            i = int(np.asarray(getattr(index, "_value", index)))
            size = len(self.flow._value.items)
            if i >= size and not self._dynamic_size:  # TF's eager TensorArray's own check
                from ..errors import OutOfRangeError
                raise OutOfRangeError(None, None, f"Tried to write to index {i} but array is "
                                      f"not resizeable and size is: {size}")
            self._cell[1].discard(i)
        attrs = {"element_dtype": self._dtype}
        if self._dynamic_size:
            attrs["resize_if_index_out_of_bounds"] = True
        flow = bind(list_ops.TensorListSetItem, (self.flow, index, value), attrs,
                    name or "TensorArrayV2Write")
        return self._with_flow(flow, merged)

    def read(self, index, name=None):
        eager_clear = self._eager() and self._clear_after_read
        if eager_clear:
            i = int(np.asarray(getattr(index, "_value", index)))
            if i in self._cell[1]:
                from ..errors import InvalidArgumentError
                raise InvalidArgumentError(
                    None, None, f"Could not read index {i} twice because it was cleared after "
                    "a previous read (perhaps try setting clear_after_read = false?)")
        value = bind(list_ops.TensorListGetItem, (self.flow, index),
                     {"element_shape": self._element_shape, "element_dtype": self._dtype},
                     name or "TensorArrayV2Read")
        if eager_clear:  # TF's eager array forgets the item: it stacks as zeros from now on
            from ..ops.creation_ops import zeros_like
            self._cell[0] = bind(list_ops.TensorListSetItem,
                                 (self.flow, index, zeros_like(value)),
                                 {"element_dtype": self._dtype}, "TensorArrayV2Write")
            self._cell[1].add(i)
        return value

    def stack(self, name=None):
        return bind(list_ops.TensorListStack, (self.flow,),
                    {"element_shape": self._element_shape, "element_dtype": self._dtype},
                    name or "TensorArrayV2Stack")

    def gather(self, indices, name=None):
        from ..ops.indexing_ops import gather
        if self._eager() and self._cell[1]:
            asked = np.asarray(getattr(indices, "_value", indices)).ravel().tolist()
            cleared = sorted(self._cell[1].intersection(asked))
            if cleared:  # TF 2.21 fails here too (a ValueError about an unknown shape)
                raise ValueError(f"Could not gather index {cleared[0]}: it was cleared after a "
                                 "previous read (perhaps try setting clear_after_read = false?)")
        return gather(self.stack(), indices, name=name)

    def unstack(self, value, name=None) -> TensorArray:
        value = to_tensor(value, self._dtype)
        flow = bind(list_ops.TensorListFromTensor, (value,), None, name or "TensorArrayUnstack")
        return self._with_flow(flow, TensorShape(value.shape.dims[1:]) if value.shape.rank
                               else self._element_shape)

    def size(self, name=None):
        return bind(list_ops.TensorListLength, (self.flow,), None, name or "TensorArrayV2Size")

    def close(self, name=None):
        return None

    def __repr__(self):
        return f"<tf.TensorArray dtype={self._dtype.name} element_shape={self._element_shape}>"
