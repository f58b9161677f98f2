"""Runs of like ops folded into one box (layer 8).

A series is a run of ops of one type named alike in one scope (``mul``, ``mul_1`` …
``mul_4999``), as TensorBoard groups them.
"""

from __future__ import annotations

import re

__all__ = ["series_of", "SERIES_MIN"]

SERIES_MIN = 8  # like-named ops of one type in one scope fold into a series from this many
_SUFFIX = re.compile(r"_\d+$")


def series_of(ops, scopes, names=None) -> dict[int, str]:
    """Op index -> series name, for runs of ops of one type named alike in one scope
    (``mul``, ``mul_1`` … ``mul_1249``: series ``mul_[1-1249]``), as TensorBoard groups them;
    an op's own constants (``mul_7/y``) join their op's series.  Only groups of at least
    ``SERIES_MIN`` ops are series."""
    groups: dict[tuple, list[int]] = {}
    rel_names = []
    for i, op in enumerate(ops):
        scope = scopes[i]
        name = names[i] if names is not None else op.name
        rel = name[len(scope) + 1:] if scope else name
        rel_names.append(rel)
        if "/" in rel:
            continue
        m = _SUFFIX.search(rel)
        base = rel[:m.start()] if m else rel
        groups.setdefault((scope, base, op.type), []).append(i)
    out: dict[int, str] = {}
    owner: dict[tuple, str] = {}
    for (scope, base, _), members in groups.items():
        if len(members) < SERIES_MIN:
            continue
        numbers = [int(rel_names[i][len(base) + 1:]) for i in members if rel_names[i] != base]
        if not numbers:
            continue
        name = f"{base}_[{min(numbers)}-{max(numbers)}]"
        if len(numbers) < len(members):  # the first of them has no number
            name = f"{base}, {name}"
        name = f"{scope}/{name}" if scope else name
        for i in members:
            out[i] = name
            owner[(scope, rel_names[i])] = name
    if out:
        for i, rel in enumerate(rel_names):
            if "/" in rel and i not in out:
                name = owner.get((scopes[i], rel.split("/", 1)[0]))
                if name is not None:
                    out[i] = name
    return out

