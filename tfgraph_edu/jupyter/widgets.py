"""The interactive widgets: graph viewer, trace explorer, timing comparison (layer 9).

Each is an anywidget whose front end is a plain ES module (and CSS) in the
top-level ``widgets/`` folder, shipped in the wheel as ``tfgraph_edu/_widgets``.
All state is in synced traits, so a saved notebook re-renders without the kernel.
"""

from __future__ import annotations

import weakref
from pathlib import Path

import anywidget
import traitlets

from ..function.concrete import ConcreteFunction
from ..function.polymorphic import Function
from ..runtime.interpreter import run_graph
from . import timing


def _widgets_dir() -> Path:
    here = Path(__file__).resolve().parents[1]
    shipped = here / "_widgets"
    return shipped if shipped.is_dir() else here.parent / "widgets"


_DIR = _widgets_dir()


def _short(value, limit: int = 60) -> str:
    import numpy as np
    try:
        text = np.array2string(np.asarray(value), threshold=8, edgeitems=2)
    except Exception:  # noqa: BLE001 - resources, lists: their repr
        text = repr(value)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def node_details(graph) -> dict:
    """Per node: what the details panel shows (all plain data, for the front end)."""
    out = {}
    for op in graph.operations:
        source = None
        if op.source is not None:
            import linecache
            filename, line, func = op.source
            source = {"file": filename, "line": line, "function": func,
                      "text": linecache.getline(filename, line).strip()}
        attrs = {}
        for k, v in sorted(op.attrs.items()):
            attrs[k] = _short(v) if k == "value" else str(getattr(v, "name", v))[:120]
        out[op.name] = {
            "type": op.type,
            "inputs": [{"name": t.name, "dtype": t.dtype.name, "shape": str(t.shape)}
                       for t in op.inputs],
            "outputs": [{"name": t.name, "dtype": t.dtype.name, "shape": str(t.shape)}
                        for t in op.outputs],
            "control_inputs": [c.name for c in op.control_inputs],
            "attrs": attrs,
            "source": source,
            "stateful": bool(op.opdef.stateful),
        }
    return out


class GraphViewer(anywidget.AnyWidget):
    """Pan, zoom, click a node for its details; collapse scopes; raw or optimised graph;
    switch concrete functions; step through a run with the interpreter."""

    _esm = _DIR / "graph_viewer.js"
    _css = _DIR / "graph_viewer.css"

    title = traitlets.Unicode("").tag(sync=True)
    functions = traitlets.List(traitlets.Unicode()).tag(sync=True)
    concrete_index = traitlets.Int(0).tag(sync=True)
    optimized = traitlets.Bool(False).tag(sync=True)
    collapsed = traitlets.List(traitlets.Unicode()).tag(sync=True)
    svg = traitlets.Unicode("").tag(sync=True)
    dot = traitlets.Unicode("").tag(sync=True)
    nodes = traitlets.Dict().tag(sync=True)
    node_ids = traitlets.Dict().tag(sync=True)
    cluster_ids = traitlets.Dict().tag(sync=True)
    selected = traitlets.Unicode("").tag(sync=True)
    report = traitlets.List(traitlets.Dict()).tag(sync=True)
    step = traitlets.Int(0).tag(sync=True)
    step_values = traitlets.Dict().tag(sync=True)
    step_order = traitlets.List(traitlets.Unicode()).tag(sync=True)

    def __init__(self, target, optimized: bool = False, **kwargs):
        super().__init__(**kwargs)
        if isinstance(target, Function):
            self._function = target
            self._concretes = list(target.concrete_functions)
            self.title = target.__name__
        elif isinstance(target, ConcreteFunction):
            self._function = None
            self._concretes = [target]
            self.title = target._python_name
        else:
            raise TypeError(f"GraphViewer shows a tf.function or a ConcreteFunction, got "
                            f"{type(target).__name__}")
        if not self._concretes:
            raise ValueError(f"{self.title} has not been traced yet: call it (or "
                             "get_concrete_function) first.")
        self.functions = [cf.pretty_printed_signature(False) for cf in self._concretes]
        self.concrete_index = len(self._concretes) - 1
        self.optimized = optimized
        self._collapse_set = False
        self._render()
        self.observe(lambda change: self._render(),
                     names=["concrete_index", "optimized", "collapsed"])
        self.on_msg(self._on_message)

    @property
    def concrete(self) -> ConcreteFunction:
        return self._concretes[self.concrete_index]

    @property
    def graph(self):
        cf = self.concrete
        return cf.optimized_graph if self.optimized else cf.graph

    def _render(self):
        from ..viz.dot import COLLAPSE_ABOVE, cluster_ids, graph_to_dot, node_ids, top_scopes
        from ..viz.render import to_svg
        cf = self.concrete
        highlight = None
        if self.optimized:
            report = cf.optimization_report
            highlight = {c.by or c.node: c.action for c in report.changes}
            self.report = [{"pass": p.name, "node": c.node, "action": c.action, "why": c.why,
                            "by": c.by or ""} for p in report.passes for c in p.changes]
        else:
            self.report = []
        graph = self.graph
        if not self._collapse_set and len(graph.operations) > COLLAPSE_ABOVE:
            self._collapse_set = True
            self.collapsed = sorted(top_scopes(graph))  # big graphs start collapsed
        dot = graph_to_dot(graph, highlight=highlight, collapse=set(self.collapsed))
        self.node_ids = node_ids(graph)
        self.cluster_ids = cluster_ids(graph)
        self.dot = dot
        self.svg = to_svg(dot) or ""
        self.nodes = node_details(self.graph)
        self.step, self.step_values, self.step_order = 0, {}, []

    def _on_message(self, widget, content, buffers):
        if not isinstance(content, dict):
            return
        if content.get("type") == "toggle_scope":
            scope = str(content.get("scope", ""))
            collapsed = list(self.collapsed)
            if scope in collapsed:
                collapsed.remove(scope)
            else:
                collapsed.append(scope)
            self.collapsed = collapsed
        elif content.get("type") == "step":
            self.run_steps()
            self.step = min(self.step + 1, len(self.step_order))

    def run_steps(self, *args):
        """Run the shown graph with the interpreter on the function's last call (or ``args``),
        recording every op's output values in order; the front end reveals them step by step."""
        if self.step_order:
            return
        cf = self.concrete
        if args:
            leaves = cf._bind(args, {})
        elif self._function is not None and self._function.last_call is not None:
            leaves = cf._bind(*self._function.last_call)
        else:
            raise ValueError("Call the function once (or pass arguments) to step through it.")
        graph = self.graph
        values, order = {}, []

        def hook(op, ins, outs):
            order.append(op.name)
            for t, v in zip(op.outputs, outs):
                values[t.name] = _short(v)
        feeds = list(leaves) + list(cf._capture_values)
        for t, v in zip(graph.inputs, feeds):  # the inputs are the first step
            order.append(t.op.name)
            values[t.name] = _short(v)
        run_graph(graph, graph.inputs, feeds, graph.outputs, hook=hook)
        self.step_values, self.step_order = values, order


class TraceExplorer(anywidget.AnyWidget):
    """The life of a tf.function: its calls and traces, each trace with its reason; it
    updates as the function is called in later cells."""

    _esm = _DIR / "trace_explorer.js"
    _css = _DIR / "trace_explorer.css"

    name = traitlets.Unicode("").tag(sync=True)
    events = traitlets.List(traitlets.Dict()).tag(sync=True)

    def __init__(self, function: Function, **kwargs):
        super().__init__(**kwargs)
        if not isinstance(function, Function):
            raise TypeError("TraceExplorer follows a tf.function.")
        self.name = function.__name__
        self.events = [_event_dict(e) for e in function.events]
        ref = weakref.ref(self)

        def observer(event):
            me = ref()
            if me is None:
                function.events.observers.remove(observer)
                return
            me.events = me.events + [_event_dict(event)]
        function.events.observers.append(observer)


def _event_dict(e) -> dict:
    if e.kind == "trace":
        return {"kind": "trace", "index": e.index, "reason": e.reason,
                "signature": e.signature, "ms": round(e.seconds * 1e3, 3)}
    return {"kind": "call", "index": e.index, "concrete": e.concrete_index or 0,
            "traced": bool(e.traced)}


class TimingChart(anywidget.AnyWidget):
    """Eager vs graph (optimised) vs graph as traced, for a tf.function's last call, as
    bars with numbers."""

    _esm = _DIR / "timing_chart.js"
    _css = _DIR / "timing_chart.css"

    name = traitlets.Unicode("").tag(sync=True)
    results = traitlets.List(traitlets.Dict()).tag(sync=True)

    def __init__(self, function: Function, number: int = 20, **kwargs):
        super().__init__(**kwargs)
        self.name = function.__name__
        pair = timing.compare(function, number, raw=True)
        if pair is None:
            raise ValueError(f"{self.name} has not been called yet: call it once first.")
        self.results = [{"label": t.label, "median": t.median, "fastest": t.fastest,
                         "slowest": t.slowest, "runs": len(t.runs)} for t in pair]
