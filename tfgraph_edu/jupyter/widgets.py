"""The interactive widgets: graph viewer, trace explorer, timing comparison (layer 9).

Each is an anywidget whose front end is a plain ES module (and CSS) in the
top-level ``widgets/`` folder, shipped in the wheel as ``tfgraph_edu/_widgets``.
All state is in synced traits, so a saved notebook re-renders without the kernel.
"""

from __future__ import annotations

import functools
import json
import threading
import weakref
from pathlib import Path

import anywidget
import traitlets

from .. import labels
from ..function import events as _events
from ..function import isolation
from ..function.concrete import ConcreteFunction
from ..function.polymorphic import Function
from . import panels, timing


def _widgets_dir() -> Path:
    here = Path(__file__).resolve().parents[1]
    shipped = here / "_widgets"
    return shipped if shipped.is_dir() else here.parent / "widgets"


_DIR = _widgets_dir()


def _short(value, limit: int = 60) -> str:
    import numpy as np
    try:
        a = np.asarray(value)
        # a scalar prints as itself (fast: a 10,000-op graph has thousands of constants)
        text = str(a[()]) if a.ndim == 0 else np.array2string(a, threshold=8, edgeitems=2)
    except Exception:  # noqa: BLE001 - resources, lists: their repr
        text = repr(value)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def node_details(graph, prefix: str = "", function: str = "", inside: str = "",
                 _shapes: dict | None = None) -> dict:
    """Per node id (``while/body/add`` inside bodies): what the details pane shows, for the
    ops of ``graph`` and of every branch and body its control flow runs (plain data).  Keys
    whose value would be empty (``control_inputs``, ``attrs``, ``source``, ``stateful``,
    ``inside``) are left out: a 10,000-op graph's map is sent to the browser whole."""
    import linecache

    from ..viz.dot import _bodies, _has_bodies, drawn_names
    from ..viz.ports import unused_constants
    shapes = {} if _shapes is None else _shapes  # str(shape), once per distinct shape

    def tensor(t):
        shape = t.shape
        text = shapes.get(shape)
        if text is None:
            text = shapes[shape] = str(shape)
        return {"name": t.name, "dtype": t.dtype.name, "shape": text}

    out = {}
    names = drawn_names(graph)
    for op in graph.operations:
        node = prefix + names[id(op)]
        info = {"name": op.name, "type": op.type,
                "inputs": [tensor(t) for t in op.inputs],
                "outputs": [tensor(t) for t in op.outputs],
                "function": function}
        if op.control_inputs:
            info["control_inputs"] = [c.name for c in op.control_inputs]
        if op.attrs:
            info["attrs"] = {k: _short(v) if k == "value" else str(getattr(v, "name", v))[:120]
                             for k, v in sorted(op.attrs.items())}
        if op.source is not None:
            filename, line, func = op.source
            info["source"] = {"file": _cell_name(filename), "line": line, "function": func,
                              "text": linecache.getline(filename, line).strip()}
        if op.opdef.stateful:
            info["stateful"] = True
        if inside:
            info["inside"] = inside
        if op.type in ("While", "StatelessWhile"):  # the nodes TF's While has and ours not:
            info["tf_note"] = "tf_while_folded"  # a label key, shown in the viewer's language
        out[node] = info
        if _has_bodies(op):
            bodies = _bodies(op)
            unused = [unused_constants(fn) for _, fn in bodies]
            if any(unused) and "tf_note" not in info:
                info["tf_note"] = "tf_unused_consts"
            for (label, fn), left_out in zip(bodies, unused):
                where = f"{inside} › " if inside else ""
                inner = node_details(fn.graph, f"{node}/{label}/", fn.name,
                                     f"{where}{op.name} ({op.type}) › {label}", shapes)
                if left_out:
                    inner_names = drawn_names(fn.graph)
                    for o in fn.graph.operations:
                        if id(o) in left_out:
                            inner[f"{node}/{label}/{inner_names[id(o)]}"]["tf_note"] = \
                                "tf_unused_const"
                out.update(inner)
    return out


def with_forward_links(nodes: dict, graph) -> dict:
    """``nodes`` with ``forward``: the node id of the forward op each gradient op
    differentiates (the viewer lights it while the gradient op is hovered)."""
    from ..viz.gradients import forward_ops
    for grad, fwd in forward_ops(graph).items():
        if grad in nodes and fwd in nodes:
            nodes[grad]["forward"] = fwd
    return nodes


def _is_opened(target) -> bool:
    from ..formats import OpenedGraph
    return isinstance(target, OpenedGraph)


@functools.lru_cache(maxsize=256)
def _cell_name(filename: str) -> str:
    """``In [3]`` for the file IPython compiled a notebook cell into (also the body of a
    ``%%trace`` cell, which IPython's compile cache registers under the cell's number);
    other files as they are."""
    try:
        from IPython import get_ipython
        shell = get_ipython()
        if shell is not None:
            named = shell.compile.format_code_name(filename)
            if named is not None and named[1].startswith("In["):
                return "In [" + named[1][3:]
            for n, text in enumerate(shell.user_ns.get("_ih", [])):
                if text and shell.compile.get_code_name(text, None, n) == filename:
                    return f"In [{n}]"
    except Exception:  # noqa: BLE001 - not in IPython, or another version: the file name
        pass
    return filename


_AS_TEXT = {"to_json": lambda value, widget: json.dumps(value),
            "from_json": lambda value, widget: json.loads(value) if isinstance(value, str)
            else value}


def legend(lang: str, kinds, changes) -> list:
    """The viewer's legend: one entry per node kind drawn and optimiser highlight shown."""
    from ..viz.dot import HIGHLIGHTS, KINDS
    out = [{"key": k, "text": labels.label(f"kind_{k}", lang), "fill": KINDS[k][1],
            "shape": KINDS[k][0], "border": "#555"} for k in KINDS if k in kinds]
    out.append({"key": "box", "text": labels.label("kind_box", lang), "fill": "#f0f0f0",
                "shape": "folder", "border": "#555"})
    out.append({"key": "control_edge", "text": labels.label("kind_control_edge", lang),
                "fill": "", "shape": "dashed", "border": "#999"})
    out += [{"key": k, "text": labels.label(f"change_{k}", lang), "fill": "#fff",
             "shape": "box", "border": HIGHLIGHTS[k][0]} for k in HIGHLIGHTS if k in changes]
    return out


@functools.lru_cache(maxsize=1)
def _layouts():
    """The one worker thread that lays out graphs for the viewers' front ends."""
    from concurrent.futures import ThreadPoolExecutor
    return ThreadPoolExecutor(max_workers=1, thread_name_prefix="tfgraph_edu-layout")


class GraphViewer(anywidget.AnyWidget):
    """Pan, zoom (around the cursor), fit, search (a regular expression, stepping through
    every match), click an op at any depth for its details; collapse scopes, series, branches
    and bodies in place; raw or optimised graph; switch concrete functions; step through a
    run - into the branch taken and through each loop iteration - with the values in the
    details pane; export SVG or PNG.  Every word in ``lang`` (en, zh-Hant, zh-Hans).

    A fold or unfold asked by the front end is laid out on a worker thread (``busy`` is true
    meanwhile), so the kernel runs the learner's cells while Graphviz works; ``toggle``
    called from Python lays out before it returns."""

    _esm = _DIR / "graph_viewer.js"
    _css = _DIR / "graph_viewer.css"

    title = traitlets.Unicode("").tag(sync=True)
    lang = traitlets.Unicode("en").tag(sync=True)
    words = traitlets.Dict().tag(sync=True)
    legend = traitlets.List(traitlets.Dict()).tag(sync=True)
    functions = traitlets.List(traitlets.Unicode()).tag(sync=True)
    concrete_index = traitlets.Int(0).tag(sync=True)
    optimized = traitlets.Bool(False).tag(sync=True)
    collapsed = traitlets.List(traitlets.Unicode()).tag(sync=True)
    svg = traitlets.Unicode("").tag(sync=True)
    dot = traitlets.Unicode("").tag(sync=True)
    # big maps travel as JSON text: ipywidgets walks nested dicts looking for binary buffers,
    # which took a second for the 10,000 entries of a 10,000-op graph
    nodes = traitlets.Dict().tag(sync=True, **_AS_TEXT)
    node_ids = traitlets.Dict().tag(sync=True, **_AS_TEXT)
    cluster_ids = traitlets.Dict().tag(sync=True, **_AS_TEXT)
    folded = traitlets.Dict().tag(sync=True, **_AS_TEXT)
    selected = traitlets.Unicode("").tag(sync=True)
    busy = traitlets.Bool(False).tag(sync=True)  # a layout asked by the front end is running
    report = traitlets.List(traitlets.Dict()).tag(sync=True)
    step = traitlets.Int(0).tag(sync=True)
    step_order = traitlets.List(traitlets.Unicode()).tag(sync=True)
    step_where = traitlets.List(traitlets.Unicode()).tag(sync=True)
    step_outputs = traitlets.List(traitlets.Dict()).tag(sync=True)

    def __init__(self, target, optimized: bool = False, lang: str | None = None, **kwargs):
        super().__init__(**kwargs)
        lang = lang or labels.default_language()
        self.words = labels.table(lang)
        self.lang = lang
        from ..formats.live import viewable
        target = viewable(target)  # a live TF object read as its GraphDef (formats/live.py)
        if _is_opened(target):  # a real graph file read by tfgraph_edu.viz.open_graph
            self._function = None
            self._concretes = list(target.concrete_functions)
            self.title = target.path
        elif isinstance(target, Function):
            self._function = target
            self._concretes = list(target.concrete_functions)
            self.title = target.__name__
        elif isinstance(target, ConcreteFunction):
            self._function = None
            self._concretes = [target]
            self.title = target._python_name
        else:
            raise TypeError(f"GraphViewer shows a tf.function, a ConcreteFunction or a graph "
                            "from tfgraph_edu.viz.open_graph (or real TF's), got "
                            f"{type(target).__name__}")
        if not self._concretes:
            raise ValueError(f"{self.title} has not been traced yet: call it (or "
                             "get_concrete_function) first.")
        self.functions = [cf.pretty_printed_signature(False) for cf in self._concretes]
        self.concrete_index = len(self._concretes) - 1
        self.optimized = optimized
        self._quiet = False
        from ..viz.stable import History
        self._history = History()  # the layouts shown, so a toggle keeps the rest in place
        self._lock = threading.Lock()
        self._render()
        self.observe(lambda change: self._render(), names=["concrete_index", "optimized"])
        self.observe(lambda change: self._quiet or self._draw(), names=["collapsed"])
        self.on_msg(self._on_message)

    @property
    def concrete(self) -> ConcreteFunction:
        return self._concretes[self.concrete_index]

    @property
    def graph(self):
        cf = self.concrete
        return cf.optimized_graph if self.optimized else cf.graph

    def _render(self):
        """A new graph (another concrete function, raw or optimised): everything anew."""
        from ..viz.dot import cluster_ids, default_collapse, highlight_from_report, kinds_in
        from ..viz.dot import node_ids as title_map
        cf = self.concrete
        graph = self.graph
        self._highlight = {}
        if self.optimized:
            report = cf.optimization_report
            self._highlight = highlight_from_report(report, graph)
            self.report = [{"pass": p.name, "node": c.node, "action": c.action, "why": c.why,
                            "by": c.by or ""} for p in report.passes for c in p.changes]
        else:
            self.report = []
        self.legend = legend(self.lang, kinds_in(graph), set(self._highlight.values()))
        self.node_ids = title_map(graph)
        self.cluster_ids = cluster_ids(graph)
        self.nodes = with_forward_links(node_details(graph, function=cf.name), graph)
        self.step, self.step_order, self.step_where, self.step_outputs = 0, [], [], []
        self.selected = ""
        self._history.clear()  # another graph: laid out anew
        self._quiet = True  # one drawing, below
        try:
            self.collapsed = sorted(default_collapse(graph))
        finally:
            self._quiet = False
        self._draw()

    def _draw(self):
        self.folded, self.dot, self.svg = self._drawing(set(self.collapsed))

    def _drawing(self, collapsed: set) -> tuple[dict, str, str]:
        """(folded map, DOT text, SVG) of the graph with ``collapsed`` folded.  A toggle is
        composed into the drawing shown (viz/stable.py: the rest stays in place, what changed
        is laid out alone and the rest makes room); folding back what was just opened gives
        the drawing before it back; anything else is laid out anew by Graphviz."""
        from ..viz import stable
        from ..viz.dot import graph_to_dot
        from ..viz.render import LAYOUT_LIMIT, dot_available, node_count, to_svg
        folded: dict = {}
        dot = graph_to_dot(self.graph, highlight=self._highlight, collapse=collapsed,
                           drawn=folded, lang=self.lang)
        with self._lock:
            history = self._history
            back = history.undo(collapsed)
            if back is not None and back.dot == dot:
                return folded, dot, back.svg
            if node_count(dot) > LAYOUT_LIMIT or not dot_available():
                history.clear()
                return folded, dot, to_svg(dot, lang=self.lang) or ""
            layout = None
            current = history.current()
            if current is not None:
                try:
                    done = stable.compose(current, dot)
                except RuntimeError:  # Graphviz refused the pinned drawing: lay out anew
                    done = None
                layout = done[0] if done is not None else None
            if layout is None:
                history.clear()
                layout = stable.lay_out(dot)
            history.push(collapsed, layout)
            return folded, dot, layout.svg if layout is not None else ""

    def _on_message(self, widget, content, buffers):
        if not isinstance(content, dict):
            return
        if content.get("type") == "toggle_scope":
            self._toggle_apart(str(content.get("scope", "")))
        elif content.get("type") == "step":
            self.run_steps()
            delta = int(content.get("by", 1))
            to = content.get("to")
            target = int(to) if to is not None else self.step + delta
            self.step = max(0, min(target, len(self.step_order)))

    def toggle(self, name: str) -> None:
        """Collapse ``name`` (a scope, series, block, body or control-flow op) or open it."""
        collapsed = list(self.collapsed)
        if name in collapsed:
            collapsed.remove(name)
        else:
            collapsed.append(name)
        self.collapsed = collapsed

    def _toggle_apart(self, name: str) -> None:
        """``toggle`` for the front end: the new layout is made on a worker thread, so this
        message handler returns at once and the kernel stays free for the learner's cells.
        Toggles asked while one is laid out are queued; only the last layout is shown."""
        self._quiet = True
        try:
            self.toggle(name)
        finally:
            self._quiet = False
        self._asked = getattr(self, "_asked", 0) + 1
        asked, collapsed = self._asked, set(self.collapsed)
        self.busy = True

        def layout():
            try:
                folded, dot, svg = self._drawing(collapsed)
            except Exception:  # noqa: BLE001 - shown as before: the synchronous path raises
                self.busy = asked != self._asked
                raise
            if asked == self._asked:  # a later toggle supersedes this layout
                self.folded, self.dot, self.svg = folded, dot, svg
                self.busy = False

        _layouts().submit(layout)

    def run_steps(self, *args):
        """Run the shown graph on the function's last call (or ``args``), recording every op
        (inside branches taken and loop iterations too) in order, with its output values; the
        front end reveals them step by step."""
        if self.step_order:
            return
        from .stepper import step_through
        cf = self.concrete
        if not isinstance(cf, ConcreteFunction):
            raise NotImplementedError(f"{cf.name!r} was read from a file or from TensorFlow: "
                                      "tfgraph_edu shows it, and cannot step through it.")
        if args:
            leaves = cf._bind(args, {})
        elif self._function is not None and self._function.last_call is not None:
            leaves = cf._bind(*self._function.last_call)
        else:
            raise ValueError("Call the function once (or pass arguments) to step through it.")
        graph = self.graph
        feeds = list(leaves) + list(cf._capture_values)

        def task(report):  # a run of the function: made apart, so nothing of it stays here
            _, steps = step_through(graph, graph.inputs, feeds, graph.outputs)
            return [[s.node for s in steps], [s.where for s in steps],
                    [s.outputs for s in steps]]

        order, where, outputs = isolation.run_apart(task, [graph])
        self.step_where, self.step_outputs, self.step_order = where, outputs, order


class TraceExplorer(anywidget.AnyWidget):
    """The life of a tf.function: its calls and traces, each trace with its reason; it
    updates as the function is called in later cells.  Timing runs of ``%%trace`` are not
    the learner's calls: they are only counted, greyed, in the header."""

    _esm = _DIR / "trace_explorer.js"
    _css = _DIR / "trace_explorer.css"

    name = traitlets.Unicode("").tag(sync=True)
    words = traitlets.Dict().tag(sync=True)
    events = traitlets.List(traitlets.Dict()).tag(sync=True)
    timing_runs = traitlets.Int(0).tag(sync=True)

    def __init__(self, function: Function, lang: str | None = None, **kwargs):
        super().__init__(**kwargs)
        lang = lang or labels.default_language()
        if not isinstance(function, Function):
            raise TypeError("TraceExplorer follows a tf.function.")
        self.name = function.__name__
        self.words = labels.table(lang)
        self._lang = lang
        self.events = [_event_dict(e, lang) for e in function.events
                       if not getattr(e, "timing", False)]
        self.timing_runs = function.events.timing_runs
        ref = weakref.ref(self)

        def observer(event):
            me = ref()
            if me is None:
                function.events.observers.remove(observer)
                return
            if not getattr(event, "timing", False):
                me.events = me.events + [_event_dict(event, me._lang)]
            # timing runs are counted once their block ends (no widget message per run:
            # that would be timed too)

        def timing_done():
            me = ref()
            if me is None:
                _events.AFTER_TIMING.remove(timing_done)
                return
            me.timing_runs = function.events.timing_runs
        function.events.observers.append(observer)
        _events.AFTER_TIMING.append(timing_done)


def _event_dict(e, lang: str = "en") -> dict:
    if e.kind == "trace":
        from ..viz.displays import signature_text
        signature = signature_text(e.concrete) if e.concrete is not None else e.signature
        return {"kind": "trace", "index": e.index, "reason": labels.reason(e.reason, lang),
                "signature": signature, "ms": round(e.seconds * 1e3, 3)}
    return {"kind": "call", "index": e.index, "concrete": e.concrete_index or 0,
            "traced": bool(e.traced)}


class TimingChart(anywidget.AnyWidget):
    """Eager vs graph (optimised) vs graph as traced, for a tf.function's last call, as
    bars with numbers, and an honest note when the difference is within the noise."""

    _esm = _DIR / "timing_chart.js"
    _css = _DIR / "timing_chart.css"

    name = traitlets.Unicode("").tag(sync=True)
    words = traitlets.Dict().tag(sync=True)
    results = traitlets.List(traitlets.Dict()).tag(sync=True)
    within_noise = traitlets.Bool(False).tag(sync=True)
    note = traitlets.Unicode("").tag(sync=True)  # what the timing did, or why it did not time

    def __init__(self, function: Function, number: int = 20, lang: str | None = None, **kwargs):
        super().__init__(**kwargs)
        lang = lang or labels.default_language()
        self.name = function.__name__
        self.words = labels.table(lang)
        found = timing.compare(function, number, raw=True)
        if found is None:
            raise ValueError(f"{self.name} has not been called yet: call it once first.")
        names = {"eager": "eager", "graph": "graph_run", "graph (raw)": "graph_raw"}
        results = []
        for t in found:
            row = {"label": t.label, "text": labels.label(names[t.label], lang),
                   "median": t.median, "fastest": t.fastest, "slowest": t.slowest,
                   "runs": len(t.runs), "verdict": ""}
            if t is not found[0]:  # a graph timing against eager: a speed-up or no clear
                # difference, never both
                ratio = found[0].median / t.median if t.median else float("inf")
                row["verdict"] = (
                    labels.label("within_noise", lang, ratio=f"{ratio:.2f}")
                    if timing.within_noise(found[0], t)
                    else f"{labels.label('speedup', lang)} {ratio:.2f}×")
            results.append(row)
        self.results = results
        self.within_noise = len(found) > 1 and timing.within_noise(found[0], found[1])
        self.note = panels.timing_note(found, lang)
