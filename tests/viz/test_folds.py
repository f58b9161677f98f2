"""Repeats, series opened page by page, and the cap on what Graphviz lays out."""

from __future__ import annotations

import pytest

import tfgraph_edu as tf
from tfgraph_edu import viz
from tfgraph_edu.viz import dot as vdot
from tfgraph_edu.viz import render
from tfgraph_edu.viz.series import PAGE, PAGE_ENDS, page_boxes

from .helpers import cluster_block, edges, has_node, node_attrs

needs_dot = pytest.mark.skipif(not viz.dot_available(), reason="Graphviz's dot is not installed")


def _graph(fn):
    return tf.function(fn, autograph=False).get_concrete_function(tf.constant(0.0)).graph


@pytest.fixture(scope="module")
def series_graph():
    def series(x):
        for _ in range(5000):
            x = x * 1.0001
        return x
    return _graph(series)


def test_a_repeated_chain_reads_as_one_repeat_box_between_its_input_and_output():
    def chain(x):
        for _ in range(13):
            x = x * 2.0 + 1.0
        return x

    graph = _graph(chain)
    assert len(graph.operations) > vdot.COLLAPSE_ABOVE
    dot = vdot.graph_to_dot(graph)  # over COLLAPSE_ABOVE ops: the repeat starts folded
    assert [e[:2] for e in edges(dot)] == [("x", "[mul → add] × 13"),
                                           ("[mul → add] × 13", "Identity")]
    assert 'class="tfg-box tfg-fold tfg-repeat"' in node_attrs(dot, "[mul → add] × 13")
    # opened, it is a dashed frame holding every op (13 members: not paged)
    open_ = vdot.graph_to_dot(graph, collapse=set())
    frame = cluster_block(open_, "cluster_[mul → add] × 13")
    assert has_node(frame, "mul") and has_node(frame, "add_12") and "dashed" in frame
    assert vdot.cluster_ids(graph)["cluster_[mul → add] × 13"] == "[mul → add] × 13"


def test_a_chain_of_one_op_type_stays_a_series_and_short_patterns_are_not_repeats():
    def short(x):
        for _ in range(5):  # fewer than REPEAT_MIN repetitions
            x = x * 2.0 + 1.0
        return x

    dot = vdot.graph_to_dot(_graph(short))
    assert "×" not in dot and "shape=folder" not in dot


def test_an_open_5000_op_series_shows_its_first_and_last_ops_then_how_many_more(series_graph):
    name = "mul, mul_[1-4999]"
    assert vdot.default_collapse(series_graph) == {name}
    dot = vdot.graph_to_dot(series_graph, collapse=set())
    frame = cluster_block(dot, "cluster_" + name)
    shown = [f"mul_{i}" for i in range(1, PAGE_ENDS)] + [f"mul_{i}" for i in range(4995, 5000)]
    assert has_node(frame, "mul") and all(has_node(frame, n) for n in shown)
    assert not has_node(dot, "mul_5") and not has_node(dot, "mul_4994")
    more = f"{name}/more[5:4995]"
    assert node_attrs(dot, more).startswith('label="… 4,990 more\\n9,980 ops · open: next 50"')
    assert "tfg-more" in node_attrs(dot, more)
    assert ("mul_4", more) in [e[:2] for e in edges(dot)]
    assert (more, "mul_4995") in [e[:2] for e in edges(dot)]
    assert render.node_count(dot) < 40


def test_opening_a_more_box_shows_its_next_page(series_graph):
    name = "mul, mul_[1-4999]"
    dot = vdot.graph_to_dot(series_graph, collapse={f"{name}/more[5:4995]"})
    assert has_node(dot, "mul_5") and has_node(dot, f"mul_{5 + PAGE - 1}")
    assert not has_node(dot, f"mul_{5 + PAGE}")
    assert has_node(dot, f"{name}/more[{5 + PAGE}:4995]")
    drawn: dict = {}
    vdot.graph_to_dot(series_graph, collapse=set(), drawn=drawn)
    assert drawn["mul_2000"] == f"{name}/more[5:4995]"  # the viewer finds a hidden op's box


def test_page_boxes_split_what_is_not_shown_into_gaps():
    assert PAGE == 50 and PAGE_ENDS == 5
    assert page_boxes("s", 200, []) == [None] * 5 + ["s/more[5:195]"] * 190 + [None] * 5
    # opening the gap shows its first 50 members; the rest is a new gap
    boxes = page_boxes("s", 200, ["s/more[5:195]"])
    assert boxes == [None] * 55 + ["s/more[55:195]"] * 140 + [None] * 5
    boxes = page_boxes("s", 200, ["s/more[5:195]", "s/more[55:195]", "other/more[0:9]"])
    assert boxes == [None] * 105 + ["s/more[105:195]"] * 90 + [None] * 5
    assert page_boxes("s", 20, []) == [None] * 20  # small folds open whole


def test_paged_false_draws_every_op(series_graph):
    dot = vdot.graph_to_dot(series_graph, collapse=set(), paged=False)
    assert has_node(dot, "mul_2000") and "more[" not in dot


def test_drawings_over_the_layout_limit_are_not_laid_out(series_graph):
    dot = vdot.graph_to_dot(series_graph, collapse=set(), paged=False)
    assert render.node_count(dot) == len(series_graph.operations)
    if viz.dot_available():
        svg = viz.to_svg(dot)
        assert 'class="tfg-too-big"' in svg and "10,002 nodes" in svg
    assert render.to_svg("digraph G { a [label=a]; }", limit=0) in (None, render.too_big_svg(1, 0))


@needs_dot
def test_the_open_series_renders_small(series_graph):
    svg = viz.to_svg(vdot.graph_to_dot(series_graph, collapse=set()))
    assert svg.startswith("<svg") and len(svg) < 100_000
    assert "tfg&#45;more" in svg and "tfg&#45;dtype" in svg  # Graphviz writes - as &#45;
