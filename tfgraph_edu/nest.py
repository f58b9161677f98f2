"""``tf.nest``: nested structures of lists, tuples, namedtuples and dicts (layer 0).

A structure is a list, a tuple (namedtuples included) or a mapping of structures;
anything else - a tensor, a number, a string, None - is a leaf.  Mappings flatten in
sorted key order and are rebuilt with their own key order, as TensorFlow does.  The
error messages give TensorFlow's gist and its sketch of both structures.
"""

from __future__ import annotations

import collections
from collections.abc import Mapping


def is_nested(seq) -> bool:
    """Whether ``seq`` is a structure (a list, tuple or mapping), not a leaf."""
    return isinstance(seq, (list, tuple, Mapping))


def _sorted_keys(m) -> list:
    try:
        return sorted(m)
    except TypeError:
        raise TypeError("nest only supports dicts with sortable keys.") from None


def _children(x) -> list:
    if isinstance(x, Mapping):
        return [x[k] for k in _sorted_keys(x)]
    return list(x)


def _rebuild(like, items):
    """A container of ``like``'s kind holding ``items`` (mappings: in sorted-key order)."""
    if isinstance(like, Mapping):
        by_key = dict(zip(_sorted_keys(like), items))
        if isinstance(like, collections.defaultdict):
            return type(like)(like.default_factory, [(k, by_key[k]) for k in like])
        return type(like)((k, by_key[k]) for k in like)
    if isinstance(like, tuple) and hasattr(like, "_fields"):
        return type(like)(*items)
    return type(like)(items)


def _expands(x) -> bool:
    """An extension type value: ``expand_composites=True`` flattens it into its tensors."""
    return getattr(type(x), "_expands_in_nest", False)


def _flatten_expanded(structure) -> list:
    if _expands(structure):
        return list(structure._ag_components())
    if not is_nested(structure):
        return [structure]
    return [x for c in _children(structure) for x in _flatten_expanded(c)]


def flatten(structure, expand_composites=False) -> list:
    """The leaves of ``structure`` in order (``[structure]`` for a leaf); with
    ``expand_composites`` an extension type value gives its component tensors."""
    if expand_composites:
        return _flatten_expanded(structure)
    if not is_nested(structure):
        return [structure]
    out: list = []
    stack = [iter(_children(structure))]
    while stack:
        for x in stack[-1]:
            if is_nested(x):
                stack.append(iter(_children(x)))
                break
            out.append(x)
        else:
            stack.pop()
    return out


def pack_sequence_as(structure, flat_sequence, expand_composites=False):
    """``flat_sequence`` arranged like ``structure`` (the inverse of :func:`flatten`)."""
    if not is_nested(flat_sequence):
        raise TypeError(f"Attempted to pack value:\n  {flat_sequence}\ninto a structure, but "
                        f"found incompatible type `{type(flat_sequence)}` instead.")
    flat = list(flat_sequence)
    if expand_composites:
        return _pack_expanded(structure, flat, flat_sequence)
    if not is_nested(structure):
        if len(flat) != 1:
            raise ValueError(
                f"The target structure is of type `{type(structure)}`\n  {structure}\nHowever "
                f"the input is a sequence ({type(flat_sequence)}) of length {len(flat)}.\n  "
                f"{flat_sequence}\nnest cannot guarantee that it is safe to map one to the other.")
        return flat[0]
    n = len(flatten(structure))
    if n != len(flat):
        raise ValueError(f"Could not pack sequence. Structure had {n} atoms, but flat_sequence "
                         f"had {len(flat)} items.  Structure: {structure}, flat_sequence: "
                         f"{flat_sequence}.")
    it = iter(flat)

    def build(s):
        if not is_nested(s):
            return next(it)
        return _rebuild(s, [build(c) for c in _children(s)])
    return build(structure)


def _pack_expanded(structure, flat, flat_sequence):
    n = len(_flatten_expanded(structure))
    if n != len(flat):
        raise ValueError(f"Could not pack sequence. Structure had {n} atoms, but flat_sequence "
                         f"had {len(flat)} items.  Structure: {structure}, flat_sequence: "
                         f"{flat_sequence}.")
    it = iter(flat)

    def build(s):
        if _expands(s):
            return s._type_spec._from_components([next(it) for _ in s._ag_components()])
        if not is_nested(s):
            return next(it)
        return _rebuild(s, [build(c) for c in _children(s)])
    return build(structure)


def map_structure(func, *structure, **kwargs):
    """``func`` applied to the leaves of the structures (which must match), packed like the
    first; ``check_types=False`` lets a list match a tuple."""
    if not callable(func):
        raise TypeError(f"func must be callable, got: {func}")
    if not structure:
        raise ValueError("Must provide at least one structure")
    check_types = kwargs.pop("check_types", True)
    expand = kwargs.pop("expand_composites", False)
    if kwargs:
        raise ValueError(f"Only valid keyword arguments are `check_types` and "
                         f"`expand_composites`, not: `{', '.join(kwargs)}`")
    for other in structure[1:]:
        assert_same_structure(structure[0], other, check_types=check_types)
    columns = [flatten(s, expand) for s in structure]
    return pack_sequence_as(structure[0], [func(*xs) for xs in zip(*columns)], expand)


def _described(x) -> str:
    return f"type={type(x).__name__} str={x}"


class _Dot:
    def __repr__(self):
        return "."


def _sketch(x) -> str:
    """The structure with every leaf drawn as ``.``: ``[., (., .)]``."""
    return repr(pack_sequence_as(x, [_Dot()] * len(flatten(x)))) if is_nested(x) else "."


def _same_kind(a, b) -> bool:
    if type(a) is type(b):
        return True
    fields_a, fields_b = getattr(a, "_fields", None), getattr(b, "_fields", None)
    if fields_a is not None and fields_b is not None:  # namedtuples: by name and fields
        return type(a).__name__ == type(b).__name__ and fields_a == fields_b
    if isinstance(a, list) and isinstance(b, list):
        return True
    return isinstance(a, Mapping) and isinstance(b, Mapping)


def _difference(a, b, check_types: bool) -> tuple[type, str] | None:
    """The first way ``a`` and ``b`` differ in structure: (error class, what), or None."""
    if is_nested(a) != is_nested(b):
        seq, leaf = (a, b) if is_nested(a) else (b, a)
        return ValueError, (f'Substructure "{_described(seq)}" is a sequence, while '
                            f'substructure "{_described(leaf)}" is not')
    if not is_nested(a):
        return None
    if check_types and not _same_kind(a, b):
        return TypeError, (f"The two namedtuples don't have the same sequence type. First "
                           f"structure {_described(a)} has type {type(a).__name__}, while "
                           f"second structure {_described(b)} has type {type(b).__name__}")
    if isinstance(a, Mapping) and isinstance(b, Mapping) and check_types and \
            set(a) != set(b):
        return ValueError, (f"The two dictionaries don't have the same set of keys. First "
                            f"structure has keys {_described(_sorted_keys(a))}, while second "
                            f"structure has keys {_described(_sorted_keys(b))}")
    ca, cb = _children(a), _children(b)
    for x, y in zip(ca, cb):  # pairs first, as TF: [1, 2] against [[3], [4], 5] is about [3]
        found = _difference(x, y, check_types)
        if found is not None:
            return found
    if len(ca) != len(cb):
        return ValueError, (f"The two structures don't have the same number of elements. "
                            f"First structure: {_described(a)}. Second structure: "
                            f"{_described(b)}")
    return None


def assert_same_structure(nest1, nest2, check_types=True, expand_composites=False) -> None:
    """ValueError (TypeError for a list against a tuple, with ``check_types``) unless the
    two structures are nested the same way; leaves may differ."""
    found = _difference(nest1, nest2, check_types)
    if found is None:
        return
    cls, what = found
    raise cls(f"The two structures don't have the same nested structure.\n\nFirst structure: "
              f"{_described(nest1)}\n\nSecond structure: {_described(nest2)}\n\nMore "
              f"specifically: {what}\nEntire first structure:\n{_sketch(nest1)}\nEntire second "
              f"structure:\n{_sketch(nest2)}")

from ._missing import module_getattr as _module_getattr  # noqa: E402

__getattr__ = _module_getattr("nest", __name__)
