"""``%%trace``: run a cell and show what TensorFlow hides for each tf.function in it (layer 9).

Usage::

    %load_ext tfgraph_edu
    %%trace -n 50 --lang zh-Hant -o result
    @tf.function
    def f(x): ...
    f(tf.constant(1.0))

For each tf.function the cell defines or calls, a panel group shows the source,
the AutoGraph code, the graph (optimised unless ``--raw``), the concrete
functions with the reason for each trace, and eager-vs-graph timing.  With ``--tf``, the
cell runs a second time under real TensorFlow when it is installed (:mod:`.real_tf`, apart
from the learner's namespace), and TensorFlow's graph, concrete functions, timing and the
differences of the two graphs follow ours (:mod:`.tf_panels`); when it is not installed, one
sentence says so and how to install it.
"""

from __future__ import annotations

from html import escape

from IPython.core.magic import Magics, cell_magic, line_magic, magics_class
from IPython.core.magic_arguments import argument, magic_arguments, parse_argstring

from .. import labels
from ..function import isolation
from ..function.polymorphic import Function
from . import panels, tf_panels, timing

PANELS = ("source", "code", "graph", "concrete", "timing")


class TraceResult:
    """What %%trace found: per function, the panels (as HTML) and the timings."""

    def __init__(self, entries, lang, tf=None):
        self.entries = entries  # [(name, function, timings, html)]
        self.lang = lang
        self.tf = tf  # with --tf: real_tf.TFRun, or why TensorFlow is missing (str); else None

    @property
    def functions(self) -> dict:
        return {name: fn for name, fn, _, _ in self.entries}

    @property
    def timings(self) -> dict:
        return {name: t for name, _, t, _ in self.entries}

    def _text(self) -> str:
        lines = [] if not isinstance(self.tf, str) else [tf_panels.missing(self.tf, "en")]
        if not self.entries:
            return "\n".join(lines + [
                "%%trace: no tf.function was defined or called in this cell."])
        for name, fn, t, _ in self.entries:
            n = fn.experimental_get_tracing_count()
            line = f"{name}: {n} concrete function{'s' if n != 1 else ''}"
            if t is not None and t.declined is not None:
                kind, detail = t.declined
                why = labels.label(f"declined_{kind}", "en", detail=detail) if (
                    kind != "interrupted") else "interrupted"
                line += f"; not timed ({why})"
            elif t is not None:
                eager, graph = t[:2]
                line += (f"; eager {timing.format_seconds(eager.median)}, graph "
                         f"{timing.format_seconds(graph.median)} (median of "
                         f"{len(graph.runs)})")
            lines.append(line)
        if self.tf is not None and not isinstance(self.tf, str):
            lines.append(tf_panels.run_text(self.tf))
        return "\n".join(lines)

    def _repr_mimebundle_(self, include=None, exclude=None):
        missing = (tf_panels.missing_html(self.tf, self.lang) if isinstance(self.tf, str)
                   else "")
        after = tf_panels.run_html(self.tf, self.lang) if (
            self.tf is not None and not isinstance(self.tf, str)) else ""
        html = panels.CSS + '<div class="tfg-trace">' + missing + "".join(
            h for _, _, _, h in self.entries) + after + "</div>"
        if not self.entries:
            none = "%%trace: no tf.function was defined or called in this cell."
            html = missing + f"<p>{escape(none)}</p>"
        return {"text/plain": self._text(), "text/html": html}

    def __repr__(self):
        return self._text()


def _as_in_the_cell(line: str, cell: str) -> str:
    """The body of a ``%%trace`` cell with the magic's line kept as a comment, so that the
    lines IPython compiles it into (registered in its compile cache under the cell's
    number, as every cell) are numbered as the learner sees them: a source reference
    reads ``In [n], line k`` with ``k`` counted from the ``%%trace`` line."""
    if cell.lstrip().startswith("%%"):  # another cell magic must stay on the first line
        return cell
    return f"# %%trace {line}".rstrip() + "\n" + cell


def _functions(namespace) -> dict:
    return {name: value for name, value in list(namespace.items())
            if isinstance(value, Function) and not name.startswith("_")}


class _Progress:
    """A one-line progress display that rewrites itself while timing runs, in a notebook (a
    kernel with a front end); nothing in a terminal, whose output stays the cell's own."""

    def __init__(self, shell):
        self.handle = None
        self.shown = getattr(shell, "kernel", None) is not None

    def __call__(self, label, i, n):
        if not self.shown or (i != n and i % max(1, n // 10)):
            return
        from IPython.display import display
        text = f"timing {label}: {i}/{n}"
        if self.handle is None:
            self.handle = display({"text/plain": text}, raw=True, display_id=True)
        else:
            self.handle.update({"text/plain": text}, raw=True)

    def clear(self):
        if self.handle is not None:
            self.handle.update({"text/plain": ""}, raw=True)


@magics_class
class TraceMagics(Magics):
    @magic_arguments()
    @argument("-p", "--panels", default=",".join(PANELS),
              help="comma-separated panels to show: source, code, graph, concrete, timing")
    @argument("-n", "--number", type=int, default=20,
              help="timing runs for eager and for graph execution (after one warm-up each)")
    @argument("--raw", action="store_true",
              help="show the graph as traced instead of after the optimisation passes")
    @argument("-l", "--lang", default=None, choices=list(labels.LANGUAGES),
              help="language of the panel labels: en, zh-Hant or zh-Hans (default: the "
                   "notebook folder's, else en)")
    @argument("--tf", action="store_true",
              help="also run the cell under real TensorFlow, when it is installed, and show "
                   "its graph, concrete functions and timing beside ours, with the "
                   "differences of the two graphs")
    @argument("-o", "--output", default=None,
              help="store the TraceResult in this variable of the notebook")
    @cell_magic
    def trace(self, line, cell):
        """Run the cell, then show each tf.function it defined or called, opened up."""
        args = parse_argstring(self.trace, line)
        args.lang = args.lang or labels.default_language()
        chosen = [p.strip() for p in args.panels.split(",") if p.strip()]
        unknown = [p for p in chosen if p not in PANELS]
        if unknown:
            raise ValueError(f"Unknown panel(s) {', '.join(unknown)}: choose from "
                             f"{', '.join(PANELS)}")
        if args.number < 1:
            raise ValueError("-n/--number must be at least 1")
        ns = self.shell.user_ns
        before = {name: (id(fn), len(fn.events)) for name, fn in _functions(ns).items()}
        body = _as_in_the_cell(line, cell)
        result = self._run_as_this_cell(body)
        if not result.success:
            return None
        entries = []
        progress = _Progress(self.shell)
        interrupted = False
        for name, fn in _functions(ns).items():
            seen = before.get(name)
            if seen is not None and seen == (id(fn), len(fn.events)):
                continue
            timings = None
            if "timing" in chosen and interrupted:
                timings = timing.Timings((), 0, isolation.mode(), ("interrupted", ""))
            elif "timing" in chosen:
                try:
                    timings = timing.compare(fn, args.number, progress)
                except isolation.Interrupted:  # the learner stopped the timing: say so
                    interrupted = True
                    timings = timing.Timings((), 0, isolation.mode(), ("interrupted", ""))
            html = panels.function_panels(fn, name, args.lang, chosen, not args.raw, timings)
            entries.append((name, fn, timings, html))
        progress.clear()
        tf_side = self._under_tf(body, entries, args) if args.tf else None
        out = TraceResult(entries, args.lang, tf_side)
        if args.output:
            ns[args.output] = out
        return out

    def _under_tf(self, body: str, entries: list, args):
        """``--tf``: the cell run again under real TensorFlow, its panels added to each entry's
        (``entries`` changed in place); the TFRun, or why TensorFlow is missing."""
        from . import real_tf
        tf, why = real_tf.real_tensorflow()
        if tf is None:
            return why
        if not entries:
            return None
        ours = {name: fn for name, fn, _, _ in entries}
        run = real_tf.run_cell(self.shell, body, self._this_cell(), list(ours), ours,
                               args.number, tf)
        for i, (name, fn, timings, html) in enumerate(entries):
            entries[i] = (name, fn, timings,
                          html + tf_panels.function_html(run, name, fn, timings, args.lang))
        return run

    def _this_cell(self) -> int:
        """This cell's number: the last one stored in the input history (IPython 9 has moved
        ``execution_count`` past it already, IPython 8 moves it after)."""
        shell = self.shell
        inputs = getattr(getattr(shell, "history_manager", None), "input_hist_raw", None)
        return max(1, len(inputs) - 1 if inputs else shell.execution_count - 1)

    def _run_as_this_cell(self, body: str):
        """Run ``body`` as this cell: a nested ``run_cell`` registers its code under
        ``execution_count``, which IPython 9 has already moved past this cell (IPython 8 moves
        it after); so it runs under this cell's own number - the last one stored in the
        input history, on either - and its source reads ``In [n]`` as every cell's does."""
        shell = self.shell
        count = shell.execution_count
        shell.execution_count = self._this_cell()
        try:
            return shell.run_cell(body, store_history=False)
        finally:
            shell.execution_count = count

    @line_magic
    def graph_viewer(self, line):
        """``%graph_viewer f [zh-Hant]``: the interactive graph viewer for tf.function ``f``,
        its words in the language given (en, zh-Hant or zh-Hans; default: the notebook
        folder's, else en)."""
        from .widgets import GraphViewer
        fn, lang = self._function(line)
        return GraphViewer(fn, lang=lang)

    @line_magic
    def trace_explorer(self, line):
        """``%trace_explorer f [zh-Hant]``: a live timeline of ``f``'s calls and traces."""
        from .widgets import TraceExplorer
        fn, lang = self._function(line)
        return TraceExplorer(fn, lang=lang)

    def _function(self, line):
        words = line.split()
        name = words[0] if words else ""
        lang = words[1] if len(words) > 1 else labels.default_language()
        if lang not in labels.LANGUAGES:
            raise ValueError(f"Unknown language {lang!r}: use one of "
                             f"{', '.join(labels.LANGUAGES)}")
        value = self.shell.user_ns.get(name)
        if not isinstance(value, Function):
            raise ValueError(f"{name!r} is not a tf.function in this notebook.")
        return value, lang


def load_ipython_extension(ip) -> None:
    ip.register_magics(TraceMagics)
