"""The HTML panels %%trace shows for one tf.function (layer 9).

The graph picture across the whole width, at its natural size (text as large as the
panels' text; scroll for the rest), then source, AutoGraph code (each generated line
links to the source line it came from), the table of concrete functions and the timing
chart, side by side where space allows (CSS grid, no scripts).  Every word comes from
:mod:`labels` in the cell's language.  All user text escaped.
"""

from __future__ import annotations

import inspect
import itertools
import textwrap
from html import escape

from .. import labels
from ..autograph import conversion
from ..function import trace_key
from .timing import format_seconds, within_noise

_uid = itertools.count(1)

CSS = """<style>
.tfg-trace{display:grid;grid-template-columns:repeat(auto-fit,minmax(360px,1fr));gap:10px;
 font-family:system-ui,sans-serif;font-size:13px}
.tfg-panel{border:1px solid #d0d7de;border-radius:6px;padding:8px;overflow:auto;max-height:520px}
.tfg-panel h4{margin:0 0 6px 0;font-size:13px;color:#444}
.tfg-panel.tfg-wide{grid-column:1/-1;max-height:none}
.tfg-panel.tfg-wide .tfg-graph{max-height:75vh;overflow:auto}
.tfg-panel.tfg-wide .tfg-graph svg{max-width:none;height:auto}
.tfg-note{color:#666;font-size:12px;margin:4px 0}
.tfg-trace th,.tfg-trace h4{white-space:nowrap;word-break:keep-all}
.tfg-trace table.tfg-table td,.tfg-trace table.tfg-table th{text-align:left;
 word-break:keep-all;overflow-wrap:normal}
.tfg-trace table.tfg-timing-table td{white-space:nowrap}
.tfg-code,.tfg-trace pre.tfg-code{font-family:monospace;font-size:12px;white-space:pre;
 margin:0;overflow-wrap:normal}
.tfg-code a{color:inherit;text-decoration:none}
.tfg-code .ln{color:#999;display:inline-block;width:3em;border-right:1px solid #ddd;
 margin-right:6px}
.tfg-table{border-collapse:collapse;font-size:12px}
.tfg-table td,.tfg-table th{border:1px solid #ddd;padding:3px 6px;text-align:left;
 vertical-align:top}
.tfg-bar{height:14px;background:#4c8bf5;display:inline-block;vertical-align:middle}
.tfg-bar.eager{background:#f5a04c}
.tfg-fn{grid-column:1/-1;font-weight:600;font-size:14px;margin-top:6px}
</style>"""


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
    return _panel(labels.label("source", lang), '<pre class="tfg-code">' + "\n".join(rows)
                  + "</pre>")


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
    return _panel(labels.label("code", lang), note + '<pre class="tfg-code">'
                  + "\n".join(rows) + "</pre>")


def graph_panel(function, lang, optimized: bool, name: str = "") -> str:
    """The graph across the whole width, at natural size; the optimiser's changes outlined."""
    from ..viz.dot import graph_to_dot, highlight_from_report, kinds_in
    from ..viz.html import legend_html, svg_or_dot_html
    if not function.concrete_functions:
        return _panel(labels.label("graph", lang),
                      f"<p>{escape(labels.label('not_traced', lang))}</p>", wide=True)
    cf = function.concrete_functions[-1]
    graph = cf.optimized_graph if optimized else cf.graph
    marks = highlight_from_report(cf.optimization_report, graph) if optimized else {}
    which = labels.label("optimized" if optimized else "raw", lang)
    words = {k: labels.label(f"kind_{k}", lang) for k in
             ("input", "captured", "variable", "constant", "op", "state", "control_flow", "io")}
    words.update({k: labels.label(f"change_{k}", lang) for k in
                  ("removed", "added", "replaced", "folded", "hoisted")})
    hint = labels.label("viewer_hint", lang, name=name or function.__name__)
    return _panel(f"{labels.label('graph', lang)} ({which})",
                  svg_or_dot_html(graph_to_dot(graph, highlight=marks))
                  + legend_html(kinds_in(graph), set(marks.values()), words)
                  + f'<p class="tfg-note">{escape(hint)}</p>', wide=True)


def concrete_panel(function, lang) -> str:
    traces = {e.index: e for e in function.events.traces}
    calls: dict[int, int] = {}
    for e in function.events.calls:  # the learner's calls: timing runs are not counted
        if e.concrete_index is not None:
            calls[e.concrete_index] = calls.get(e.concrete_index, 0) + 1
    head = "".join(f"<th>{escape(labels.label(k, lang))}</th>"
                   for k in ("signature", "key", "reason", "calls"))
    rows = []
    for i, cf in enumerate(function.concrete_functions, 1):
        event = traces.get(i)
        key = ", ".join(labels.key(trace_key.describe(c), lang) for c in event.key) if event else ""
        rows.append(f"<tr><td>{i}</td><td><code>{escape(cf.pretty_printed_signature(False))}"
                    f"</code></td><td>{escape(key)}</td>"
                    f"<td>{escape(labels.reason(event.reason, lang) if event else '')}</td>"
                    f"<td>{calls.get(i, 0)}</td></tr>")
    table = (f'<table class="tfg-table"><tr><th>#</th>{head}</tr>{"".join(rows)}</table>')
    note = ""
    if function.events.timing_runs:
        note = f'<p class="tfg-note">{escape(labels.label("timing_note", lang))}</p>'
    return _panel(labels.label("concrete", lang), table + note)


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
        width = max(2, int(240 * t.median / longest))
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
    return _panel(title, body)


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
    out = [f'<div class="tfg-fn">{escape(name)}</div>']
    if "graph" in panels:  # first, across the whole width
        out.append(graph_panel(function, lang, optimized, name))
    for p in panels:
        if p == "source":
            out.append(source_panel(function, lang, uid))
        elif p == "code":
            out.append(code_panel(function, lang, uid))
        elif p == "concrete":
            out.append(concrete_panel(function, lang))
        elif p == "timing":
            out.append(timing_panel(timings, lang))
    return "".join(out)
