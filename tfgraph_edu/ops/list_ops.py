"""Tensor lists, the ops behind ``tf.TensorArray`` in graphs (layer 1).

A list value is immutable for every kernel: ``TensorListSetItem`` returns a new list,
so a TensorArray can be a loop variable of a While op like any tensor (dtype
``variant``, as in TensorFlow), and the step-by-step interpreter can keep each
iteration's list.  Only the compiled executor writes into a list in place
(:func:`set_item_in_place`), where its analysis proves that nothing reads the old
list again (runtime/list_ownership.py).
"""

from __future__ import annotations

import operator

import numpy as np

from .. import dtypes as _dt
from ..errors import InvalidArgumentError
from ..shapes import TensorShape, as_shape
from ._core import define

LIST_KEY = "tensor-list"
_dt.NP_TO_DTYPE[LIST_KEY] = _dt.variant


class TensorListValue:
    """The items of a tensor list (None where nothing was written yet): a Python list that
    belongs to this value alone."""

    __slots__ = ("items", "element_dtype", "element_shape")
    dtype = LIST_KEY
    shape = ()
    ndim = 0

    def __init__(self, items, element_dtype, element_shape):
        self.items = list(items)
        self.element_dtype = element_dtype
        self.element_shape = element_shape

    def __repr__(self):
        dtype = self.element_dtype.name if self.element_dtype is not None else "gradient"
        return f"<TensorList of {len(self.items)} {dtype} items>"


def _index(i) -> int:
    try:
        return operator.index(i)  # a numpy or Python integer scalar, or a 0-d array
    except TypeError:
        return int(np.ravel(i)[0])


def _owning(items: list, element_dtype, element_shape) -> TensorListValue:
    """A list value that takes ``items`` as they are (no copy)."""
    lst = TensorListValue.__new__(TensorListValue)
    lst.items, lst.element_dtype, lst.element_shape = items, element_dtype, element_shape
    return lst


def _reserve(element_shape, num_elements, element_dtype):
    return TensorListValue([None] * _index(num_elements), element_dtype,
                           TensorShape(None) if element_shape is None else element_shape)


def _set_item(lst, index, item, element_dtype=None, resize_if_index_out_of_bounds=False):
    """The kernel: a new list with item ``index`` replaced (the input list is unchanged);
    an index past the end grows the list only with ``resize_if_index_out_of_bounds`` (what
    a TensorArray with ``dynamic_size=True`` writes with), as in TensorFlow."""
    if not resize_if_index_out_of_bounds:
        _check_in_list(lst, index)
    return _put(_owning(list(lst.items), lst.element_dtype, lst.element_shape), index, item)


def _set_item_growing(lst, index, item):
    return _put(_owning(list(lst.items), lst.element_dtype, lst.element_shape), index, item)


def _set_item_fixed(lst, index, item):
    _check_in_list(lst, index)
    return _put(_owning(list(lst.items), lst.element_dtype, lst.element_shape), index, item)


def _check_in_list(lst, index) -> None:
    i = _index(index)
    if not 0 <= i < len(lst.items):
        raise InvalidArgumentError(None, None, f"Trying to modify element {i} in a list with "
                                   f"{len(lst.items)} elements.")


def set_item_in_place(lst, index, item):
    """What ``TensorListSetItem`` computes, written into ``lst`` itself and returning it: for
    the compiled executor, where nothing reads ``lst`` again (runtime/list_ownership.py).
    This one grows the list (``resize_if_index_out_of_bounds``); see the next one."""
    try:
        i = operator.index(index)
    except TypeError:
        i = _index(index)
    items = lst.items
    if 0 <= i < len(items):  # the common case, without a further call
        items[i] = item
        return lst
    return _put(lst, i, item)


def set_item_in_place_fixed(lst, index, item):
    """``set_item_in_place`` for a list of fixed size: an index past the end is TF's
    InvalidArgumentError."""
    try:
        i = operator.index(index)
    except TypeError:
        i = _index(index)
    items = lst.items
    if 0 <= i < len(items):
        items[i] = item
        return lst
    raise InvalidArgumentError(None, None, f"Trying to modify element {i} in a list with "
                               f"{len(items)} elements.")


def copy_list(lst) -> TensorListValue:
    """A list value with the same items that can be written in place without touching
    ``lst`` (the compiled executor takes one on entering a loop that writes in place)."""
    if type(lst) is not TensorListValue:
        raise InvalidArgumentError(None, None, f"Expected a tensor list, got {type(lst)}.")
    return _owning(list(lst.items), lst.element_dtype, lst.element_shape)


def _put(lst, index, item):
    i = _index(index)
    items = lst.items
    if 0 <= i < len(items):
        items[i] = item
        return lst
    if i < 0:  # checked before anything is written
        raise InvalidArgumentError(None, None, f"Trying to modify element {i} in a list with "
                                   f"{len(items)} elements.")
    items += [None] * (i + 1 - len(items))
    items[i] = item
    return lst


def _get_item(lst, index, element_shape=None, element_dtype=None):
    i = _index(index)
    if not 0 <= i < len(lst.items):
        raise InvalidArgumentError(None, None, f"Trying to access element {i} in a list with "
                                   f"{len(lst.items)} elements.")
    item = lst.items[i]
    if item is None:
        return _zeros_like_element(lst, element_shape, element_dtype)
    return item


def _get_item_special(op):
    """``specialize`` for TensorListGetItem: the attrs bound, a written item returned
    without further checks."""
    shape, dtype = op.attrs.get("element_shape"), op.attrs.get("element_dtype")

    def get_item(lst, index):
        i = _index(index)
        if 0 <= i < len(lst.items):
            item = lst.items[i]
            if item is not None:
                return item
        return _get_item(lst, i, shape, dtype)
    return get_item, (0, 1)


def _zeros_like_element(lst, element_shape=None, element_dtype=None):
    """Zeros for an element never written: shaped by the list, else by the op's attrs."""
    shape = lst.element_shape
    if not shape.is_fully_defined() and element_shape is not None:
        shape = as_shape(element_shape)
    dtype = lst.element_dtype or element_dtype
    if shape.is_fully_defined():
        return np.zeros(shape.as_list(), dtype.np_dtype)
    written = [it for it in lst.items if it is not None]
    if written:  # the list's elements share a shape: zeros like one that was written
        return np.zeros_like(written[0])
    raise InvalidArgumentError(None, None, "Trying to read an element that was never written, "
                               "and the element shape is not known.")


def _stack(lst, element_shape=None, element_dtype=None):
    if not lst.items:
        shape = lst.element_shape
        if not shape.is_fully_defined() and element_shape is not None:
            shape = as_shape(element_shape)
        dims = shape.as_list() if shape.rank is not None and shape.is_fully_defined() else []
        return np.zeros([0] + dims, (lst.element_dtype or element_dtype).np_dtype)
    items = lst.items
    try:  # the common case at a tenth of np.stack's cost: numeric items, one shape and dtype
        out = np.array(items)
    except (ValueError, TypeError):  # items of different shapes, or a None among arrays
        out = None
    dtype = lst.element_dtype or element_dtype
    if (out is not None and dtype is not None and out.ndim >= 1
            and out.dtype.kind in "biufc" and out.dtype == dtype.np_dtype):
        return out  # exactly np.stack(items): same shapes, and the items' common dtype
    items = [_zeros_like_element(lst, element_shape, element_dtype) if it is None else it
             for it in items]
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


# -- gradients: a list's gradient is a list (items never reached are None, i.e. zero) ------------
def _zeros_list(lst):
    """A gradient list as long as ``lst`` with every item zero (TF: a reserved list)."""
    from ._core import bind
    return bind(TensorListReserve, (np.array([-1], np.int32), bind(TensorListLength, (lst,))),
                {"element_dtype": None})


def _set_item_grad(op, dlist):
    from ._core import bind
    from .creation_ops import zeros_like
    item = op.inputs[2]
    ditem = bind(TensorListGetItem, (dlist, op.inputs[1]),
                 {"element_shape": item.shape, "element_dtype": item.dtype})
    rest = bind(TensorListSetItem, (dlist, op.inputs[1], zeros_like(item)),
                {"element_dtype": item.dtype})
    return rest, None, ditem


def _get_item_grad(op, ditem):
    from ._core import bind
    dlist = bind(TensorListSetItem, (_zeros_list(op.inputs[0]), op.inputs[1], ditem),
                 {"element_dtype": ditem.dtype})
    return dlist, None


def _stack_grad(op, dstacked):
    from ._core import bind
    return (bind(TensorListFromTensor, (dstacked,)),)


def _from_tensor_grad(op, dlist):
    from ._core import bind
    t = op.inputs[0]
    return (bind(TensorListStack, (dlist,), {"element_shape": TensorShape(t.shape.dims[1:])
                                             if t.shape.rank else TensorShape(None),
                                             "element_dtype": t.dtype}),)


def _add_lists(a, b):
    n = max(len(a.items), len(b.items))
    pa = list(a.items) + [None] * (n - len(a.items))
    pb = list(b.items) + [None] * (n - len(b.items))
    items = [x if y is None else y if x is None else np.add(x, y) for x, y in zip(pa, pb)]
    return TensorListValue(items, a.element_dtype or b.element_dtype,
                           a.element_shape if a.element_shape.is_fully_defined()
                           else b.element_shape)


TensorListReserve = define(
    "TensorListReserve", ("element_shape", "num_elements"),
    lambda shape, n, element_dtype: _reserve(_known_shape(shape), n, element_dtype),
    _list_shape, None, input_dtypes={0: _dt.int32, 1: _dt.int32})
TensorListSetItem = define("TensorListSetItem", ("input_handle", "index", "item"), _set_item,
                           _list_shape, _set_item_grad, input_dtypes={1: _dt.int32},
                           specialize=lambda op: (
                               _set_item_growing if op.attrs.get("resize_if_index_out_of_bounds")
                               else _set_item_fixed, (0, 1, 2)))
TensorListGetItem = define("TensorListGetItem", ("input_handle", "index"), _get_item,
                           _item_shape, _get_item_grad, input_dtypes={1: _dt.int32},
                           specialize=_get_item_special)
TensorListStack = define("TensorListStack", ("input_handle",), _stack, _stack_shape,
                         _stack_grad)
TensorListLength = define("TensorListLength", ("input_handle",),
                          lambda lst: np.int32(len(lst.items)),
                          lambda lst: (TensorShape([]), _dt.int32), None)
TensorListFromTensor = define("TensorListFromTensor", ("tensor",), _from_tensor, _list_shape,
                              _from_tensor_grad)
TensorListAddN = define(
    "TensorListAddN", ("inputs*",), lambda *lists: _reduce_add(lists), _list_shape,
    lambda op, g: (g,) * len(op.inputs),
    doc="Sums gradient lists item by item (TensorFlow does this with AddN on variants).")


def _reduce_add(lists):
    out = lists[0]
    for lst in lists[1:]:
        out = _add_lists(out, lst)
    return out


def _known_shape(shape_value):
    dims = [int(d) for d in np.ravel(shape_value)]
    if dims == [-1]:
        return TensorShape(None)
    return TensorShape([None if d < 0 else d for d in dims])
