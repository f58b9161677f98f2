"""The IPython side: %%trace on a real InteractiveShell, rich displays, widget state."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import tfgraph_edu as tf
from tfgraph_edu import viz


def _run_shell(cells: list[str], report: str) -> dict:
    script = textwrap.dedent(f'''
        import json
        from IPython.core.interactiveshell import InteractiveShell
        shell = InteractiveShell.instance()
        for cell in {cells!r}:
            r = shell.run_cell(cell)
            assert r.success, (cell, r.error_in_exec, r.error_before_exec)
        ns = shell.user_ns
        print("@@" + json.dumps(eval({report!r}, ns)))
    ''')
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         timeout=180)
    assert out.returncode == 0, out.stderr + out.stdout
    return json.loads(out.stdout.split("@@", 1)[1])



def _laid_out(viewer) -> None:
    """Wait for the layout a front-end message started on the viewer's worker thread (the
    kernel answers the message at once and stays free meanwhile)."""
    from tfgraph_edu.jupyter.widgets import _layouts
    _layouts().submit(lambda: None).result(timeout=120)
    assert not viewer.busy


def test_trace_magic_in_a_real_shell():
    cells = [
        "%load_ext tfgraph_edu",
        "import tfgraph_edu as tf",
        ("%%trace -n 3 -o result\n@tf.function\ndef f(x):\n    if x > 0:\n        return x * 2\n"
         "    return -x\nf(tf.constant(3))\nf(tf.constant(-3))"),
        "bundle = result._repr_mimebundle_()",
        "help_text = get_ipython().find_cell_magic('trace').__doc__",
        "%%trace -p concrete --lang zh-Hant -o zh\ng = tf.function(lambda x: x + 1)\ng(1)",
        "zh_html = zh._repr_mimebundle_()['text/html']",
        "%%trace -p graph,timing\nprint('no functions here')",
        "empty_text = _._repr_mimebundle_()['text/plain'] if _ is not None else ''",
    ]
    got = _run_shell(cells, '{"text": bundle["text/plain"], "html": bundle["text/html"], '
                            '"names": list(result.functions), "help": help_text, '
                            '"zh": zh_html, "timing": [len(t.runs) for t in '
                            'result.timings["f"]]}')
    assert got["names"] == ["f"]
    assert got["text"].startswith("f: 1 concrete function; eager ")
    assert got["timing"] == [3, 3]
    html = got["html"]
    for piece in ("Python source", "AutoGraph code", "Graph (optimised graph)",
                  "Concrete functions", "Eager vs graph", "def tf__f(x):", "first call",
                  "data:image/svg+xml;base64,"):  # the graph as an image (shows untrusted)
        assert piece in html, piece
    assert 'href="#tfg-' in html  # generated lines link to source lines
    assert "具體函式" in got["zh"] and "追蹤原因" in got["zh"]
    assert "--lang" in got["help"] and "--raw" in got["help"]


def test_trace_magic_bad_options_are_errors():
    script = textwrap.dedent('''
        from IPython.core.interactiveshell import InteractiveShell
        shell = InteractiveShell.instance()
        shell.run_cell("%load_ext tfgraph_edu")
        r = shell.run_cell("%%trace -p pictures\\nx = 1")
        print(type(r.error_in_exec).__name__, r.error_in_exec)
    ''')
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         timeout=120)
    assert "ValueError Unknown panel(s) pictures" in out.stdout


def test_rich_displays_are_deterministic_and_escaped():
    @tf.function
    def f(x):
        with tf.name_scope("a>script"):
            return tf.multiply(x, 2.0, name="b>bold")

    f(tf.constant(1.0))
    cf = f.concrete_functions[0]
    for op in cf.graph.operations:  # names TF refuses (as a crafted graph could hold them)
        op.name = op.name.replace("a>", '<script>alert("x")</script>').replace("b>", "<b>")
    for obj in (f, cf, cf.graph):
        bundle = obj._repr_mimebundle_()
        assert "0x" not in bundle["text/plain"]
        assert "<script>" not in bundle["text/html"] and "<b>bold" not in bundle["text/html"]
    # the picture is an image of the SVG (shown before the notebook is trusted): escaped there
    import base64
    import re
    page = cf._repr_mimebundle_()["text/html"]
    svgs = [base64.b64decode(d).decode("utf-8")
            for d in re.findall(r'src="data:image/svg\+xml;base64,([^"]*)"', page)]
    assert all("<script>" not in svg for svg in svgs)
    assert any("&lt;script&gt;" in svg for svg in svgs) or "&lt;script&gt;" in page
    assert f._repr_mimebundle_()["text/plain"].startswith("tf.function f: traced 1 time")


def test_missing_dot_shows_hint_and_dot_text(monkeypatch):
    from tfgraph_edu.viz import render
    monkeypatch.setattr(render, "to_svg", lambda dot, **kwargs: None)

    @tf.function
    def f(x):
        return x + 1

    f(tf.constant(1))
    html = viz.show_graph(f)._repr_mimebundle_()["text/html"]
    assert "sudo apt-get install graphviz" in html and "digraph G" in html


def test_graph_viewer_state_and_messages():
    from tfgraph_edu.jupyter.widgets import GraphViewer, TimingChart, TraceExplorer

    @tf.function
    def f(x):
        with tf.name_scope("layer"):
            y = tf.nn.relu(x * 2.0)
        return y + 0.0

    f(tf.constant([1.0, -1.0]))
    f(tf.constant([[1.0]]))
    viewer = GraphViewer(f)
    assert viewer.functions[0].startswith("(x: TensorSpec(shape=(2,)")  # as TF prints it
    assert viewer.concrete_index == 1 and "<svg" in viewer.svg
    relu = viewer.nodes["layer/Relu"]
    assert relu["type"] == "Relu" and relu["outputs"][0]["shape"] == "(1, 1)"
    assert relu["source"]["text"] == "y = tf.nn.relu(x * 2.0)"
    viewer.concrete_index = 0
    assert viewer.nodes["layer/Relu"]["outputs"][0]["shape"] == "(2,)"
    viewer._on_message(viewer, {"type": "toggle_scope", "scope": "layer"}, [])
    _laid_out(viewer)
    assert viewer.collapsed == ["layer"] and "layer (3 ops)" in viewer.dot
    viewer._on_message(viewer, {"type": "toggle_scope", "scope": "layer"}, [])
    _laid_out(viewer)
    assert viewer.collapsed == []
    viewer.optimized = True
    assert any(r["action"] == "removed" for r in viewer.report)
    viewer.optimized = False
    viewer.concrete_index = 1
    viewer._on_message(viewer, {"type": "step"}, [])
    # steps are real ops: the argument x (a placeholder) is not one
    assert viewer.step == 1 and "x" not in viewer.step_order
    relu_step = viewer.step_order.index("layer/Relu")
    assert viewer.step_outputs[relu_step]["layer/Relu:0"]["text"] == "[[2.]]"

    explorer = TraceExplorer(f)
    kinds = [e["kind"] for e in explorer.events]
    assert kinds.count("trace") == 2
    f(tf.constant([5.0, 6.0]))  # a later call: the explorer updates itself
    assert explorer.events[-1] == {"kind": "call", "index": 3, "concrete": 1, "traced": False}
    chart = TimingChart(f, number=3)
    assert [r["label"] for r in chart.results] == ["eager", "graph", "graph (raw)"]
    assert all(r["runs"] == 3 for r in chart.results)
    # the chart's timing runs (a warm-up and 3 runs, optimised and as traced) are not the
    # learner's calls
    assert explorer.timing_runs == 2 * (1 + 3) and explorer.events[-1]["index"] == 3
    assert len(f.events.calls) == 3 and f.events.timing_runs == 2 * (1 + 3)
    assert f.events.timing_calls == []  # made in a copy of the process: none logged here
    f(tf.constant([5.0, 6.0]))
    assert explorer.events[-1]["index"] == 4
    with pytest.raises(ValueError, match="has not been traced yet"):
        GraphViewer(tf.function(lambda x: x))


def test_large_graphs_start_collapsed():
    from tfgraph_edu.jupyter.widgets import GraphViewer

    @tf.function
    def big(x):
        with tf.name_scope("encoder"):
            for _ in range(60):
                x = x * 1.5 + 1.0
        with tf.name_scope("decoder"):
            for _ in range(60):
                x = x * 0.5 - 1.0
        return x

    big(tf.constant(1.0))
    viewer = GraphViewer(big)
    assert {"decoder", "encoder"} <= set(viewer.collapsed)
    assert "encoder (240 ops)" in viewer.dot
    assert "<svg" in viewer.svg
    np.testing.assert_array_less(0, len(viewer.nodes))
    # ops folded into a scope's box say which box they are drawn in
    assert viewer.folded["encoder/mul"] == "encoder"


def test_a_flat_10000_op_chain_is_drawn_as_one_repeat_box():
    def unrolled(x):
        for _ in range(2500):
            x = x * 1.0001 + 1.0
        return x

    graph = tf.function(unrolled, autograph=False).get_concrete_function(
        tf.constant(0.0)).graph
    assert len(graph.operations) > 10_000
    dot = viz.graph_to_dot(graph)  # big graphs start summarised
    assert dot.count("shape=folder") == 1
    assert '"[mul → add] × 2500" [label="[mul → add] × 2500\\n10,000 ops"' in dot
    assert "<svg" in viz.to_svg(dot)
    # opened: the first and last repetitions, the rest in a "… more" box
    expanded = viz.graph_to_dot(graph, collapse=set())
    assert '"mul_1" [label="mul_1"' in expanded and '"mul_2499" [label="mul_2499"' in expanded
    assert '"[mul → add] × 2500/more[5:2495]" [label="… 2,490 more' in expanded
    assert "<svg" in viz.to_svg(expanded)


def test_control_flow_bodies_are_clusters_that_collapse():
    from tfgraph_edu.jupyter.widgets import GraphViewer

    @tf.function
    def f(x):
        if tf.reduce_sum(x) > 0:
            x = x * 2.0
        return x

    f(tf.constant([1.0]))
    viewer = GraphViewer(f)
    assert 'subgraph "cluster_cond/then"' in viewer.dot
    assert viewer.cluster_ids["cluster_cond/then"] == "cond/then"
    viewer._on_message(viewer, {"type": "toggle_scope", "scope": "cond/then"}, [])
    _laid_out(viewer)
    assert 'subgraph "cluster_cond/then"' not in viewer.dot
    assert '"cond/then" [label="then: cond_true_' in viewer.dot and "<svg" in viewer.svg


def test_the_viewer_opens_a_5000_op_series_page_by_page():
    from tfgraph_edu.jupyter.widgets import GraphViewer

    @tf.function(autograph=False)
    def series(x):
        for _ in range(5000):
            x = x * 1.0001
        return x

    series(tf.constant(1.0))
    viewer = GraphViewer(series)
    name = "mul, mul_[1-4999]"
    assert name in viewer.collapsed
    viewer._on_message(viewer, {"type": "toggle_scope", "scope": name}, [])  # double-click
    _laid_out(viewer)
    more = f"{name}/more[5:4995]"
    assert "… 4,990 more" in viewer.dot and viewer.folded["mul_2000"] == more
    assert viewer.svg.count('class="node') < 30
    # double-clicking the "… more" box (its id is its SVG title) shows the next 50 ops
    viewer._on_message(viewer, {"type": "toggle_scope", "scope": more}, [])
    _laid_out(viewer)
    assert '"mul_54" [label="mul_54"' in viewer.dot and f"{name}/more[55:4995]" in viewer.dot


def test_trace_cells_name_their_source_in_n_line_k_as_other_cells():
    """An op made in a %%trace cell names its source as any cell's: ``In [n]`` with the
    cell's own number (IPython has counted the cell when the magic runs its body), and
    the line as the learner sees it, counted from the %%trace line."""
    script = textwrap.dedent("""
        import json
        from IPython.core.interactiveshell import InteractiveShell
        shell = InteractiveShell.instance()
        cells = [
            "%load_ext tfgraph_edu",
            "import tfgraph_edu as tf\\nfrom tfgraph_edu.jupyter.widgets import node_details",
            "%%trace -p concrete -n 1\\n@tf.function\\ndef f(x):\\n    y = x * 2.0\\n"
            "    return y + 1.0\\nf(tf.constant([1.0, 2.0]))",
            "@tf.function\\ndef g(x):\\n    return x * 3.0\\ng(tf.constant(1.0))",
        ]
        for cell in cells:  # as a kernel runs them: counted, In [1] .. In [4]
            assert shell.run_cell(cell, store_history=True).success, cell
        ns = shell.user_ns
        out = {k: ns["node_details"](ns[k].concrete_functions[0].graph)["mul"]["source"]
               for k in ("f", "g")}
        print("@@" + json.dumps(out))
    """)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         timeout=180)
    assert out.returncode == 0, out.stderr + out.stdout
    got = json.loads(out.stdout.split("@@", 1)[1])
    # f's cell is the third; its fourth line (counted from the %%trace line) makes the mul
    assert (got["f"]["file"], got["f"]["line"], got["f"]["text"]) == ("In [3]", 4,
                                                                      "y = x * 2.0")
    assert (got["g"]["file"], got["g"]["line"], got["g"]["text"]) == ("In [4]", 3,
                                                                      "return x * 3.0")


def test_an_unfold_asked_by_the_front_end_leaves_the_kernel_free(monkeypatch):
    """The message handler of a double-click returns while the layout still runs (held here
    until released): the kernel can run the learner's next cell meanwhile."""
    import threading

    from tfgraph_edu.jupyter.widgets import GraphViewer
    from tfgraph_edu.viz import stable

    @tf.function(autograph=False)
    def chain(x):
        for _ in range(300):
            x = x * 1.0001 + 1.0
        return x

    chain(tf.constant(0.0))
    viewer = GraphViewer(chain)
    release = threading.Event()
    real = stable.run_graphviz  # every layout of the viewer runs Graphviz through it

    def held(*args, **kwargs):
        assert release.wait(timeout=60)
        return real(*args, **kwargs)

    monkeypatch.setattr(stable, "run_graphviz", held)
    fold = viewer.collapsed[0]
    viewer._on_message(viewer, {"type": "toggle_scope", "scope": fold}, [])
    assert viewer.busy  # returned at once: the layout is still held
    release.set()
    _laid_out(viewer)
    assert fold not in viewer.collapsed
