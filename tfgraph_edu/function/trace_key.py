"""The rules of tracing: how call arguments become a trace key (layer 7).

As in TensorFlow: tensors (and numpy arrays) are keyed by dtype and shape;
Python scalars, strings and None by type and value; lists, tuples and dicts
by structure and contents; tf.Variables by dtype and shape; any other object
by identity.  Encoding an argument also collects its *leaves* - the values
that become graph inputs (tensors, arrays, variables) - in a fixed order.
"""

from __future__ import annotations

import numpy as np

from .. import dtypes as _dt
from ..eager.tensor import EagerTensor
from ..eager.variables import Variable
from ..ops.convert import is_tensor
from ..shapes import TensorShape, TensorSpec

_SCALARS = (bool, int, float, str, bytes, type(None), complex)


class VariableLeaf:
    """Marker for a variable leaf in a key."""


def tensor_key(np_dtype, shape) -> tuple:
    return (np_dtype, tuple(shape))


def spec_key(spec: TensorSpec) -> tuple:
    dims = spec.shape.dims
    return (_np_dtype(spec.dtype), None if dims is None else tuple(dims))


def _np_dtype(dtype):
    return np.dtype(object) if dtype is _dt.string else dtype.np_dtype


def encode(value, leaves: list, where: str):
    """The key component of ``value``; tensors, arrays and variables go to ``leaves``."""
    cls = type(value)
    if cls is EagerTensor:
        v = value._value
        leaves.append(value)
        return (v.dtype, v.shape)
    if cls in _SCALARS:
        return (cls, value)
    if isinstance(value, Variable):
        leaves.append(value)
        return (VariableLeaf, value.dtype, tuple(value.shape.as_list()))
    if isinstance(value, TensorSpec):
        leaves.append(value)
        return spec_key(value)
    if is_tensor(value):
        leaves.append(value)
        dims = value.shape.dims
        return (_np_dtype(value.dtype), None if dims is None else tuple(dims))
    if isinstance(value, np.ndarray):
        leaves.append(value)
        return (value.dtype, value.shape)
    if isinstance(value, list):
        return ("list",) + tuple(encode(v, leaves, f"{where}[{i}]") for i, v in enumerate(value))
    if isinstance(value, tuple):
        fields = getattr(value, "_fields", None)
        tag = ("namedtuple", cls, fields) if fields is not None else "tuple"
        return (tag,) + tuple(encode(v, leaves, f"{where}[{i}]") for i, v in enumerate(value))
    if isinstance(value, dict):
        try:
            keys = sorted(value)
        except TypeError:
            raise TypeError(f"Argument `{where}`: dictionary keys must be sortable to form a "
                            f"trace key, got {list(value)!r}.") from None
        return ("dict",) + tuple((k, encode(value[k], leaves, f"{where}[{k!r}]")) for k in keys)
    if isinstance(value, np.generic):
        return (cls, value.item())
    if cls.__hash__ is None:
        raise TypeError(
            f"Argument `{where}` = {value!r} has the unhashable type {cls.__name__!r}, so "
            "tf.function cannot tell whether it has seen it before (Python arguments are part "
            "of the trace key). Pass a tensor, or a hashable value such as a tuple.")
    return ("object", cls, id(value))


def describe(component) -> str:
    """A key component in words, for retracing reasons."""
    if isinstance(component, tuple) and component and isinstance(component[0], np.dtype):
        dtype = _dt.NP_TO_DTYPE.get(component[0])
        dims = component[1]
        shape = "<unknown rank>" if dims is None else str(TensorShape(list(dims)))
        return f"{dtype.name if dtype else component[0]} tensor of shape {shape}"
    if isinstance(component, tuple) and component and component[0] is VariableLeaf:
        return f"{component[1].name} variable of shape {TensorShape(list(component[2]))}"
    if isinstance(component, tuple) and component and component[0] in _SCALARS:
        return repr(component[1])
    if isinstance(component, tuple) and component and component[0] == "object":
        return f"a {component[1].__name__} object (id {component[2]})"
    if isinstance(component, tuple) and component and component[0] in ("list", "tuple", "dict"):
        return f"a {component[0]} of {len(component) - 1}"
    return repr(component)


def reason(names: list[str], new_key: tuple, seen: list[tuple], last: tuple | None) -> str:
    """Why ``new_key`` needs a new trace, in a learner's words."""
    if not seen:
        return "first call"
    reasons = []
    for i, name in enumerate(names):
        comp = new_key[i]
        if any(k[i] == comp for k in seen):
            continue
        before = last[i] if last is not None else seen[-1][i]
        if isinstance(comp, tuple) and comp and comp[0] in _SCALARS and (
                isinstance(before, tuple) and before and before[0] in _SCALARS):
            reasons.append(f"Python argument {name} changed from {before[1]!r} to {comp[1]!r}")
        elif (isinstance(comp, tuple) and comp and isinstance(comp[0], np.dtype)
              and isinstance(before, tuple) and before and isinstance(before[0], np.dtype)
              and comp[0] == before[0]):
            shape = "<unknown>" if comp[1] is None else str(TensorShape(list(comp[1])))
            reasons.append(f"argument {name}: shape {shape} was not seen before")
        elif (isinstance(comp, tuple) and comp and isinstance(comp[0], np.dtype)
              and isinstance(before, tuple) and before and isinstance(before[0], np.dtype)):
            dtype = _dt.NP_TO_DTYPE.get(comp[0])
            reasons.append(f"argument {name}: dtype {dtype.name if dtype else comp[0]} was not "
                           "seen before")
        else:
            reasons.append(f"argument {name}: {describe(comp)} was not seen before "
                           f"(last call: {describe(before)})")
    if not reasons:
        return "this combination of arguments was not seen before"
    return "; ".join(reasons)


def relax(new_key: tuple, old_key: tuple):
    """The most specific key covering both, if they differ only in tensor shapes."""
    if type(new_key) is not type(old_key):
        return None
    if isinstance(new_key, tuple) and new_key and isinstance(new_key[0], np.dtype):
        if not (isinstance(old_key, tuple) and old_key and old_key[0] == new_key[0]):
            return None
        a, b = new_key[1], old_key[1]
        if a is None or b is None or len(a) != len(b):
            return (new_key[0], None)
        return (new_key[0], tuple(x if x == y else None for x, y in zip(a, b)))
    if isinstance(new_key, tuple):
        if len(new_key) != len(old_key):
            return None
        out = []
        for x, y in zip(new_key, old_key):
            r = relax(x, y)
            if r is None and x != y:
                return None
            out.append(x if r is None else r)
        return tuple(out)
    return new_key if new_key == old_key else None


def covers(general: tuple, key: tuple) -> bool:
    """Whether a trace for ``general`` (with None dims) accepts arguments keyed ``key``."""
    if general == key:
        return True
    if isinstance(general, tuple) and general and isinstance(general[0], np.dtype):
        if not (isinstance(key, tuple) and key and key[0] == general[0]):
            return False
        g, k = general[1], key[1]
        if g is None:
            return True
        if k is None or len(g) != len(k):
            return False
        return all(x is None or x == y for x, y in zip(g, k))
    if isinstance(general, tuple) and isinstance(key, tuple) and len(general) == len(key):
        return all(covers(x, y) for x, y in zip(general, key))
    return False


def has_unknown_dims(key) -> bool:
    """Whether a key has a tensor with an unknown dim or rank (so it can cover others)."""
    if isinstance(key, tuple) and key and isinstance(key[0], np.dtype):
        return key[1] is None or None in key[1]
    if isinstance(key, tuple):
        return any(has_unknown_dims(k) for k in key)
    return False
