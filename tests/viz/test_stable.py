"""Folding and unfolding in the viewer keeps the rest of the drawing in place (viz/stable.py).

The checks are on the positions Graphviz reports for the drawing shown (points, y up): no two
nodes overlap, every cluster holds its nodes and no other, every edge runs from its tail to its
head and through no other node's box, and the nodes outside what changed keep their places
relative to the toggled thing, or move in a few blocks that make room for it (or, on a fold,
close the room it freed)."""

from __future__ import annotations

import pytest

import tfgraph_edu as tf
from tfgraph_edu.jupyter.widgets import GraphViewer
from tfgraph_edu.viz import stable
from tfgraph_edu.viz.render import dot_available

pytestmark = pytest.mark.skipif(not dot_available(), reason="Graphviz's dot is not installed")


def _loop_and_if():
    @tf.function
    def f(x):
        with tf.name_scope("layer"):
            x = tf.nn.relu(x * 2.0)
        if tf.reduce_sum(x) > 0:
            x = x * 2.0
        for i in tf.range(3):
            x = x + tf.cast(i, tf.float32)
        return x

    f(tf.constant([1.0, -1.0]))
    return f


def _scopes():
    @tf.function(autograph=False)
    def g(x):
        with tf.name_scope("first"):
            a = tf.nn.relu(x * 2.0) + 1.0
            a = tf.reduce_sum(a * a)
        with tf.name_scope("second"):
            b = tf.sqrt(tf.abs(x) + 3.0)
            b = tf.reduce_max(b * 4.0 - 1.0)
        with tf.name_scope("third"):
            c = tf.exp(-x) * 5.0
        return a + b + tf.reduce_mean(c)

    g(tf.constant([1.0, -1.0]))
    return g


def _viewer(fn, collapsed) -> GraphViewer:
    """A viewer of ``fn`` showing ``collapsed`` folded, laid out anew by Graphviz."""
    viewer = GraphViewer(fn)
    viewer._quiet = True
    viewer.collapsed = list(collapsed)
    viewer._quiet = False
    viewer._history.clear()
    viewer._draw()
    assert len(viewer._history.shown) == 1
    return viewer


def _rect(layout, name):
    x, y, w, h = layout.nodes[name]
    return (x - w / 2, y - h / 2, x + w / 2, y + h / 2)


def _overlap(a, b, slack=0.5) -> bool:
    return (a[0] < b[2] - slack and b[0] < a[2] - slack and a[1] < b[3] - slack
            and b[1] < a[3] - slack)


def _inside(a, b, slack=0.5) -> bool:
    return (a[0] >= b[0] - slack and a[1] >= b[1] - slack and a[2] <= b[2] + slack
            and a[3] <= b[3] + slack)


def _clusters_of(s: stable.Structure, parent: str) -> list[str]:
    out = []
    while parent:
        out.append(parent)
        parent = s.clusters[parent][0]
    return out


def _route_points(pos: str, every: float = 2.0) -> list[tuple[float, float]]:
    """Points along a Graphviz edge route (a cubic B-spline: 1 + 3k control points), about
    ``every`` points apart."""
    p = [tuple(float(v) for v in t.split(",")[:2]) for t in pos.split()
         if not t.startswith(("e,", "s,"))]
    out = []
    for i in range(0, len(p) - 3, 3):
        length = sum(((p[i + j + 1][0] - p[i + j][0]) ** 2
                      + (p[i + j + 1][1] - p[i + j][1]) ** 2) ** 0.5 for j in range(3))
        steps = max(8, int(length / every))
        for k in range(steps + 1):
            t = k / steps
            c = ((1 - t) ** 3, 3 * (1 - t) ** 2 * t, 3 * (1 - t) * t * t, t ** 3)
            out.append(tuple(sum(c[j] * p[i + j][d] for j in range(4)) for d in (0, 1)))
    return out


def _crossings(layout: stable.Layout, inset: float = 2.0) -> list[tuple[str, str, str]]:
    """(tail, head, node) for each edge whose route passes through another node's box."""
    out = []
    for (tail, head, _), (pos, _) in layout.edges.items():
        points = _route_points(pos)
        for name in layout.nodes:
            if name in (tail, head):
                continue
            x0, y0, x1, y1 = _rect(layout, name)
            if any(x0 + inset < x < x1 - inset and y0 + inset < y < y1 - inset
                   for x, y in points):
                out.append((tail, head, name))
    return out


def _height(layout: stable.Layout) -> float:
    tops = [y + h / 2 for _, y, _, h in layout.nodes.values()]
    bottoms = [y - h / 2 for _, y, _, h in layout.nodes.values()]
    return max(tops) - min(bottoms)


def _reads_well(layout: stable.Layout) -> None:
    """No overlaps, clusters around exactly their contents, edges attached at both ends and
    through no other node's box."""
    s = layout.structure
    assert set(layout.nodes) == set(s.nodes)
    assert set(layout.clusters) == set(s.clusters)
    names = sorted(layout.nodes)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            assert not _overlap(_rect(layout, a), _rect(layout, b)), (a, b)
    for name, (parent, _) in s.nodes.items():
        mine = set(_clusters_of(s, parent))
        for c, box in layout.clusters.items():
            if c in mine:
                assert _inside(_rect(layout, name), box), (name, c)
            else:
                assert not _overlap(_rect(layout, name), box), (name, c)
    for a in layout.clusters:  # two clusters: one inside the other, or apart
        for b in layout.clusters:
            if a < b and a not in _clusters_of(s, b) and b not in _clusters_of(s, a):
                assert not _overlap(layout.clusters[a], layout.clusters[b]), (a, b)
    for (tail, head, _), (pos, _) in layout.edges.items():
        points = [tuple(float(v) for v in t.split(",")[-2:]) for t in pos.split()]
        first = next(p for t, p in zip(pos.split(), points) if not t.startswith("e,"))
        tip = next((p for t, p in zip(pos.split(), points) if t.startswith("e,")), points[-1])
        grow = 3.0
        for point, name in ((first, tail), (tip, head)):
            x0, y0, x1, y1 = _rect(layout, name)
            assert x0 - grow <= point[0] <= x1 + grow and y0 - grow <= point[1] <= y1 + grow, \
                (tail, head, name, point)
    assert not _crossings(layout)


def _top_middle(layout: stable.Layout, name: str):
    """The top middle of a node's box (a folder's tab above it) or a cluster's."""
    if name in layout.clusters:
        x0, _, x1, y1 = layout.clusters[name]
        return (x0 + x1) / 2, y1
    x0, _, x1, y1 = _rect(layout, name)
    tab = stable.FOLDER_TAB if "shape=folder" in layout.structure.lines[
        layout.structure.nodes[name][1]] else 0.0
    return (x0 + x1) / 2, y1 + tab


def _blocks(moves: dict) -> int:
    """How many blocks the nodes moved in: moves alike within 0.1 point (Graphviz writes
    positions to a few digits) are one block."""
    blocks: list[tuple[float, float]] = []
    for dx, dy in moves.values():
        if not any(abs(dx - a) <= 0.1 and abs(dy - b) <= 0.1 for a, b in blocks):
            blocks.append((dx, dy))
    return len(blocks)


def _toggle(viewer, name: str, was: str, now: str):
    """Toggle ``name``; the moves of the nodes outside it, relative to the toggled thing's top
    middle (``was`` before: a node or cluster name, ``now`` after)."""
    before = viewer._history.current()
    viewer.toggle(name)
    after = viewer._history.current()
    ax, ay = _top_middle(before, was)
    bx, by = _top_middle(after, now)
    moves = {}
    for n in before.nodes:
        if n in after.nodes and n != name and not n.startswith(name + "/") and \
                before.structure.nodes[n][0] == after.structure.nodes[n][0]:
            moves[n] = (round((after.nodes[n][0] - bx) - (before.nodes[n][0] - ax), 2),
                        round((after.nodes[n][1] - by) - (before.nodes[n][1] - ay), 2))
    return before, after, moves


def test_opening_a_scope_keeps_the_rest_in_blocks_and_folding_back_restores_it():
    viewer = _viewer(_scopes(), ["first", "second", "third"])
    svg = viewer.svg
    before, after, moves = _toggle(viewer, "second", "second", "cluster_second")
    assert len(viewer._history.shown) == 2  # composed, not laid out anew
    _reads_well(after)
    assert "<title>cluster_second</title>" in after.svg and after.svg == viewer.svg
    # the nodes outside moved in at most 3 x 2 blocks, those above the box not at all
    assert 1 <= _blocks(moves) <= 6, moves
    x0, y0, x1, y1 = _rect(before, "second")
    above = [n for n in moves if before.nodes[n][1] > y1]
    assert above and all(moves[n] == (0.0, 0.0) for n in above), moves
    below = [n for n in moves if before.nodes[n][1] < y0]
    assert below and all(moves[n][1] < 0 for n in below), moves  # made room below
    # folding it back: the drawing before, exactly
    viewer.toggle("second")
    assert viewer.svg == svg
    assert len(viewer._history.shown) == 1


def test_opening_two_scopes_one_after_the_other_and_folding_one_reads_well():
    viewer = _viewer(_scopes(), ["first", "second", "third"])
    heights = [_height(viewer._history.current())]
    for name, was, now in (("first", "first", "cluster_first"),
                           ("third", "third", "cluster_third"),
                           ("first", "cluster_first", "first")):
        _, after, moves = _toggle(viewer, name, was, now)
        _reads_well(after)
        assert 1 <= _blocks(moves) <= 6, (name, moves)
        heights.append(_height(after))
    assert len(viewer._history.shown) == 4  # the last fold was not an undo: composed too
    # the fold gave back the height its opening took (no empty band where the frame was)
    assert heights[3] <= heights[2] - (heights[1] - heights[0]) + 1.0, heights


@pytest.mark.parametrize("name", ["layer", "while/body", "while", "cond/then"])
def test_folding_a_scope_a_body_or_a_loop_keeps_the_rest_where_it_was(name):
    viewer = GraphViewer(_loop_and_if())
    assert viewer.collapsed == []  # a small graph: everything drawn
    now = name if name in ("layer", "while/body", "cond/then") else "while"
    before, after, moves = _toggle(viewer, name, "cluster_" + name, now)
    assert len(viewer._history.shown) == 2, name
    _reads_well(after)
    # a box is no taller than its frame: nothing moves down, what is below moves up into the
    # room it freed as far as it stays clear (one block per side and row: at most 3 x 2)
    assert all(dy >= -0.01 for _, dy in moves.values()), moves
    assert 1 <= _blocks(moves) <= 6, moves
    if name == "while":  # the whole loop: nothing beside it holds the rest below back
        x0, y0, x1, y1 = before.clusters["cluster_while"]
        freed = (y1 - y0) - after.nodes["while"][3]
        below = [n for n in moves if before.nodes[n][1] < y0]
        assert below and all(moves[n][1] >= freed - 30 for n in below), (freed, moves)


def _chain(n):
    @tf.function(autograph=False)
    def chain(x):
        for _ in range(n):
            x = x * 1.0001
        return x

    chain(tf.constant(1.0))
    return chain


def test_what_is_not_one_thing_swapped_for_another_is_laid_out_anew():
    viewer = _viewer(_chain(12), ["mul, mul_[1-11]"])
    viewer.toggle("mul, mul_[1-11]")  # a short series opens into loose nodes: laid out anew
    assert "<title>mul_11</title>" in viewer.svg
    assert len(viewer._history.shown) == 1
    _reads_well(viewer._history.current())


def test_a_long_series_opens_in_its_frame_in_place_and_its_pages_anew():
    viewer = _viewer(_chain(30), ["mul, mul_[1-29]"])
    viewer.toggle("mul, mul_[1-29]")  # a frame of its first and last members: composed
    assert len(viewer._history.shown) == 2
    layout = viewer._history.current()
    _reads_well(layout)
    more = [n for n in layout.nodes if "/more[" in n]
    assert len(more) == 1 and "<title>mul_29</title>" in viewer.svg
    viewer.toggle(more[0])  # the next page: several nodes in the frame, laid out anew
    assert len(viewer._history.shown) == 1
    _reads_well(viewer._history.current())


def test_the_pinned_drawing_keeps_graphviz_s_titles_and_classes():
    viewer = _viewer(_scopes(), ["first", "second", "third"])
    viewer.toggle("first")
    svg = viewer.svg
    assert svg.startswith("<svg")
    assert '<g id="clust' in svg and "<title>cluster_first</title>" in svg
    assert 'class="node tfg&#45;op' in svg and 'class="edge tfg&#45;dtype"' in svg
    assert 'class="node tfg&#45;box"' in svg  # the scopes still folded


def _through_frames(layout: stable.Layout, inset: float = 4.0) -> list[tuple[str, str, str]]:
    """(tail, head, cluster) for each edge whose route passes through a frame holding neither
    of its ends."""
    s, out = layout.structure, []
    for (tail, head, _), (pos, _) in layout.edges.items():
        mine = set(_clusters_of(s, s.nodes[tail][0])) | set(_clusters_of(s, s.nodes[head][0]))
        points = _route_points(pos, 4.0)
        for c, (x0, y0, x1, y1) in layout.clusters.items():
            if c not in mine and any(x0 + inset < x < x1 - inset and y0 + inset < y < y1 - inset
                                     for x, y in points):
                out.append((tail, head, c))
    return out


def test_an_mlp_step_s_scopes_opened_and_folded_in_turn_read_like_a_fresh_drawing():
    """The MLP train step of the viewer benchmark: its model and loss scopes opened, then folded
    in the same order (neither fold undoes the last toggle): every drawing composed, no edge
    through a node or through a frame holding neither of its ends, each fold giving back the
    height its opening took."""
    from benchmarks.viewer_in_browser import mlp_scopes, mlp_train_step

    fn = mlp_train_step()
    scopes = mlp_scopes(fn)  # sequential_1, ... when the process made a model before
    viewer = GraphViewer(fn)
    heights = [_height(viewer._history.current())]
    for k, name in enumerate(scopes * 2):
        viewer.toggle(name)
        layout = viewer._history.current()
        assert len(viewer._history.shown) == k + 2, name  # composed, not laid out anew
        _reads_well(layout)
        assert not _through_frames(layout), (name, _through_frames(layout))
        heights.append(_height(layout))
    taken = [heights[1] - heights[0], heights[2] - heights[1]]
    given = [heights[2] - heights[3], heights[3] - heights[4]]
    assert all(g >= t - 1.0 for t, g in zip(taken, given)), (taken, given)


def test_a_keras_train_step_s_scopes_opened_and_folded_keep_edges_off_nodes_and_frames():
    """The benchmark's Keras train step (3 Dense, Adam): its optimiser, model and loss scopes
    opened one after the other, then folded: every drawing composed, no edge through a node
    or through a frame holding neither of its ends (dot's own routes inside an opened scope
    went through its series frames and nodes: those are routed again)."""
    from benchmarks.viewer_in_browser import folded_graphs

    *_, (_, fn, _) = folded_graphs()
    viewer = GraphViewer(fn)
    scopes = [next(c for c in viewer.collapsed if c.startswith(start))
              for start in ("adam", "sequential", "sparse_categorical_crossentropy")]
    for k, name in enumerate(scopes * 2):
        viewer.toggle(name)
        layout = viewer._history.current()
        assert len(viewer._history.shown) == k + 2, name  # composed, not laid out anew
        _reads_well(layout)
        assert not _through_frames(layout), (name, _through_frames(layout))
