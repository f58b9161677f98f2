"""Where each op is drawn: its name scope, its series or block, and what starts collapsed;
the maps from SVG titles back to node and scope names for the viewer (layer 8).

Name scopes (op names containing ``/``) become nested clusters; a branch's or body's ops are
named relative to their ``If``/``While`` op; a gradient op is drawn in a gradient frame
inside the scope of the forward op it differentiates (:func:`.gradients.gradient_frames`).
Big graphs start summarised: top-level scopes, series of like-named ops and blocks of a flat
graph are folded (:func:`default_collapse`).
"""

from __future__ import annotations

import weakref

from .escaping import svg_title
from .gradients import gradient_frames
from .kinds import bodies as _bodies
from .kinds import has_bodies as _has_bodies
from .series import folds_of, is_repeat

__all__ = ["relative_names", "drawn_names", "scope_of", "drawn_scopes", "block_size", "block_of",
           "layout", "top_scopes", "default_collapse", "fold_members", "node_ids", "cluster_ids",
           "COLLAPSE_ABOVE", "BLOCKS_ABOVE", "BODY_COLLAPSE_ABOVE", "SERIES_ABOVE"]

COLLAPSE_ABOVE = 50  # graphs with more ops start with their top-level scopes collapsed
BLOCKS_ABOVE = 200  # more ops than this outside every scope and series: drawn in blocks
BODY_COLLAPSE_ABOVE = 80  # control-flow bodies with more ops start collapsed
SERIES_ABOVE = 1000  # graphs with more ops start with their series of like-named ops folded


def relative_names(graph) -> list[str]:
    """The op names as drawn: a branch's or body's nodes are named under their If/While op
    (``cond/mul``, as in TensorFlow), which the picture already shows as the cluster around
    them, so that prefix is left out (``mul``)."""
    names = [op.name for op in graph.operations]
    base = getattr(graph, "base_scope", "")
    if not base:
        return names
    lead = base + "/"
    cut = len(lead)
    rel = [n[cut:] if n.startswith(lead) else n for n in names]
    return rel if len(set(rel)) == len(rel) else names  # node ids must stay unique


def drawn_names(graph) -> dict[int, str]:
    """id(op) -> its name in node ids (``while/body/add``): see :func:`relative_names`."""
    return {id(op): n for op, n in zip(graph.operations, relative_names(graph))}


def scope_of(name: str, op_names) -> str:
    """The name scope an op is drawn in ('' for none): ``layer/dense/MatMul`` -> ``layer/dense``.
    Names made for an op (``add/y``, the constant of op ``add``; ``while/hoisted/mul``, made
    by the optimiser for op ``while``) stay beside that op, not in a cluster of their own."""
    end = name.rfind("/")
    if end < 0:
        return ""
    prev = -1  # the slash that ends the previous prefix
    while True:
        pos = name.find("/", prev + 1)
        if name[:pos] in op_names:  # the shortest prefix naming an op
            return name[:prev] if prev >= 0 else ""
        if pos == end:
            return name[:end]
        prev = pos


def drawn_scopes(graph, rel: list[str] | None = None) -> list[str]:
    """The scope each op of ``graph`` is drawn in: its name scope (:func:`scope_of`), but a
    gradient op's is the gradient frame in its forward op's scope
    (``sequential/dense/gradient_tape``).  ``rel``: :func:`relative_names`, if known."""
    rel = relative_names(graph) if rel is None else rel
    names = set(rel)
    return gradient_frames(graph, rel, [scope_of(r, names) for r in rel])


def block_size(graph, scopes=None, series=None) -> int:
    """Ops per block when a big graph's ops outside any scope (and series) are summarised: 0
    (no blocks) unless more than ``BLOCKS_ABOVE`` ops are outside every scope and series.
    ``scopes``, ``series``: the scope and the series of each op, if already known."""
    ops = graph.operations
    n = len(ops)
    if n <= BLOCKS_ABOVE:
        return 0
    rel = relative_names(graph)
    if scopes is None:
        scopes = drawn_scopes(graph, rel)
    if series is None:
        series = folds_of(ops, scopes, rel)[0]
    folded = n > SERIES_ABOVE  # series are folded by default only in graphs this big
    loose = sum(1 for i, s in enumerate(scopes) if not s and not (folded and i in series))
    return 0 if loose <= BLOCKS_ABOVE else max(50, -(-n // 100))


def block_of(index: int, size: int) -> str:
    """The name of the block of op number ``index``: ``ops[0:101]``."""
    start = index - index % size
    return f"ops[{start}:{start + size}]"


_LAST_LAYOUT: list = [None, -1, None, None]  # (weak ref to a graph, op count, layout, members)


def _layout(graph):
    """(scopes, folds, block size) of a graph's ops (folds: op index -> the series or repeat
    it is in); the last one is remembered, since drawing, collapsing and the viewer's name
    maps all ask for it."""
    _remember(graph)
    return _LAST_LAYOUT[2]


def fold_members(graph) -> dict[str, list[list[int]]]:
    """Fold name -> its members in order (lists of op indices): see :func:`.series.folds_of`."""
    _remember(graph)
    return _LAST_LAYOUT[3]


def _remember(graph) -> None:
    ref, n = _LAST_LAYOUT[0], _LAST_LAYOUT[1]
    ops = graph.operations
    if ref is not None and ref() is graph and n == len(ops):
        return
    rel = relative_names(graph)
    scopes = drawn_scopes(graph, rel)
    folds, members = folds_of(ops, scopes, rel)
    found = scopes, folds, block_size(graph, scopes, folds)
    try:
        _LAST_LAYOUT[:] = [weakref.ref(graph), len(ops), found, members]
    except TypeError:  # not weakly referable: remembered until the next graph
        _LAST_LAYOUT[:] = [lambda: graph, len(ops), found, members]


def top_scopes(graph) -> set:
    """What a big graph starts with collapsed: its top-level name scopes, its series of
    like-named ops (in graphs of more than ``SERIES_ABOVE`` ops), and, when many ops are
    outside any scope and series, blocks of consecutive such ops (so even a flat 10,000-op
    graph draws in seconds)."""
    scopes, series, size = _layout(graph)
    big = len(scopes) > SERIES_ABOVE
    out = set()
    for i, scope in enumerate(scopes):
        if scope:
            out.add(scope.split("/", 1)[0])
        elif big and i in series:
            out.add(series[i])
        elif size:
            out.add(block_of(i, size))
    return out


def _series_everywhere(graph, prefix: str = "") -> set:
    """The folds of ``graph`` and of the graphs its control flow runs that start folded: in
    a graph of more than ``SERIES_ABOVE`` ops, every series and repeat; in one of more than
    ``COLLAPSE_ABOVE``, its repeats (in a smaller graph, folding ops that merely share a name
    would hide more than it shows)."""
    out = set()
    n = len(graph.operations)
    if n > COLLAPSE_ABOVE:
        out = {prefix + s for s in set(_layout(graph)[1].values())
               if n > SERIES_ABOVE or is_repeat(s)}
    names = drawn_names(graph)
    for op in graph.operations:
        if _has_bodies(op):
            for label, fn in _bodies(op):
                out |= _series_everywhere(fn.graph, f"{prefix}{names[id(op)]}/{label}/")
    return out


def _big_bodies(graph, prefix: str = "") -> set:
    out = set()
    names = drawn_names(graph)
    for op in graph.operations:
        if _has_bodies(op):
            for label, fn in _bodies(op):
                body = f"{prefix}{names[id(op)]}/{label}"
                if len(fn.graph.operations) > BODY_COLLAPSE_ABOVE:
                    out.add(body)
                else:
                    out |= _big_bodies(fn.graph, body + "/")
    return out


def default_collapse(graph) -> set:
    """The ``collapse`` used when none is given: the series of like-named ops of graphs of
    more than ``SERIES_ABOVE`` ops; for a graph of more than ``COLLAPSE_ABOVE`` ops, its
    top-level scopes (see :func:`top_scopes`); the control-flow bodies of more than
    ``BODY_COLLAPSE_ABOVE`` ops."""
    out = _series_everywhere(graph) | _big_bodies(graph)
    if len(graph.operations) > COLLAPSE_ABOVE:
        out |= top_scopes(graph)
    return out



# -- SVG titles back to names (for the interactive viewer) --------------------------------------
def node_ids(graph, collapse=None, prefix: str = "") -> dict:
    """SVG node title -> node id: the op name for every op of ``graph``, the box name for every
    name a collapsed box can have (scopes, blocks of a big graph, control-flow bodies), and
    the ``cond/then/mul``-style id of every node in a body.  (``collapse`` is accepted for
    compatibility: every possible box is mapped anyway.)"""
    out = {svg_title(prefix + n): prefix + n for n in relative_names(graph)}
    for path in _scope_paths(graph):
        out.setdefault(svg_title(prefix + path), prefix + path)
    _, series, size = _layout(graph)
    for name in set(series.values()):
        out.setdefault(svg_title(prefix + name), prefix + name)
    if size:
        for start in range(0, len(graph.operations), size):
            name = prefix + block_of(start, size)
            out.setdefault(svg_title(name), name)
    names = drawn_names(graph)
    for op in graph.operations:
        if _has_bodies(op):
            for label, fn in _bodies(op):
                body = f"{prefix}{names[id(op)]}/{label}"
                out.setdefault(svg_title(body), body)
                for title, node in node_ids(fn.graph, prefix=body + "/").items():
                    out.setdefault(title, node)
    return out


def cluster_ids(graph, prefix: str = "") -> dict:
    """SVG cluster title -> scope name (or ``cond/then``-style body name), for expanding and
    collapsing scopes and the branches and bodies of control flow, at every depth."""
    out = {svg_title("cluster_" + prefix + p): prefix + p for p in _scope_paths(graph)}
    for fold in fold_members(graph):  # the frame of an open series or repeat
        out.setdefault(svg_title("cluster_" + prefix + fold), prefix + fold)
    names = drawn_names(graph)
    for op in graph.operations:
        if _has_bodies(op):
            out[svg_title("cluster_" + prefix + names[id(op)])] = prefix + names[id(op)]
            for label, fn in _bodies(op):
                body = f"{prefix}{names[id(op)]}/{label}"
                out[svg_title("cluster_" + body)] = body
                out.update(cluster_ids(fn.graph, body + "/"))
    return out


def _scope_paths(graph) -> list[str]:
    """Every scope path of the graph's ops (with their parents), in first-seen order."""
    seen: dict[str, None] = {}
    for scope in _layout(graph)[0]:
        while scope and scope not in seen:
            seen[scope] = None
            scope = scope.rsplit("/", 1)[0] if "/" in scope else ""
    return list(seen)


layout = _layout
