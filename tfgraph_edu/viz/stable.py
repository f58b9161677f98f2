"""Folding and unfolding without moving the rest of the drawing (layer 8).

Graphviz's ``dot`` lays a whole graph out anew each time, so opening one scope used to move
every other node.  Here a toggle is *composed* into the drawing already shown instead:

1. the DOT text before and after the toggle (:func:`~.dot.graph_to_dot`'s, whose lines this
   module reads: a node, an edge or a ``subgraph "cluster_…" {`` per line) are compared; when
   exactly one thing was swapped for another in the same parent cluster - a folded box for
   the frame of its contents (opening), a frame for its box (folding), a collapsed ``If``/
   ``While`` node for its cluster - that is the change;
2. the new thing alone is laid out by ``dot`` (a small graph: fast) and placed with its top
   middle where the top middle of the old thing was;
3. the rest moves in at most 3 x 2 rigid blocks (left of the old thing, its column, right of
   it; level with or above it, below it), each a step of a monotone function of a node's
   centre: when the new thing is bigger, what lies below moves down by what it is taller and
   what is level with it moves aside as far as it needs to clear it (what lies above moves
   not at all when that keeps everything clear, else whole columns move); when it is smaller
   (a fold), the blocks below move up and those beside move in by the room it freed, as far
   as nothing comes closer to anything than it was or than ``MARGIN``.  Every arrangement is
   checked for overlaps before it is used; clusters keep their padding around their members;
4. edges inside the new thing keep dot's routes; the others whose ends moved alike keep their
   old routes unless they now run through a node's box or the new thing; when a box opened,
   its edges to nodes that did not move sideways keep their old route to the box and are
   routed on inside the frame only (:func:`_joined`); the rest are routed around the nodes
   and frames near each of them (:func:`_route`: in this process by :mod:`.routing`, by
   Graphviz's spline router when that finds no way), a route still through a node again
   around the nodes near it (:func:`_route_around`), and ``neato -n2`` draws it all pinned.

Anything else (a series opened into loose nodes, a "… more" page, several changes at once, an
arrangement that would overlap) returns None and the caller lays the whole graph out again.
Folding back what was just opened is exact: the caller keeps the previous :class:`Layout`
(see :class:`History`).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tempfile
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from . import routing

__all__ = ["Layout", "Structure", "History", "parse", "lay_out", "compose", "run_graphviz"]

_XLABEL = re.compile(r'\bxlabel=("(?:[^"\\]|\\.)*")')
_ARROWSIZE = re.compile(r"\barrowsize=([0-9.]+)")
_QUOTED = re.compile(r'"((?:[^"\\]|\\.)*)"')
_CLUSTER = re.compile(r'\s*subgraph ("(?:[^"\\]|\\.)*") \{\s*$')


def _unquote(token: str) -> str:
    """The name Graphviz reads from a quoted DOT string (only ``\\"`` is an escape)."""
    return token.replace('\\"', '"')


@dataclass
class Structure:
    """What a DOT text of ``graph_to_dot`` draws, by line: nodes and clusters with their
    parent cluster (``""``: the root), edges in order."""
    lines: list[str]
    header: int = 0  # lines before the first drawn thing (``digraph G {`` and graph attrs)
    nodes: dict[str, tuple[str, int]] = field(default_factory=dict)  # name -> (parent, line)
    clusters: dict[str, tuple[str, int, int]] = field(default_factory=dict)  # (parent, open, close)
    edges: list[tuple[str, str, int]] = field(default_factory=list)  # (tail, head, line)


def parse(dot: str) -> Structure:
    """The :class:`Structure` of a DOT text made by :func:`~.dot.graph_to_dot`."""
    lines = dot.split("\n")
    out = Structure(lines)
    stack: list[str] = []
    header = None
    for i, line in enumerate(lines):
        text = line.strip()
        m = _CLUSTER.match(line)
        if m:
            name = _unquote(m.group(1)[1:-1])
            out.clusters[name] = (stack[-1] if stack else "", i, -1)
            stack.append(name)
        elif text == "}":
            if stack:
                name = stack.pop()
                parent, start, _ = out.clusters[name]
                out.clusters[name] = (parent, start, i)
            continue
        elif text.startswith('"'):
            first = _QUOTED.match(text)
            if first is None:
                continue
            rest = text[first.end():]
            if rest.startswith(" -> "):
                second = _QUOTED.match(rest[4:])
                if second is None:
                    continue
                out.edges.append((_unquote(first.group(1)), _unquote(second.group(1)), i))
            elif rest.startswith(" ["):
                out.nodes[_unquote(first.group(1))] = (stack[-1] if stack else "", i)
            else:
                continue
        else:
            continue
        if header is None:
            header = i
    out.header = header if header is not None else len(lines)
    return out


@dataclass
class Layout:
    """A drawing as laid out: its DOT text and structure, node centres and sizes, cluster
    boxes and edge routes, in Graphviz's points (y up)."""
    dot: str
    structure: Structure
    nodes: dict[str, tuple[float, float, float, float]]  # name -> (x, y, width, height)
    clusters: dict[str, tuple[float, float, float, float]]  # name -> (x0, y0, x1, y1)
    edges: dict[tuple[str, str, int], tuple[str, str | None]]  # (tail, head, k) -> (pos, xlp)
    svg: str = ""


def _geometry(data: dict):
    objects = data.get("objects", [])
    nodes, clusters = {}, {}
    for o in objects:
        if "pos" in o and "width" in o:
            x, y = (float(v) for v in o["pos"].split(",")[:2])
            nodes[o["name"]] = (x, y, float(o["width"]) * 72, float(o["height"]) * 72)
        elif "bb" in o and str(o.get("name", "")).startswith("cluster"):
            clusters[o["name"]] = tuple(float(v) for v in o["bb"].split(","))
    edges = {}
    seen: dict[tuple[str, str], int] = {}
    for e in data.get("edges", []):
        tail, head = objects[e["tail"]]["name"], objects[e["head"]]["name"]
        k = seen.get((tail, head), 0)
        seen[(tail, head)] = k + 1
        if "pos" in e:
            edges[(tail, head, k)] = (e["pos"], e.get("xlp"))
    return nodes, clusters, edges


CACHED = 24  # Graphviz results kept (a block opened again is not laid out again)
CACHE_BELOW = 1 << 20  # characters: DOT texts longer than this are not kept
_cache_lock = threading.Lock()
_cache: OrderedDict[tuple[str, str, bool], tuple[str, dict]] = OrderedDict()


def run_graphviz(engine: str, dot: str, svg: bool = True) -> tuple[str, dict] | None:
    """Graphviz's ``engine`` on ``dot``: (SVG text from ``<svg`` on, JSON layout), or None
    without Graphviz.  A DOT text Graphviz rejects raises ``RuntimeError`` with its message.
    The last ``CACHED`` results are kept: the same text is not laid out twice (the caller
    must not change what it gets)."""
    key = (engine, dot, svg)
    with _cache_lock:
        if key in _cache:
            _cache.move_to_end(key)
            return _cache[key]
    program = shutil.which(engine)
    if program is None:
        return None
    with tempfile.TemporaryDirectory(prefix="tfgraph_edu-layout-") as tmp:
        out_json = Path(tmp) / "out.json"
        out_svg = Path(tmp) / "out.svg"
        args = [program] + (["-n2"] if engine == "neato" else []) + ["-Tjson0", f"-o{out_json}"]
        if svg:
            args += ["-Tsvg", f"-o{out_svg}"]
        done = subprocess.run(args, input=dot.encode("utf-8"), capture_output=True, check=False)
        if done.returncode != 0 or not out_json.exists():
            raise RuntimeError(done.stderr.decode("utf-8", "replace").strip() or
                               f"{engine} failed ({done.returncode})")
        data = json.loads(out_json.read_text(encoding="utf-8"))
        text = ""
        if svg:
            text = out_svg.read_text(encoding="utf-8")
            start = text.find("<svg")
            text = text[start:] if start >= 0 else text
    if len(dot) < CACHE_BELOW:
        with _cache_lock:
            _cache[key] = (text, data)
            while len(_cache) > CACHED:
                _cache.popitem(last=False)
    return text, data


def lay_out(dot: str) -> Layout | None:
    """The whole drawing laid out by ``dot`` (SVG and positions), or None without Graphviz.
    ``dot`` may draw an edge through a node's box (it fans edges between the same two nodes
    out over their neighbours, and which nodes are neighbours follows the order of names):
    such edges are routed again around the nodes (:func:`_route_around`) and the drawing is
    drawn pinned by ``neato -n2``, every node where ``dot`` put it."""
    done = run_graphviz("dot", dot)
    if done is None:
        return None
    svg, data = done
    nodes, clusters, edges = _geometry(data)
    s = parse(dot)
    if set(nodes) != set(s.nodes) or set(clusters) != set(s.clusters):
        return Layout(dot, s, nodes, clusters, edges, svg)
    ends = {n: (x - w / 2, y - h / 2, x + w / 2, y + h / 2) for n, (x, y, w, h) in nodes.items()}
    obstacles = {n: _node_rect(s, n, *nodes[n]) for n in s.nodes}
    order = list(obstacles)
    at = {n: j for j, n in enumerate(order)}
    rects = np.array([obstacles[n] for n in order])
    routes, count, lines, points = {}, {}, [], []
    for tail, head, i in s.edges:
        k = count.get((tail, head), 0)
        count[(tail, head)] = k + 1
        r = edges.get((tail, head, k))
        if r is not None:
            routes[i] = r
            lines.append((i, tail, head))
            points.append(_controls(r[0]))
    # only the routes whose box meets a node's other than their ends' are looked at closely
    spans = np.array([[p[:, 0].min(), p[:, 1].min(), p[:, 0].max(), p[:, 1].max()]
                      for p in points]).reshape(-1, 4)
    meets = ((spans[:, None, 0] < rects[None, :, 2]) & (spans[:, None, 2] > rects[None, :, 0])
             & (spans[:, None, 1] < rects[None, :, 3]) & (spans[:, None, 3] > rects[None, :, 1]))
    ends_at = np.array([[at[t], at[h]] for _, t, h in lines], dtype=int).reshape(-1, 2)
    meets[np.arange(len(lines)), ends_at[:, 0]] = False
    meets[np.arange(len(lines)), ends_at[:, 1]] = False
    through = [lines[e][0] for e in np.flatnonzero(meets.any(axis=1))
               if _hits(points[e], rects[meets[e]])]
    if not through:
        return Layout(dot, s, nodes, clusters, edges, svg)
    found = _route_around(s, ends, obstacles, through, clusters)
    if found is None:
        return Layout(dot, s, nodes, clusters, edges, svg)
    routes.update(found[0])
    pos = {n: (x, y) for n, (x, y, _, _) in nodes.items()}
    done = run_graphviz("neato", pinned_dot(s, pos, clusters, routes))
    if done is None:
        return Layout(dot, s, nodes, clusters, edges, svg)
    svg, data = done
    nodes, clusters, edges = _geometry(data)
    return Layout(dot, s, nodes, clusters, edges, svg)


# -- composing a toggle into the drawing shown ------------------------------------------------
def _subtree(s: Structure, cluster: str) -> tuple[set[str], set[str]]:
    """The nodes and clusters inside ``cluster`` (itself included), at any depth."""
    clusters = {cluster}
    changed = True
    while changed:
        changed = False
        for name, (parent, _, _) in s.clusters.items():
            if parent in clusters and name not in clusters:
                clusters.add(name)
                changed = True
    return {n for n, (parent, _) in s.nodes.items() if parent in clusters}, clusters


def _item(s: Structure, nodes: set[str], clusters: set[str]):
    """The one thing that ``nodes`` and ``clusters`` (what changed in ``s``) make up: a node
    or a whole cluster, as (kind, name, parent); None when they are not one thing."""
    if not clusters:
        if len(nodes) != 1:
            return None
        (name,) = nodes
        return "node", name, s.nodes[name][0]
    tops = [c for c in clusters if s.clusters[c][0] not in clusters]
    if len(tops) != 1:
        return None
    inside_nodes, inside_clusters = _subtree(s, tops[0])
    if inside_nodes != nodes or inside_clusters != clusters:
        return None
    return "cluster", tops[0], s.clusters[tops[0]][0]


def _changes(old: Structure, new: Structure):
    def differ(a: dict, b: dict) -> set[str]:  # gone from b, or in another parent there
        return {n for n in a if n not in b or a[n][0] != b[n][0]}
    old_nodes, new_nodes = differ(old.nodes, new.nodes), differ(new.nodes, old.nodes)
    old_cl, new_cl = differ(old.clusters, new.clusters), differ(new.clusters, old.clusters)
    if not (old_nodes or old_cl) or not (new_nodes or new_cl):
        return None
    gone = _item(old, old_nodes, old_cl)
    came = _item(new, new_nodes, new_cl)
    if gone is None or came is None or gone[2] != came[2]:
        return None
    if gone[2] and gone[2] not in old.clusters:
        return None
    return gone, came, new_nodes, new_cl


FOLDER_TAB = 4.0  # points: how far Graphviz draws a folder's tab above its node's box


def _tab(s: Structure, kind: str, name: str) -> float:
    return FOLDER_TAB if kind == "node" and "shape=folder" in s.lines[s.nodes[name][1]] else 0.0


def _rect(layout_nodes, layout_clusters, kind, name):
    if kind == "cluster":
        return layout_clusters.get(name)
    n = layout_nodes.get(name)
    if n is None:
        return None
    x, y, w, h = n
    return (x - w / 2, y - h / 2, x + w / 2, y + h / 2)


def _shift_route(pos: str, dx: float, dy: float) -> str:
    out = []
    for token in pos.split():
        head = ""
        if token[:2] in ("e,", "s,"):
            head, token = token[:2], token[2:]
        x, y = token.split(",")[:2]
        out.append(f"{head}{float(x) + dx:.2f},{float(y) + dy:.2f}")
    return " ".join(out)


def _shift_point(p: str | None, dx: float, dy: float) -> str | None:
    if not p:
        return None
    x, y = p.split(",")[:2]
    return f"{float(x) + dx:.2f},{float(y) + dy:.2f}"


GAP = 18.0  # points: room kept beside what opened (Graphviz's default nodesep)


def _room(old: Layout, kind: str, name: str, rect, placed, grow_down: float):
    """How far the nodes left of ``rect`` (the old thing) and right of it must move so that
    ``placed`` (the new thing) overlaps nothing beside it: only nodes and clusters level with
    the new thing (after those below moved down by ``grow_down``) count."""
    x0, y0, x1, _ = rect
    s = old.structure
    inside = set()
    if kind == "cluster":
        nodes, clusters = _subtree(s, name)
        inside = nodes | clusters
    holders = set()  # the clusters holding the old thing: they stretch around the new one
    parent = s.nodes[name][0] if kind == "node" else s.clusters[name][0]
    while parent:
        holders.add(parent)
        parent = s.clusters[parent][0]
    left = right = 0.0
    things = [(n, (x - w / 2, y - h / 2, x + w / 2, y + h / 2)) for n, (x, y, w, h)
              in old.nodes.items()] + list(old.clusters.items())
    for n, (a0, b0, a1, b1) in things:
        if n == name or n in inside or n in holders:
            continue
        low = b0 - grow_down if (b0 + b1) / 2 < y0 or n in old.clusters else b0
        if low >= placed[3] or b1 <= placed[1]:  # above or below the new thing
            continue
        if a1 <= x0:
            left = max(left, a1 + GAP - placed[0])
        elif a0 >= x1:
            right = max(right, placed[2] + GAP - a0)
    return left, right


MARGIN = 18.0  # points: how close a move may bring two things that were farther apart
SMALL = 2.0  # points: room freed that is not worth moving anything for


def _ancestors(s: Structure, parent: str) -> list[str]:
    out = []
    while parent:
        out.append(parent)
        parent = s.clusters[parent][0] if parent in s.clusters else ""
    return out


def _node_rect(s: Structure, name: str, x: float, y: float, w: float, h: float):
    """A node's box (a folder's tab included), from its centre and size."""
    return (x - w / 2, y - h / 2, x + w / 2, y + h / 2 + _tab(s, "node", name))


def _controls(pos: str) -> np.ndarray:
    """An edge route's control points (Graphviz's cubic B-spline, no arrow tip)."""
    return np.array([[float(v) for v in t.split(",")[:2]] for t in pos.split()
                     if not t.startswith(("e,", "s,"))])


def _bezier_points(p: np.ndarray, every: float = 3.0) -> np.ndarray:
    """Points along a route with control points ``p``, about ``every`` points apart (at most;
    the pieces of a route sampled together by how many points they need, in powers of 2)."""
    if len(p) < 4:
        return p
    pieces = np.stack([p[0:len(p) - 3:3], p[1:len(p) - 2:3], p[2:len(p) - 1:3], p[3::3]], 1)
    length = np.hypot(*np.diff(pieces, axis=1).transpose(2, 0, 1)).sum(axis=1)
    need = np.maximum(8, length / every + 1)
    sizes = 2 ** np.ceil(np.log2(need)).astype(int)
    out = []
    for size in np.unique(sizes):
        group = pieces[sizes == size]
        t = np.linspace(0.0, 1.0, size)[None, :, None]
        a, b, c, d = (group[:, k][:, None, :] for k in range(4))
        out.append(((1 - t) ** 3 * a + 3 * (1 - t) ** 2 * t * b + 3 * (1 - t) * t * t * c
                    + t ** 3 * d).reshape(-1, 2))
    return np.concatenate(out)


def crosses(pos: str, rects: np.ndarray, inset: float = 1.0) -> bool:
    """Whether an edge route passes through any of ``rects`` (rows x0, y0, x1, y1)."""
    return _hits(_controls(pos), rects, inset)


def _hits(p: np.ndarray, rects: np.ndarray, inset: float = 1.0) -> bool:
    """Whether the route with control points ``p`` passes through any of ``rects``."""
    return bool(len(_hit_rows(p, rects, inset)))


def _hit_rows(p: np.ndarray, rects: np.ndarray, inset: float = 1.0,
              pts: np.ndarray | None = None) -> np.ndarray:
    """The rows of ``rects`` (x0, y0, x1, y1) that the route with control points ``p`` passes
    through (``pts``: its points, when already sampled)."""
    if not len(rects) or not len(p):
        return np.zeros(0, dtype=int)
    lo, hi = p.min(axis=0), p.max(axis=0)  # the curve stays in its control points' box
    rows = np.flatnonzero((rects[:, 0] < hi[0]) & (rects[:, 2] > lo[0])
                          & (rects[:, 1] < hi[1]) & (rects[:, 3] > lo[1]))
    if not len(rows):
        return rows
    r = rects[rows]
    pts = _bezier_points(p) if pts is None else pts
    x, y = pts[:, 0][:, None], pts[:, 1][:, None]
    inside = ((x > r[:, 0] + inset) & (x < r[:, 2] - inset)
              & (y > r[:, 1] + inset) & (y < r[:, 3] - inset))
    return rows[inside.any(axis=0)]


def _separation(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Pairwise gaps between rectangles (rows x0, y0, x1, y1): negative when they overlap."""
    return np.maximum.reduce([a[:, None, 0] - b[None, :, 2], b[None, :, 0] - a[:, None, 2],
                              a[:, None, 1] - b[None, :, 3], b[None, :, 1] - a[:, None, 3]])


def _largest(ok, target: float) -> float:
    """The largest part of ``target`` (from 0, which is ``ok``) that ``ok`` accepts."""
    if ok(target):
        return target
    lo, hi = 0.0, target
    for _ in range(5):
        mid = (lo + hi) / 2
        if ok(mid):
            lo = mid
        else:
            hi = mid
    return lo if abs(lo) >= SMALL else 0.0


CORRIDOR = 54.0  # points: how far from the line between its ends an edge avoids nodes
RETRIES = 4  # times a route through a node is routed again around it


def _route(s: Structure, rects: dict, edges: list[int], frames: dict | None = None,
           reach: float = CORRIDOR, extra: dict[int, set[str]] | None = None,
           ) -> dict[int, tuple[str, str | None]]:
    """Routes for the edges on lines ``edges`` of ``s`` (in this process by :mod:`.routing`;
    by Graphviz's spline router for those it finds no way for), around the nodes (each as its
    box ``rects``: x0, y0, x1, y1) near the line between the edge's ends, and around the
    ``frames`` (cluster -> box) there that hold neither end (each frame as one box, in place of
    what it holds); per edge (for Graphviz: one small graph per pair of nodes, so edges between
    the same two are drawn apart, all in one run of ``neato -n2``).  The router's time grows
    with the cube of the corners it avoids, so a graph of what is near is much faster than one
    of all.  ``reach``: how far from the line "near" is; ``extra``: more nodes or frames to go
    around, by edge line (those an earlier route ran through).  An edge given no route is
    left out."""
    program = shutil.which("neato")
    if program is None or not edges:
        return {}
    frames = frames or {}
    names = list(rects) + list(frames)
    boxes = np.array([rects[n] for n in rects] + [frames[c] for c in frames])
    index = {n: j for j, n in enumerate(names)}
    up = {n: _ancestors(s, s.nodes[n][0]) for n in rects}
    up.update({c: _ancestors(s, s.clusters[c][0]) for c in frames})
    token = {n: _QUOTED.match(s.lines[i].strip()).group(0) for n, (_, i) in s.nodes.items()}
    ends = {i: (t, h) for t, h, i in s.edges}
    groups: dict[frozenset, list[int]] = {}  # edges between the same two nodes: one graph,
    for i in edges:                           # where Graphviz draws them apart
        groups.setdefault(frozenset(ends[i]), []).append(i)

    around = boxes.copy()  # what the router keeps off: a folder's tab too
    for j, n in enumerate(names):
        if n in rects and "shape=folder" in s.lines[s.nodes[n][1]]:
            around[j, 3] += FOLDER_TAB

    def centre(n: str) -> tuple[float, float, float, float]:
        x0, y0, x1, y1 = rects[n]
        return ((x0 + x1) / 2, (y0 + y1) / 2, x1 - x0, y1 - y0)

    def oval(n: str) -> bool:
        return "shape=ellipse" in s.lines[s.nodes[n][1]]

    def arrowsize(i: int) -> float:
        m = _ARROWSIZE.search(s.lines[i])
        return float(m.group(1)) if m else 1.0

    text: list[str] = []
    out: dict[int, tuple[str, str | None]] = {}
    named: list[list[int]] = []  # the groups left to Graphviz, by the name of their graph
    for group in groups.values():
        g = len(named)
        tail, head = ends[group[0]]
        a, b = rects[tail], rects[head]
        # what is near the straight line between the ends' centres
        t = np.linspace(0.0, 1.0, 64)[:, None]
        line = (1 - t) * [(a[0] + a[2]) / 2, (a[1] + a[3]) / 2] + t * [(b[0] + b[2]) / 2,
                                                                    (b[1] + b[3]) / 2]
        x, y = line[:, 0][:, None], line[:, 1][:, None]
        near = ((x > boxes[:, 0] - reach) & (x < boxes[:, 2] + reach)
                & (y > boxes[:, 1] - reach) & (y < boxes[:, 3] + reach)).any(axis=0)
        mine = set(up[tail]) | set(up[head])  # the frames the edge leaves or enters
        for i in group:
            for n in (extra or {}).get(i, ()):
                outside = [c for c in up[n] if c not in mine] if frames else []
                near[index[outside[-1] if outside else n]] = True  # or its outermost frame
        chosen = [j for j in np.flatnonzero(near) if not (
            names[j] in (tail, head) or names[j] in mine
            or (frames and not set(up[names[j]]) <= mine))]  # an end, a frame of an end, or
        # inside a frame drawn as one box
        left = []
        for k, i in enumerate(group):  # in this process first (see routing.py)
            t, h = ends[i]
            size = min(rects[t][2] - rects[t][0], rects[h][2] - rects[h][0])
            shift = (k - (len(group) - 1) / 2) * min(8.0, 0.6 * size / len(group))
            pos = routing.route(centre(t), centre(h), around[chosen],
                                margin=routing.MARGIN + 3.0 * k, shift=shift,
                                arrow=routing.ARROW * arrowsize(i), ellipses=(oval(t), oval(h)))
            if pos is None:
                left.append(i)
            else:
                out[i] = (pos, None)
        if not left:
            continue
        text.append(f'digraph "{g}" {{ splines=true;')
        text += s.lines[1:s.header]
        k = 0
        for j in chosen:
            n = names[j]
            x0, y0, x1, y1 = boxes[j]
            if n in rects:
                name = token[n]
            else:
                name, k = f"frame {k}", k + 1
                while name in s.nodes:  # a name none of the graph's nodes has
                    name += "'"
                name = f'"{name}"'
            text.append(f'{name} [pos="{(x0 + x1) / 2:.2f},{(y0 + y1) / 2:.2f}" '
                        f'width={(x1 - x0) / 72:.4f} height={(y1 - y0) / 72:.4f} fixedsize=true '
                        'shape=box label=""];')
        for n in (tail, head):
            x0, y0, x1, y1 = rects[n]
            text.append(f'{token[n]} [pos="{(x0 + x1) / 2:.2f},{(y0 + y1) / 2:.2f}" '
                        f'width={(x1 - x0) / 72:.4f} height={(y1 - y0) / 72:.4f} fixedsize=true '
                        'shape=box label=""];')
        text += [s.lines[i] for i in group] + ["}"]
        named.append(group)
    if not text:
        return out
    done = subprocess.run([program, "-n2", "-Tjson0"], input="\n".join(text).encode("utf-8"),
                          capture_output=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(done.stderr.decode("utf-8", "replace").strip() or
                           f"neato failed ({done.returncode})")
    raw, decoder, at = done.stdout.decode("utf-8"), json.JSONDecoder(), 0
    while True:
        while at < len(raw) and raw[at].isspace():
            at += 1
        if at >= len(raw):
            break
        data, at = decoder.raw_decode(raw, at)
        group = named[int(data["name"])]
        tail = ends[group[0]][0]
        nodes, _, routes = _geometry(data)
        if tail not in nodes:
            continue
        # Graphviz moved the drawing to start at (0, 0): moved back
        x0, y0, x1, y1 = rects[tail]
        dx, dy = (x0 + x1) / 2 - nodes[tail][0], (y0 + y1) / 2 - nodes[tail][1]
        count: dict[tuple[str, str], int] = {}
        for i in group:  # the k-th edge from a tail to a head, in the order written
            k = count.get(ends[i], 0)
            count[ends[i]] = k + 1
            if (*ends[i], k) in routes:
                pos, xlp = routes[(*ends[i], k)]
                out[i] = (_shift_route(pos, dx, dy), _shift_point(xlp, dx, dy))
    return out


def _route_around(s: Structure, ends: dict, obstacles: dict, lines: list[int],
                  frames: dict, first: dict | None = None) -> tuple[dict, int] | None:
    """Routes for the edges on ``lines`` of ``s`` (see :func:`_route`; ``ends``: the boxes
    edges start and end at, ``obstacles``: every node's box, a folder's tab included) through
    no node's box, and how many more rounds of routing that took: a route through a node further
    off than the router looked is routed again around the nodes near that route too (or the
    outermost frames holding them and neither end), up to ``RETRIES`` times (never around all
    nodes of a big drawing: the router's time grows with the cube of the corners).  ``first``:
    routes to try first, by line.  None when some edge got no route, or still runs through a
    node."""
    found = dict(first or {})
    found.update(_route(s, ends, [i for i in lines if i not in found], frames))
    if len(found) < len(lines):
        return None
    order = list(obstacles)
    rects = np.array([obstacles[n] for n in order])
    keys = {i: (t, h) for t, h, i in s.edges}
    framed = list(frames)
    frame_rects = np.array([frames[c] for c in framed]).reshape(-1, 4)

    def hit(i: int) -> set[str]:
        """When edge ``i``'s route runs through a node other than its ends, or a frame holding
        neither: those and the nodes near that route (to go around next time), else nothing."""
        if i not in found:
            return set()
        p = _controls(found[i][0])
        pts = _bezier_points(p)
        hits = {order[j] for j in _hit_rows(p, rects, pts=pts)} - set(keys[i])
        mine = {c for n in keys[i] for c in _ancestors(s, s.nodes[n][0])}
        hits |= {framed[j] for j in _hit_rows(p, frame_rects, 4.0, pts)} - mine
        if not hits:
            return set()
        pts = _bezier_points(p, every=CORRIDOR / 4)
        x, y, r = pts[:, 0][:, None], pts[:, 1][:, None], CORRIDOR / 2
        close = ((x > rects[:, 0] - r) & (x < rects[:, 2] + r)
                 & (y > rects[:, 1] - r) & (y < rects[:, 3] + r)).any(axis=0)
        return hits | {order[j] for j in np.flatnonzero(close)} - set(keys[i])

    extra: dict[int, set[str]] = {}
    again = {i: h for i in lines if (h := hit(i))}
    rounds = 0
    while again and rounds < RETRIES:
        rounds += 1
        for i, h in again.items():
            extra.setdefault(i, set()).update(h)
        found.update(_route(s, ends, list(again), frames, extra=extra))
        again = {i: h for i in again if (h := hit(i))}
    return None if again else (found, rounds)


def _tip(pos: str) -> np.ndarray | None:
    """The arrow's tip (``e,x,y``) of a Graphviz edge route, None when it has none."""
    for token in pos.split():
        if token.startswith("e,"):
            return np.array([float(v) for v in token[2:].split(",")[:2]])
    return None


def _write(tip, points) -> str:
    return (f"e,{tip[0]:.2f},{tip[1]:.2f} " if tip is not None else "") + \
        " ".join(f"{x:.2f},{y:.2f}" for x, y in points)


def _joined(old: Layout, new: Structure, gone_kind, gone_name, came_kind, inside: set,
            new_cl: set, moved: dict, lines: list[int], keys: dict, obstacles: dict,
            boxes: dict, pos: dict, sizes: dict) -> dict[int, tuple[str, str | None]]:
    """When a box opened into a frame: the routes of the edges between what the frame holds and
    nodes that did not move sideways, made of the old route to the box (or from it, moved
    down with its head) and a short route inside the frame, from where it met the box's
    outline to the node inside (or back), around the frame's own nodes and frames.  The far
    part is not routed again; every route is checked by the caller like any other."""
    if gone_kind != "node" or came_kind != "cluster":
        return {}
    def said(line: str) -> str:  # an edge's label (its dtype and shape), "" without one
        m = _XLABEL.search(line)
        return m.group(1) if m else ""

    # the old routes into and out of the box by outer end and label (the box drew one edge
    # per dtype and shape), and the first of each end
    into, out_of, count = {}, {}, {}
    for t, h, i in old.structure.edges:
        k = count.get((t, h), 0)
        count[(t, h)] = k + 1
        r = old.edges.get((t, h, k))
        if r is None or t == h:
            continue
        if h == gone_name:
            into.setdefault((t, said(old.structure.lines[i])), r)
            into.setdefault((t, None), r)
        elif t == gone_name:
            out_of.setdefault((h, said(old.structure.lines[i])), r)
            out_of.setdefault((h, None), r)
    labelled: set[tuple] = set()  # each old label is drawn once

    def old_route(table: dict, end: str, i: int):
        key = (end, said(new.lines[i]))
        r = table.get(key) or table.get((end, None))
        if r is None or key in labelled or table.get(key) is None:
            return r and (r[0], None)
        labelled.add(key)
        return r
    up = {n: set(_ancestors(new, new.nodes[n][0])) & new_cl for n in inside}

    def inner(end: str, at, **how) -> str | None:
        """A route between the point ``at`` and the node ``end`` in the frame (``how``: which
        way, the arrow), around the frame's nodes and inner frames (as one box each) near it:
        first those near the straight line, then also those near a route that ran through
        one, up to ``RETRIES`` times."""
        mine = up[end]
        rows = [obstacles[n] for n in inside if n != end and up[n] <= mine]
        rows += [boxes[c] for c in new_cl if c not in mine
                 and set(_ancestors(new, new.clusters[c][0])) & new_cl <= mine]
        rows = np.array(rows).reshape(-1, 4)

        def near(points: np.ndarray, reach: float) -> np.ndarray:
            x, y = points[:, 0][:, None], points[:, 1][:, None]
            return ((x > rows[:, 0] - reach) & (x < rows[:, 2] + reach)
                    & (y > rows[:, 1] - reach) & (y < rows[:, 3] + reach)).any(axis=0)

        t = np.linspace(0.0, 1.0, 64)[:, None]
        use = near((1 - t) * np.asarray(at) + t * np.asarray(pos[end]), CORRIDOR)
        node = (*pos[end], *sizes[end])
        for _ in range(RETRIES + 1):
            ends = ((*at, 0.0, 0.0), node) if how["into"] else (node, (*at, 0.0, 0.0))
            route = routing.route(*ends, rows[use], arrow=how["arrow"],
                                  ellipses=(False, oval(end)) if how["into"] else
                                  (oval(end), False))
            if route is None:
                return None
            p = _controls(route)
            hit = np.zeros(len(rows), dtype=bool)
            hit[_hit_rows(p, rows)] = True
            if not hit.any():
                return route
            use |= hit | near(_bezier_points(p, every=CORRIDOR / 4), CORRIDOR / 2)
        return None

    def oval(n: str) -> bool:
        return "shape=ellipse" in new.lines[new.nodes[n][1]]

    out = {}
    for i in lines:
        tail, head = keys[i][:2]
        if head in inside and tail not in inside and moved.get(tail) == (0.0, 0.0) \
                and (tail, None) in into:
            r = old_route(into, tail, i)
            far, at = _controls(r[0]), _tip(r[0])
            if at is None or r[0].startswith("s,") or " s," in r[0]:
                continue
            m = _ARROWSIZE.search(new.lines[i])
            near = inner(head, at, into=True,
                         arrow=routing.ARROW * (float(m.group(1)) if m else 1.0))
            if near is None:
                continue
            last = far[-1]
            bridge = [last + (at - last) / 3, last + 2 * (at - last) / 3, at]
            out[i] = (_write(_tip(near), [*far, *bridge, *_controls(near)[1:]]), r[1])
        elif tail in inside and head not in inside and head in moved and \
                moved[head][0] == 0.0 and (head, None) in out_of:
            r = old_route(out_of, head, i)
            if r[0].startswith("s,") or " s," in r[0]:
                continue
            dy = moved[head][1]
            far = _controls(r[0]) + [0.0, dy]
            at, tip = far[0], _tip(r[0])
            near = inner(tail, at, into=False, arrow=0.0)
            if near is None:
                continue
            out[i] = (_write(None if tip is None else tip + [0.0, dy],
                             [*_controls(near), *far[1:]]), _shift_point(r[1], 0.0, dy))
    return out


def compose(old: Layout, new_dot: str) -> tuple[Layout, dict] | None:
    """``new_dot`` drawn with everything ``old`` already shows left in place (see the module's
    docstring), as (layout, report); None when the change is not one thing swapped for another
    (the caller lays out anew).  The report says how the rest moved: ``left``, ``right``,
    ``down`` (points; negative: back in, closing what a fold freed), ``item`` that changed,
    and how many edges Graphviz ``routed`` anew."""
    new = parse(new_dot)
    found = _changes(old.structure, new)
    if found is None:
        return None
    (gone_kind, gone_name, parent), (came_kind, came_name, _), new_nodes, new_cl = found
    old_rect = _rect(old.nodes, old.clusters, gone_kind, gone_name)
    if old_rect is None:
        return None
    # the new thing alone, laid out by dot
    lines = new.lines
    if came_kind == "cluster":
        _, start, end = new.clusters[came_name]
        body = lines[start:end + 1]
    else:
        body = [lines[new.nodes[came_name][1]]]
    inside = set(new_nodes)
    sub_edges = [lines[i] for t, h, i in new.edges if t in inside and h in inside]
    sub_dot = "\n".join(lines[:new.header] + body + sub_edges + ["}", ""])
    done = run_graphviz("dot", sub_dot, svg=False)
    if done is None:
        return None
    sub_nodes, sub_clusters, sub_edges_pos = _geometry(done[1])
    new_rect = _rect(sub_nodes, sub_clusters, came_kind, came_name)
    if new_rect is None or set(sub_nodes) != inside:
        return None
    if any(n not in old.nodes for n in new.nodes if n not in inside) or \
            any(c not in old.clusters for c in new.clusters if c not in new_cl):
        return None
    x0, y0, x1, y1 = old_rect
    w, h = new_rect[2] - new_rect[0], new_rect[3] - new_rect[1]
    cx = (x0 + x1) / 2
    # the top middle of what is drawn where the old thing's was (a folder's tab sticks out
    # above its node's box)
    gone_tab, came_tab = _tab(old.structure, gone_kind, gone_name), _tab(new, came_kind, came_name)
    top = y1 + gone_tab - came_tab
    placed = (cx - w / 2, top - h, cx + w / 2, top)
    mx, my = placed[0] - new_rect[0], placed[3] - new_rect[3]  # moves the sub-layout there
    sizes = {name: (sub_nodes[name] if name in inside else old.nodes[name])[2:]
             for name in new.nodes}

    # the clusters around the new thing and the others keep their padding around their members
    def members(s: Structure) -> dict[str, tuple[list[str], list[str]]]:
        out: dict[str, tuple[list[str], list[str]]] = {}
        for n, (p, _) in s.nodes.items():
            out.setdefault(p, ([], []))[0].append(n)
        for c, (p, _, _) in s.clusters.items():
            out.setdefault(p, ([], []))[1].append(c)
        return out

    held = {id(old.structure): members(old.structure), id(new): members(new)}

    def members_box(s: Structure, cluster, rect_of, box_of):
        nodes, clusters = held[id(s)].get(cluster, ([], []))
        rects = [rect_of(n) for n in nodes] + [box_of(c) for c in clusters]
        rects = [r for r in rects if r is not None]
        if not rects:
            return None
        return (min(r[0] for r in rects), min(r[1] for r in rects),
                max(r[2] for r in rects), max(r[3] for r in rects))

    outer = sorted((c for c in new.clusters if c not in new_cl),
                   key=lambda c: -len(_ancestors(new, c)))
    pads = {}
    for c in outer:
        had = members_box(old.structure, c,
                          lambda n: _node_rect(old.structure, n, *old.nodes[n]),
                          lambda k: old.clusters.get(k))
        if had is None:
            return None
        b = old.clusters[c]
        pads[c] = (had[0] - b[0], had[1] - b[1], b[2] - had[2], b[3] - had[3])

    def arrange(left: float, right: float, down: float, rows: bool):
        """Node positions, cluster boxes and the move of each old point: what lies left of
        the old thing moves ``left`` further left, right of it ``right`` further right (only
        at its level and below when ``rows``), below it ``down`` further down."""
        def shift(x: float, y: float) -> tuple[float, float]:
            dx = 0.0
            if not rows or y < y1:
                dx = -left if x < x0 else right if x > x1 else 0.0
            return dx, (-down if y < y0 else 0.0)

        pos, moved = {}, {}
        for name in new.nodes:
            if name in inside:
                x, y = sub_nodes[name][:2]
                pos[name] = (x + mx, y + my)
            else:
                was = old.nodes[name]
                moved[name] = d = shift(was[0], was[1])
                pos[name] = (was[0] + d[0], was[1] + d[1])
        boxes = {}
        for c in new_cl:
            b = sub_clusters[c]
            boxes[c] = (b[0] + mx, b[1] + my, b[2] + mx, b[3] + my)
        for c in outer:
            b = members_box(new, c, lambda n: _node_rect(new, n, *pos[n], *sizes[n]),
                            lambda k: boxes.get(k))
            p = pads[c]
            boxes[c] = (b[0] - p[0], b[1] - p[1], b[2] + p[2], b[3] + p[3])
        return shift, pos, moved, boxes

    # what may not come closer than it was (or than MARGIN): every node and cluster outside
    # the new thing, and the new thing as one (where the old thing was)
    things = [n for n in new.nodes if n not in inside] + outer
    up = {n: set(_ancestors(new, new.nodes[n][0] if n in new.nodes else new.clusters[n][0]))
          for n in things}
    up[""] = set(_ancestors(new, parent))
    things.append("")
    was = np.array([_node_rect(old.structure, n, *old.nodes[n]) if n in old.nodes and n else
                    old.clusters[n] if n else
                    (x0, y0, x1, y1 + gone_tab) for n in things])
    index = {n: i for i, n in enumerate(things)}
    holds = np.zeros((len(things), len(things)), dtype=bool)
    for n, cs in up.items():
        for c in cs:
            if c in index:
                holds[index[n], index[c]] = holds[index[c], index[n]] = True
    np.fill_diagonal(holds, True)
    need = np.minimum(_separation(was, was), MARGIN) - 0.5

    def clear(arranged) -> bool:
        _, pos, _, boxes = arranged
        now = np.array([_node_rect(new, n, *pos[n], *sizes[n]) if n in new.nodes else
                        boxes[n] if n else (placed[0], placed[1], placed[2], placed[3] + came_tab)
                        for n in things])
        # two things that moved alike stay as far apart as they were: only the pairs with one
        # that moved otherwise than most things are measured
        delta = np.round(now - was, 3)
        _, which, counts = np.unique(delta, axis=0, return_inverse=True, return_counts=True)
        rows = np.flatnonzero(which.ravel() != np.argmax(counts))
        if not len(rows):
            return True
        return not ((_separation(now[rows], now) < need[rows]) & ~holds[rows]).any()

    # making room: what lies below moves down by what the new thing is taller, left and right
    # by what it needs to clear what is level with it; above it nothing moves if that is clear
    down = max(0.0, y0 - placed[1])
    left, right = _room(old, gone_kind, gone_name, old_rect, placed, down)
    rows = True
    if not clear(arrange(left, right, down, rows)):
        rows = False
        if not clear(arrange(left, right, down, rows)):
            return None
    # closing up what the new thing frees (a fold): the blocks below move up, those beside move
    # in, as far as they stay clear of everything
    if placed[1] > y0 + SMALL:
        down = _largest(lambda d: clear(arrange(left, right, d, rows)), y0 - placed[1])
    if left == 0.0 and placed[0] > x0 + SMALL:
        left = _largest(lambda d: clear(arrange(d, right, down, rows)), x0 - placed[0])
    if right == 0.0 and placed[2] < x1 - SMALL:
        right = _largest(lambda d: clear(arrange(left, d, down, rows)), placed[2] - x1)
    _, pos, moved, boxes = arrange(left, right, down, rows)

    # edges: inside the new thing as dot drew them; others whose ends moved alike keep their
    # route unless it now runs through a node or the new thing; the rest Graphviz's spline
    # router routes around the nodes and frames
    obstacles = {n: _node_rect(new, n, *pos[n], *sizes[n]) for n in new.nodes}
    ends = {n: (x - w / 2, y - h / 2, x + w / 2, y + h / 2)  # where edges start and end
            for n, ((x, y), (w, h)) in ((n, (pos[n], sizes[n])) for n in new.nodes)}
    order = list(obstacles)
    rects = np.array([obstacles[n] for n in order])
    at = {n: j for j, n in enumerate(order)}
    moves = np.array([moved.get(n, (np.nan, np.nan)) for n in order])

    def through(pos: str, tail: str, head: str, move=None) -> bool:
        """Whether a route runs through another node's box (with ``move``: a route that moved
        so, through the new thing or a node that did not move so: nothing else can be in it)."""
        rows = np.ones(len(order), dtype=bool)
        if move is not None:
            rows = ~((moves[:, 0] == move[0]) & (moves[:, 1] == move[1]))
        rows[at[tail]] = rows[at[head]] = False
        p = _controls(pos)
        return _hits(p, rects[rows]) or (move is not None and _hits(p, np.array([placed])))

    def across(pos: str, tail: str, head: str) -> bool:
        """Whether a route inside the new thing runs through a frame in it holding neither
        end."""
        mine = set(_ancestors(new, new.nodes[tail][0])) | set(_ancestors(new, new.nodes[head][0]))
        rows = np.array([boxes[c] for c in new_cl if c not in mine]).reshape(-1, 4)
        return _hits(_controls(pos), rows, inset=4.0)

    routes: dict[int, tuple[str, str | None]] = {}
    count: dict[tuple[str, str], int] = {}
    keys: dict[int, tuple[str, str, int]] = {}
    for tail, head, i in new.edges:
        k = count.get((tail, head), 0)
        count[(tail, head)] = k + 1
        keys[i] = (tail, head, k)
        if tail in inside and head in inside:
            r = sub_edges_pos.get((tail, head, k))
            if r is not None:  # (dot may draw one through a node or a frame: routed again)
                r = (_shift_route(r[0], mx, my), _shift_point(r[1], mx, my))
                if not through(r[0], tail, head) and not across(r[0], tail, head):
                    routes[i] = r
        elif tail in moved and head in moved and moved[tail] == moved[head]:
            r = old.edges.get((tail, head, k))  # both ends moved alike: the route with them
            if r is not None:
                r = (_shift_route(r[0], *moved[tail]), _shift_point(r[1], *moved[tail]))
                if not through(r[0], tail, head, moved[tail]):
                    routes[i] = r
    routed = [i for _, _, i in new.edges if i not in routes]
    joined = _joined(old, new, gone_kind, gone_name, came_kind, inside, new_cl, moved, routed,
                     keys, obstacles, boxes, pos, sizes)
    done = _route_around(new, ends, obstacles, routed, boxes, joined)
    if done is None:
        return None
    found, rounds = done
    routes.update(found)
    done = run_graphviz("neato", pinned_dot(new, pos, boxes, routes))
    if done is None:
        return None
    svg, data = done
    nodes, clusters, edges = _geometry(data)
    report = {"item": came_name, "left": left, "right": right, "down": down,
              "routed": len(routed), "rounds": rounds,
              "kept": sum(1 for d in moved.values() if d == (0.0, 0.0)), "moved": len(moved)}
    return Layout(new_dot, new, nodes, clusters, edges, svg), report


def pinned_dot(s: Structure, pos: dict, boxes: dict, routes: dict) -> str:
    """``s``'s DOT text with every node pinned at ``pos``, every cluster at its box and the
    given edge routes, for ``neato -n2`` (points; edges without a route drawn as lines)."""
    lines = list(s.lines)
    lines[0] += " splines=line;"  # ``digraph G {``
    for name, (_, i) in s.nodes.items():
        x, y = pos[name]
        lines[i] = lines[i].replace(" [", f' [pos="{x:.2f},{y:.2f}" ', 1)
    for name, (_, start, _) in s.clusters.items():
        b = boxes[name]
        lines[start] += f' bb="{b[0]:.2f},{b[1]:.2f},{b[2]:.2f},{b[3]:.2f}";'
    for i, (route, xlp) in routes.items():
        extra = f'pos="{route}" ' + (f'xlp="{xlp}" ' if xlp else "")
        lines[i] = lines[i].replace(" [", " [" + extra, 1)
    return "\n".join(lines)


class History:
    """The layouts shown, newest last, so that undoing a toggle (folding what was just opened)
    gives back exactly the drawing before it."""

    def __init__(self, depth: int = 32):
        self.depth = depth
        self.shown: list[tuple[frozenset, Layout]] = []

    def clear(self) -> None:
        self.shown.clear()

    def current(self) -> Layout | None:
        return self.shown[-1][1] if self.shown else None

    def push(self, collapse, layout: Layout | None) -> None:
        if layout is None:
            self.shown.clear()
            return
        self.shown.append((frozenset(collapse), layout))
        del self.shown[:-self.depth]

    def undo(self, collapse) -> Layout | None:
        """The layout before the last toggle if ``collapse`` is what it showed (popping the
        last), else None."""
        if len(self.shown) >= 2 and self.shown[-2][0] == frozenset(collapse):
            self.shown.pop()
            return self.shown[-1][1]
        return None
