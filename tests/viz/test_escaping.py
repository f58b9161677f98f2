"""No name can break out of the DOT text, the SVG or the HTML: hostile scope names, op names,
variable names and string constants are escaped everywhere."""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as ET

import pytest

import tfgraph_edu as tf
from tfgraph_edu import viz
from tfgraph_edu.viz import dot as vdot

from .helpers import has_node, rename_parts

needs_dot = pytest.mark.skipif(not viz.dot_available(), reason="Graphviz's dot is not installed")

SCRIPT = "<script>alert(1)</script>"
HOSTILE = [
    SCRIPT,
    'q"uote',
    'back\\slash\\',  # ends with a backslash: must not escape the closing quote
    '\\"',
    "new\nline",
    "tab\tand\x01control\x00",
    "&lt;b&gt;entity",
    "-- comment -->",
    "\\N \\G \\l",  # Graphviz's label escapes must show as typed
    "]; evil [shape=star",
]


@pytest.fixture(scope="module")
def hostile():
    v = tf.Variable(1.0, name=f'{SCRIPT}"v\\')

    @tf.function
    def f(x):
        for i in range(len(HOSTILE)):
            with tf.name_scope(f"Hx{i}x"):
                x = tf.multiply(x, 2.0, name=f"Ox{i}x")
        if x > 0:
            with tf.name_scope("Sx"):
                x = x * v
        tf.print(tf.constant(f'he said "hi" {SCRIPT}\n\\'), x)
        return x

    cf = f.get_concrete_function(tf.constant(1.0))
    # TF's name rules refuse these names where a graph is built or loaded; a graph can still
    # hold them when a program renames its nodes, so they are put in afterwards
    renames = {f"Hx{i}x": f"{text}{i}" for i, text in enumerate(HOSTILE)}
    renames.update({f"Ox{i}x": f"{SCRIPT}{text}" for i, text in enumerate(HOSTILE)})
    renames["Sx"] = SCRIPT
    seen: set = set()
    for g in {id(g): g for g in (cf.graph, getattr(cf, "optimized_graph", cf.graph))}.values():
        rename_parts(g, renames, seen)
    return f, cf


def _no_raw_script(text: str) -> None:
    assert "<script" not in text.lower(), text[text.lower().find("<script") - 200:][:400]


def test_dot_text_quotes_every_name(hostile):
    _, cf = hostile
    dot = vdot.graph_to_dot(cf.graph)
    for op in cf.graph.operations:
        assert has_node(dot, op.name), op.name
    # every statement line is one well-formed statement: strings never end early
    string = r'"(?:[^"\\]|\\.)*"'
    statement = re.compile(rf"^\s*(?:{string} \[.*\];|{string} -> {string} \[.*\];|"
                           rf"subgraph {string} {{|}}|label={string};.*|\w.*|"
                           rf"{{ rank=same;(?: {string})+ }})$")
    for line in dot.splitlines():
        assert statement.match(line), line
    assert "\x00" not in dot and "\x01" not in dot and "\t" not in dot


def test_quote_escapes_backslashes_quotes_and_controls():
    assert vdot.quote('a"b') == '"a\\"b"'
    assert vdot.quote("end\\") == '"end\\\\"'
    assert vdot.quote("x\ny\x00") == '"x\\\\ny\\\\x00"'
    assert vdot.quote("\ud800") == '"\\\\ud800"'  # a lone surrogate cannot be encoded


@needs_dot
def test_graphviz_parses_it_and_the_svg_escapes_it(hostile):
    _, cf = hostile
    dot = vdot.graph_to_dot(cf.graph)
    svg = viz.to_svg(dot)
    _no_raw_script(svg)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in svg
    ET.fromstring(svg)  # well-formed XML: no control characters, nothing unbalanced
    # every op is a node whose SVG title maps back to the op's name
    ids = vdot.node_ids(cf.graph)
    titles = [html.unescape(t) for t in re.findall(
        r'<g id="node\d+" class="node[^"]*">\n<title>(.*?)</title>', svg, re.S)]
    names = {op.name for op in cf.graph.operations}
    assert names <= {ids.get(t, t) for t in titles}
    # labels show the names as typed: Graphviz's \N and entity-like text are not interpreted
    texts = [html.unescape(t) for t in re.findall(r"<text[^>]*>(.*?)</text>", svg)]
    assert any("\\N \\G \\l" in t for t in texts)
    assert any("&lt;b&gt;entity" in t for t in texts)
    assert any(t == "<script>alert(1)</script>\"v\\" for t in texts)  # the variable, by name


@needs_dot
def test_collapsed_and_highlighted_hostile_names_render(hostile):
    _, cf = hostile
    scopes = {n.split("/")[0] for n in vdot.node_ids(cf.graph).values() if "/" in n}
    dot = vdot.graph_to_dot(cf.graph, collapse=scopes | {"cond/then"},
                            highlight={op.name: "folded" for op in cf.graph.operations},
                            title=SCRIPT)
    svg = viz.to_svg(dot)
    _no_raw_script(svg)
    ET.fromstring(svg)


def test_html_of_every_display_escapes_names(hostile):
    f, cf = hostile
    import base64

    def pictures(page):  # the SVGs drawn as images (data URLs) in a page
        return [base64.b64decode(d).decode("utf-8")
                for d in re.findall(r'src="data:image/svg\+xml;base64,([^"]*)"', page)]

    for obj in (f, cf, cf.graph, viz.show_graph(f), viz.show_graph(cf, optimized=True),
                viz.show_graph(f, image=False)):
        bundle = obj._repr_mimebundle_()
        _no_raw_script(bundle["text/html"])
        for svg in pictures(bundle["text/html"]):
            _no_raw_script(svg)
        assert "0x" not in bundle["text/plain"]
    page = cf._repr_mimebundle_()["text/html"]
    assert any("&lt;script&gt;" in svg for svg in pictures(page)) if viz.dot_available() \
        else "&lt;script&gt;" in page
    assert "&lt;script&gt;" in viz.show_graph(cf, image=False)._repr_mimebundle_()["text/html"]


def test_html_without_graphviz_escapes_the_dot_text(hostile, monkeypatch):
    import graphviz

    def missing(*args, **kwargs):
        raise graphviz.ExecutableNotFound(("dot",))

    monkeypatch.setattr(graphviz.Source, "pipe", missing)
    _, cf = hostile
    page = cf.graph._repr_mimebundle_()["text/html"]
    _no_raw_script(page)
    assert "digraph G {" in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_a_lambda_is_named_safely():
    f = tf.function(lambda x: x + 1.0)
    f(tf.constant(1.0))
    assert "&lt;lambda&gt;" in f._repr_mimebundle_()["text/html"]
    _no_raw_script(f._repr_mimebundle_()["text/html"])
    assert "<lambda>" not in f._repr_mimebundle_()["text/html"]
    assert "<lambda>" not in f.concrete_functions[0]._repr_mimebundle_()["text/html"]
