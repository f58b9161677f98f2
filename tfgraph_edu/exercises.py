"""Checks for the tutorials' exercises, answered in the learner's language (layer 10).

Each check runs the learner's code and looks at it with the engine's own introspection:
how many times a tf.function traced and why (``f.events``), which op types its graph holds,
what the optimiser's report says, whether the graph gives the same numbers as plain Python.
It returns a :class:`Feedback` that displays what is right, what is wrong and, for every
line that is wrong, a hint at the fix; it never raises, so a wrong attempt prints advice
instead of a traceback.  Code in the sentences (names, calls, op types, values) is quoted
between backticks, so a sentence in Chinese holds no English outside them.

**Predict, then run**: :func:`predict` (a ``with`` block that counts the lines printed or
the traces made while the block runs) and :func:`check_prediction` (a value the cell
computed) compare the learner's prediction, recorded before the code runs, with what the
code did; the answer always comes from running the code.

The language is the one of the notebook: the tutorials live in ``notebooks/en``,
``notebooks/zh-Hant`` and ``notebooks/zh-Hans`` and a kernel starts in its notebook's
folder, so the folder name says it (``TFGRAPH_EDU_LANG`` or :func:`set_language` override).
The code cells stay identical in the three languages.
"""

from __future__ import annotations

import functools
import html
import os
import re
import sys
from collections.abc import Callable, Iterable
from pathlib import Path

import numpy as np

from . import labels
from .function import events, isolation
from .function.polymorphic import Function

__all__ = ["Feedback", "language", "set_language", "is_tf_function", "traces_at_most",
           "traced_at_most", "graph_ops", "graph_has", "same_results", "value_is",
           "calls_differ", "keeps_shape", "returns_in_order", "results_in_order", "optimised",
           "runs_functions_as_graphs", "all_of", "say", "predict", "check_prediction",
           "op_types", "PREDICTIONS", "LOOPS", "CONDS", "RANDOM", "ASSIGNS"]

LANGUAGES = ("en", "zh-Hant", "zh-Hans")
LOOPS = frozenset({"While", "StatelessWhile"})
CONDS = frozenset({"If", "StatelessIf"})
# ops that draw new random numbers on every run (tf.random.* and tf.random.Generator's)
RANDOM = frozenset({"RandomUniform", "RandomStandardNormal", "TruncatedNormal",
                    "RandomUniformInt", "RngReadAndSkip", "StatefulUniform",
                    "StatefulStandardNormalV2", "StatefulTruncatedNormal",
                    "StatefulUniformInt", "StatefulUniformFullInt"})
ASSIGNS = frozenset({"AssignVariableOp", "AssignAddVariableOp", "AssignSubVariableOp"})
_chosen: list[str | None] = [None]


def language() -> str:
    """The learner's language: set_language(), else $TFGRAPH_EDU_LANG, else the notebook's
    folder (``.../notebooks/zh-Hant``), else English."""
    if _chosen[0]:
        return _chosen[0]
    env = os.environ.get("TFGRAPH_EDU_LANG")
    if env in LANGUAGES:
        return env
    folder = Path.cwd().name
    return folder if folder in LANGUAGES else "en"


def set_language(lang: str | None) -> None:
    """Answer in ``lang`` ("en", "zh-Hant", "zh-Hans"); None goes back to the automatic choice."""
    if lang is not None and lang not in LANGUAGES:
        raise ValueError(f"language must be one of {', '.join(LANGUAGES)}, got {lang!r}")
    _chosen[0] = lang


# Every sentence a check can say is a row of the one label table, tfgraph_edu/labels.py
# (keys "ex_" + the key used here, in the three languages).

# The gist of errors a learner's answer commonly raises, by pattern of the engine's (TF's)
# message: what the message says, and the hint at the fix.  Another message is quoted as it
# is in English; in Chinese only its class is named and the hint says how to read it.
_ERRORS = [  # (pattern of the message, key of the gist, key of the hint)
    (r"'(?P<v>\w+)' must also be initialized in the \w+ branch", "err_branch", "hint_err_branch"),
    (r"[Ii]ncompatible shapes|[Dd]imensions must be equal|[Ss]hapes? .* (are|is) "
     r"incompatible|cannot be broadcast|[Ss]hapes must be equal", "err_shapes", "hint_err_shapes"),
    (r"missing \w+ required (positional )?argument|takes \d+ positional argument|"
     r"got an unexpected keyword argument|[Tt]oo (many|few) arguments", "err_arguments",
     "hint_err_arguments"),
    (r"has no attribute '(?P<a>\w+)'", "err_attribute", "hint_err_attribute"),
    (r"tf\.Variable|singleton", "err_variable", "hint_assign"),
    (r"[Ss]ymbolic [Tt]ensor|__array__|NumPy call|numpy\(\) is only available",
     "err_numpy", "hint_err_numpy"),
]


def _say(key: str, **values) -> str:
    """Row ``ex_<key>`` of the label table in the learner's language, fields filled in."""
    return labels.label("ex_" + key, language(), **values)


def _reasons(texts: Iterable[str]) -> str:
    """The engine's retrace reasons in the learner's language."""
    lang = language()
    return "; ".join(labels.reason(t, lang) for t in texts) if lang == "en" else \
        "；".join(labels.reason(t, lang) for t in texts)


class Feedback:
    """The answer of a check: lines that are right or not yet, and hints.  ``ok`` is True
    when every line is right.  Feedbacks add up (``a + b``) and display in Jupyter."""

    def __init__(self, items=(), hints=()):
        self.items: list[tuple[bool, str]] = list(items)
        self.hints: list[str] = list(hints)

    @property
    def ok(self) -> bool:
        return bool(self.items) and all(good for good, _ in self.items)

    def right(self, text: str) -> Feedback:
        self.items.append((True, text))
        return self

    def wrong(self, text: str, hint: str) -> Feedback:
        """A line that is not right yet, with the hint at its fix (every wrong line has one)."""
        self.items.append((False, text))
        if hint and hint not in self.hints:
            self.hints.append(hint)
        return self

    def __add__(self, other: Feedback) -> Feedback:
        items = self.items + [i for i in other.items if i not in self.items]  # said once
        return Feedback(items, self.hints + [h for h in other.hints if h not in self.hints])

    def __bool__(self) -> bool:
        return self.ok

    def _lines(self) -> list[str]:
        lines = [f"{'✔' if good else '✘'} {text}" for good, text in self.items]
        if self.ok:
            lines.append(_say("all_right"))
        colon = ": " if language() == "en" else "："
        lines += [f"{_say('hint')}{colon}{h}" for h in self.hints]
        return lines

    def __repr__(self) -> str:
        return "\n".join(self._lines())

    def _repr_html_(self) -> str:
        colour = "#1a7f37" if self.ok else "#b35900"
        head = _say("right") if self.ok else _say("not_yet")
        rows = "".join(f"<li>{html.escape(line)}</li>" for line in self._lines())
        return (f'<div class="tfg-exercise" style="border-left:4px solid {colour};'
                f'padding:4px 10px"><b style="color:{colour}">{html.escape(head)}</b>'
                f'<ul style="margin:4px 0;padding-left:18px;list-style:none">{rows}</ul></div>')


def _apart(check):
    """Run the check where it cannot change the learner's world (a copy of the kernel, or
    in place with variables and random state restored: see
    :func:`~tfgraph_edu.function.isolation.run_apart`): the learner's variables, random
    state, traces and printed output are after the check what they were before it."""
    @functools.wraps(check)
    def run(*args, **kwargs):
        def task(report):
            answer = check(*args, **kwargs)
            if isinstance(answer, Feedback):
                return {"items": answer.items, "hints": answer.hints}
            return {"value": answer}

        graphs = [cf.graph for a in args if isinstance(a, Function)
                  for cf in a.concrete_functions]
        try:
            data = isolation.run_apart(task, graphs)
        except isolation.Declined as exc:
            reason = _say(f"declined_{exc.kind}", detail=exc.detail)
            return Feedback().wrong(_say("not_checked", reason=reason), _say("hint_not_checked"))
        if "value" in data:
            return data["value"]
        return Feedback([tuple(i) for i in data["items"]], data["hints"])
    return run


def _name(fn) -> str:
    return getattr(fn, "__name__", None) or type(fn).__name__


def _show(value) -> str:
    if hasattr(value, "numpy"):
        value = value.numpy()
    if isinstance(value, (list, tuple)) and any(
            hasattr(v, "numpy") or isinstance(v, np.ndarray) for v in value):
        try:
            value = _as_array(value)
        except ValueError:  # tensors of different shapes
            return "[" + ", ".join(_show(v) for v in value) + "]"
    if isinstance(value, (np.ndarray, np.generic)):
        value = np.asarray(value)
        if value.ndim == 0:
            value = value.item()
        elif value.size > 12:
            return "<" + _say("array", dtype=value.dtype, shape=value.shape) + ">"
        else:
            return " ".join(np.array2string(value, precision=4, separator=", ").split())
    if isinstance(value, float):
        return np.format_float_positional(value, precision=4, trim="0")
    if isinstance(value, (set, frozenset)):
        return "{" + ", ".join(repr(v) for v in sorted(value, key=str)) + "}"
    return repr(value)


def _call_text(args) -> str:
    return "(" + ", ".join(_show(a) for a in args) + ")"


def _as_array(value):
    if hasattr(value, "numpy"):
        value = value.numpy()
    if isinstance(value, (list, tuple)):
        return np.asarray([_as_array(v) for v in value])
    return np.asarray(value)


def _raised(fb: Feedback, fn, args, exc: Exception) -> Feedback:
    """The learner's code raised: its class, the gist of the message (in Chinese, the gist of a
    message we know; another is left to be read in English where it was raised) and a hint."""
    lines = [ln.strip() for ln in str(exc).strip().splitlines() if ln.strip()]
    message = lines[-1] if lines else ""  # "in user code: ... File ...": the gist is last
    prefix = f"{type(exc).__name__}: "
    while message.startswith(prefix):
        message = message[len(prefix):]
    name, call = _name(fn), _call_text(args)
    gist, hint = None, _say("hint_raised", name=name, call=call)
    for pattern, gist_key, hint_key in _ERRORS:
        m = re.search(pattern, message)
        if m:
            fields = m.groupdict()
            gist, hint = _say(gist_key, **fields), _say(hint_key, **fields)
            break
    if language() == "en":
        gist = message or gist or ""
    elif gist is None:
        gist = _say("err_other")
    return fb.wrong(_say("raised", name=name, call=call, error=type(exc).__name__,
                         message=gist), hint)


def is_tf_function(fn) -> Feedback:
    """``fn`` is a tf.function (a polymorphic Function)."""
    fb = Feedback()
    if isinstance(fn, Function):
        return fb.right(_say("is_function", name=_name(fn)))
    return fb.wrong(_say("not_function", name=_name(fn), kind=type(fn).__name__),
                    _say("hint_function"))


def _retrace_hint(texts: list[str]) -> str:
    if any(t.startswith("Python argument") or "object (id" in t for t in texts):
        return _say("hint_retrace_python")
    if any(": shape " in t for t in texts):
        return _say("hint_retrace_shape")
    return _say("hint_retrace")


def _traces_line(fb, fn, traces, calls, most, hint):
    if len(traces) <= most:
        return fb.right(_say("traces_ok", name=_name(fn), n=len(traces), calls=calls, most=most))
    texts = [e.reason for e in traces[most:]]
    return fb.wrong(_say("traces_bad", name=_name(fn), n=len(traces), calls=calls, most=most,
                         reasons=_reasons(texts)), hint or _retrace_hint(texts))


@_apart
def traces_at_most(fn, calls: Iterable[tuple], most: int = 1, hint: str | None = None
                   ) -> Feedback:
    """Call ``fn`` with each argument tuple of ``calls``; right when these calls traced at
    most ``most`` new graphs.  When there are more, the engine's reasons are quoted."""
    fb = is_tf_function(fn)
    if not fb.ok:
        return fb
    calls = [tuple(c) for c in calls]
    before = len(fn.events.traces)
    for args in calls:
        try:
            fn(*args)
        except Exception as exc:  # noqa: BLE001 - the learner's code: reported, not raised
            return _raised(fb, fn, args, exc)
    return _traces_line(fb, fn, fn.events.traces[before:], len(calls), most, hint)


def traced_at_most(fn, most: int = 1, calls: int = 0, hint: str | None = None) -> Feedback:
    """``fn`` has traced at most ``most`` graphs so far, over at least ``calls`` calls made by
    the learner's own cell (so that a cell which skips the calls cannot pass); when it traced
    more, the engine's reasons are quoted."""
    fb = is_tf_function(fn)
    if not fb.ok:
        return fb
    made = len(fn.events.calls)
    if made < calls:
        return fb.wrong(_say("few_calls", name=_name(fn), n=made, want=calls),
                        _say("hint_few_calls", name=_name(fn)))
    return _traces_line(fb, fn, fn.events.traces, made, most, hint)


@_apart
def graph_ops(target, *args) -> list[str]:
    """The op types of ``target``'s graph, loop and branch bodies included.  ``target`` is a
    ConcreteFunction, or a tf.function and the arguments to get one for."""
    cf = target.get_concrete_function(*args) if isinstance(target, Function) else target
    return op_types(cf.graph)


def op_types(graph, optimised: bool = False) -> list[str]:
    """The op types of ``graph`` (a Graph or a ConcreteFunction, whose optimised graph when
    ``optimised``), loop and branch bodies included."""
    if hasattr(graph, "optimized_graph"):
        graph = graph.optimized_graph if optimised else graph.graph
    types: list[str] = []
    graphs = [graph]
    while graphs:
        graph = graphs.pop()
        for op in graph.get_operations():
            types.append(op.type)
            for value in op.attrs.values():
                body = getattr(value, "graph", None)
                if body is not None and hasattr(body, "get_operations"):
                    graphs.append(body)
    return types


_OP_HINTS = {"While": "hint_loop", "StatelessWhile": "hint_loop", "If": "hint_cond",
             "StatelessIf": "hint_cond", **{op: "hint_random" for op in RANDOM},
             **{op: "hint_assign" for op in ASSIGNS}}


@_apart
def graph_has(fn, args: tuple = (), ops: Iterable = (), absent: Iterable = (),
              max_ops: int | None = None, hint: str | None = None) -> Feedback:
    """``fn``'s graph for ``args`` holds each op type of ``ops`` (a string, or a set of
    alternatives such as ``{"While", "StatelessWhile"}``), none of ``absent``, and at most
    ``max_ops`` ops in all."""
    fb = is_tf_function(fn)
    if not fb.ok:
        return fb
    try:
        types = graph_ops(fn, *args)
    except Exception as exc:  # noqa: BLE001 - the learner's code: reported, not raised
        return _raised(fb, fn, args, exc)
    for want in ops:
        options = {want} if isinstance(want, str) else set(want)
        label = " / ".join(sorted(options)[:3]) + (" / …" if len(options) > 3 else "")
        if options & set(types):
            fb.right(_say("has_op", op=" / ".join(sorted(options & set(types)))))
        else:
            known = sorted(_OP_HINTS[o] for o in options if o in _OP_HINTS)
            fb.wrong(_say("lacks_op", op=label), hint or (
                _say(known[0]) if known else _say("hint_lacks_op", op=sorted(options)[0])))
    for unwanted in absent:
        count = types.count(unwanted)
        if count:
            fb.wrong(_say("unwanted_op", op=unwanted, count=count),
                     hint or _say("hint_unwanted_op", op=unwanted))
        else:
            fb.right(_say("no_unwanted_op", op=unwanted))
    if max_ops is not None:
        if len(types) <= max_ops:
            fb.right(_say("size_ok", n=len(types), most=max_ops))
        else:
            fb.wrong(_say("size_bad", n=len(types), most=max_ops), hint or _say("hint_size"))
    return fb


@_apart
def same_results(fn, reference: Callable, calls: Iterable[tuple], hint: str | None = None,
                 rtol: float = 1e-5, atol: float = 1e-6) -> Feedback:
    """``fn(*args)`` equals ``reference(*args)`` (plain Python/numpy, given numpy values) for
    every argument tuple of ``calls``."""
    fb = Feedback()
    for args in calls:
        args = tuple(args)
        try:
            got = fn(*args)
        except Exception as exc:  # noqa: BLE001 - the learner's code: reported, not raised
            return _raised(fb, fn, args, exc)
        want = reference(*[_as_array(a) if hasattr(a, "numpy") else a for a in args])
        same = _close(got, want, rtol, atol)
        if same:
            fb.right(_say("same_ok", name=_name(fn), call=_call_text(args), got=_show(got)))
        else:
            fb.wrong(_say("same_bad", name=_name(fn), call=_call_text(args), got=_show(got),
                          want=_show(np.asarray(want))), hint or _say("hint_same", name=_name(fn)))
    return fb


def _close(got, want, rtol, atol) -> bool:
    try:
        a, b = _as_array(got), np.asarray(want)
        return a.shape == b.shape and bool(np.allclose(a, b, rtol=rtol, atol=atol))
    except (TypeError, ValueError):  # not numbers (None, a string...)
        return False


def value_is(name: str, got, want, hint: str | None = None, rtol: float = 1e-5,
             atol: float = 1e-6) -> Feedback:
    """The value ``got`` (a tensor or array the learner's cell computed) equals ``want``."""
    fb = Feedback()
    if _close(got, want, rtol, atol):
        return fb.right(_say("value_ok", name=name, got=_show(got)))
    return fb.wrong(_say("value_bad", name=name, got=_show(got), want=_show(np.asarray(want))),
                    hint or _say("hint_value"))


@_apart
def calls_differ(fn, args: tuple = (), hint: str | None = None) -> Feedback:
    """``fn`` is a tf.function and two calls of ``fn(*args)`` give different values
    (randomness that is not frozen into the graph)."""
    fb = is_tf_function(fn)
    if not fb.ok:
        return fb
    try:
        a, b = _as_array(fn(*args)), _as_array(fn(*args))
    except Exception as exc:  # noqa: BLE001 - the learner's code: reported, not raised
        return _raised(fb, fn, args, exc)
    if a.shape != b.shape or not np.array_equal(a, b):
        return fb.right(_say("differ_ok", name=_name(fn)))
    return fb.wrong(_say("differ_bad", name=_name(fn)), hint or _say("hint_random"))


@_apart
def keeps_shape(fn, calls: Iterable[tuple], hint: str | None = None) -> Feedback:
    """``fn(*args)`` has the shape of ``args[0]`` for every argument tuple of ``calls``."""
    fb = Feedback()
    for args in calls:
        args = tuple(args)
        try:
            got = _as_array(fn(*args)).shape
        except Exception as exc:  # noqa: BLE001 - the learner's code: reported, not raised
            return _raised(fb, fn, args, exc)
        want = _as_array(args[0]).shape
        if got == want:
            fb.right(_say("shape_ok", name=_name(fn), call=_call_text(args), shape=want))
        else:
            fb.wrong(_say("shape_bad", name=_name(fn), call=_call_text(args), got=got,
                          want=want), hint or _say("hint_shape"))
    return fb


def returns_in_order(fn, expected: list, args: tuple = (), hint: str | None = None
                     ) -> Feedback:
    """Calling ``fn(*args)`` len(expected) times returns ``expected`` in order (state kept
    between calls, as with a variable)."""
    return results_in_order(fn, [tuple(args)] * len(expected), expected,
                            hint or _say("hint_assign"))


@_apart
def results_in_order(fn, calls: Iterable[tuple], expected: list, hint: str | None = None,
                     rtol: float = 1e-5, atol: float = 1e-6) -> Feedback:
    """Calling ``fn`` with each argument tuple of ``calls`` in turn returns ``expected`` in
    order (the state the calls change carries over from one call to the next)."""
    fb = Feedback()
    got = []
    for args in calls:
        try:
            got.append(_as_array(fn(*args)).tolist())
        except Exception as exc:  # noqa: BLE001 - the learner's code: reported, not raised
            return _raised(fb, fn, args, exc)
    want = [np.asarray(e).tolist() for e in expected]
    shown = [_show(np.asarray(g)) for g in got]
    if _close(got, want, rtol, atol):
        return fb.right(_say("sequence_ok", name=_name(fn), got=", ".join(shown)))
    return fb.wrong(_say("sequence_bad", name=_name(fn), got=", ".join(shown),
                         want=", ".join(_show(np.asarray(w)) for w in want)),
                    hint or _say("hint_sequence"))


@_apart
def optimised(fn, args: tuple = (), pass_name: str = "constant_folding",
              hint: str | None = None) -> Feedback:
    """The optimiser's pass ``pass_name`` changed at least one node of ``fn``'s graph."""
    fb = is_tf_function(fn)
    if not fb.ok:
        return fb
    try:
        report = fn.get_concrete_function(*args).optimization_report
    except Exception as exc:  # noqa: BLE001 - the learner's code: reported, not raised
        return _raised(fb, fn, args, exc)
    changes = [c for p in report.passes if p.name == pass_name for c in p.changes]
    if changes:
        nodes = ", ".join(sorted({c.node for c in changes})[:6])
        return fb.right(_say("optimised_ok", pass_=pass_name, n=len(changes), nodes=nodes))
    return fb.wrong(_say("optimised_bad", pass_=pass_name), hint or _say(
        "hint_folding" if pass_name == "constant_folding" else "hint_pass"))


def runs_functions_as_graphs() -> Feedback:
    """``tf.config.run_functions_eagerly`` was switched back off."""
    from .eager.context import functions_run_eagerly
    fb = Feedback()
    if functions_run_eagerly():
        return fb.wrong(_say("graphs_off"), _say("hint_graphs"))
    return fb.right(_say("graphs_on"))


def all_of(*feedbacks: Feedback) -> Feedback:
    """Several checks as one answer."""
    total = Feedback()
    for fb in feedbacks:
        total = total + fb
    return total


def say(en: str, zh_hant: str, zh_hans: str | None = None) -> str:
    """A sentence written for one exercise (a hint), in the learner's language; zh-Hans
    falls back to the zh-Hant text when not given."""
    return {"en": en, "zh-Hant": zh_hant, "zh-Hans": zh_hans or zh_hant}[language()]


# -- predict, then run ---------------------------------------------------------------------------

PREDICTIONS: list[dict] = []  # every prediction checked in this kernel, in order: what was
# predicted (recorded before the code ran), what the code did, and whether they agree


def _plain(value):
    """A tensor, array or number as plain Python data (lists, numbers, strings)."""
    if hasattr(value, "numpy"):
        value = value.numpy()
    if isinstance(value, (np.ndarray, np.generic)):
        return value.tolist()
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def _agree(prediction, actual) -> bool:
    if isinstance(actual, (set, frozenset)):
        return isinstance(prediction, (set, frozenset, list, tuple)) and \
            set(prediction) == set(actual)
    try:
        a, b = np.asarray(_plain(prediction)), np.asarray(_plain(actual))
        if a.dtype.kind in "biufc" and b.dtype.kind in "biufc":
            return a.shape == b.shape and bool(np.allclose(a, b, rtol=1e-4, atol=1e-6))
    except (TypeError, ValueError):
        pass
    return _plain(prediction) == _plain(actual)


def check_prediction(prediction, actual, what: str = "value", hint: str | None = None,
                     _reasons_seen: Iterable[str] = ()) -> Feedback:
    """Compare the learner's ``prediction`` with ``actual``, what the code did (computed by
    running it, never written by hand).  ``what`` words the answer and chooses the hint:
    ``"value"``, ``"ops"`` (a set of op types, compared as sets), ``"prints"`` (lines
    printed), ``"traces"`` (graphs traced).  ``prediction = ...`` (the placeholder the
    notebooks ship with) answers "no prediction yet"."""
    fb = Feedback()
    if prediction is Ellipsis or prediction is None:
        return fb.wrong(_say("predict_none"), _say("hint_predict_none"))
    if what == "ops":
        actual = frozenset(actual)
    good = _agree(prediction, actual)
    PREDICTIONS.append({"what": what, "predicted": _plain(prediction),
                        "seen": sorted(actual) if isinstance(actual, frozenset)
                        else _plain(actual), "right": good})
    shown = _show(frozenset(prediction)) if what == "ops" and isinstance(
        prediction, (set, frozenset, list, tuple)) else _show(prediction)
    if what in ("prints", "traces"):
        seen = _say(f"seen_{what}", n=actual)
    else:
        seen = _say("seen_ops" if what == "ops" else "seen_value", v=_show(actual))
    if good:
        return fb.right(_say("predict_ok", p=shown, seen=seen))
    if what == "ops" and isinstance(prediction, (set, frozenset, list, tuple)):
        missing, extra = actual - set(prediction), set(prediction) - actual
        parts = [seen] + ([_say("seen_missing", v=_show(missing))] if missing else []) + \
            ([_say("seen_extra", v=_show(frozenset(extra)))] if extra else [])
        seen = ("; " if language() == "en" else "；").join(parts)
    if hint is None:
        hint = _say("hint_predict_traces", reasons=_reasons(_reasons_seen)) \
            if what == "traces" else _say(f"hint_predict_{what}")
    return fb.wrong(_say("predict_bad", p=shown, seen=seen), hint)


class _Counting:
    """A stream that passes everything on and counts the lines written to it."""

    def __init__(self, stream, counter):
        self._stream, self._counter = stream, counter

    def write(self, text):
        self._counter[0] += str(text).count("\n")
        return self._stream.write(text)

    def __getattr__(self, name):
        return getattr(self._stream, name)


class predict:
    """``with ex.predict(prediction, "prints"):`` runs the block as usual, counting what it
    does, then shows whether the prediction was right.  ``what``: ``"prints"`` (lines printed
    by ``print`` and ``tf.print``, to stdout or stderr) or ``"traces"`` (graphs traced by any
    tf.function; a wrong prediction is answered with the engine's reasons for each trace).
    The prediction is recorded when the block starts, before its code runs; the result is
    ``self.feedback`` (also displayed).  An error in the block is the learner's: it is raised
    as usual, and nothing is compared."""

    KINDS = ("prints", "traces")

    def __init__(self, prediction, what: str = "prints", hint: str | None = None):
        if what not in self.KINDS:
            raise ValueError(f"what must be one of {', '.join(self.KINDS)}, got {what!r}")
        self.prediction = _plain(prediction) if prediction is not Ellipsis else prediction
        self.what, self.hint = what, hint
        self.feedback: Feedback | None = None
        self._lines = [0]
        self._traces: list = []

    def _seen(self, log, event) -> None:
        if event.kind == "trace":
            self._traces.append(event)

    def __enter__(self) -> predict:
        if self.what == "prints":
            self._streams = sys.stdout, sys.stderr
            sys.stdout = _Counting(sys.stdout, self._lines)
            sys.stderr = _Counting(sys.stderr, self._lines)
        else:
            events.RECORDERS.append(self._seen)
        return self

    def __exit__(self, kind, exc, tb) -> bool:
        if self.what == "prints":
            for stream in (sys.stdout, sys.stderr):
                if hasattr(stream, "flush"):
                    stream.flush()
            sys.stdout, sys.stderr = self._streams
        else:
            events.RECORDERS.remove(self._seen)
        if kind is not None:
            return False
        seen = self._lines[0] if self.what == "prints" else len(self._traces)
        self.feedback = check_prediction(self.prediction, seen, self.what, self.hint,
                                         [e.reason for e in self._traces])
        _display(self.feedback)
        return False


def _display(fb: Feedback) -> None:
    try:
        from IPython import get_ipython
        from IPython.display import display
    except ImportError:  # pragma: no cover - IPython comes with the notebook extra
        get_ipython = None
    if get_ipython is not None and get_ipython() is not None:
        display(fb)
    else:
        print(repr(fb))
