"""The HTML panels %%trace shows for one tf.function (layer 9).

Source, AutoGraph code (each generated line links to the source line it came
from), the graph picture, the table of concrete functions and the timing chart,
side by side where space allows (CSS grid, no scripts).  All user text escaped.
"""

from __future__ import annotations

import inspect
import itertools
import textwrap
from html import escape

from ..autograph import conversion
from ..function import trace_key
from . import labels
from .timing import format_seconds

_uid = itertools.count(1)

CSS = """<style>
.tfg-trace{display:grid;grid-template-columns:repeat(auto-fit,minmax(360px,1fr));gap:10px;
 font-family:system-ui,sans-serif;font-size:13px}
.tfg-panel{border:1px solid #d0d7de;border-radius:6px;padding:8px;overflow:auto;max-height:520px}
.tfg-panel h4{margin:0 0 6px 0;font-size:13px;color:#444}
.tfg-code{font-family:monospace;font-size:12px;white-space:pre;margin:0}
.tfg-code a{color:inherit;text-decoration:none}
.tfg-code .ln{color:#999;display:inline-block;width:3em}
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
        return _panel(labels.label("source", lang), "<p>(source not available)</p>")
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
    return _panel(labels.label("code", lang), '<pre class="tfg-code">' + "\n".join(rows)
                  + "</pre>")


def graph_panel(function, lang, optimized: bool) -> str:
    from ..viz.dot import graph_to_dot
    from ..viz.html import svg_or_dot_html
    if not function.concrete_functions:
        return _panel(labels.label("graph", lang), "<p>(not traced yet)</p>")
    cf = function.concrete_functions[-1]
    graph = cf.optimized_graph if optimized else cf.graph
    which = labels.label("optimized" if optimized else "raw", lang)
    return _panel(f"{labels.label('graph', lang)} ({escape(which)})",
                  svg_or_dot_html(graph_to_dot(graph)))


def concrete_panel(function, lang) -> str:
    traces = {e.index: e for e in function.events.traces}
    calls: dict[int, int] = {}
    for e in function.events.calls:
        if e.concrete_index is not None:
            calls[e.concrete_index] = calls.get(e.concrete_index, 0) + 1
    head = "".join(f"<th>{escape(labels.label(k, lang))}</th>"
                   for k in ("signature", "key", "reason", "calls"))
    rows = []
    for i, cf in enumerate(function.concrete_functions, 1):
        event = traces.get(i)
        key = ", ".join(trace_key.describe(c) for c in event.key) if event else ""
        rows.append(f"<tr><td>{i}</td><td><code>{escape(cf.pretty_printed_signature(False))}"
                    f"</code></td><td>{escape(key)}</td>"
                    f"<td>{escape(event.reason if event else '')}</td>"
                    f"<td>{calls.get(i, 0)}</td></tr>")
    table = (f'<table class="tfg-table"><tr><th>#</th>{head}</tr>{"".join(rows)}</table>')
    return _panel(labels.label("concrete", lang), table)


def timing_panel(timings, lang) -> str:
    if timings is None:
        return _panel(labels.label("timing", lang), f"<p>{escape(labels.label('no_calls', lang))}"
                      "</p>")
    eager, graph = timings
    longest = max(eager.median, graph.median)
    rows = []
    for t, cls in ((eager, "eager"), (graph, "graph")):
        width = max(2, int(240 * t.median / longest))
        name = labels.label("eager" if cls == "eager" else "graph_run", lang)
        rows.append(f'<tr><td>{escape(name)}</td><td><span class="tfg-bar {cls}" '
                    f'style="width:{width}px"></span> {format_seconds(t.median)}</td>'
                    f"<td>{format_seconds(t.fastest)} … {format_seconds(t.slowest)}</td></tr>")
    speedup = eager.median / graph.median if graph.median else float("inf")
    body = (f'<table class="tfg-table"><tr><th></th><th>{escape(labels.label("median", lang))}'
            f'</th><th>min … max</th></tr>{"".join(rows)}</table>'
            f"<p>{escape(labels.label('speedup', lang))}: {speedup:.2f}× "
            f"({len(graph.runs)} runs each)</p>")
    return _panel(labels.label("timing", lang), body)


def _panel(title: str, body: str) -> str:
    return f'<div class="tfg-panel"><h4>{escape(title)}</h4>{body}</div>'


def function_panels(function, name, lang, panels, optimized, timings) -> str:
    uid = next(_uid)
    out = [f'<div class="tfg-fn">{escape(name)}</div>']
    for p in panels:
        if p == "source":
            out.append(source_panel(function, lang, uid))
        elif p == "code":
            out.append(code_panel(function, lang, uid))
        elif p == "graph":
            out.append(graph_panel(function, lang, optimized))
        elif p == "concrete":
            out.append(concrete_panel(function, lang))
        elif p == "timing":
            out.append(timing_panel(timings, lang))
    return "".join(out)
