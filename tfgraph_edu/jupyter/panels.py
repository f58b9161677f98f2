"""The HTML panels %%trace shows for one tf.function (layer 9).

Each function gets a grid that fits the notebook's width: the graph picture across the
whole width (an ``<img>`` of the SVG, which a notebook shows before it is trusted), scaled
down to it when wider (a "full size" switch shows it at natural size,
scrolling; ``%graph_viewer`` opens the interactive viewer), then source and AutoGraph code
side by side (one column when the cell is narrower than ``ONE_COLUMN_BELOW`` pixels; code
scrolls sideways instead of wrapping or being clipped; each generated line links to the
source line it came from), then the table of concrete functions and the timing across the
width.  CSS only (a container query, a checkbox for the switch), no scripts.  Every word
comes from :mod:`labels` in the cell's language.  All user text escaped.
"""

from __future__ import annotations

import inspect
import itertools
import textwrap
from html import escape

from .. import labels
from ..autograph import conversion
from ..function import trace_key
from ..viz.displays import signature_parts
from .timing import format_seconds, within_noise

_uid = itertools.count(1)

ONE_COLUMN_BELOW = 900  # px of the cell's width: below it, one panel a row

CSS = """<style>
.tfg-trace{container-type:inline-size;font-family:system-ui,sans-serif;font-size:13px;
 max-width:100%;min-width:0}
.tfg-grid{display:grid;grid-template-columns:minmax(0,2fr) minmax(0,3fr);gap:10px;
 margin-bottom:14px}
@container (max-width:ONE_COLUMNpx){.tfg-grid{grid-template-columns:minmax(0,1fr)}}
.tfg-panel{border:1px solid #d0d7de;border-radius:6px;padding:8px;min-width:0;
 overflow:hidden}
.tfg-panel h4{margin:0 0 6px 0;font-size:13px;color:#444}
.tfg-panel.tfg-wide{grid-column:1/-1}
.tfg-scroll{overflow:auto;max-height:460px;max-width:100%}
.tfg-panel .tfg-graph{overflow:auto;max-height:75vh;max-width:100%}
.tfg-panel .tfg-graph img{max-width:100%;height:auto;display:block}
.tfg-full{position:absolute;opacity:0;pointer-events:none}
.tfg-full:checked~.tfg-graph img{max-width:none!important}
.tfg-graph-bar{display:flex;flex-wrap:wrap;gap:4px 14px;align-items:baseline;
 font-size:12px;color:#555;margin:4px 0}
.tfg-graph-bar label{cursor:pointer;color:#0550ae;text-decoration:underline}
.tfg-full:checked~.tfg-graph-bar label.tfg-full-label::before{content:"✓ "}
.tfg-graph-bar code{background:#f3f4f6;padding:1px 4px;border-radius:3px;
 user-select:all}
.tfg-note{color:#666;font-size:12px;margin:4px 0}
.tfg-trace th,.tfg-trace h4{white-space:nowrap;word-break:keep-all}
.tfg-trace table.tfg-table td,.tfg-trace table.tfg-table th{text-align:left;
 word-break:keep-all;overflow-wrap:normal}
.tfg-trace table.tfg-table td.tfg-reason{overflow-wrap:anywhere;word-break:normal}
.tfg-trace table.tfg-timing-table td{white-space:nowrap}
.tfg-trace table.tfg-table{table-layout:auto}
.tfg-trace table.tfg-concrete{width:100%}
.tfg-trace table.tfg-concrete td.tfg-sig{width:55%}
.tfg-trace table.tfg-concrete code{background:none;padding:0;font-size:12px}
.tfg-trace .tfg-arg{white-space:nowrap}
.tfg-trace td.tfg-n{white-space:nowrap;text-align:right}
.tfg-code,.tfg-trace pre.tfg-code{font-family:monospace;font-size:12px;white-space:pre;
 margin:0;overflow-wrap:normal;width:max-content;min-width:100%}
.tfg-code a{color:inherit;text-decoration:none}
.tfg-code .ln{color:#999;display:inline-block;width:3em;border-right:1px solid #ddd;
 margin-right:6px}
.tfg-table{border-collapse:collapse;font-size:12px}
.tfg-table td,.tfg-table th{border:1px solid #ddd;padding:3px 6px;text-align:left;
 vertical-align:top}
.tfg-bar{height:14px;background:#4c8bf5;display:inline-block;vertical-align:middle}
.tfg-bar.eager{background:#f5a04c}
.tfg-fn{font-weight:600;font-size:14px;margin:6px 0}
</style>""".replace("ONE_COLUMN", str(ONE_COLUMN_BELOW))


def source_panel(function, lang, uid) -> str:
    fn = function.python_function
    try:
        lines, start = inspect.getsourcelines(fn)
    except (OSError, TypeError):
        return _panel(labels.label("source", lang),
                      f"<p>{escape(labels.label('no_source', lang))}</p>")
    rows = []
    for i, text in enumerate(textwrap.dedent("".join(lines)).splitlines(), start):
        rows.append(f'<span id="tfg-{uid}-src-{i}"><span class="ln">{i}</span>'
                    f"{escape(text)}</span>")
    return _panel(labels.label("source", lang), '<div class="tfg-scroll"><pre class="tfg-code">'
                  + "\n".join(rows) + "</pre></div>")


def code_panel(function, lang, uid) -> str:
    try:
        entry = conversion.converted_entry(conversion._unwrap(function))
    except Exception as exc:  # noqa: BLE001 - shown, not raised
        return _panel(labels.label("code", lang), f"<p>{escape(str(exc))}</p>")
    rows = []
    for i, text in enumerate(entry.code.splitlines(), 1):
        user = entry.code_lines.get(i)
        body = escape(text)
        if user is not None:
            body = (f'<a href="#tfg-{uid}-src-{user}" title="source line {user}">'
                    f'<span class="ln">{user}</span>{body}</a>')
        rows.append(body)
    note = f'<p class="tfg-note">{escape(labels.label("code_gutter", lang))}</p>'
    return _panel(labels.label("code", lang), note + '<div class="tfg-scroll">'
                  '<pre class="tfg-code">' + "\n".join(rows) + "</pre></div>")


def graph_panel(function, lang, optimized: bool, name: str = "", uid: int = 0) -> str:
    """The graph across the whole width, scaled down to it when wider (a switch shows it at
    natural size), the optimiser's changes outlined; how to open the viewer."""
    from ..viz.dot import graph_to_dot, highlight_from_report, kinds_in
    from ..viz.html import legend_html, svg_or_dot_html
    if not function.concrete_functions:
        return _panel(labels.label("graph", lang),
                      f"<p>{escape(labels.label('not_traced', lang))}</p>", wide=True)
    cf = function.concrete_functions[-1]
    graph = cf.optimized_graph if optimized else cf.graph
    marks = highlight_from_report(cf.optimization_report, graph) if optimized else {}
    which = labels.label("optimized" if optimized else "raw", lang)
    box = f"tfg-{uid}-full"
    magic = f"%graph_viewer {name or function.__name__}"
    bar = (f'<div class="tfg-graph-bar"><label class="tfg-full-label" for="{box}">'
           f'{escape(labels.label("full_size", lang))}</label>'
           f'<span>{escape(labels.label("open_viewer", lang))}: <code>{escape(magic)}</code>'
           "</span></div>")
    viewer_button_after_cell(function, name or function.__name__, lang)
    return _panel(f"{labels.label('graph', lang)} ({which})",
                  f'<input type="checkbox" class="tfg-full" id="{box}">' + bar
                  + svg_or_dot_html(graph_to_dot(graph, highlight=marks, lang=lang),
                                    image=f"{labels.label('graph', lang)} ({which})",
                                    min_scale=MIN_SCALE)
                  + legend_html(kinds_in(graph), set(marks.values()), lang=lang), wide=True)


def viewer_button_after_cell(function, name: str, lang: str) -> None:
    """In a kernel: once this cell's output is shown, a button under it that opens the
    graph viewer on ``function`` in place (a static panel cannot run code; the panel's chip
    names the ``%graph_viewer`` magic for a notebook opened without a kernel)."""
    try:
        from IPython import get_ipython
    except ImportError:
        return
    shell = get_ipython()
    if shell is None or getattr(shell, "kernel", None) is None:
        return

    def show(*args):
        shell.events.unregister("post_run_cell", show)
        from IPython.display import display
        display(viewer_button(function, name, lang))

    shell.events.register("post_run_cell", show)


def viewer_button(function, name: str, lang: str):
    """A button "open in the viewer: name" that puts a GraphViewer of ``function`` in its
    place; its plain-text form names the magic."""
    import ipywidgets

    text = f"{labels.label('open_viewer', lang)}: {name}"
    button = ipywidgets.Button(description=text, icon="project-diagram",
                               layout=ipywidgets.Layout(width="auto"))
    button.add_class("tfg-open-viewer")
    out = ipywidgets.Output()

    def opened(_):
        from .widgets import GraphViewer
        button.layout.display = "none"
        with out:
            from IPython.display import display
            display(GraphViewer(function, lang=lang))

    button.on_click(opened)
    box = ipywidgets.VBox([button, out])
    box._repr_mimebundle_ = lambda include=None, exclude=None, _box=box: {
        **ipywidgets.VBox._repr_mimebundle_(_box, include=include, exclude=exclude),
        "text/plain": f"{text} (%graph_viewer {name})"}
    return box


MIN_SCALE = 0.7  # the static graph shrinks to the cell's width, but not below this


def concrete_panel(function, lang) -> str:
    """One row per concrete function: its inputs and output (``x: float32[2] →
    float32[2]``, wrapping between arguments only), why it was traced, how many of the
    learner's calls it served; the trace key in the row's tooltip."""
    traces = {e.index: e for e in function.events.traces}
    calls: dict[int, int] = {}
    for e in function.events.calls:  # the learner's calls: timing runs are not counted
        if e.concrete_index is not None:
            calls[e.concrete_index] = calls.get(e.concrete_index, 0) + 1
    head = "".join(f"<th>{escape(labels.label(k, lang))}</th>"
                   for k in ("signature", "reason", "calls"))
    rows = []
    for i, cf in enumerate(function.concrete_functions, 1):
        event = traces.get(i)
        key = ", ".join(labels.key(trace_key.describe(c), lang) for c in event.key) if event else ""
        args, out = signature_parts(cf)
        sig = ", ".join(f'<span class="tfg-arg">{escape(a)}</span>' for a in args)
        sig += f' <span class="tfg-arg">→ {escape(out)}</span>'
        rows.append(f'<tr title="{escape(labels.label("key", lang))}: {escape(key)}">'
                    f'<td class="tfg-n">{i}</td><td class="tfg-sig"><code>{sig}</code></td>'
                    f'<td class="tfg-reason">'
                    f"{escape(labels.reason(event.reason, lang) if event else '')}</td>"
                    f'<td class="tfg-n">{calls.get(i, 0)}</td></tr>')
    table = (f'<table class="tfg-table tfg-concrete"><tr><th>#</th>{head}</tr>'
             f'{"".join(rows)}</table>')
    note = ""
    if function.events.timing_runs:
        note = f'<p class="tfg-note">{escape(labels.label("timing_note", lang))}</p>'
    return _panel(labels.label("concrete", lang), table + note, wide=True)


def timing_panel(timings, lang) -> str:
    """One bar per timing (eager, graph, ...), then either the speed-up of the last over the
    first or, when their runs overlap, that there is no clear difference (never both); and
    what the timing did: how many extra calls, made where, or why it did not time."""
    title = labels.label("timing", lang)
    if timings is None:
        return _panel(title, f"<p>{escape(labels.label('no_calls', lang))}</p>")
    if timings.declined is not None:
        return _panel(title, f"<p>{escape(timing_note(timings, lang))}</p>")
    longest = max(t.median for t in timings) or 1.0
    names = {"eager": "eager", "graph": "graph_run", "graph (raw)": "graph_raw"}
    rows = []
    for t in timings:
        width = max(2, int(160 * t.median / longest))
        cls = "eager" if t.label == "eager" else "graph"
        name = labels.label(names[t.label], lang) if t.label in names else t.label
        rows.append(f'<tr><td>{escape(name)}</td><td><span class="tfg-bar {cls}" '
                    f'style="width:{width}px"></span> {format_seconds(t.median)}</td>'
                    f"<td>{format_seconds(t.fastest)} … {format_seconds(t.slowest)}</td></tr>")
    eager, graph = timings[0], timings[1]
    ratio = eager.median / graph.median if graph.median else float("inf")
    body = (f'<table class="tfg-table tfg-timing-table"><tr><th></th>'
            f'<th>{escape(labels.label("median", lang))}'
            f'</th><th>{escape(labels.label("min_max", lang))}</th></tr>{"".join(rows)}</table>')
    if within_noise(eager, graph):
        body += f"<p>{escape(labels.label('within_noise', lang, ratio=f'{ratio:.2f}'))}</p>"
    else:
        runs = labels.label("runs_each", lang, n=len(graph.runs))
        body += f"<p>{escape(labels.label('speedup', lang))}: {ratio:.2f}× ({escape(runs)})</p>"
    body += f'<p class="tfg-note">{escape(timing_note(timings, lang))}</p>'
    return _panel(title, body, wide=True)


def timing_note(timings, lang) -> str:
    """What a timing did: how many extra calls, made where; or why it did not time."""
    if timings.declined is not None:
        kind, detail = timings.declined
        if kind == "interrupted":
            return labels.label("timing_interrupted", lang)
        reason = labels.label(f"declined_{kind}", lang, detail=detail)
        return labels.label("timing_declined", lang, reason=reason)
    done = "timing_apart" if timings.isolation == "apart" else "timing_inplace"
    return labels.label(done, lang, n=timings.extra_runs, runs=len(timings[-1].runs))


def _panel(title: str, body: str, wide: bool = False) -> str:
    cls = "tfg-panel tfg-wide" if wide else "tfg-panel"
    return f'<div class="{cls}"><h4>{escape(title)}</h4>{body}</div>'


def function_panels(function, name, lang, panels, optimized, timings) -> str:
    uid = next(_uid)
    out = []
    if "graph" in panels:  # first, across the whole width
        out.append(graph_panel(function, lang, optimized, name, uid))
    for p in panels:
        if p == "source":
            out.append(source_panel(function, lang, uid))
        elif p == "code":
            out.append(code_panel(function, lang, uid))
        elif p == "concrete":
            out.append(concrete_panel(function, lang))
        elif p == "timing":
            out.append(timing_panel(timings, lang))
    return f'<div class="tfg-fn">{escape(name)}</div><div class="tfg-grid">{"".join(out)}</div>'
