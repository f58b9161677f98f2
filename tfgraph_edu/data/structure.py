"""Nested element structures of tf.data: tuples, namedtuples and dicts of leaves.

As in ``tf.data``, a list is a leaf (it becomes one tensor), dict keys flatten in
sorted order, and a structure rebuilds with the same container types.  An extension type
value flattens into its component tensors, its spec into their specs; packing rebuilds it
(a spec when the leaves are specs).
"""

from __future__ import annotations

from ..ops.extension_type import ExtensionType, ExtensionTypeSpec
from ..shapes import TensorSpec


def _is_namedtuple(x) -> bool:
    return isinstance(x, tuple) and hasattr(x, "_fields")


def _children(x):
    if isinstance(x, dict):
        return [x[k] for k in sorted(x)]
    return list(x)


def _is_structure(x) -> bool:
    return isinstance(x, (tuple, dict))


def flatten(x) -> list:
    """The leaves of ``x`` in order."""
    if isinstance(x, ExtensionType):
        return list(x._ag_components())
    if isinstance(x, ExtensionTypeSpec):
        return list(x._component_specs())
    if not _is_structure(x):
        return [x]
    out = []
    for c in _children(x):
        out.extend(flatten(c))
    return out


def _rebuild(like, items):
    if isinstance(like, dict):
        keys = sorted(like)
        values = dict(zip(keys, items))
        return {k: values[k] for k in like}
    if _is_namedtuple(like):
        return type(like)(*items)
    return tuple(items)


def pack(structure, leaves, shallow=False):
    """``leaves`` (a flat list) arranged like ``structure``; with ``shallow`` only the
    top level of ``structure`` is a container."""
    it = iter(leaves)

    def build(s, depth):
        if isinstance(s, (ExtensionType, ExtensionTypeSpec)) and not (shallow and depth > 0):
            spec = s if isinstance(s, ExtensionTypeSpec) else s._type_spec
            items = [next(it) for _ in spec._component_specs()]
            if all(isinstance(x, TensorSpec) for x in items):
                return spec._with_component_specs(items)
            return spec._from_components(items)
        if not _is_structure(s) or (shallow and depth > 0):
            return next(it)
        return _rebuild(s, [build(c, depth + 1) for c in _children(s)])
    return build(structure, 0)


def flatten_up_to(shallow, value) -> list:
    """Leaves of ``value`` where ``shallow`` has leaves (lists in ``value`` may stand for
    tuples of ``shallow``)."""
    if isinstance(shallow, ExtensionTypeSpec):
        if not isinstance(value, shallow.value_type):
            raise TypeError(f"The element {value!r} does not match the structure {shallow!r}")
        return list(value._ag_components())
    if not _is_structure(shallow):
        return [value]
    if isinstance(shallow, dict):
        parts = [value[k] for k in sorted(shallow)]
    else:
        parts = list(value)
        if len(parts) != len(shallow):
            raise TypeError(f"The element {value!r} does not match the structure {shallow!r}")
    out = []
    for s, v in zip(_children(shallow), parts):
        out.extend(flatten_up_to(s, v))
    return out


def map_structure(fn, structure):
    return pack(structure, [fn(x) for x in flatten(structure)])


def map_structure_up_to(shallow, fn, *structures):
    columns = [flatten_up_to(shallow, s) for s in structures]
    return pack(shallow, [fn(*xs) for xs in zip(*columns)])


def spec_repr(spec) -> str:
    """How TensorFlow prints an element_spec: tuples, dicts and TensorSpecs."""
    if isinstance(spec, dict):
        return "{" + ", ".join(f"{k!r}: {spec_repr(v)}" for k, v in spec.items()) + "}"
    if isinstance(spec, tuple):
        inner = ", ".join(spec_repr(v) for v in spec)
        return f"({inner}{',' if len(spec) == 1 else ''})"
    return repr(spec)
