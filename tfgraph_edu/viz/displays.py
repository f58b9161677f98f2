"""Rich displays for graphs, concrete functions and tf.functions (layer 8).

Attached to the classes when this module is imported (plugin style: the lower layers never
import viz).  ``text/plain`` is deterministic - no memory addresses - so stored notebook outputs
compare cleanly; ``text/html`` shows the picture (or the table of a tf.function's traces) with
every piece of user text escaped.
"""

from __future__ import annotations

from .. import labels
from ..formats.model import OpenedGraph
from ..function.concrete import ConcreteFunction
from ..function.polymorphic import Function
from ..graph.graph import Graph
from .dot import COLLAPSE_ABOVE, default_collapse, graph_to_dot, highlight_from_report, kinds_in
from .html import STYLE, escape, legend_html, svg_image, svg_or_dot_html

__all__ = ["GraphPicture", "show_graph", "graph_text", "function_text", "function_table",
           "signature_parts", "signature_text"]


def _bundle(include, exclude, text: str, html) -> dict:
    """The mime bundle with the types asked for; ``html`` is called only if wanted."""
    def wanted(mime):
        return (not include or mime in include) and not (exclude and mime in exclude)
    out = {}
    if wanted("text/plain"):
        out["text/plain"] = text
    if wanted("text/html"):
        out["text/html"] = html()
    return out


def graph_text(graph) -> str:
    n = len(graph.operations)
    return f"<tf.Graph {graph.name!r}: {n} operation{'s' if n != 1 else ''}>"


class GraphPicture:
    """A graph's picture as a rich display: what :func:`show_graph` returns (and what a Graph
    or ConcreteFunction shows in a notebook).  ``dot`` is the DOT text; ``svg()`` draws it."""

    def __init__(self, graph, *, highlight=None, collapse=None, caption: str = "",
                 lang: str | None = None, optimised_from: tuple[int, int] | None = None,
                 image: bool = True, min_scale: float | None = None):
        self.graph = graph
        # drawn as an <img> (the default): shows in a notebook not trusted yet, as stored
        # outputs are when it is opened; image=False: inline SVG, with the nodes' tooltips.
        # min_scale: the image shrinks to its container's width, not below this share
        self.image = image
        self.min_scale = min_scale
        self.lang = lang or labels.default_language()
        self.optimised_from = optimised_from  # (traced ops, changes) of an optimised graph
        self.highlight = dict(highlight or {})
        self.collapse = default_collapse(graph) if collapse is None else set(collapse)
        self.caption = caption or graph_text(graph)
        self.dot = graph_to_dot(graph, highlight=self.highlight, collapse=self.collapse,
                                lang=self.lang)

    def svg(self) -> str | None:
        """The SVG text, or None without Graphviz's ``dot``."""
        from .render import to_svg
        return to_svg(self.dot, lang=self.lang)

    def _notes(self) -> str:
        lang = self.lang
        notes = []
        if self.optimised_from is not None:
            ops, n = self.optimised_from
            notes.append(labels.plural("optimised_from", n, lang, ops=ops))
        boxes = self.dot.count("shape=folder")
        if boxes:
            big = len(self.graph.operations) > COLLAPSE_ABOVE
            notes.append(labels.plural("collapsed", boxes, lang)
                         + (labels.label("collapsed_big", lang, limit=COLLAPSE_ABOVE)
                            if big else "") + labels.label("collapsed_hint", lang))
        n = len(self.highlight)
        if n:
            notes.append(labels.plural("outlined", n, lang))
        return " ".join(notes)

    def html(self) -> str:
        kinds = kinds_in(self.graph)
        notes = self._notes()
        code = graph_text(self.graph) if self.optimised_from is not None else self.caption
        return (self._picture() +
                legend_html(kinds, set(self.highlight.values()), lang=self.lang) +
                f'<div class="tfg-caption"><code>{escape(code)}</code>'
                + (f" {escape(notes)}" if notes else "") + "</div>")

    def _picture(self) -> str:
        """The drawing: with ``image`` (the default) an ``<img>`` holding the SVG, which a
        notebook shows also before it is trusted (its sanitiser keeps images with data URLs
        but drops inline SVG, leaving the drawing's words as raw text; JupyterLab and
        Notebook 7 render an untrusted ``text/html`` sanitised rather than fall back to an
        ``image/png`` of the same bundle, so the picture has to be in the HTML); else inline
        SVG."""
        if self.image:
            svg = self.svg()
            if svg is not None:
                img = svg_image(svg, self.caption, self.min_scale)
                return f'{STYLE}<div class="tfg-graph">{img}</div>'
        return svg_or_dot_html(self.dot)

    def _repr_mimebundle_(self, include=None, exclude=None):
        return _bundle(include, exclude, self.caption, self.html)

    def __repr__(self):
        return self.caption


def show_graph(target, optimized: bool = False, *, collapse=None, highlight=None,
               lang: str | None = None, image: bool = True) -> GraphPicture:
    """The picture of a Graph, a ConcreteFunction or a tf.function (its latest trace), or of
    a graph file opened by :func:`~tfgraph_edu.viz.open_graph` (its last graph, the one the
    viewer opens on) or a live TensorFlow object.

    ``optimized=True`` draws the graph after the optimiser's passes, the nodes they changed
    outlined (a ConcreteFunction or tf.function only: a bare Graph has no optimiser report).
    ``collapse`` and ``highlight`` are passed on to :func:`~tfgraph_edu.viz.graph_to_dot`;
    ``lang`` (en, zh-Hant, zh-Hans; default: the learner's) is the language of the legend
    and notes; ``image=True`` (the default) draws the picture as an image, which a notebook
    shows before it is trusted (a stored output in a notebook just opened); ``image=False``
    draws it as inline SVG, with the nodes' tooltips, shown only once trusted.
    """
    from .real_graphs import graph_of
    read = graph_of(target)  # a file opened by open_graph, or a live TF object
    if read is not None:
        if optimized:
            raise ValueError("optimized=True needs a tfgraph_edu function: a graph read from "
                             "a file or from TensorFlow is shown as it was written.")
        return GraphPicture(read, highlight=highlight, collapse=collapse, lang=lang,
                            image=image)
    if isinstance(target, Function):
        if not target.concrete_functions:
            raise ValueError(f"{target.__name__} has not been traced yet: call it (or "
                             "get_concrete_function) first.")
        target = target.concrete_functions[-1]
    if isinstance(target, ConcreteFunction):
        if optimized:
            graph = target.optimized_graph
            marks = highlight_from_report(target.optimization_report, graph)
            marks.update(highlight or {})
            n = len(target.optimization_report.changes)
            caption = (f"{graph_text(graph)} optimised from {len(target.graph.operations)} "
                       f"traced operations ({n} change{'s' if n != 1 else ''})")
            return GraphPicture(graph, highlight=marks, collapse=collapse, caption=caption,
                                lang=lang, image=image,
                                optimised_from=(len(target.graph.operations), n))
        return GraphPicture(target.graph, highlight=highlight, collapse=collapse, lang=lang,
                            image=image)
    if isinstance(target, Graph):
        if optimized:
            raise ValueError("optimized=True needs a ConcreteFunction or a tf.function: a Graph "
                             "has no optimiser report. Pass the function instead.")
        return GraphPicture(target, highlight=highlight, collapse=collapse, lang=lang,
                            image=image)
    raise TypeError(f"show_graph draws a Graph, a ConcreteFunction or a tf.function, got "
                    f"{type(target).__name__}.")


# -- the rich displays attached to the classes -------------------------------------------------
def _graph_bundle(self, include=None, exclude=None):
    return _bundle(include, exclude, graph_text(self), lambda: GraphPicture(self).html())


def _concrete_bundle(self, include=None, exclude=None):
    text = "ConcreteFunction " + self.pretty_printed_signature()

    def html():
        picture = GraphPicture(self.graph)
        return picture.html() + f'<pre class="tfg-signature">{escape(text)}</pre>'
    return _bundle(include, exclude, text, html)


def function_text(fn) -> str:
    """A tf.function in words: its name, how often it traced, one line per concrete function."""
    n = fn.experimental_get_tracing_count()
    lines = [f"tf.function {fn.__name__}: traced {n} time{'s' if n != 1 else ''}"]
    for i, cf in enumerate(fn.concrete_functions, 1):
        lines.append(f"  #{i} {cf.pretty_printed_signature(False)}")
    return "\n".join(lines)


def function_table(fn, lang: str | None = None) -> str:
    """A tf.function's concrete functions as an HTML table: index, signature, why it was
    traced, and how many calls it served; its words in ``lang`` (default: the learner's)."""
    lang = lang or labels.default_language()
    reasons = {e.index: e.reason for e in fn.events.traces}
    calls: dict[int, int] = {}
    for e in fn.events.calls:
        if e.concrete_index is not None:
            calls[e.concrete_index] = calls.get(e.concrete_index, 0) + 1
    rows = "".join(
        f"<tr><td>{i}</td><td><code>{escape(signature_text(cf))}</code></td>"
        f"<td>{escape(labels.reason(reasons.get(i, ''), lang))}</td>"
        f"<td>{calls.get(i, 0)}</td></tr>"
        for i, cf in enumerate(fn.concrete_functions, 1))
    n = fn.experimental_get_tracing_count()
    head = (f'<p class="tfg-caption"><b>tf.function <code>{escape(fn.__name__)}</code></b>: '
            f"{escape(labels.plural('traced', n, lang))}</p>")
    if not rows:
        return STYLE + head
    cols = "".join(f"<th>{escape(labels.label(k, lang))}</th>"
                   for k in ("signature", "reason", "calls_served"))
    return (f'{STYLE}{head}<table class="tfg-table"><tr><th>#</th>{cols}</tr>{rows}</table>')


def _compact(value) -> str:
    """One argument or output in a few characters: ``float32[2]``, ``float32[?, 3]``,
    ``Variable(float32[2])``, ``[int32[], 2]``, ``0.1``."""
    from ..eager.variables import Variable
    from ..ops.convert import is_tensor
    from ..shapes import TensorSpec

    def dims(shape) -> str:
        if shape.rank is None:
            return "[…]"
        return "[" + ", ".join("?" if d is None else str(d) for d in shape.as_list()) + "]"
    if isinstance(value, Variable):
        return f"Variable({value.dtype.name}{dims(value.shape)})"
    if isinstance(value, TensorSpec) or is_tensor(value):
        return f"{value.dtype.name}{dims(value.shape)}"
    if isinstance(value, list):
        return "[" + ", ".join(_compact(v) for v in value) + "]"
    if isinstance(value, tuple):
        return "(" + ", ".join(_compact(v) for v in value) + ("," if len(value) == 1 else "") + ")"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k!r}: {_compact(v)}" for k, v in value.items()) + "}"
    if value is None or isinstance(value, (bool, int, float, str, bytes)):
        text = repr(value)
        return text if len(text) <= 40 else text[:39] + "…"
    return type(value).__name__


def signature_parts(cf) -> tuple[list[str], str]:
    """A concrete function's inputs (``["x: float32[2]", "lr: 0.1"]``) and output
    (``"float32[2]"``) as a learner reads them at a glance: a tensor as dtype[dims], ``?``
    for an unknown dim, a Python value as itself.  TensorFlow's own form stays in
    ``pretty_printed_signature``."""
    return ([f"{name}: {_compact(value)}" for name, _, value in cf._params],
            _compact(cf.structured_outputs))


def signature_text(cf) -> str:
    """``x: float32[2], lr: 0.1 → float32[2]`` (see :func:`signature_parts`)."""
    args, out = signature_parts(cf)
    return f"{', '.join(args)} → {out}"


def _function_bundle(self, include=None, exclude=None):
    return _bundle(include, exclude, function_text(self), lambda: function_table(self))


def opened_text(opened) -> str:
    """A file read by open_graph in words: its format and path, one line per graph."""
    lines = [f"{opened.format} {opened.path}"]
    lines += [f"  #{i} {fn.pretty_printed_signature(False)}"
              for i, fn in enumerate(opened.functions, 1)]
    return "\n".join(lines)


def _opened_bundle(self, include=None, exclude=None):
    text = opened_text(self)
    return _bundle(include, exclude, text, lambda: GraphPicture(self.graph).html()
                   + f'<pre class="tfg-signature">{escape(text)}</pre>')


Graph._repr_mimebundle_ = _graph_bundle
ConcreteFunction._repr_mimebundle_ = _concrete_bundle
Function._repr_mimebundle_ = _function_bundle
OpenedGraph._repr_mimebundle_ = _opened_bundle  # a real TF or ONNX file (viz.open_graph)
