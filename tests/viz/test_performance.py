"""Big graphs: 10,000 ops become DOT text fast and, summarised, an SVG in seconds.

The times are printed (``pytest -s``), not asserted: machines differ.  The targets are DOT
text in well under 2 s, and the summarised drawing rendered by Graphviz in seconds.
"""

from __future__ import annotations

import time

import pytest

import tfgraph_edu as tf
from tfgraph_edu import viz
from tfgraph_edu.viz import dot as vdot

from .helpers import edges, has_node, node_attrs


@pytest.fixture(scope="module")
def flat_graph():
    def unrolled(x):
        for _ in range(2500):
            x = x * 1.0001 + 1.0  # four ops: mul/y, mul, add/y, add
        return x

    graph = tf.function(unrolled, autograph=False).get_concrete_function(
        tf.constant(0.0)).graph
    assert len(graph.operations) >= 10_000
    return graph


def _timed(label, fn):
    start = time.perf_counter()
    result = fn()
    print(f"\n{label}: {time.perf_counter() - start:.3f} s")
    return result


def test_a_flat_10000_op_chain_folds_into_one_repeat_box(flat_graph):
    n = len(flat_graph.operations)
    full = _timed(f"DOT of {n} ops, every op drawn",
                  lambda: vdot.graph_to_dot(flat_graph, collapse=set(), paged=False))
    assert all(has_node(full, name) for name in ("x", "mul", "add_2499", "Identity"))
    # each mul and add has two inputs; Identity one
    assert full.count(" -> ") == n - 2 + 1
    summary = _timed("DOT, summarised", lambda: vdot.graph_to_dot(flat_graph))
    # mul, add, mul_1, add_1 ... (with their constants mul/y ...) are one repeat box, so the
    # chain reads x -> [mul -> add] x 2500 -> Identity, not as two series feeding each other
    assert node_attrs(summary, "[mul → add] × 2500").startswith(
        'label="[mul → add] × 2500\\n10,000 ops" shape=folder')
    assert summary.count("shape=folder") == 1
    assert [e[:2] for e in edges(summary)] == [("x", "[mul → add] × 2500"),
                                               ("[mul → add] × 2500", "Identity")]
    if viz.dot_available():
        svg = _timed("SVG of the summary", lambda: viz.to_svg(summary))
        assert svg.startswith("<svg") and svg.count('class="node') == 3


def test_a_flat_graph_of_unlike_names_is_drawn_in_blocks():
    def unrolled(x):
        for i in range(1200):
            x = tf.add(x, 1.0, name=f"step{i}")
        return x

    graph = tf.function(unrolled, autograph=False).get_concrete_function(
        tf.constant(0.0)).graph
    boxes = vdot.top_scopes(graph)
    summary = _timed("DOT, blocks", lambda: vdot.graph_to_dot(graph))
    assert summary.count("shape=folder") == len(boxes) <= 101
    assert node_attrs(summary, "ops[0:50]").startswith('label="ops[0:50] (50 ops)"')
    if viz.dot_available():
        one_open = vdot.graph_to_dot(graph, collapse=boxes - {"ops[50:100]"})
        svg = _timed("SVG with one block open", lambda: viz.to_svg(one_open))
        assert "<title>step30</title>" in svg


def test_a_scoped_10000_op_graph():
    def layers(x):
        for i in range(50):
            with tf.name_scope(f"layer{i}"):
                for _ in range(50):
                    x = x * 1.0001 + 1.0
        return x

    graph = tf.function(layers, autograph=False).get_concrete_function(tf.constant(0.0)).graph
    assert len(graph.operations) >= 10_000
    full = _timed("DOT of 50 scopes x 200 ops",
                  lambda: vdot.graph_to_dot(graph, collapse=set(), paged=False))
    assert full.count("subgraph ") == 50
    summary = vdot.graph_to_dot(graph)
    assert summary.count("shape=folder") == 50 and "layer49 (200 ops)" in summary
    assert summary.count(" -> ") == 51  # x -> layer0 -> ... -> layer49 -> Identity
    if viz.dot_available():
        assert _timed("SVG, summarised", lambda: viz.to_svg(summary)).startswith("<svg")


def test_deep_scope_paths_do_not_recurse():
    depth = 2000

    @tf.function(autograph=False)
    def f(x):
        with tf.name_scope("/".join(f"s{i}" for i in range(depth)) + "/"):
            return x + 1.0

    graph = f.get_concrete_function(tf.constant(1.0)).graph
    dot = vdot.graph_to_dot(graph)
    assert dot.count("subgraph ") == depth and dot.count("{") == dot.count("}")
    assert "s0 (2 ops)" in vdot.graph_to_dot(graph, collapse={"s0"})
