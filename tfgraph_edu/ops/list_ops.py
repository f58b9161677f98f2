"""Tensor lists, the ops behind ``tf.TensorArray`` in graphs (layer 1).

A list value is immutable: ``TensorListSetItem`` returns a new list, so a
TensorArray can be a loop variable of a While op like any tensor (dtype
``variant``, as in TensorFlow).
"""

from __future__ import annotations

import numpy as np

from .. import dtypes as _dt
from ..errors import InvalidArgumentError
from ..shapes import TensorShape, as_shape
from ._core import define

LIST_KEY = "tensor-list"
_dt.NP_TO_DTYPE[LIST_KEY] = _dt.variant


class TensorListValue:
    """The items of a tensor list (None where nothing was written yet)."""

    __slots__ = ("items", "element_dtype", "element_shape")
    dtype = LIST_KEY
    shape = ()
    ndim = 0

    def __init__(self, items, element_dtype, element_shape):
        self.items = tuple(items)
        self.element_dtype = element_dtype
        self.element_shape = element_shape

    def __repr__(self):
        return f"<TensorList of {len(self.items)} {self.element_dtype.name} items>"


def _index(i) -> int:
    return int(np.ravel(i)[0])


def _reserve(element_shape, num_elements, element_dtype):
    return TensorListValue([None] * _index(num_elements), element_dtype,
                           TensorShape(None) if element_shape is None else element_shape)


def _set_item(lst, index, item, element_dtype=None):
    i = _index(index)
    items = list(lst.items)
    if i < 0:
        raise InvalidArgumentError(None, None, f"Trying to modify element {i} in a list with "
                                   f"{len(items)} elements.")
    if i >= len(items):
        items += [None] * (i + 1 - len(items))
    items[i] = item
    return TensorListValue(items, lst.element_dtype, lst.element_shape)


def _get_item(lst, index, element_shape=None, element_dtype=None):
    i = _index(index)
    if not 0 <= i < len(lst.items):
        raise InvalidArgumentError(None, None, f"Trying to access element {i} in a list with "
                                   f"{len(lst.items)} elements.")
    item = lst.items[i]
    if item is None:
        return _zeros_like_element(lst)
    return item


def _zeros_like_element(lst):
    shape = lst.element_shape
    if shape.is_fully_defined():
        return np.zeros(shape.as_list(), lst.element_dtype.np_dtype)
    raise InvalidArgumentError(None, None, "Trying to read an element that was never written, "
                               "and the element shape is not known.")


def _stack(lst, element_shape=None, element_dtype=None):
    if not lst.items:
        shape = lst.element_shape
        dims = shape.as_list() if shape.rank is not None and shape.is_fully_defined() else []
        return np.zeros([0] + dims, lst.element_dtype.np_dtype)
    items = [_zeros_like_element(lst) if it is None else it for it in lst.items]
    try:
        return np.stack(items)
    except ValueError:
        shapes = sorted({tuple(np.shape(it)) for it in items})
        raise InvalidArgumentError(None, None, f"Tried to stack elements of different shapes: "
                                   f"{shapes}") from None


def _from_tensor(tensor, element_shape=None):
    return TensorListValue(list(np.asarray(tensor)), _dt.NP_TO_DTYPE[np.asarray(tensor).dtype],
                           TensorShape(list(np.shape(tensor)[1:])))


def _list_shape(*_, **__):
    return TensorShape([]), _dt.variant


def _item_shape(lst, index, element_shape=None, element_dtype=None):
    return as_shape(element_shape) if element_shape is not None else TensorShape(None), \
        element_dtype


def _stack_shape(lst, element_shape=None, element_dtype=None):
    n = None
    shape = as_shape(element_shape) if element_shape is not None else TensorShape(None)
    return TensorShape([n]).concatenate(shape), element_dtype


TensorListReserve = define(
    "TensorListReserve", ("element_shape", "num_elements"),
    lambda shape, n, element_dtype: _reserve(_known_shape(shape), n, element_dtype),
    _list_shape, None, input_dtypes={0: _dt.int32, 1: _dt.int32})
TensorListSetItem = define("TensorListSetItem", ("input_handle", "index", "item"), _set_item,
                           _list_shape, None, input_dtypes={1: _dt.int32})
TensorListGetItem = define("TensorListGetItem", ("input_handle", "index"), _get_item,
                           _item_shape, None, input_dtypes={1: _dt.int32})
TensorListStack = define("TensorListStack", ("input_handle",), _stack, _stack_shape, None)
TensorListLength = define("TensorListLength", ("input_handle",),
                          lambda lst: np.int32(len(lst.items)),
                          lambda lst: (TensorShape([]), _dt.int32), None)
TensorListFromTensor = define("TensorListFromTensor", ("tensor",), _from_tensor, _list_shape,
                              None)


def _known_shape(shape_value):
    dims = [int(d) for d in np.ravel(shape_value)]
    if dims == [-1]:
        return TensorShape(None)
    return TensorShape([None if d < 0 else d for d in dims])
