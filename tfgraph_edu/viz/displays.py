"""Rich displays for graphs, concrete functions and tf.functions (layer 8).

Attached to the classes here (plugin style: the lower layers never import
viz).  ``text/plain`` is deterministic - no memory addresses - so notebooks diff
cleanly; ``text/html`` shows the picture or the table, everything escaped.
"""

from __future__ import annotations

from ..function.concrete import ConcreteFunction
from ..function.polymorphic import Function
from ..graph.graph import Graph
from .dot import graph_to_dot
from .html import escape, svg_or_dot_html


def graph_text(graph) -> str:
    return f"<tf.Graph {graph.name!r}: {len(graph.operations)} operations>"


def _graph_bundle(self, include=None, exclude=None):
    html = (svg_or_dot_html(graph_to_dot(self)) +
            f"<p><code>{escape(graph_text(self))}</code></p>")
    return {"text/plain": graph_text(self), "text/html": html}


def _concrete_bundle(self, include=None, exclude=None):
    text = "ConcreteFunction " + self.pretty_printed_signature()
    html = (svg_or_dot_html(graph_to_dot(self.graph)) +
            f"<pre>{escape(text)}</pre>")
    return {"text/plain": text, "text/html": html}


def function_text(fn) -> str:
    n = fn.experimental_get_tracing_count()
    lines = [f"tf.function {fn.__name__}: traced {n} time{'s' if n != 1 else ''}"]
    for i, cf in enumerate(fn.concrete_functions, 1):
        lines.append(f"  #{i} {cf.pretty_printed_signature(False)}")
    return "\n".join(lines)


def function_table(fn) -> str:
    traces = {e.index: e for e in fn.events.traces}
    calls: dict[int, int] = {}
    for e in fn.events.calls:
        if e.concrete_index is not None:
            calls[e.concrete_index] = calls.get(e.concrete_index, 0) + 1
    rows = "".join(
        f"<tr><td>{i}</td><td><code>{escape(cf.pretty_printed_signature(False))}</code></td>"
        f"<td>{escape(traces[i].reason if i in traces else '')}</td><td>{calls.get(i, 0)}</td>"
        f"</tr>" for i, cf in enumerate(fn.concrete_functions, 1))
    return (f"<p><b>{escape(fn.__name__)}</b>: {len(fn.concrete_functions)} concrete "
            f"function(s)</p><table><tr><th>#</th><th>signature</th><th>why it was traced"
            f"</th><th>calls</th></tr>{rows}</table>")


def _function_bundle(self, include=None, exclude=None):
    return {"text/plain": function_text(self), "text/html": function_table(self)}


class GraphPicture:
    """What ``show_graph`` returns: a graph's picture as a rich display."""

    def __init__(self, graph, highlight=None, collapse=None):
        self.graph = graph
        self.dot = graph_to_dot(graph, highlight=highlight, collapse=collapse)

    def _repr_mimebundle_(self, include=None, exclude=None):
        return {"text/plain": graph_text(self.graph), "text/html": svg_or_dot_html(self.dot)}


def show_graph(target, optimized: bool = False, collapse=None) -> GraphPicture:
    """The picture of a Graph, a ConcreteFunction, or a tf.function's latest trace; with
    ``optimized=True`` the optimised graph, the optimiser's changes highlighted."""
    if isinstance(target, Function):
        if not target.concrete_functions:
            raise ValueError(f"{target.__name__} has not been traced yet: call it first.")
        target = target.concrete_functions[-1]
    if isinstance(target, ConcreteFunction):
        if optimized:
            report = target.optimization_report
            highlight = {c.by or c.node: c.action for c in report.changes}
            return GraphPicture(target.optimized_graph, highlight, collapse)
        return GraphPicture(target.graph, None, collapse)
    if isinstance(target, Graph):
        return GraphPicture(target, None, collapse)
    raise TypeError(f"show_graph draws a Graph, ConcreteFunction or tf.function, got "
                    f"{type(target).__name__}")


Graph._repr_mimebundle_ = _graph_bundle
ConcreteFunction._repr_mimebundle_ = _concrete_bundle
Function._repr_mimebundle_ = _function_bundle
