"""Every panel, table, legend and reason in the learner's language: a function traced four
times for four different reasons, every %%trace panel, the tf.function table, show_graph
(traced and optimised), the ConcreteFunction display, the trace explorer's events and the
viewer's legend rendered in zh-Hant and zh-Hans hold no English word outside code (the
drawing, code blocks, ``<code>``), identifiers, API names, dtypes and units."""

from __future__ import annotations

import html
import re

import pytest

import tfgraph_edu as tf
from tfgraph_edu import labels
from tfgraph_edu.jupyter import panels
from tfgraph_edu.jupyter.timing import Timing, Timings
from tfgraph_edu.jupyter.widgets import TraceExplorer, legend
from tfgraph_edu.viz import dot
from tfgraph_edu.viz.displays import function_table, show_graph

# words that are names, not English prose: the function's own names, API and op names,
# dtypes, units, file formats
ALLOWED = {
    "train_step", "x", "w", "lr", "extra", "tf.function", "tf.Variable", "Python",
    "AutoGraph", "ConcreteFunction",
    "TensorFlow", "Variable", "Variables", "If", "While", "Placeholder", "Const",
    "StringFormat", "PrintV2", "graph_viewer", "collapse", "set", "list", "tuple", "dict",
    "None", "id", "ms", "s", "SVG", "PNG", "vs", "float32", "int32", "tmp", "out.txt",
    "Eager", "Execution", "Graph",  # the glossary's (Eager Execution), (Graph Execution)
}


@pytest.fixture(scope="module")
def retraced():
    @tf.function
    def train_step(x, w, lr=0.1, extra=None):
        with tf.name_scope("layer"):
            y = tf.matmul(x, w) * 2.0
        for i in tf.range(3):
            y = y + tf.cast(i, tf.float32) * lr
        return y

    w = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
    train_step(tf.constant([[1.0, 2.0]]), w)                     # first call
    train_step(tf.constant([[1.0, 2.0], [3.0, 4.0]]), w)         # a new shape
    train_step(tf.constant([[1.0, 2.0]]), w, lr=0.05)            # a Python value changed
    train_step(tf.constant([[1.0, 2.0]]), w, 0.05, [tf.constant(1.0), 2])  # list vs None
    assert train_step.experimental_get_tracing_count() == 4
    return train_step


def english_words(page: str) -> list[str]:
    """The words of ``page`` (HTML or text) a learner reads as prose, that are English:
    tooltips included; style, the SVG drawing, code blocks and ``<code>`` left out."""
    page = re.sub(r"(?s)<style.*?</style>|<svg.*?</svg>|<pre.*?</pre>|<code.*?</code>", " ",
                  page)
    titles = " ".join(re.findall(r'title="([^"]*)"', page))
    text = html.unescape(re.sub(r"<[^>]+>", " ", page) + " " + titles)
    words = re.findall(r"[A-Za-z_][\w.]*\w|[A-Za-z]", text)
    return [w for w in words if w not in ALLOWED]


def _timings():
    return [Timings([Timing("eager", [5e-3, 5.1e-3, 5.2e-3]),
                     Timing("graph", [1e-3, 1.1e-3, 1.2e-3])], 8, "apart"),
            Timings([Timing("eager", [1e-3, 2e-3, 0.3]),
                     Timing("graph", [1e-3, 1.5e-3, 2e-3])], 8, "in place"),
            Timings((), 0, "apart", ("interrupted", "")),
            Timings((), 0, "apart", ("file", "/tmp/out.txt")),
            None]


@pytest.mark.parametrize("lang", ["zh-Hant", "zh-Hans"])
def test_every_panel_table_and_legend_speaks_the_learners_language(retraced, lang,
                                                                   monkeypatch):
    monkeypatch.setenv("TFGRAPH_EDU_LANG", lang)
    pages = {
        "panels": panels.function_panels(retraced, "train_step", lang,
                                          ["source", "code", "graph", "concrete"], True,
                                          None),
        "raw graph": panels.graph_panel(retraced, lang, False, "train_step"),
        "function table": function_table(retraced, lang),
        "show_graph": show_graph(retraced).html(),
        "show_graph optimised": show_graph(retraced, optimized=True).html(),
        "show_graph folded": show_graph(retraced, collapse={"layer"}).html(),
        "concrete function": retraced.concrete_functions[-1]._repr_mimebundle_()["text/html"],
        "explorer": " ; ".join(e.get("reason", "") for e in
                               TraceExplorer(retraced, lang=lang).events),
        "viewer legend": " ; ".join(f'{k["text"]}' for k in
                                    legend(lang, set(dot.KINDS), set(dot.HIGHLIGHTS))),
    }
    for i, t in enumerate(_timings()):
        pages[f"timing {i}"] = panels.timing_panel(t, lang)
    assert "shape=folder" in show_graph(retraced, collapse={"layer"}).dot  # the note is shown
    # the explorer shows signatures as the panels do
    events = TraceExplorer(retraced, lang=lang).events
    assert [e["signature"] for e in events if e["kind"] == "trace"][:2] == [
        "x: float32[1, 2], w: Variable(float32[2, 2]), lr: 0.1, extra: None → float32[1, 2]",
        "x: float32[2, 2], w: Variable(float32[2, 2]), lr: 0.1, extra: None → float32[2, 2]"]
    # the four reasons are there, translated
    reasons = labels.reason("first call", lang)
    assert reasons in pages["function table"] and reasons in pages["panels"]
    for name, page in pages.items():
        assert english_words(page) == [], (name, english_words(page))
    # and the check sees English where there is some
    assert "traced" in english_words(function_table(retraced, "en"))
    assert "argument" in english_words(panels.concrete_panel(retraced, "en"))


def test_the_graph_panels_drawing_speaks_the_panels_language(retraced, monkeypatch):
    """The %%trace graph panel draws its own words (a variable argument's "variable
    (argument)") in the panel's language, also when the kernel's default is another."""
    import base64
    monkeypatch.setenv("TFGRAPH_EDU_LANG", "en")
    page = panels.graph_panel(retraced, "zh-Hant", False, "train_step")
    data = re.search(r'src="data:image/svg\+xml;base64,([^"]+)"', page)
    if data is None:
        pytest.skip("Graphviz's dot is not installed: the panel shows DOT text")
    svg = base64.b64decode(data.group(1)).decode()
    assert "變數（引數）" in svg and "variable (argument)" not in svg
