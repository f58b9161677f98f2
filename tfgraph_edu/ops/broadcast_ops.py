"""The shape two broadcast shapes give: ``tf.broadcast_static_shape`` (on ``TensorShape``s)
and ``tf.broadcast_dynamic_shape`` (op ``BroadcastArgs``, on shape tensors); and
``tf.linalg.trace``, the sum of the main diagonal as TF computes it (layer 1)."""

from __future__ import annotations

import numpy as np

from .. import dtypes as _dt
from ..shapes import TensorShape
from . import convert, linalg_ops, reduction_ops
from ._core import bind, define


def broadcast_static_shape(shape_x, shape_y):
    """The ``TensorShape`` of ``x op y`` (unknown sizes stay unknown unless the other is
    known and not 1); TF's ValueError for shapes that do not broadcast."""
    a, b = TensorShape(shape_x), TensorShape(shape_y)
    if a.rank is None or b.rank is None:
        return TensorShape(None)
    x, y = list(a.dims), list(b.dims)
    n = max(len(x), len(y))
    x, y = [1] * (n - len(x)) + x, [1] * (n - len(y)) + y
    out = []
    for p, q in zip(x, y):
        if p is None or q is None:
            known = q if p is None else p
            out.append(None if known in (None, 1) else known)
        elif p == q or q == 1:
            out.append(p)
        elif p == 1:
            out.append(q)
        else:
            raise ValueError("Incompatible shapes for broadcasting. Two shapes are compatible "
                             "if for each dimension pair they are either equal or one of them "
                             f"is 1. Received: {_fmt(a)} and {_fmt(b)}.")
    return TensorShape(out)


def _fmt(shape):
    dims = shape.as_list()
    return "(" + ", ".join(str(d) for d in dims) + ("," if len(dims) == 1 else "") + ")"


def _broadcast_args_kernel(s0, s1):
    try:
        return np.asarray(np.broadcast_shapes(tuple(int(d) for d in s0),
                                              tuple(int(d) for d in s1)), dtype=s0.dtype)
    except ValueError:
        from ..errors import InvalidArgumentError
        raise InvalidArgumentError(
            None, None, f"Incompatible shapes: [{','.join(str(int(d)) for d in s0)}] vs. "
            f"[{','.join(str(int(d)) for d in s1)}]") from None


def _broadcast_args_shape(s0, s1):
    n0, n1 = s0.shape.dims[0] if s0.shape.rank else None, s1.shape.dims[0] if \
        s1.shape.rank else None
    return TensorShape([None if n0 is None or n1 is None else max(n0, n1)]), s0.dtype


BroadcastArgs = define("BroadcastArgs", ("s0", "s1"), _broadcast_args_kernel,
                       _broadcast_args_shape, lambda op, g: (None, None), T=(0, 1),
                       dtypes=frozenset({_dt.int32, _dt.int64}))


def broadcast_dynamic_shape(shape_x, shape_y):
    """The shape (a 1-D int tensor) two shapes give when broadcast (op ``BroadcastArgs``)."""
    x = shape_x if convert.is_tensor(shape_x) else None
    y = shape_y if convert.is_tensor(shape_y) else None
    dtype = (x or y).dtype if (x is not None or y is not None) else _dt.int32
    x = convert.to_tensor(shape_x, dtype) if x is None else x
    y = convert.to_tensor(shape_y, dtype) if y is None else y
    return bind(BroadcastArgs, (x, y), None, None)


def trace(x, name=None):
    """The sum of the main diagonal of each matrix (``reduce_sum(matrix_diag_part(x),
    [-1])``, as TF computes it)."""
    return reduction_ops.reduce_sum(linalg_ops.matrix_diag_part(convert.to_tensor(x)), [-1],
                                    name=name)
