"""``tf.sets``: DenseToDenseSetOperation (intersection, union, difference) and SetSize
(layer 1).

The last axis of a dense input holds the elements of a set; the other axes index the sets.
A result is a ``SparseTensor`` whose row for each set lists its elements in ascending order,
padded by the sparse layout to the largest set (as in TensorFlow).
"""

from __future__ import annotations

import numpy as np

from .. import dtypes as _dt
from ..errors import InvalidArgumentError
from ..shapes import TensorShape
from . import convert
from ._core import bind, constant_value, define, shape_error
from ._rules import fmt

I64 = _dt.int64
_SET_DTYPES = frozenset({_dt.int8, _dt.int16, _dt.int32, _dt.int64, _dt.uint8, _dt.string})
_OPS = {"intersection": lambda a, b: a & b, "union": lambda a, b: a | b,
        "a-b": lambda a, b: a - b, "b-a": lambda a, b: b - a}


def _set_op_kernel(set1, set2, set_operation="intersection", validate_indices=True):
    a, b = np.asarray(set1), np.asarray(set2)
    for x in (a, b):
        if x.ndim < 2:
            raise InvalidArgumentError(None, None, f"Shape {fmt(x.shape)} has rank {x.ndim} < 2")
    if a.shape[:-1] != b.shape[:-1]:
        raise InvalidArgumentError(None, None, f"Mismatched shapes {fmt(a.shape[:-1])} vs "
                                               f"{fmt(b.shape[:-1])}")
    batch = a.shape[:-1]
    combine = _OPS[set_operation]
    rows = {i: sorted(combine(set(a[i].tolist()), set(b[i].tolist()))) for i in np.ndindex(*batch)}
    width = max((len(r) for r in rows.values()), default=0)
    indices = [list(i) + [j] for i, r in rows.items() for j in range(len(r))]
    values = [v for r in rows.values() for v in r]
    dtype = object if a.dtype == object else a.dtype
    return (np.array(indices, np.int64).reshape(-1, len(batch) + 1),
            np.array(values, dtype).reshape(-1), np.array(list(batch) + [width], np.int64))


def _set_op_shape(set1, set2, set_operation="intersection", validate_indices=True):
    for x in (set1, set2):
        if x.shape.rank is not None and x.shape.rank < 2:
            raise shape_error(f"Shape must be at least rank 2 but is rank {x.shape.rank}")
    if set1.shape.rank is not None and set2.shape.rank is not None:
        b1, b2 = set1.shape.dims[:-1], set2.shape.dims[:-1]
        if len(b1) != len(b2):
            raise shape_error(f"Shapes must be equal rank, but are {len(b1)} and {len(b2)}")
        for i, (x, y) in enumerate(zip(b1, b2)):
            if x is not None and y is not None and x != y:
                raise shape_error(f"Dimension {i} in both shapes must be equal, but are {x} and "
                                  f"{y}. Shapes are {fmt(b1)} and {fmt(b2)}.")
    v1, v2 = constant_value(set1), constant_value(set2)
    if v1 is not None and v2 is not None:  # constants: the result's shapes are known
        out = _set_op_kernel(v1, v2, set_operation)
        return [(TensorShape(list(o.shape)), d) for o, d in zip(out, (I64, set1.dtype, I64))]
    r = set1.shape.rank if set1.shape.rank is not None else set2.shape.rank
    return [(TensorShape([None, r]), I64), (TensorShape([None]), set1.dtype),
            (TensorShape([r]), I64)]


DenseToDenseSetOperation = define(
    "DenseToDenseSetOperation", ("set1", "set2"), _set_op_kernel, _set_op_shape, None,
    T=(0, 1), dtypes=_SET_DTYPES, num_outputs=3)


def _set_size_kernel(set_indices, set_values, set_shape, validate_indices=True):
    shape = [int(d) for d in np.ravel(set_shape)]
    if len(shape) < 2:
        raise InvalidArgumentError(None, None, f"Invalid rank {len(shape)}.")
    seen: dict = {}
    for idx, v in zip(np.asarray(set_indices).tolist(), np.asarray(set_values).tolist()):
        seen.setdefault(tuple(idx[:-1]), set()).add(v)
    out = np.zeros(shape[:-1], np.int32)
    for key, vals in seen.items():
        out[key] = len(vals)
    return out


def _set_size_shape(set_indices, set_values, set_shape, validate_indices=True):
    n = set_shape.shape.dims[0] if set_shape.shape.rank == 1 else None
    v = constant_value(set_shape)
    if v is not None:
        return TensorShape([int(d) for d in np.ravel(v)][:-1]), _dt.int32
    return TensorShape(None if n is None else [None] * (n - 1)), _dt.int32


SetSize = define("SetSize", ("set_indices", "set_values", "set_shape"), _set_size_kernel,
                 _set_size_shape, None, dtypes=_SET_DTYPES, T=(1,),
                 input_dtypes={0: I64, 2: I64})


def _dense_pair(a, b):
    from .sparse_ops import SparseTensor
    if isinstance(a, SparseTensor) or isinstance(b, SparseTensor):
        raise NotImplementedError("tfgraph_edu's tf.sets operations take dense tensors only "
                                  "(TensorFlow also takes a SparseTensor).")
    a, b = convert.to_tensor(a), convert.to_tensor(b)
    for label, t in (("a", a), ("b", b)):
        if t.dtype not in _SET_DTYPES:
            names = ", ".join(sorted(f"tf.{d.name}" for d in _SET_DTYPES))
            raise TypeError(f"'{label}' has invalid dtype `{t.dtype}` not in supported dtypes: "
                            f"`frozenset({{{names}}})`.")
    if a.dtype is not b.dtype:
        raise TypeError(f"Types don't match, {a.dtype} vs {b.dtype}.")
    return a, b


def _set_operation(a, b, operation, validate_indices):
    from .sparse_ops import SparseTensor
    a, b = _dense_pair(a, b)
    indices, values, shape = bind(DenseToDenseSetOperation, (a, b),
                                  {"set_operation": operation,
                                   "validate_indices": bool(validate_indices)})
    return SparseTensor(indices, values, shape)


def intersection(a, b, validate_indices=True):
    """``tf.sets.intersection``: per set (last axis), the elements in both ``a`` and ``b``."""
    return _set_operation(a, b, "intersection", validate_indices)


def union(a, b, validate_indices=True):
    """``tf.sets.union``: per set (last axis), the elements in ``a`` or ``b``."""
    return _set_operation(a, b, "union", validate_indices)


def difference(a, b, aminusb=True, validate_indices=True):
    """``tf.sets.difference``: per set, ``a - b`` (or ``b - a`` when ``aminusb=False``)."""
    return _set_operation(a, b, "a-b" if aminusb else "b-a", validate_indices)


def size(a, validate_indices=True):
    """``tf.sets.size``: the number of distinct elements of each set of the SparseTensor
    ``a`` (op ``SetSize``)."""
    from .sparse_ops import SparseTensor
    if not isinstance(a, SparseTensor):
        raise TypeError(f"Expected `SparseTensor`, got {a}.")
    return bind(SetSize, (a.indices, a.values, a.dense_shape),
                {"validate_indices": bool(validate_indices)})
