"""The rules of tracing: how call arguments become a trace key (layer 7).

As in TensorFlow: tensors (and numpy arrays) are keyed by dtype and shape;
Python scalars, strings and None by *value* (TensorFlow's ``Literal`` trace
type compares values, so ``2``, ``2.0`` and ``True == 1`` share a trace);
lists, tuples and dicts by structure and contents; objects with
``__tf_tracing_type__`` by the type it returns (TF's tracing protocol);
tf.Variables by dtype, shape, trainability and which of the call's variables
they are (``f(v, v)`` is not ``f(v, w)``); any other object by identity or
equality while it is alive.  Encoding an argument also collects its *leaves* -
the values that become graph inputs (tensors, arrays, variables) - in a fixed
order.

Why a call retraces is worked out per argument against everything seen
before for that argument (``SeenArguments``): sets, so the cost of a reason
does not grow with the number of traces.
"""

from __future__ import annotations

import weakref

import numpy as np

from .. import dtypes as _dt
from ..eager.tensor import EagerTensor
from ..eager.variables import Variable
from ..ops.composite import CompositeTensor, TypeSpec
from ..ops.convert import is_tensor
from ..shapes import TensorShape, TensorSpec

_SCALARS = (bool, int, float, str, bytes, type(None), complex)


MAX_DEPTH = 100  # nesting of an argument beyond this is refused (and self-reference with it)


class VariableLeaf:
    """Marker for a variable leaf in a key."""


class Literal:
    """Marker for a Python scalar, string or None in a key: ``(Literal, value)``."""


def tensor_key(np_dtype, shape) -> tuple:
    return (np_dtype, tuple(shape))


def spec_key(spec: TensorSpec) -> tuple:
    dims = spec.shape.dims
    return (_np_dtype(spec.dtype), None if dims is None else tuple(dims))


def _np_dtype(dtype):
    return np.dtype(object) if dtype is _dt.string else dtype.np_dtype


def encode(value, leaves: list, where: str, depth: int = 0):
    """The key component of ``value``; tensors, arrays and variables go to ``leaves``."""
    cls = type(value)
    if cls is EagerTensor:
        v = value._value
        leaves.append(value)
        return (v.dtype, v.shape)
    if cls in _SCALARS:
        return (Literal, value)
    if depth >= MAX_DEPTH:
        raise ValueError(
            f"Argument `{where.split('[')[0]}` is nested more than {MAX_DEPTH} levels deep (or "
            "contains itself), so tf.function cannot turn it into a trace key. Pass a flatter "
            "structure, or a tensor.")
    depth += 1
    if isinstance(value, Variable):
        alias = _alias_id(value, leaves)
        leaves.append(value)
        return (VariableLeaf, value.dtype, tuple(value.shape.as_list()), value.trainable, alias)
    if isinstance(value, TensorSpec):
        leaves.append(value)
        return spec_key(value)
    if isinstance(value, CompositeTensor):  # a SparseTensor, RaggedTensor: its spec, as TF
        leaves.extend(value._ag_components())
        return ("composite",) + value._type_spec._key()
    if isinstance(value, TypeSpec):
        leaves.extend(value._component_specs())
        return ("composite",) + value._key()
    if is_tensor(value):
        leaves.append(value)
        dims = value.shape.dims
        return (_np_dtype(value.dtype), None if dims is None else tuple(dims))
    if isinstance(value, np.ndarray):
        leaves.append(value)
        return (value.dtype, value.shape)
    protocol = getattr(cls, "__tf_tracing_type__", None)
    if protocol is not None:  # the tracing protocol: the object says what its type is
        trace_type = protocol(value, TRACING_CONTEXT)
        try:
            hash(trace_type)
        except TypeError:
            raise TypeError(f"Expected an instance of TraceType for Tracing Protocol call to "
                            f"{value!r} but got {trace_type!r}") from None
        return ("traced", trace_type)
    if isinstance(value, list):
        return ("list",) + tuple(encode(v, leaves, f"{where}[{i}]", depth)
                                 for i, v in enumerate(value))
    if isinstance(value, tuple):
        fields = getattr(value, "_fields", None)
        tag = ("namedtuple", cls, fields) if fields is not None else "tuple"
        return (tag,) + tuple(encode(v, leaves, f"{where}[{i}]", depth)
                              for i, v in enumerate(value))
    if isinstance(value, dict):
        try:
            keys = sorted(value)
        except TypeError:
            raise TypeError(f"Argument `{where}`: dictionary keys must be sortable to form a "
                            f"trace key, got {list(value)!r}.") from None
        return ("dict",) + tuple((k, encode(value[k], leaves, f"{where}[{k!r}]", depth))
                                 for k in keys)
    if isinstance(value, np.generic):
        return (Literal, value.item())
    if cls.__hash__ is None:
        raise TypeError(
            f"Argument `{where}` = {value!r} has the unhashable type {cls.__name__!r}, so "
            "tf.function cannot tell whether it has seen it before (Python arguments are part "
            "of the trace key). Pass a tensor, or a hashable value such as a tuple.")
    try:
        return ("object", cls, ObjectKey(value))
    except TypeError:  # __hash__ raised
        raise TypeError(
            f"Argument `{where}` = {value!r} cannot be hashed, so tf.function cannot tell "
            "whether it has seen it before. Pass a tensor, or a hashable value.") from None


class TracingContext:
    """What ``__tf_tracing_type__(context)`` receives (TensorFlow reserves it for its own use;
    nothing in it is needed to describe a type)."""


TRACING_CONTEXT = TracingContext()


class ObjectKey:
    """Any other Python object in a key, as TF's ``Weakref`` trace type: a weak reference,
    equal to another when both objects are alive and equal (the same object, or ``==``).
    An object that has been freed matches nothing, so a new object that happens to get its
    memory address never reuses its graph.  Objects that cannot be weakly referenced are
    held strongly."""

    __slots__ = ("_ref", "_hash", "id")

    def __init__(self, value):
        self._hash = hash(value)
        self.id = id(value)
        try:
            self._ref = weakref.ref(value)
        except TypeError:
            self._ref = lambda: value

    def __hash__(self):
        return self._hash

    def __eq__(self, other):
        if not isinstance(other, ObjectKey):
            return NotImplemented
        a, b = self._ref(), other._ref()
        if a is None or b is None:
            return False
        if a is b:
            return True
        try:
            return bool(a == b)
        except Exception:  # noqa: BLE001 - an == that cannot answer means not equal
            return False

    def __repr__(self):
        return f"ObjectKey(id={self.id})"


def _alias_id(variable, leaves: list) -> int:
    """Which distinct variable of this call ``variable`` is (0, 1, ...): as TF's VariableSpec
    alias ids, so ``f(v, v)`` and ``f(v, w)`` - one resource twice, or two - trace apart."""
    seen: list = []
    for leaf in leaves:
        if isinstance(leaf, Variable) and not any(h is leaf._handle for h in seen):
            seen.append(leaf._handle)
    for i, handle in enumerate(seen):
        if handle is variable._handle:
            return i
    return len(seen)


def describe(component) -> str:
    """A key component in words, for retracing reasons."""
    if isinstance(component, tuple) and component and isinstance(component[0], np.dtype):
        dtype = _dt.NP_TO_DTYPE.get(component[0])
        dims = component[1]
        shape = "<unknown rank>" if dims is None else str(TensorShape(list(dims)))
        return f"{dtype.name if dtype else component[0]} tensor of shape {shape}"
    if isinstance(component, tuple) and component and component[0] is VariableLeaf:
        kind = "" if component[3] else "non-trainable "
        return (f"{kind}{component[1].name} variable of shape "
                f"{TensorShape(list(component[2]))} (alias {component[4]})")
    if isinstance(component, tuple) and component and component[0] is Literal:
        return repr(component[1])
    if isinstance(component, tuple) and len(component) == 2 and component[0] == "traced":
        return repr(component[1])
    if isinstance(component, tuple) and component and component[0] == "object":
        return f"a {component[1].__name__} object (id {component[2].id})"
    if isinstance(component, tuple) and component and component[0] in ("list", "tuple", "dict"):
        return f"a {component[0]} of {len(component) - 1}"
    return repr(component)


def _is_tensor_key(comp) -> bool:
    return isinstance(comp, tuple) and len(comp) == 2 and isinstance(comp[0], np.dtype)


def _is_literal_key(comp) -> bool:
    return isinstance(comp, tuple) and len(comp) == 2 and comp[0] is Literal


class SeenArguments:
    """What each argument (by name) was in earlier traces: its key components, the dtypes
    of its tensors and its last value.  Set lookups only: a reason costs the same at trace
    5,000 as at trace 2."""

    def __init__(self):
        self._components: dict[str, set] = {}
        self._dtypes: dict[str, set] = {}
        self._last: dict[str, object] = {}

    def __bool__(self):
        return bool(self._last)

    def add(self, names: list[str], key: tuple) -> None:
        for name, comp in zip(names, key):
            self._components.setdefault(name, set()).add(comp)
            if _is_tensor_key(comp):
                self._dtypes.setdefault(name, set()).add(comp[0])
            self._last[name] = comp

    def reason(self, names: list[str], key: tuple) -> str:
        """Why ``key`` needs a new trace, in a learner's words."""
        if not self._last:
            return "first call"
        reasons = []
        for name, comp in zip(names, key):
            seen = self._components.get(name)
            if seen is not None and comp in seen:
                continue
            before = self._last.get(name)
            if before is None:
                reasons.append(f"argument {name} was not given before")
            elif _is_literal_key(comp) and _is_literal_key(before):
                reasons.append(f"Python argument {name} changed from {before[1]!r} to "
                               f"{comp[1]!r}")
            elif _is_tensor_key(comp) and comp[0] in self._dtypes.get(name, ()):
                shape = "<unknown>" if comp[1] is None else str(TensorShape(list(comp[1])))
                reasons.append(f"argument {name}: shape {shape} was not seen before")
            elif _is_tensor_key(comp) and name in self._dtypes:
                dtype = _dt.NP_TO_DTYPE.get(comp[0])
                reasons.append(f"argument {name}: dtype {dtype.name if dtype else comp[0]} was "
                               "not seen before")
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
