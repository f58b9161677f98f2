"""Rich displays of Graph, ConcreteFunction and Function; show_graph; the missing-dot path."""

from __future__ import annotations

import base64
import re

import pytest

import tfgraph_edu as tf
from tfgraph_edu import viz
from tfgraph_edu.viz import render
from tfgraph_edu.viz.displays import GraphPicture, function_table
from tfgraph_edu.viz.html import escape, svg_or_dot_html

needs_dot = pytest.mark.skipif(not viz.dot_available(), reason="Graphviz's dot is not installed")


@pytest.fixture()
def traced():
    @tf.function
    def f(x):
        with tf.name_scope("layer"):
            y = tf.nn.relu(x * 2.0)
        return y + 1.0

    f(tf.constant([1.0, 2.0]))
    f(tf.constant([3.0, 4.0]))
    f(tf.constant([[1.0]]))  # a new shape: a second trace
    f(tf.constant([5.0, 6.0]))
    return f


def _no_scripts(page: str) -> None:
    # nothing fetched or run: the only source is the picture itself, as a data URL
    assert "<script" not in page and "<link" not in page
    assert page.count("src=") == page.count('src="data:image/svg+xml;base64,'), page[:300]


def test_graph_bundle(traced):
    graph = traced.concrete_functions[0].graph
    bundle = graph._repr_mimebundle_()
    assert bundle["text/plain"] == f"<tf.Graph {graph.name!r}: {len(graph.operations)} operations>"
    page = bundle["text/html"]
    _no_scripts(page)
    assert escape(bundle["text/plain"]) in page and 'class="tfg-legend"' in page
    if viz.dot_available():
        # an image (shows in a notebook not yet trusted), holding the SVG with its titles
        assert '<div class="tfg-graph"><img ' in page and "<svg" not in page
        data = page.split("data:image/svg+xml;base64,", 1)[1].split('"', 1)[0]
        assert "<title>layer/Relu</title>" in base64.b64decode(data).decode("utf-8")
        inline = GraphPicture(graph, image=False).html()  # inline SVG when asked
        assert '<div class="tfg-graph"><svg' in inline and "<title>layer/Relu</title>" in inline


def test_concrete_function_bundle(traced):
    cf = traced.concrete_functions[0]
    bundle = cf._repr_mimebundle_()
    assert bundle["text/plain"] == str(cf)
    assert bundle["text/plain"].startswith("ConcreteFunction Input Parameters:")
    assert escape(cf.pretty_printed_signature()) in bundle["text/html"]
    _no_scripts(bundle["text/html"])


def test_function_bundle_lists_traces_reasons_and_calls(traced):
    bundle = traced._repr_mimebundle_()
    lines = bundle["text/plain"].splitlines()
    assert lines[0] == "tf.function f: traced 2 times"
    assert lines[1] == "  #1 " + traced.concrete_functions[0].pretty_printed_signature(False)
    assert lines[2].startswith("  #2 (x: TensorSpec(shape=(1, 1)")  # as TF prints it
    page = bundle["text/html"]
    _no_scripts(page)
    rows = re.findall(r"<tr><td>(\d+)</td><td><code>(.*?)</code></td><td>(.*?)</td>"
                      r"<td>(\d+)</td></tr>", page)
    assert [(i, calls) for i, _, _, calls in rows] == [("1", "3"), ("2", "1")]
    reasons = [e.reason for e in traced.events.traces]
    assert [r for _, _, r, _ in rows] == [escape(r) for r in reasons]
    # the table's signatures are the short form a learner reads at a glance (TF's own form
    # stays in text/plain above)
    assert [sig for _, sig, _, _ in rows] == ["x: float32[2] → float32[2]",
                                              "x: float32[1, 1] → float32[1, 1]"]


def test_the_function_table_is_in_the_learners_language(traced):
    page = function_table(traced, "zh-Hant")
    for words in ("追蹤了 2 次", "輸入簽章", "追蹤原因", "處理的呼叫次數", "第一次呼叫",
                  "參數 x：形狀 (1, 1) 之前沒出現過"):
        assert words in page, words
    for english in ("traced 2 times", "why it was traced", "calls served", "first call"):
        assert english not in page, english
    assert "追踪了 2 次" in function_table(traced, "zh-Hans")


def test_an_untraced_function_displays_and_cannot_be_drawn():
    f = tf.function(lambda x: x)
    bundle = f._repr_mimebundle_()
    assert bundle["text/plain"] == "tf.function <lambda>: traced 0 times"
    assert "<table" not in bundle["text/html"]
    with pytest.raises(ValueError, match="has not been traced yet"):
        viz.show_graph(f)


def test_plain_text_is_deterministic(traced):
    for obj in (traced, traced.concrete_functions[1], traced.concrete_functions[1].graph):
        text = obj._repr_mimebundle_(include={"text/plain"})["text/plain"]
        assert "0x" not in text and text == obj._repr_mimebundle_()["text/plain"]


def test_include_and_exclude_skip_the_drawing(traced, monkeypatch):
    def fail(dot):
        raise AssertionError("drawn although text/html was not asked for")

    monkeypatch.setattr(render, "to_svg", fail)
    cf = traced.concrete_functions[0]
    for obj in (traced, cf, cf.graph, viz.show_graph(cf)):
        assert list(obj._repr_mimebundle_(include={"text/plain"})) == ["text/plain"]
        assert list(obj._repr_mimebundle_(exclude={"text/html"})) == ["text/plain"]


def test_ipython_finds_the_displays(traced):
    formatters = pytest.importorskip("IPython.core.formatters")
    data, _ = formatters.DisplayFormatter().format(traced)
    assert data["text/plain"].startswith("tf.function f: traced 2 times")
    assert "<table" in data["text/html"]


def test_show_graph_targets(traced):
    latest = traced.concrete_functions[-1]
    picture = viz.show_graph(traced)
    assert picture.graph is latest.graph
    assert picture.dot == viz.graph_to_dot(latest.graph)
    assert viz.show_graph(latest.graph).dot == picture.dot
    assert repr(picture) == picture._repr_mimebundle_()["text/plain"]
    folded = viz.show_graph(traced, collapse={"layer"})
    assert "layer (3 ops)" in folded.dot and "1 part drawn collapsed" in folded.html()
    optimized = viz.show_graph(traced, optimized=True)
    assert optimized.graph is latest.optimized_graph
    assert "optimised from" in optimized._repr_mimebundle_()["text/plain"]
    with pytest.raises(ValueError, match="has no optimiser report"):
        viz.show_graph(latest.graph, optimized=True)
    with pytest.raises(TypeError, match="show_graph draws"):
        viz.show_graph("graph")
    if viz.dot_available():
        assert picture.svg().startswith("<svg")


def test_missing_dot_shows_the_hint_and_the_escaped_dot(traced, monkeypatch):
    import graphviz

    def missing(*args, **kwargs):
        raise graphviz.ExecutableNotFound(("dot",))

    monkeypatch.setattr(graphviz.Source, "pipe", missing)
    assert render.to_svg("digraph G { a }") is None
    cf = traced.concrete_functions[0]
    for page in (cf.graph._repr_mimebundle_()["text/html"],
                 cf._repr_mimebundle_()["text/html"],
                 viz.show_graph(traced)._repr_mimebundle_()["text/html"]):
        _no_scripts(page)
        assert escape(render.INSTALL_HINT) in page
        assert "sudo apt-get install graphviz" in page and "brew install graphviz" in page
        assert "<pre>digraph G {" in page and "&quot;layer/Relu&quot;" in page
        assert "<svg" not in page


def test_dot_available_follows_the_path(monkeypatch):
    monkeypatch.setattr(render.shutil, "which", lambda name: None)
    assert render.dot_available() is False
    monkeypatch.setattr(render.shutil, "which", lambda name: "/usr/bin/dot")
    assert render.dot_available() is True


@needs_dot
def test_dot_that_graphviz_rejects_shows_its_message():
    page = svg_or_dot_html('digraph G { "a" -> }')
    assert "Graphviz could not draw this graph" in page
    assert "<pre>digraph G { &quot;a&quot; -&gt; }</pre>" in page


def test_install_hint_text():
    assert render.INSTALL_HINT == (
        "Graphviz's `dot` program is not installed: install it with `sudo apt-get install "
        "graphviz` (Debian/Ubuntu), `brew install graphviz` (macOS) or `conda install "
        "graphviz`; showing the DOT text instead.")


def test_the_legend_names_the_kinds_drawn(traced):
    page = traced.concrete_functions[0].graph._repr_mimebundle_()["text/html"]
    legend = re.search(r'<div class="tfg-legend">(.*?)</div>', page).group(1)
    assert re.findall(r"tfg-key-(\w+)", legend) == ["input", "constant", "op"]
    v = tf.Variable(2.0)
    c = tf.constant([1.0])

    @tf.function
    def g(x):
        if x[0] > 0:  # the captured constant is only used in a branch
            x = x * v + c
        return x

    page = viz.show_graph(g.get_concrete_function(tf.constant([1.0]))).html()
    legend = re.search(r'<div class="tfg-legend">(.*?)</div>', page).group(1)
    assert {"captured", "variable", "control_flow", "state"} <= set(
        re.findall(r"tfg-key-(\w+)", legend))
