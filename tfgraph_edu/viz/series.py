"""Runs of like ops folded into one box, and big folds opened page by page (layer 8).

- a *series* is a run of ops of one type named alike in one scope (``mul``, ``mul_1`` …
  ``mul_4999``), as TensorBoard groups them;
- a *repeat* is a pattern of op types repeated along a chain (``mul → add``, 5,000 times, each
  op feeding the next): one box ``[mul → add] × 5000``, so the chain reads
  ``x → [mul → add] × 5000 → y`` rather than as two series with edges both ways;
- each fold has *members* (one op of a series, one repetition of a repeat, with their own
  constants); an open fold of more than ``PAGE_ABOVE`` members shows its first and last
  ``PAGE_ENDS`` members and a "… N more" box per gap (:func:`page_boxes`); opening a gap box
  shows its next ``PAGE`` members.  Graphviz's time grows faster than the nodes it lays out,
  so what one interaction draws stays small.
"""

from __future__ import annotations

import re

from .gradients import name_in_scope

__all__ = ["series_of", "folds_of", "page_boxes", "more_range", "is_repeat", "SERIES_MIN",
           "REPEAT_MIN", "PAGE", "PAGE_ENDS", "PAGE_ABOVE"]

SERIES_MIN = 8  # like-named ops of one type in one scope fold into a series from this many
REPEAT_MIN = 8  # a pattern of op types repeated this often along a chain folds into a repeat
REPEAT_LONGEST = 6  # the longest pattern looked for
PAGE = 50  # members shown by opening one "… more" box
PAGE_ENDS = 5  # the first and the last members of an open fold shown
PAGE_ABOVE = 4 * PAGE_ENDS  # open folds of more members than this are shown page by page
_SUFFIX = re.compile(r"_\d+$")


def series_of(ops, scopes, names=None, skip=frozenset()) -> dict[int, str]:
    """Op index -> series name, for runs of ops of one type named alike in one scope
    (``mul``, ``mul_1`` … ``mul_1249``: series ``mul_[1-1249]``), as TensorBoard groups them;
    an op's own constants (``mul_7/y``) join their op's series.  Only groups of at least
    ``SERIES_MIN`` ops are series."""
    groups: dict[tuple, list[int]] = {}
    rel_names = []
    for i, op in enumerate(ops):
        scope = scopes[i]
        name = names[i] if names is not None else op.name
        rel = name_in_scope(name, scope)
        rel_names.append(rel)
        if "/" in rel or i in skip:
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
            if "/" in rel and i not in out and i not in skip:
                name = owner.get((scopes[i], rel.split("/", 1)[0]))
                if name is not None:
                    out[i] = name
    return out



def _owners(ops, scopes, rel_names) -> list[int]:
    """Per op, the index of the op it belongs to: its own constants (``mul_7/y``) belong to
    ``mul_7``; every other op to itself."""
    index = {(scopes[i], rel): i for i, rel in enumerate(rel_names) if "/" not in rel}
    out = list(range(len(ops)))
    for i, rel in enumerate(rel_names):
        if "/" in rel:
            out[i] = index.get((scopes[i], rel.split("/", 1)[0]), i)
    return out


def _repeats(ops, scopes, rel_names, owner) -> list[tuple[str, list[list[int]]]]:
    """(name, members) of each repeated pattern of op types along a chain: main ops (not
    owned by another op) in graph order, each reading the one before, in one scope."""
    main = [i for i in range(len(ops)) if owner[i] == i and "/" not in rel_names[i]]
    position = {id(ops[i]): k for k, i in enumerate(main)}
    linked = [False] * len(main)  # main[k] reads main[k - 1]
    for k in range(1, len(main)):
        i = main[k]
        if scopes[i] == scopes[main[k - 1]]:
            linked[k] = any(position.get(id(t.op)) == k - 1 for t in ops[i].inputs)
    types = [ops[i].type for i in main]
    found = []
    k, n = 0, len(main)
    while k < n:
        end = k + 1  # the chain through main[k]: main[k:end]
        while end < n and linked[end]:
            end += 1
        s = k
        while s < end - 2 * REPEAT_MIN + 1:
            best = None
            for p in range(2, REPEAT_LONGEST + 1):
                pattern = types[s:s + p]
                if len(set(pattern)) == 1:  # one type: a series, not a repeat
                    continue
                stop = s + p
                while stop < end and types[stop] == types[stop - p]:
                    stop += 1
                reps = (stop - s) // p
                if reps >= REPEAT_MIN:
                    best = (p, reps)
                    break
            if best is None:
                s += 1
                continue
            p, reps = best
            shown = " → ".join(rel_names[main[s + j]] for j in range(p))
            scope = scopes[main[s]]
            name = f"[{shown}] × {reps}"
            members = [[main[s + r * p + j] for j in range(p)] for r in range(reps)]
            found.append((f"{scope}/{name}" if scope else name, members))
            s += reps * p
        k = end
    return found


def folds_of(ops, scopes, names) -> tuple[dict[int, str], dict[str, list[list[int]]]]:
    """(op index -> fold name, fold name -> its members in order): repeats first, then the
    series of the ops left; a member is a list of op indices (an op with its own
    constants)."""
    rel_names = [name_in_scope(n, s) for n, s in zip(names, scopes)]
    owner = _owners(ops, scopes, rel_names)
    fold: dict[int, str] = {}
    members: dict[str, list[list[int]]] = {}
    for name, reps in _repeats(ops, scopes, rel_names, owner):
        while name in members:  # the same pattern twice in one scope
            name += "'"
        members[name] = reps
        for rep in reps:
            for i in rep:
                fold[i] = name
    if fold:
        for i, o in enumerate(owner):
            if o != i and o in fold:
                fold[i] = fold[o]
    owned: dict[int, list[int]] = {}
    for i, o in enumerate(owner):
        if o != i:
            owned.setdefault(o, []).append(i)
    if owned:
        for reps in members.values():
            for rep in reps:
                rep.extend(j for i in list(rep) for j in owned.get(i, ()))
    series = series_of(ops, scopes, names, skip=fold.keys())
    grouped: dict[str, list[list[int]]] = {}
    for i in sorted(series):
        if owner[i] == i:
            grouped.setdefault(series[i], []).append([i] + owned.get(i, []))
    for name, group in grouped.items():
        members[name] = group
    fold.update(series)
    return fold, members


def is_repeat(name: str) -> bool:
    """Whether a fold name is a repeat's (``[mul → add] × 5000``), not a series'."""
    last = name.rsplit("/", 1)[-1]
    return last.startswith("[") and "] × " in last


def more_range(name: str) -> tuple[int, int] | None:
    """``(start, stop)`` of a "… more" box's name (``mul_[1-4999]/more[5:4995]``), or None."""
    cut = name.rfind("/more[")
    if cut < 0 or not name.endswith("]"):
        return None
    a, _, b = name[cut + 6:-1].partition(":")
    return (int(a), int(b)) if a.isdigit() and b.isdigit() else None


def page_boxes(fold: str, count: int, opened) -> list[str | None]:
    """Per member of an open fold of ``count`` members: None if it is shown, else the name of
    the "… more" box it is in (``fold/more[5:4995]``).  ``opened``: the names of the "… more"
    boxes opened so far; each shows the ``PAGE`` members at its start."""
    if count <= PAGE_ABOVE:
        return [None] * count
    shown = [False] * count
    for k in list(range(PAGE_ENDS)) + list(range(count - PAGE_ENDS, count)):
        shown[k] = True
    for name in opened:
        span = more_range(name)
        if span is not None and name.startswith(fold + "/more["):
            for k in range(span[0], min(span[0] + PAGE, span[1], count)):
                shown[k] = True
    out: list[str | None] = [None] * count
    k = 0
    while k < count:
        if shown[k]:
            k += 1
            continue
        stop = k
        while stop < count and not shown[stop]:
            stop += 1
        box = f"{fold}/more[{k}:{stop}]"
        for j in range(k, stop):
            out[j] = box
        k = stop
    return out
