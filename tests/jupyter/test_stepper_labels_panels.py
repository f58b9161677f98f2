"""Step mode into branches and loop iterations; the three-language table; %%trace's panels;
timing runs kept out of the learner's counts."""

from __future__ import annotations

import re

import numpy as np
import pytest

import tfgraph_edu as tf
from tfgraph_edu import labels
from tfgraph_edu.function.events import timing_runs
from tfgraph_edu.jupyter import panels, timing
from tfgraph_edu.jupyter.stepper import step_through, summary
from tfgraph_edu.jupyter.widgets import GraphViewer, TraceExplorer


@tf.function
def loop_and_branch(x):
    for i in tf.range(3):
        if x[0] > 2.0:
            x = x - 1.0
        else:
            x = x + tf.cast(i, tf.float32)
    return x


def _plain(x):  # the same program in plain Python, for the expected values
    seen = []
    for i in range(3):
        if x[0] > 2.0:
            x = x - 1.0
            seen.append(("then", x.copy()))
        else:
            x = x + float(i)
            seen.append(("else", x.copy()))
    return x, seen


def _iteration(where: str, loop: str) -> int | None:
    """The iteration a step ran in ("while: 2 (x = [2. 6.])" -> 2), None outside the loop."""
    m = re.fullmatch(rf"{re.escape(loop)}: (\d+)(?: \((.*)\))?", where)
    return None if m is None else int(m.group(1))


def test_steps_walk_into_the_branch_taken_on_each_loop_iteration():
    x0 = np.array([1.0, 5.0], np.float32)
    cf = loop_and_branch.get_concrete_function(tf.constant(x0))
    graph = cf.graph
    values, steps = step_through(graph, graph.inputs, [x0], graph.outputs)
    expected, seen = _plain(x0.copy())
    np.testing.assert_allclose(values[0], expected)
    loop = next(op for op in graph.operations if "While" in op.type)
    body = loop.get_attr("body")
    inner = next(op for op in body.graph.operations if "If" in op.type)
    node = inner.name.removeprefix(f"{loop.name}/")  # "while/cond", drawn in the body as "cond"
    # per iteration, the branch the plain program took, and only that one
    # iterations are counted from 0, as the loop variable i counts them
    before = [x0] + [x for _, x in seen]
    for i, (branch, after) in enumerate(seen):
        here = [s for s in steps if _iteration(s.where, loop.name) == i]
        # the loop variables' values as the iteration starts: x as the plain program had it
        shown = re.fullmatch(rf"{loop.name}: {i} \(x = \[(.*)\]\)", here[0].where)
        np.testing.assert_allclose(np.array(shown.group(1).split(), float), before[i])
        prefix = f"{loop.name}/body/{node}/"
        # (the If's results come out through its Identity nodes, cond/Identity, as in TF)
        taken = {s.node[len(prefix):].split("/")[0] for s in here if s.node.startswith(prefix)
                 and not s.node[len(prefix):].startswith("Identity")}
        assert taken == {branch}, (i, taken)
        # the If's output at this iteration is the value the plain program had
        out = next(s for s in here if s.node == f"{loop.name}/body/{node}")
        text = out.outputs[f"{inner.name}:0"]["text"]
        np.testing.assert_allclose(np.array(re.findall(r"-?\d+\.?\d*", text), float), after)
    # a fourth test of the condition ends the loop; the loop op comes after its iterations
    assert [_iteration(s.where, loop.name) for s in steps
            if s.node == f"{loop.name}/cond/Less"] == [0, 1, 2, 3]
    order = [s.node for s in steps]
    assert order.index(loop.name) > max(i for i, s in enumerate(steps) if s.where)


def test_the_viewer_steps_to_an_op_inside_the_loop_body_on_a_later_iteration():
    loop_and_branch(tf.constant([1.0, 5.0]))
    viewer = GraphViewer(loop_and_branch)
    loop = next(n for n, d in viewer.nodes.items() if "While" in d["type"])
    viewer._on_message(viewer, {"type": "step", "to": 10_000}, [])
    assert viewer.step == len(viewer.step_order)
    later = [i for i, (n, w) in enumerate(zip(viewer.step_order, viewer.step_where))
             if n.startswith(f"{loop}/body/") and _iteration(w, loop) == 2]
    assert later
    node = viewer.step_order[later[0]]
    # every stepped node has its details, at any depth, with its concrete function
    info = viewer.nodes[node]
    assert info["function"].startswith("while_body") and "body" in info["inside"]
    viewer._on_message(viewer, {"type": "step", "to": later[0] + 1}, [])
    assert viewer.step == later[0] + 1


def test_summaries_show_small_tensors_in_full_and_big_ones_by_their_numbers():
    assert summary(np.array([1.5, 2.0]))["text"] == "[1.5 2. ]"
    big = np.arange(1000, dtype=np.float32).reshape(10, 100)
    s = summary(big)
    assert s["shape"] == [10, 100] and s["min"] == 0 and s["max"] == 999
    assert s["mean"] == pytest.approx(499.5) and "..." in s["text"]
    assert len(s["heat"]) == 10 and len(s["heat"][0]) == 16
    assert s["heat"][0][0] == 0 and s["heat"][-1][-1] == 1


def test_every_label_exists_in_three_languages_and_chinese_rows_are_translated():
    en = labels.table("en")
    for lang in ("zh-Hant", "zh-Hans"):
        table = labels.table(lang)
        assert set(table) == set(en)
        for key, text in table.items():
            assert set(re.findall(r"\{(\w+)\}", text)) == set(re.findall(r"\{(\w+)\}", en[key]))
            if re.search(r"[a-z]{4,}", en[key]) and key not in ("export_svg", "export_png"):
                assert re.search(r"[\u4e00-\u9fff]", text), (lang, key, text)
    # glossary terms
    assert "計算圖" in labels.label("graph", "zh-Hant") and "计算图" in labels.label("graph",
                                                                                    "zh-Hans")
    assert "具體函式" in labels.label("in_function", "zh-Hant")
    assert "具体函数" in labels.label("in_function", "zh-Hans")
    with pytest.raises(ValueError, match="Unknown language"):
        labels.label("graph", "fr")


def test_trace_reasons_are_translated_part_by_part():
    assert labels.reason("first call", "zh-Hant") == "第一次呼叫"
    text = "argument x: shape (3,) was not seen before; Python argument n changed from 1 to 2"
    assert labels.reason(text, "zh-Hans") == ("参数 x：形状 (3,) 之前没出现过；"
                                              "Python 参数 n 从 1 变为 2")
    assert labels.reason(text, "en") == text
    assert labels.reason("something new", "zh-Hant") == "something new"
    last = ("argument x: int32 tensor of shape () was not seen before "
            "(last call: float32 tensor of shape ())")
    assert labels.reason(last, "zh-Hant") == (
        "參數 x：int32 張量，形狀 () 之前沒出現過（上次呼叫：float32 張量，形狀 ()）")
    assert labels.key("float32 tensor of shape (2,)", "zh-Hans") == "float32 张量，形状 (2,)"


def test_timing_runs_are_not_the_learners_calls():
    f = tf.function(lambda x: x * 2.0)
    f(tf.constant(1.0))
    explorer = TraceExplorer(f)
    with timing_runs():
        for _ in range(5):
            f(tf.constant(1.0))
    f(tf.constant(2.0))
    assert [e.index for e in f.events.calls] == [1, 2]
    assert len(f.events.timing_calls) == 5 and all(e.timing for e in f.events.timing_calls)
    assert explorer.timing_runs == 5
    assert [e["index"] for e in explorer.events if e["kind"] == "call"] == [1, 2]


def test_trace_panels_put_the_graph_first_across_the_width_in_the_cells_language():
    @tf.function
    def g(x):
        if x > 0:
            return x * 2.0
        return -x

    g(tf.constant(1.0))
    timings = timing.compare(g, 3)
    assert len(g.events.calls) == 1  # the timing runs are not counted
    html = panels.function_panels(g, "g", "zh-Hant", panels=list(("source", "code", "graph",
                                                                  "concrete", "timing")),
                                  optimized=True, timings=timings)
    first = html.index('class="tfg-panel')
    assert html[first:].startswith('class="tfg-panel tfg-wide"><h4>計算圖')
    for words in ("Python 原始碼", "具體函式", "第一次呼叫", "float32 張量，形狀 ()",
                  "計時 3 次", "中位數", "最快 … 最慢", "產生的每一行前面的數字",
                  "%graph_viewer g", "計時用的執行不算在呼叫次數內"):
        assert words in html, words
    assert "runs each" not in html and "why it was traced" not in html
    assert ".tfg-trace th,.tfg-trace h4{white-space:nowrap" in panels.CSS


def test_one_slow_outlier_does_not_make_a_clear_speed_up_look_like_noise():
    from tfgraph_edu.jupyter.timing import Timing, within_noise
    eager = Timing("eager", [126e-6, 140e-6, 154e-6, 160e-6, 1.28e-3])
    graph = Timing("graph", [49.6e-6, 52e-6, 56.8e-6, 58e-6, 59.9e-6])
    assert not within_noise(eager, graph)
    assert within_noise(Timing("a", [1.0, 1.1, 1.2, 1.3]), Timing("b", [1.05, 1.1, 1.25, 1.3]))


def test_the_explorer_counts_timing_runs_once_their_block_ends():
    import tfgraph_edu as tf
    from tfgraph_edu.function.events import timing_runs
    from tfgraph_edu.jupyter.widgets import TraceExplorer

    @tf.function
    def f(x):
        return x + 1

    f(tf.constant(1))
    explorer = TraceExplorer(f)
    seen = []
    explorer.observe(lambda change: seen.append(change["new"]), names="timing_runs")
    with timing_runs():
        for _ in range(5):
            f(tf.constant(1))
        assert explorer.timing_runs == 0  # no widget message per run being timed
    assert explorer.timing_runs == 5 and seen == [5]


@pytest.mark.parametrize("lang", ["en", "zh-Hant", "zh-Hans"])
def test_the_timing_panel_shows_a_speed_up_or_no_clear_difference_never_both(lang):
    from tfgraph_edu.jupyter.timing import Timing, Timings
    speedup, no_clear = labels.label("speedup", lang), labels.label(
        "within_noise", lang, ratio="X").split("X")[0]
    overlapping = Timings([Timing("eager", [1e-3, 2e-3, 3e-3, 0.3]),
                           Timing("graph", [1e-3, 1.5e-3, 2e-3, 2.5e-3])], 10, "apart")
    apart = Timings([Timing("eager", [5e-3, 5.1e-3, 5.2e-3, 5.3e-3]),
                     Timing("graph", [1e-3, 1.1e-3, 1.2e-3, 1.3e-3])], 10, "apart")
    html = panels.timing_panel(overlapping, lang)
    assert no_clear in html and f"{speedup}:" not in html
    html = panels.timing_panel(apart, lang)
    assert f"{speedup}: 4.48×" in html and no_clear not in html


def test_steps_are_real_ops_not_placeholders_or_body_ports():
    x0 = np.array([1.0, 5.0], np.float32)
    graph = loop_and_branch.get_concrete_function(tf.constant(x0)).graph
    _, steps = step_through(graph, graph.inputs, [x0], graph.outputs)
    ops = {}

    def collect(g, prefix=""):
        from tfgraph_edu.viz.dot import _bodies, drawn_names
        names = drawn_names(g)
        for op in g.operations:
            ops[prefix + names[id(op)]] = op
            for label, fn in _bodies(op):
                for t in fn.outputs:  # a body's outputs: ports on its frame
                    ops[f"{prefix}{names[id(op)]}/{label}/{drawn_names(fn.graph)[id(t.op)]}"] \
                        = "port"
                collect(fn.graph, f"{prefix}{names[id(op)]}/{label}/")
    collect(graph)
    assert steps and all(ops[s.node] != "port" for s in steps)
    assert not any(ops[s.node].type == "Placeholder" for s in steps)


def test_the_trace_panels_graph_is_an_image_not_below_min_scale():
    """The %%trace panel's graph is an <img> of the SVG (a notebook not trusted yet keeps
    it; inline SVG would be dropped, its words left as raw text), at least MIN_SCALE of its
    natural width (the SVG's width in pt, 4/3 px each)."""
    import base64

    @tf.function
    def g(x):
        with tf.name_scope("layer"):
            return tf.nn.relu(x * 2.0)

    g(tf.constant([1.0, -1.0]))
    html = panels.graph_panel(g, "en", optimized=False, name="g", uid=7)
    assert "<svg" not in html and html.count("<img ") == 1
    data = re.search(r'src="data:image/svg\+xml;base64,([^"]+)"', html).group(1)
    svg = base64.b64decode(data).decode("utf-8")
    assert svg.startswith("<svg") and "<title>layer/Relu</title>" in svg
    pt = float(re.match(r'<svg width="([\d.]+)pt"', svg).group(1))
    least = int(re.search(r'<img alt="Graph \(traced graph\)" style="max-width:100%;height:auto;'
                          r'min-width:(\d+)px"', html).group(1))
    assert abs(least - pt * 4 / 3 * panels.MIN_SCALE) <= 0.5, (least, pt)
    # the "full size" switch lifts the width cap of that image
    assert ".tfg-full:checked~.tfg-graph img{max-width:none!important}" in panels.CSS
