"""The panels of ``%%trace --tf``: TensorFlow's side of each tf.function beside ours (layer 9).

Per function, in the grid and style of :mod:`panels`: TensorFlow's graph (read through
:mod:`formats.live` into the graph model our pictures draw), its concrete functions with
TensorFlow's own signatures beside ours, the eager and graph timings of both, and the
differences of the two graphs from :func:`formats.compare.graph_diff` (the comparison
``viz.side_by_side`` shows): op types only one side has, function by function, and the attrs
that differ on nodes both have.  Per cell, what TensorFlow's run printed, its error and its
last value.  Every word from :mod:`labels` in the cell's language; all text escaped.
"""

from __future__ import annotations

from html import escape

from .. import labels
from ..formats.compare import graph_diff
from ..viz.displays import GraphPicture, signature_parts
from .panels import MIN_SCALE, _panel
from .timing import format_seconds, within_noise

ENGINES = ("tfgraph_edu", "TensorFlow")
FLAG = "--tf"


def missing(why: str, lang: str) -> str:
    """The sentence shown instead of TensorFlow's panels when it cannot be imported."""
    from .real_tf import INSTALL
    if why == "missing":
        return labels.label("tf_missing", lang, flag=FLAG, install=INSTALL)
    return labels.label("tf_broken", lang, flag=FLAG, detail=why)


def missing_html(why: str, lang: str) -> str:
    from .real_tf import INSTALL
    text = escape(missing(why, lang))
    for word in (FLAG, INSTALL):  # commands read as code
        text = text.replace(escape(word), f"<code>{escape(word)}</code>")
    return f'<p class="tfg-note tfg-tf-missing">{text}</p>'


def _graph(tf_fn, lang) -> str:
    title = labels.label("tf_graph", lang)
    if tf_fn.graph is None:
        key, detail = tf_fn.note
        return _panel(title, f"<p>{escape(labels.label(key, lang, detail=detail))}</p>",
                      wide=True)
    cf_name = tf_fn.concrete[-1].name
    cf_name = cf_name.decode() if isinstance(cf_name, bytes) else str(cf_name)
    picture = GraphPicture(tf_fn.graph, lang=lang, caption=f"{tf_fn.name}: {cf_name}",
                           min_scale=MIN_SCALE)
    return _panel(title, picture.html(), wide=True)


def _signature(cf) -> str:
    try:
        text = str(cf.pretty_printed_signature(verbose=False))
    except Exception:  # noqa: BLE001 - an older TF: its structured signature
        text = str(getattr(cf, "structured_input_signature", cf.name))
    return " ".join(text.split())


def _traces(fn, default: int) -> int:
    """How many times ``fn`` (ours or TF's tf.function) traced: a function that made variables
    traces twice and may keep one concrete function for both."""
    try:
        return int(fn.experimental_get_tracing_count())
    except Exception:  # noqa: BLE001 - not a tf.function: its concrete functions
        return default


def _concrete(tf_fn, ours, lang) -> str:
    mine = list(ours.concrete_functions) if ours is not None else []
    rows = []
    for i in range(max(len(tf_fn.concrete), len(mine))):
        theirs = _signature(tf_fn.concrete[i]) if i < len(tf_fn.concrete) else ""
        our = ""
        if i < len(mine):
            args, out = signature_parts(mine[i])
            our = f"{', '.join(args)} → {out}"
        rows.append(f'<tr><td class="tfg-n">{i + 1}</td><td class="tfg-sig"><code>'
                    f'{escape(theirs)}</code></td><td><code>{escape(our)}</code></td></tr>')
    head = "".join(f"<th>{escape(e)}</th>" for e in reversed(ENGINES))
    counts = labels.label("tf_traced", lang, tf=_traces(tf_fn.function, len(tf_fn.concrete)),
                          ours=_traces(ours, len(mine)))
    return _panel(labels.label("tf_concrete", lang),
                  f'<table class="tfg-table tfg-concrete tfg-tf-concrete"><tr><th>#</th>{head}'
                  f'</tr>{"".join(rows)}</table><p class="tfg-note">{escape(counts)}</p>')


def _timing(tf_fn, ours_timings, lang) -> str:
    title = labels.label("tf_timing", lang)
    sides = []
    if ours_timings is not None and ours_timings.declined is None and len(ours_timings) >= 2:
        sides.append((ENGINES[0], ours_timings[0], ours_timings[1]))
    notes = []
    theirs = tf_fn.timings
    if isinstance(theirs, tuple) and theirs and isinstance(theirs[0], str):
        notes.append(labels.label(theirs[0], lang, detail=theirs[1]))
    elif theirs is not None:
        sides.append((ENGINES[1], theirs[0], theirs[1]))
        notes.append(labels.label("tf_timing_note", lang, runs=len(theirs[1].runs)))
    if not sides:
        return _panel(title, "".join(f"<p>{escape(n)}</p>" for n in notes) or
                      f"<p>{escape(labels.label('no_calls', lang))}</p>")
    longest = max(max(e.median, g.median) for _, e, g in sides) or 1.0
    rows, verdicts = [], []
    for who, eager, graph in sides:
        for t, key in ((eager, "eager"), (graph, "graph_run")):
            width = max(2, int(140 * t.median / longest))
            cls = "eager" if key == "eager" else "graph"
            rows.append(f"<tr><td>{escape(who)}</td><td>{escape(labels.label(key, lang))}</td>"
                        f'<td><span class="tfg-bar {cls}" style="width:{width}px"></span> '
                        f"{format_seconds(t.median)}</td><td>{format_seconds(t.fastest)} … "
                        f"{format_seconds(t.slowest)}</td></tr>")
        ratio = eager.median / graph.median if graph.median else float("inf")
        if within_noise(eager, graph):
            verdict = labels.label("within_noise", lang, ratio=f"{ratio:.2f}")
        else:
            verdict = (f"{labels.label('speedup', lang)}: {ratio:.2f}× "
                       f"({labels.label('runs_each', lang, n=len(graph.runs))})")
        verdicts.append(f"<p><b>{escape(who)}</b>: {escape(verdict)}</p>")
    table = (f'<table class="tfg-table tfg-timing-table"><tr><th></th><th></th>'
             f'<th>{escape(labels.label("median", lang))}</th>'
             f'<th>{escape(labels.label("min_max", lang))}</th></tr>{"".join(rows)}</table>')
    return _panel(title, table + "".join(verdicts) + "".join(
        f'<p class="tfg-note">{escape(n)}</p>' for n in notes))


def _diff(tf_fn, ours, lang) -> str:
    title = labels.label("tf_diff", lang)
    if tf_fn.graph is None or ours is None or not ours.concrete_functions:
        return ""
    diff = graph_diff(ours.concrete_functions[-1].graph, tf_fn.graph)
    a, b, common = diff.totals
    us, them = ENGINES
    head = "".join(f"<th>{escape(h)}</th>" for h in (
        labels.label("tf_function", lang), labels.label("tf_ops_of", lang, who=us),
        labels.label("tf_ops_of", lang, who=them), labels.label("tf_only_in", lang, who=us),
        labels.label("tf_only_in", lang, who=them)))
    rows = "".join(f"<tr><td><code>{escape(w)}</code></td><td>{x}</td><td>{y}</td>"
                   f'<td class="tfg-only-ours"><code>{escape(oa)}</code></td>'
                   f'<td class="tfg-only-tf"><code>{escape(ob)}</code></td></tr>'
                   for w, x, y, oa, ob in diff.rows())
    body = (f"<p>{escape(labels.label('tf_diff_totals', lang, ours=a, tf=b, common=common))}"
            f'</p><table class="tfg-table tfg-tf-diff"><tr>{head}</tr>{rows}</table>')
    if all(not f.only_left and not f.only_right for f in diff.functions):
        body += f"<p>{escape(labels.label('tf_same', lang))}</p>"
    if diff.attrs:
        head = "".join(f"<th>{escape(h)}</th>" for h in (
            labels.label("tf_node", lang), labels.label("tf_attr", lang), us, them))
        attrs = "".join(f"<tr><td><code>{escape(n)}</code></td><td><code>{escape(k)}</code>"
                        f"</td><td><code>{escape(x)}</code></td><td><code>{escape(y)}</code>"
                        f"</td></tr>" for n, k, x, y in diff.attrs)
        body += (f"<p>{escape(labels.label('tf_attrs_differ', lang))}</p>"
                 f'<table class="tfg-table tfg-tf-attrs"><tr>{head}</tr>{attrs}</table>')
    body += f'<p class="tfg-note">{escape(labels.label("tf_diff_what", lang))}</p>'
    return _panel(title, body, wide=True)


def function_html(run, name, ours, ours_timings, lang) -> str:
    """TensorFlow's panels for the tf.function ``name`` of ``run`` (a ``real_tf.TFRun``),
    beside ``ours`` (our Function) and its timings."""
    tf_fn = run.functions[name]
    title = labels.label("tf_title", lang, version=run.version, name=name)
    if tf_fn.note is not None and tf_fn.graph is None:
        key, detail = tf_fn.note
        return (f'<div class="tfg-fn tfg-tf-fn">{escape(title)}</div>'
                f"<p>{escape(labels.label(key, lang, detail=detail))}</p>")
    parts = [_graph(tf_fn, lang), _concrete(tf_fn, ours, lang),
             _timing(tf_fn, ours_timings, lang), _diff(tf_fn, ours, lang)]
    return (f'<div class="tfg-fn tfg-tf-fn">{escape(title)}</div>'
            f'<div class="tfg-grid tfg-tf">{"".join(parts)}</div>')


def run_html(run, lang) -> str:
    """What TensorFlow's run of the cell printed, its error and its last value."""
    note = labels.label("tf_run_note", lang, version=run.version)
    body = f'<p class="tfg-note">{escape(note)}</p>'
    if run.left_out:
        names = ", ".join(f"<code>{escape(n)}</code>" for n in run.left_out)
        body += "<p>" + escape(labels.label("tf_left_out", lang, names="\0")).replace(
            "\0", names) + "</p>"
    if run.error:
        body += f"<p><b>{escape(labels.label('tf_error', lang, error=run.error))}</b></p>"
    printed = run.output.strip("\n")
    body += f"<h4>{escape(labels.label('tf_printed', lang))}</h4>"
    body += (f'<div class="tfg-scroll"><pre class="tfg-code tfg-tf-output">{escape(printed)}'
             "</pre></div>" if printed else
             f"<p>{escape(labels.label('tf_nothing_printed', lang))}</p>")
    if run.value is not None:
        body += (f"<h4>{escape(labels.label('tf_value', lang))}</h4><div class=\"tfg-scroll\">"
                 f'<pre class="tfg-code tfg-tf-value">{escape(run.value)}</pre></div>')
    panel = _panel(labels.label("tf_run", lang), body, wide=True)
    return f'<div class="tfg-grid tfg-tf">{panel}</div>'


def run_text(run) -> str:
    """The plain-text summary of TensorFlow's run (English, as the rest of ``text/plain``)."""
    lines = [f"TensorFlow {run.version} ran the cell too"
             + (f" and stopped: {run.error}" if run.error else "")]
    for name, tf_fn in run.functions.items():
        if tf_fn.graph is None:
            lines.append(f"  {name}: " + labels.label(tf_fn.note[0], "en", detail=tf_fn.note[1]))
            continue
        line = f"  {name}: {len(tf_fn.concrete)} concrete function" + (
            "s" if len(tf_fn.concrete) != 1 else "") + f" in TF, {len(tf_fn.graph.operations)} ops"
        t = tf_fn.timings
        if t is not None and not isinstance(t[0], str):
            line += f"; TF eager {format_seconds(t[0].median)}, graph {format_seconds(t[1].median)}"
        lines.append(line)
    return "\n".join(lines)
