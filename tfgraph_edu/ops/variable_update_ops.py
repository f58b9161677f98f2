"""Writing into part of a variable: ``ResourceStridedSliceAssign`` (``v[key].assign``) and
``ResourceScatterNdUpdate`` / ``Add`` / ``Sub`` (``v.scatter_nd_update``...) (layer 1).

Each changes the variable's value in place; none has a gradient (TF registers none).
"""

from __future__ import annotations

import numpy as np

from .. import dtypes as _dt
from ..errors import InvalidArgumentError
from ._core import define
from ._rules import ints
from .indexing_ops import _MASKS, _index_tuple


def _dims(shape) -> str:
    return f"[{','.join(map(str, shape))}]"


def _slice_assign_kernel(h, begin, end, strides, value, **attrs):
    masks = {k: attrs.get(k, 0) for k in _MASKS}
    idx = _index_tuple(ints(begin), ints(end), ints(strides), **masks)
    target = np.array(h.value)
    want = target[idx].shape
    try:
        target[idx] = np.broadcast_to(value, want)
    except ValueError:
        raise InvalidArgumentError(None, None, f"Cannot broadcast input shape "
                                   f"{_dims(np.shape(value))} into final shape "
                                   f"{_dims(want)}") from None
    h.value = target
    return ()


ResourceStridedSliceAssign = define(
    "ResourceStridedSliceAssign", ("ref", "begin", "end", "strides", "value"),
    _slice_assign_kernel, lambda *inputs, **attrs: [], None, stateful=True, state="variable",
    num_outputs=0, attrs=_MASKS, input_dtypes={1: _dt.int32, 2: _dt.int32, 3: _dt.int32},
    doc="v[key].assign(value): the slice of v set in place.")


def _scatter_kernel(how):
    def kernel(h, indices, updates, **attrs):
        target = np.array(h.value)
        idx = np.asarray(indices)
        k = idx.shape[-1]
        flat = idx.reshape(-1, k)
        for i, row in enumerate(flat):
            if any(not 0 <= int(j) < d for j, d in zip(row, target.shape)):
                raise InvalidArgumentError(
                    None, None, f"indices{_dims([i])} = {_dims(row.tolist())} does not index "
                    f"into shape {_dims(target.shape)}")
        where = tuple(flat.T)
        ups = np.asarray(updates).reshape((flat.shape[0],) + target.shape[k:])
        if how == "update":
            target[where] = ups
        elif how == "add":
            np.add.at(target, where, ups)
        else:
            np.subtract.at(target, where, ups)
        h.value = target
        return ()
    return kernel


ResourceScatterNdUpdate, ResourceScatterNdAdd, ResourceScatterNdSub = (
    define(f"ResourceScatterNd{how.title()}", ("ref", "indices", "updates"),
           _scatter_kernel(how), lambda *inputs, **attrs: [], None, stateful=True,
           state="variable", num_outputs=0, attrs=(), input_dtypes={1: _dt.int32},
           doc=f"v.scatter_nd_{how}: in place.")
    for how in ("update", "add", "sub"))


def _scatter_rows_kernel(how):
    """``v.scatter_add``/``scatter_sub`` of an IndexedSlices: whole rows, one per index, applied
    one after another (a row named twice changes twice, as TF's kernel does)."""
    def kernel(h, indices, updates, **attrs):
        target = np.array(h.value)
        idx = np.asarray(indices).reshape(-1)
        n = target.shape[0] if target.ndim else 0
        for i, j in enumerate(idx.tolist()):
            if not 0 <= j < n:
                raise InvalidArgumentError(None, None, f"indices[{i}] = {j} is not in [0, {n})")
        ups = np.asarray(updates).reshape((idx.shape[0],) + target.shape[1:])
        if how == "update":
            target[idx] = ups  # a row named twice: the last one stays
        else:
            with np.errstate(all="ignore"):
                _ROW_UFUNCS[how].at(target, idx, ups)
        h.value = target
        return ()
    return kernel


_ROW_UFUNCS = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.divide,
               "max": np.maximum, "min": np.minimum}
(ResourceScatterUpdate, ResourceScatterAdd, ResourceScatterSub, ResourceScatterMul,
 ResourceScatterDiv, ResourceScatterMax, ResourceScatterMin) = (
    define(f"ResourceScatter{how.title()}", ("resource", "indices", "updates"),
           _scatter_rows_kernel(how), lambda *inputs, **attrs: [], None, stateful=True,
           state="variable", num_outputs=0, attrs=(), input_dtypes={1: _dt.int32},
           doc=f"v.scatter_{how}(IndexedSlices): rows changed in place.")
    for how in ("update", "add", "sub", "mul", "div", "max", "min"))
