"""Checks for the tutorials' exercises, answered in the learner's language (above layer 9).

Each check runs the learner's code and looks at it with the engine's own introspection:
how many times a tf.function traced and why (``f.events``), which op types its graph holds,
what the optimiser's report says, whether the graph gives the same numbers as plain Python.
It returns a :class:`Feedback` that displays what is right, what is wrong and a hint; it
never raises, so a wrong attempt prints advice instead of a traceback.

The language is the one of the notebook: the tutorials live in ``notebooks/en``,
``notebooks/zh-Hant`` and ``notebooks/zh-Hans`` and a kernel starts in its notebook's
folder, so the folder name says it (``TFGRAPH_EDU_LANG`` or :func:`set_language` override).
The code cells stay identical in the three languages.
"""

from __future__ import annotations

import functools
import html
import os
from collections.abc import Callable, Iterable
from pathlib import Path

import numpy as np

from .function import isolation
from .function.polymorphic import Function

__all__ = ["Feedback", "language", "set_language", "is_tf_function", "traces_at_most",
           "traced_at_most", "graph_ops", "graph_has", "same_results", "value_is",
           "calls_differ", "returns_in_order", "optimised", "runs_functions_as_graphs",
           "all_of", "say", "LOOPS", "CONDS"]

LANGUAGES = ("en", "zh-Hant", "zh-Hans")
LOOPS = frozenset({"While", "StatelessWhile"})
CONDS = frozenset({"If", "StatelessIf"})
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


# Every sentence a check can say, in the three languages (terms from the glossary).
_TEXT = {
    "right": ("Right", "正確", "正确"),
    "not_yet": ("Not yet", "還沒通過", "还没通过"),
    "hint": ("Hint", "提示", "提示"),
    "all_right": ("All checks pass.", "全部檢查通過。", "全部检查通过。"),
    "not_function": ("{name} is not a tf.function (it is a {kind}).",
                     "{name} 不是 tf.function（它是 {kind}）。",
                     "{name} 不是 tf.function（它是 {kind}）。"),
    "is_function": ("{name} is a tf.function.", "{name} 是 tf.function。",
                    "{name} 是 tf.function。"),
    "hint_function": ("Decorate it with @tf.function, or wrap it: f = tf.function(f).",
                      "加上 @tf.function 裝飾器，或寫成 f = tf.function(f)。",
                      "加上 @tf.function 装饰器，或写成 f = tf.function(f)。"),
    "raised": ("Calling {name}{call} raised {error}: {message}",
               "呼叫 {name}{call} 時發生 {error}：{message}",
               "调用 {name}{call} 时发生 {error}：{message}"),
    "traces_ok": ("{name} traced {n} time(s) for {calls} calls (at most {most} allowed).",
                  "{name} 在 {calls} 次呼叫中追蹤了 {n} 次（上限 {most} 次）。",
                  "{name} 在 {calls} 次调用中追踪了 {n} 次（上限 {most} 次）。"),
    "traces_bad": ("{name} traced {n} times for {calls} calls; at most {most} allowed. "
                   "Why it traced again: {reasons}",
                   "{name} 在 {calls} 次呼叫中追蹤了 {n} 次，最多只能 {most} 次。"
                   "重新追蹤的原因：{reasons}",
                   "{name} 在 {calls} 次调用中追踪了 {n} 次，最多只能 {most} 次。"
                   "重新追踪的原因：{reasons}"),
    "has_op": ("The graph contains {op}.", "計算圖裡有 {op} 運算。", "计算图里有 {op} 运算。"),
    "lacks_op": ("The graph contains no {op}.", "計算圖裡沒有 {op} 運算。",
                 "计算图里没有 {op} 运算。"),
    "unwanted_op": ("The graph still contains {op} ({count}×).",
                    "計算圖裡還有 {count} 個 {op} 運算。",
                    "计算图里还有 {count} 个 {op} 运算。"),
    "no_unwanted_op": ("The graph contains no {op}.", "計算圖裡沒有 {op} 運算。",
                       "计算图里没有 {op} 运算。"),
    "size_ok": ("The graph has {n} ops (at most {most}).",
                "計算圖有 {n} 個運算（最多 {most} 個）。",
                "计算图有 {n} 个运算（最多 {most} 个）。"),
    "size_bad": ("The graph has {n} ops, more than {most}: something is unrolled.",
                 "計算圖有 {n} 個運算，超過 {most} 個：有東西展開了（多半是迴圈）。",
                 "计算图有 {n} 个运算，超过 {most} 个：有东西展开了（多半是循环）。"),
    "same_ok": ("{name}{call} gives {got}, as expected.",
                "{name}{call} 得到 {got}，和預期相同。",
                "{name}{call} 得到 {got}，和预期相同。"),
    "same_bad": ("{name}{call} gives {got}, expected {want}.",
                 "{name}{call} 得到 {got}，預期是 {want}。",
                 "{name}{call} 得到 {got}，预期是 {want}。"),
    "value_ok": ("{name} is {got}, as expected.", "{name} 是 {got}，和預期相同。",
                 "{name} 是 {got}，和预期相同。"),
    "value_bad": ("{name} is {got}, expected {want}.", "{name} 是 {got}，預期是 {want}。",
                  "{name} 是 {got}，预期是 {want}。"),
    "differ_ok": ("Two calls of {name} gave different values, as in eager execution.",
                  "{name} 呼叫兩次得到不同的值，和即時執行一樣。",
                  "{name} 调用两次得到不同的值，和即时执行一样。"),
    "differ_bad": ("Two calls of {name} gave the same value: it was fixed when the function "
                   "was traced.",
                   "{name} 呼叫兩次得到同一個值：這個值在追蹤時就被固定下來了。",
                   "{name} 调用两次得到同一个值：这个值在追踪时就被固定下来了。"),
    "sequence_ok": ("Calls of {name} returned {got}, as expected.",
                    "連續呼叫 {name} 得到 {got}，和預期相同。",
                    "连续调用 {name} 得到 {got}，和预期相同。"),
    "sequence_bad": ("Calls of {name} returned {got}, expected {want}.",
                     "連續呼叫 {name} 得到 {got}，預期是 {want}。",
                     "连续调用 {name} 得到 {got}，预期是 {want}。"),
    "optimised_ok": ("The optimiser's {pass_} pass changed {n} node(s): {nodes}.",
                     "最佳化器的 {pass_} 步驟改動了 {n} 個節點：{nodes}。",
                     "优化器的 {pass_} 步骤改动了 {n} 个节点：{nodes}。"),
    "optimised_bad": ("The optimiser's {pass_} pass found nothing to change.",
                      "最佳化器的 {pass_} 步驟沒有找到可以改動的地方。",
                      "优化器的 {pass_} 步骤没有找到可以改动的地方。"),
    "graphs_on": ("tf.functions run as graphs (run_functions_eagerly is False).",
                  "tf.function 以計算圖執行（run_functions_eagerly 為 False）。",
                  "tf.function 以计算图执行（run_functions_eagerly 为 False）。"),
    "graphs_off": ("tf.config.run_functions_eagerly is still True: every tf.function in "
                   "this kernel runs as plain Python.",
                   "tf.config.run_functions_eagerly 仍然是 True：這個核心裡所有的 tf.function "
                   "都會以一般 Python 執行。",
                   "tf.config.run_functions_eagerly 仍然是 True：这个内核里所有的 tf.function "
                   "都会以普通 Python 运行。"),
    "hint_graphs": ("It is a global switch: call tf.config.run_functions_eagerly(False) when "
                    "you are done debugging.",
                    "這是全域開關：除錯完記得呼叫 tf.config.run_functions_eagerly(False)。",
                    "这是全局开关：调试完记得调用 tf.config.run_functions_eagerly(False)。"),
}


_TEXT.update({
    "not_checked": ("Not checked: {reason}. The check would run your code again, and that "
                    "would change what your program does.",
                    "沒有檢查：{reason}。檢查會再執行你的程式碼，改變你的程式的結果。",
                    "没有检查：{reason}。检查会再运行你的代码，改变你的程序的结果。"),
    "declined_op": ("the graph runs {detail}, whose effects cannot be undone on this system",
                    "計算圖會執行 {detail}，在這個系統上無法復原其效果",
                    "计算图会运行 {detail}，在这个系统上无法复原其效果"),
    "declined_file": ("it writes to the file {detail}", "它會寫入檔案 {detail}",
                      "它会写入文件 {detail}"),
    "declined_call": ("it calls {detail}", "它會呼叫 {detail}", "它会调用 {detail}"),
    "declined_timeout": ("it ran longer than {detail} s", "執行超過 {detail} 秒",
                         "运行超过 {detail} 秒"),
})


def _say(key: str, **values) -> str:
    text = _TEXT[key][LANGUAGES.index(language())]
    return text.format(**values)


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

    def wrong(self, text: str, hint: str | None = None) -> Feedback:
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
        lines += [f"{_say('hint')}: {h}" for h in self.hints]
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
            return Feedback().wrong(_say("not_checked", reason=reason))
        if "value" in data:
            return data["value"]
        return Feedback([tuple(i) for i in data["items"]], data["hints"])
    return run


def _name(fn) -> str:
    return getattr(fn, "__name__", None) or type(fn).__name__


def _show(value) -> str:
    if hasattr(value, "numpy"):
        value = value.numpy()
    if isinstance(value, (np.ndarray, np.generic)):
        value = np.asarray(value)
        if value.ndim == 0:
            value = value.item()
        elif value.size > 12:
            return f"<{value.dtype} array of shape {value.shape}>"
        else:
            return " ".join(np.array2string(value, precision=4, separator=", ").split())
    if isinstance(value, float):
        return np.format_float_positional(value, precision=4, trim="0")
    return repr(value)


def _call_text(args) -> str:
    return "(" + ", ".join(_show(a) for a in args) + ")"


def _as_array(value):
    if hasattr(value, "numpy"):
        value = value.numpy()
    return np.asarray(value)


def _raised(fb: Feedback, fn, args, exc: Exception, hint: str | None = None) -> Feedback:
    lines = [ln.strip() for ln in str(exc).strip().splitlines() if ln.strip()]
    message = lines[-1] if lines else ""  # "in user code: ... File ...": the gist is last
    prefix = f"{type(exc).__name__}: "
    while message.startswith(prefix):
        message = message[len(prefix):]
    return fb.wrong(_say("raised", name=_name(fn), call=_call_text(args),
                         error=type(exc).__name__, message=message), hint)


def is_tf_function(fn) -> Feedback:
    """``fn`` is a tf.function (a polymorphic Function)."""
    fb = Feedback()
    if isinstance(fn, Function):
        return fb.right(_say("is_function", name=_name(fn)))
    return fb.wrong(_say("not_function", name=_name(fn), kind=type(fn).__name__),
                    _say("hint_function"))


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
            return _raised(fb, fn, args, exc, hint)
    new = fn.events.traces[before:]
    if len(new) <= most:
        return fb.right(_say("traces_ok", name=_name(fn), n=len(new), calls=len(calls),
                             most=most))
    reasons = "; ".join(e.reason for e in new[most:])
    return fb.wrong(_say("traces_bad", name=_name(fn), n=len(new), calls=len(calls),
                         most=most, reasons=reasons), hint)


def traced_at_most(fn, most: int = 1, hint: str | None = None) -> Feedback:
    """``fn`` has traced at most ``most`` graphs so far (the calls were made by the learner's
    own cell); when it traced more, the engine's reasons are quoted."""
    fb = is_tf_function(fn)
    if not fb.ok:
        return fb
    traces = fn.events.traces
    calls = len(fn.events.calls)
    if len(traces) <= most:
        return fb.right(_say("traces_ok", name=_name(fn), n=len(traces), calls=calls,
                             most=most))
    reasons = "; ".join(e.reason for e in traces[most:])
    return fb.wrong(_say("traces_bad", name=_name(fn), n=len(traces), calls=calls, most=most,
                         reasons=reasons), hint)


@_apart
def graph_ops(target, *args) -> list[str]:
    """The op types of ``target``'s graph, loop and branch bodies included.  ``target`` is a
    ConcreteFunction, or a tf.function and the arguments to get one for."""
    cf = target.get_concrete_function(*args) if isinstance(target, Function) else target
    types: list[str] = []
    graphs = [cf.graph]
    while graphs:
        graph = graphs.pop()
        for op in graph.get_operations():
            types.append(op.type)
            for value in op.attrs.values():
                body = getattr(value, "graph", None)
                if body is not None and hasattr(body, "get_operations"):
                    graphs.append(body)
    return types


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
        return _raised(fb, fn, args, exc, hint)
    for want in ops:
        options = {want} if isinstance(want, str) else set(want)
        label = " / ".join(sorted(options))
        if options & set(types):
            fb.right(_say("has_op", op=label))
        else:
            fb.wrong(_say("lacks_op", op=label), hint)
    for unwanted in absent:
        count = types.count(unwanted)
        if count:
            fb.wrong(_say("unwanted_op", op=unwanted, count=count), hint)
        else:
            fb.right(_say("no_unwanted_op", op=unwanted))
    if max_ops is not None:
        if len(types) <= max_ops:
            fb.right(_say("size_ok", n=len(types), most=max_ops))
        else:
            fb.wrong(_say("size_bad", n=len(types), most=max_ops), hint)
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
            return _raised(fb, fn, args, exc, hint)
        want = reference(*[_as_array(a) if hasattr(a, "numpy") else a for a in args])
        same = np.shape(_as_array(got)) == np.shape(np.asarray(want)) and np.allclose(
            _as_array(got), np.asarray(want), rtol=rtol, atol=atol)
        if same:
            fb.right(_say("same_ok", name=_name(fn), call=_call_text(args), got=_show(got)))
        else:
            fb.wrong(_say("same_bad", name=_name(fn), call=_call_text(args), got=_show(got),
                          want=_show(np.asarray(want))), hint)
    return fb


def value_is(name: str, got, want, hint: str | None = None, rtol: float = 1e-5,
             atol: float = 1e-6) -> Feedback:
    """The value ``got`` (a tensor or array the learner's cell computed) equals ``want``."""
    fb = Feedback()
    a, b = _as_array(got), np.asarray(want)
    if a.shape == b.shape and np.allclose(a, b, rtol=rtol, atol=atol):
        return fb.right(_say("value_ok", name=name, got=_show(a)))
    return fb.wrong(_say("value_bad", name=name, got=_show(a), want=_show(b)), hint)


@_apart
def calls_differ(fn, args: tuple = (), hint: str | None = None) -> Feedback:
    """Two calls of ``fn(*args)`` give different values (randomness that is not frozen)."""
    fb = Feedback()
    try:
        a, b = _as_array(fn(*args)), _as_array(fn(*args))
    except Exception as exc:  # noqa: BLE001 - the learner's code: reported, not raised
        return _raised(fb, fn, args, exc, hint)
    if a.shape != b.shape or not np.array_equal(a, b):
        return fb.right(_say("differ_ok", name=_name(fn)))
    return fb.wrong(_say("differ_bad", name=_name(fn)), hint)


@_apart
def returns_in_order(fn, expected: list, args: tuple = (), hint: str | None = None) -> Feedback:
    """Calling ``fn(*args)`` len(expected) times returns ``expected`` in order (state kept
    between calls, as with a variable)."""
    fb = Feedback()
    got = []
    for _ in expected:
        try:
            got.append(_as_array(fn(*args)).tolist())
        except Exception as exc:  # noqa: BLE001 - the learner's code: reported, not raised
            return _raised(fb, fn, args, exc, hint)
    want = [np.asarray(e).tolist() for e in expected]
    if np.allclose(np.asarray(got, dtype=float), np.asarray(want, dtype=float)):
        return fb.right(_say("sequence_ok", name=_name(fn), got=got))
    return fb.wrong(_say("sequence_bad", name=_name(fn), got=got, want=want), hint)


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
        return _raised(fb, fn, args, exc, hint)
    changes = [c for p in report.passes if p.name == pass_name for c in p.changes]
    if changes:
        nodes = ", ".join(sorted({c.node for c in changes})[:6])
        return fb.right(_say("optimised_ok", pass_=pass_name, n=len(changes), nodes=nodes))
    return fb.wrong(_say("optimised_bad", pass_=pass_name), hint)


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
