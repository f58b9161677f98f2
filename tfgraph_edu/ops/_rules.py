"""Shape and dtype rules shared by many ops (layer 1)."""

from __future__ import annotations

import numpy as np

from .. import dtypes as _dt
from ..shapes import TensorShape
from ._core import constant_value, shape_error


def fmt(shape) -> str:
    """A shape as TensorFlow writes it in error messages: ``[2,3]``, ``[?,3]``."""
    dims = shape.dims if isinstance(shape, TensorShape) else list(shape)
    if dims is None:
        return "<unknown>"
    return "[" + ",".join("?" if d is None else str(d) for d in dims) + "]"


def broadcast_shapes(a: TensorShape, b: TensorShape) -> TensorShape:
    """numpy broadcasting on partial shapes; raises for incompatible known dims."""
    if a.rank is None or b.rank is None:
        return TensorShape(None)
    if a._dims == b._dims or not b._dims:  # the common cases: the result is ``a`` (immutable)
        return a
    if not a._dims:
        return b
    da, db = a.dims, b.dims
    n = max(len(da), len(db))
    da = [1] * (n - len(da)) + da
    db = [1] * (n - len(db)) + db
    out = []
    for x, y in zip(da, db):
        if x == 1:
            out.append(y)
        elif y == 1:
            out.append(x)
        elif x is None:
            out.append(y)
        elif y is None or x == y:
            out.append(x)
        else:
            raise shape_error(f"Incompatible shapes: {fmt(a)} vs. {fmt(b)}")
    return TensorShape(out)


def same(x, **_):
    """Unary elementwise: same shape and dtype."""
    return x.shape, x.dtype


def binary(x, y, **_):
    """Broadcasting binary op with the inputs' dtype."""
    return broadcast_shapes(x.shape, y.shape), x.dtype


def compare(x, y, **_):
    """Broadcasting comparison: bool result."""
    return broadcast_shapes(x.shape, y.shape), _dt.bool


def normalize_axis(axis: int, rank: int, op: str = "") -> int:
    if not -rank <= axis < max(rank, 1):
        raise shape_error(f"Invalid reduction dimension {axis} for input with {rank} dimensions.")
    return axis % rank if rank else 0


def ints(arr) -> tuple[int, ...]:
    """An int array (a shape, axes, a permutation) as a tuple of Python ints."""
    return tuple(int(d) for d in np.ravel(arr))


def known_ints(t):
    """The value of an int tensor input if known at build time, else None."""
    v = constant_value(t)
    return None if v is None else ints(v)


def partial_ints(t):
    """The entries of a 1-D int tensor input (a shape) known at build time, None for the others
    (TF's ``constant_value_as_shape``): a constant, a ``tf.stack`` of scalars (``[1, n, 2]``),
    a ``tf.shape``; None when not even its length is known."""
    v = known_ints(t)
    if v is not None:
        return list(v)
    op = getattr(t, "op", None)
    if op is not None and op.type == "Pack" and all(
            getattr(x, "shape", None) is not None and x.shape.rank == 0 for x in op.inputs):
        out = []
        for x in op.inputs:
            k = known_ints(x)
            out.append(None if k is None else k[0])
        return out
    if op is not None and op.type == "Shape" and op.inputs[0].shape.rank is not None:
        return list(op.inputs[0].shape.dims)
    n = vector_len(t)
    return None if n is None else [None] * n


def vector_len(t):
    """The length of a 1-D tensor if known, else None."""
    s = t.shape
    return s.dims[0] if s.rank == 1 else None


# -- ops whose TF 2.21 CPU kernels are registered for some dtypes only ------------------------
NO_KERNEL_PREFIX = "Could not find device for node: "


def no_cpu_kernel(op_name: str, np_dtype, cpu_dtypes, attr: str = "T"):
    """TF's NotFoundError for an op its OpDef allows for ``np_dtype`` but no CPU kernel runs
    (``MatMul`` of uint32). Eagerly TF says it found no device; in a graph the runtime turns
    this into TF's InvalidArgumentError "No OpKernel was registered" (``runtime/errors.py``)."""
    from ..errors import NotFoundError
    got = _dt.NP_TO_DTYPE[np.dtype(np_dtype)].enum_name
    kernels = "".join(f"\n  device='CPU'; {attr} in [{d.enum_name}]" for d in cpu_dtypes)
    return NotFoundError(None, None,
                         f"{NO_KERNEL_PREFIX}{{{{node {op_name}}}}} = {op_name}[{attr}={got}]\n"
                         f"All kernels registered for op {op_name}:{kernels}\n")


def attr_not_allowed(op_name: str, attr: str, dtype, allowed):
    """TF's InvalidArgumentError (eagerly) for a dtype attr outside the op's list."""
    from ..errors import InvalidArgumentError
    names = ", ".join(_ATTR_NAMES.get(d.name, d.name) for d in allowed)
    return InvalidArgumentError(
        None, None, f"Value for attr '{attr}' of {_dt.as_dtype(dtype).name} is not in the list "
        f"of allowed values: {names}\n\t; NodeDef: {{{{node {op_name}}}}} [Op:{op_name}]")


def param_not_allowed(param: str, dtype, allowed):
    """TF's TypeError while building a graph for an input dtype outside the op's list."""
    names = ", ".join(d.name for d in allowed)
    return TypeError(f"Value passed to parameter '{param}' has DataType "
                     f"{_dt.as_dtype(dtype).name} not in list of allowed values: {names}")


_ATTR_NAMES = {"float32": "float", "float64": "double", "float16": "half"}
