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


# Every sentence a check can say, in the three languages (terms from the glossary).  Code is
# quoted between backticks; a key starting with "hint_" is a hint at the fix.
_TEXT = {
    "right": ("Right", "正確", "正确"),
    "not_yet": ("Not yet", "還沒通過", "还没通过"),
    "hint": ("Hint", "提示", "提示"),
    "all_right": ("All checks pass.", "全部檢查通過。", "全部检查通过。"),
    "not_function": ("`{name}` is not a tf.function (it is a `{kind}`).",
                     "`{name}` 不是 tf.function（它是 `{kind}`）。",
                     "`{name}` 不是 tf.function（它是 `{kind}`）。"),
    "is_function": ("`{name}` is a tf.function.", "`{name}` 是 tf.function。",
                    "`{name}` 是 tf.function。"),
    "hint_function": ("Decorate it with `@tf.function`, or wrap it: `f = tf.function(f)`.",
                      "加上 `@tf.function` 裝飾器，或寫成 `f = tf.function(f)`。",
                      "加上 `@tf.function` 装饰器，或写成 `f = tf.function(f)`。"),
    "raised": ("Calling `{name}{call}` raised `{error}`: {message}",
               "呼叫 `{name}{call}` 時發生 `{error}`：{message}",
               "调用 `{name}{call}` 时发生 `{error}`：{message}"),
    "hint_raised": ("Run `{name}{call}` in a cell of your own to read the whole error and the "
                    "line of your code it points at.",
                    "自己在一個儲存格裡執行 `{name}{call}`，就能看到完整的錯誤訊息和它指出的"
                    "程式碼行。",
                    "自己在一个单元格里运行 `{name}{call}`，就能看到完整的错误信息和它指出的"
                    "代码行。"),
    "traces_ok": ("`{name}` traced {n} time(s) for {calls} calls (at most {most} allowed).",
                  "`{name}` 在 {calls} 次呼叫中追蹤了 {n} 次（上限 {most} 次）。",
                  "`{name}` 在 {calls} 次调用中追踪了 {n} 次（上限 {most} 次）。"),
    "traces_bad": ("`{name}` traced {n} times for {calls} calls; at most {most} allowed. "
                   "Why it traced again: {reasons}",
                   "`{name}` 在 {calls} 次呼叫中追蹤了 {n} 次，最多只能 {most} 次。"
                   "重新追蹤的原因：{reasons}",
                   "`{name}` 在 {calls} 次调用中追踪了 {n} 次，最多只能 {most} 次。"
                   "重新追踪的原因：{reasons}"),
    "hint_retrace_python": ("A Python number or object is part of the trace key: each new "
                            "value traces a new graph. Pass it as a tensor "
                            "(`tf.constant(...)`), or declare an `input_signature`.",
                            "Python 的數字或物件是追蹤鍵的一部分：每換一個值就追蹤一張新的"
                            "計算圖。改傳張量（`tf.constant(...)`），或宣告 `input_signature`。",
                            "Python 的数字或对象是追踪键的一部分：每换一个值就追踪一张新的"
                            "计算图。改传张量（`tf.constant(...)`），或声明 `input_signature`。"),
    "hint_retrace_shape": ("Each new shape traces a new graph. Declare the shape once with "
                           "`input_signature=[tf.TensorSpec([None, ...], ...)]`: `None` is a "
                           "dimension that may change.",
                           "每個新形狀都會追蹤一張新的計算圖。用 "
                           "`input_signature=[tf.TensorSpec([None, ...], ...)]` 一次宣告形狀："
                           "`None` 表示可以變動的維度。",
                           "每个新形状都会追踪一张新的计算图。用 "
                           "`input_signature=[tf.TensorSpec([None, ...], ...)]` 一次声明形状："
                           "`None` 表示可以变动的维度。"),
    "hint_retrace": ("Read the reasons above: give every call the same kind of input (same "
                     "dtype, compatible shapes, tensors instead of Python values).",
                     "看看上面的原因：讓每次呼叫的輸入都是同一種（相同的資料型別、相容的形狀，"
                     "用張量而不是 Python 的值）。",
                     "看看上面的原因：让每次调用的输入都是同一种（相同的数据类型、兼容的形状，"
                     "用张量而不是 Python 的值）。"),
    "few_calls": ("`{name}` was called {n} time(s) by your cell; the exercise calls it {want} "
                  "times.",
                  "你的儲存格呼叫了 `{name}` {n} 次，練習要呼叫 {want} 次。",
                  "你的单元格调用了 `{name}` {n} 次，练习要调用 {want} 次。"),
    "hint_few_calls": ("Keep the calls of the exercise cell and change how `{name}` is "
                       "called or defined: the check reads what your own calls did.",
                       "保留練習儲存格裡的呼叫，改的是 `{name}` 的呼叫方式或定義：檢查讀的是"
                       "你自己的呼叫留下的紀錄。",
                       "保留练习单元格里的调用，改的是 `{name}` 的调用方式或定义：检查读的是"
                       "你自己的调用留下的记录。"),
    "has_op": ("The graph contains `{op}`.", "計算圖裡有 `{op}` 運算。",
               "计算图里有 `{op}` 运算。"),
    "lacks_op": ("The graph contains no `{op}`.", "計算圖裡沒有 `{op}` 運算。",
                 "计算图里没有 `{op}` 运算。"),
    "hint_lacks_op": ("List your graph's op types with "
                      "`[op.type for op in f.get_concrete_function(...).graph.get_operations()]` "
                      "and use the TensorFlow function that builds `{op}`.",
                      "用 `[op.type for op in f.get_concrete_function(...).graph.get_operations()]`"
                      " 列出計算圖的運算類型，再改用會建立 `{op}` 的 TensorFlow 函式。",
                      "用 `[op.type for op in f.get_concrete_function(...).graph.get_operations()]`"
                      " 列出计算图的运算类型，再改用会建立 `{op}` 的 TensorFlow 函数。"),
    "hint_loop": ("Loop over a tensor (`for i in tf.range(n):`) or with a tensor condition "
                  "(`while i < n:` with `i` a tensor): AutoGraph then builds one `While` op. "
                  "A loop over `range(n)` with a Python `n` is unrolled.",
                  "對張量迭代（`for i in tf.range(n):`），或用張量當條件（`while i < n:`，"
                  "`i` 是張量）：AutoGraph 就會建立一個 `While` 運算。對 Python 的 `n` 做 "
                  "`range(n)` 的迴圈會被展開。",
                  "对张量迭代（`for i in tf.range(n):`），或用张量当条件（`while i < n:`，"
                  "`i` 是张量）：AutoGraph 就会建立一个 `While` 运算。对 Python 的 `n` 做 "
                  "`range(n)` 的循环会被展开。"),
    "hint_cond": ("Keep an `if` whose condition is a tensor (`if x > 0:`): AutoGraph turns it "
                  "into an `If` op. `tf.maximum` or `tf.where` build no `If`.",
                  "保留條件是張量的 `if`（`if x > 0:`）：AutoGraph 會把它變成 `If` 運算。"
                  "`tf.maximum` 或 `tf.where` 不會建立 `If`。",
                  "保留条件是张量的 `if`（`if x > 0:`）：AutoGraph 会把它变成 `If` 运算。"
                  "`tf.maximum` 或 `tf.where` 不会建立 `If`。"),
    "hint_random": ("Draw the number with a random op inside the function "
                    "(`tf.random.uniform(...)`, `tf.random.normal(...)`): an op runs on every "
                    "call, Python's `random` only while tracing.",
                    "在函式裡用隨機運算產生數字（`tf.random.uniform(...)`、"
                    "`tf.random.normal(...)`）：運算每次呼叫都會執行，Python 的 `random` "
                    "只在追蹤時執行一次。",
                    "在函数里用随机运算产生数字（`tf.random.uniform(...)`、"
                    "`tf.random.normal(...)`）：运算每次调用都会运行，Python 的 `random` "
                    "只在追踪时运行一次。"),
    "hint_assign": ("Keep the state in a `tf.Variable` created outside the function and change "
                    "it inside with `assign`, `assign_add` or `assign_sub`: those are ops, run "
                    "on every call.",
                    "把狀態放在函式外面建立的 `tf.Variable` 裡，在函式裡用 `assign`、"
                    "`assign_add` 或 `assign_sub` 改它：這些是運算，每次呼叫都會執行。",
                    "把状态放在函数外面建立的 `tf.Variable` 里，在函数里用 `assign`、"
                    "`assign_add` 或 `assign_sub` 改它：这些是运算，每次调用都会运行。"),
    "unwanted_op": ("The graph still contains `{op}` ({count}×).",
                    "計算圖裡還有 {count} 個 `{op}` 運算。",
                    "计算图里还有 {count} 个 `{op}` 运算。"),
    "hint_unwanted_op": ("Build the result from smaller ops instead of `{op}`, as the exercise "
                         "describes.",
                         "不要用 `{op}`，照練習的說明用較小的運算組出結果。",
                         "不要用 `{op}`，照练习的说明用较小的运算组出结果。"),
    "no_unwanted_op": ("The graph contains no `{op}`.", "計算圖裡沒有 `{op}` 運算。",
                       "计算图里没有 `{op}` 运算。"),
    "size_ok": ("The graph has {n} ops (at most {most}).",
                "計算圖有 {n} 個運算（最多 {most} 個）。",
                "计算图有 {n} 个运算（最多 {most} 个）。"),
    "size_bad": ("The graph has {n} ops, more than {most}: something is unrolled.",
                 "計算圖有 {n} 個運算，超過 {most} 個：有東西展開了（多半是迴圈）。",
                 "计算图有 {n} 个运算，超过 {most} 个：有东西展开了（多半是循环）。"),
    "hint_size": ("Replace the Python loop with whole-tensor ops (a reduction with `axis=`), "
                  "or loop over a tensor with `tf.range`.",
                  "把 Python 迴圈換成對整個張量的運算（帶 `axis=` 的歸約），或用 `tf.range` "
                  "對張量迭代。",
                  "把 Python 循环换成对整个张量的运算（带 `axis=` 的归约），或用 `tf.range` "
                  "对张量迭代。"),
    "same_ok": ("`{name}{call}` gives `{got}`, as expected.",
                "`{name}{call}` 得到 `{got}`，和預期相同。",
                "`{name}{call}` 得到 `{got}`，和预期相同。"),
    "same_bad": ("`{name}{call}` gives `{got}`, expected `{want}`.",
                 "`{name}{call}` 得到 `{got}`，預期是 `{want}`。",
                 "`{name}{call}` 得到 `{got}`，预期是 `{want}`。"),
    "hint_same": ("Compare your formula with the exercise's, step by step: call `{name}` on "
                  "these inputs and print the intermediate tensors (`tf.print`).",
                  "把你的公式和練習的公式一步一步對照：用這些輸入呼叫 `{name}`，用 "
                  "`tf.print` 印出中間的張量。",
                  "把你的公式和练习的公式一步一步对照：用这些输入调用 `{name}`，用 "
                  "`tf.print` 打印中间的张量。"),
    "value_ok": ("`{name}` is `{got}`, as expected.", "`{name}` 是 `{got}`，和預期相同。",
                 "`{name}` 是 `{got}`，和预期相同。"),
    "value_bad": ("`{name}` is `{got}`, expected `{want}`.",
                  "`{name}` 是 `{got}`，預期是 `{want}`。",
                  "`{name}` 是 `{got}`，预期是 `{want}`。"),
    "hint_value": ("Run the exercise cell again from its first line (its variables start "
                   "fresh) and compare each step with the exercise's description.",
                   "從第一行重新執行練習的儲存格（變數會重新開始），再把每一步和練習的說明對照。",
                   "从第一行重新运行练习的单元格（变量会重新开始），再把每一步和练习的说明对照。"),
    "differ_ok": ("Two calls of `{name}` gave different values, as in eager execution.",
                  "`{name}` 呼叫兩次得到不同的值，和即時執行一樣。",
                  "`{name}` 调用两次得到不同的值，和即时执行一样。"),
    "differ_bad": ("Two calls of `{name}` gave the same value: it was fixed when the function "
                   "was traced.",
                   "`{name}` 呼叫兩次得到同一個值：這個值在追蹤時就被固定下來了。",
                   "`{name}` 调用两次得到同一个值：这个值在追踪时就被固定下来了。"),
    "shape_ok": ("`{name}{call}` has the shape of its input, `{shape}`.",
                 "`{name}{call}` 的形狀和輸入相同，是 `{shape}`。",
                 "`{name}{call}` 的形状和输入相同，是 `{shape}`。"),
    "shape_bad": ("`{name}{call}` has shape `{got}`, its input `{want}`.",
                  "`{name}{call}` 的形狀是 `{got}`，輸入的形狀卻是 `{want}`。",
                  "`{name}{call}` 的形状是 `{got}`，输入的形状却是 `{want}`。"),
    "hint_shape": ("Give the noise the input's shape (`tf.shape(x)`), or make it a scalar "
                   "(`[]`) so that it broadcasts.",
                   "讓雜訊的形狀和輸入相同（`tf.shape(x)`），或用純量（`[]`），讓它自動廣播。",
                   "让噪声的形状和输入相同（`tf.shape(x)`），或用标量（`[]`），让它自动广播。"),
    "sequence_ok": ("Calls of `{name}` returned `{got}`, as expected.",
                    "連續呼叫 `{name}` 得到 `{got}`，和預期相同。",
                    "连续调用 `{name}` 得到 `{got}`，和预期相同。"),
    "sequence_bad": ("Calls of `{name}` returned `{got}`, expected `{want}`.",
                     "連續呼叫 `{name}` 得到 `{got}`，預期是 `{want}`。",
                     "连续调用 `{name}` 得到 `{got}`，预期是 `{want}`。"),
    "hint_sequence": ("Each call starts from the state the previous one left (its variables): "
                      "follow what one call should change, and check that yours changes it.",
                      "每次呼叫都從上一次呼叫留下的狀態（變數）開始：想想一次呼叫應該改變什麼，"
                      "再檢查你的函式有沒有改變它。",
                      "每次调用都从上一次调用留下的状态（变量）开始：想想一次调用应该改变什么，"
                      "再检查你的函数有没有改变它。"),
    "optimised_ok": ("The optimiser's `{pass_}` pass changed {n} node(s): `{nodes}`.",
                     "最佳化器的 `{pass_}` 步驟改動了 {n} 個節點：`{nodes}`。",
                     "优化器的 `{pass_}` 步骤改动了 {n} 个节点：`{nodes}`。"),
    "optimised_bad": ("The optimiser's `{pass_}` pass found nothing to change.",
                      "最佳化器的 `{pass_}` 步驟沒有找到可以改動的地方。",
                      "优化器的 `{pass_}` 步骤没有找到可以改动的地方。"),
    "hint_folding": ("Constant folding computes an op whose inputs are all constants of the "
                     "graph, such as `tf.constant(9.0) / tf.constant(5.0)`; arithmetic Python "
                     "does on its own numbers never reaches the graph.",
                     "常數折疊會預先算好輸入全是計算圖常數的運算，例如 "
                     "`tf.constant(9.0) / tf.constant(5.0)`；Python 對自己的數字做的運算"
                     "不會進到計算圖裡。",
                     "常量折叠会预先算好输入全是计算图常量的运算，例如 "
                     "`tf.constant(9.0) / tf.constant(5.0)`；Python 对自己的数字做的运算"
                     "不会进到计算图里。"),
    "hint_pass": ("Read the optimiser's report "
                  "(`f.get_concrete_function(...).optimization_report`) "
                  "to see what each pass looks for.",
                  "讀一讀最佳化器的報告（`f.get_concrete_function(...).optimization_report`），"
                  "看每個步驟在找什麼。",
                  "读一读优化器的报告（`f.get_concrete_function(...).optimization_report`），"
                  "看每个步骤在找什么。"),
    "graphs_on": ("tf.functions run as graphs (`run_functions_eagerly` is `False`).",
                  "tf.function 以計算圖執行（`run_functions_eagerly` 為 `False`）。",
                  "tf.function 以计算图执行（`run_functions_eagerly` 为 `False`）。"),
    "graphs_off": ("`tf.config.run_functions_eagerly` is still `True`: every tf.function in "
                   "this kernel runs as plain Python.",
                   "`tf.config.run_functions_eagerly` 仍然是 `True`：這個核心裡所有的 "
                   "tf.function 都會以一般 Python 執行。",
                   "`tf.config.run_functions_eagerly` 仍然是 `True`：这个内核里所有的 "
                   "tf.function 都会以普通 Python 运行。"),
    "hint_graphs": ("It is a global switch: call `tf.config.run_functions_eagerly(False)` when "
                    "you are done debugging.",
                    "這是全域開關：除錯完記得呼叫 `tf.config.run_functions_eagerly(False)`。",
                    "这是全局开关：调试完记得调用 `tf.config.run_functions_eagerly(False)`。"),
    "not_checked": ("Not checked: {reason}. The check would run your code again, and that "
                    "would change what your program does.",
                    "沒有檢查：{reason}。檢查會再執行你的程式碼，改變你的程式的結果。",
                    "没有检查：{reason}。检查会再运行你的代码，改变你的程序的结果。"),
    "hint_not_checked": ("Take the effect out of the function for the exercise (write the file "
                         "or make the call in another cell), then check again.",
                         "做練習時先把這個效果移出函式（在別的儲存格寫檔案或呼叫），再檢查一次。",
                         "做练习时先把这个效果移出函数（在别的单元格写文件或调用），再检查一次。"),
    "declined_op": ("the graph runs `{detail}`, whose effects cannot be undone on this system",
                    "計算圖會執行 `{detail}`，在這個系統上無法復原其效果",
                    "计算图会运行 `{detail}`，在这个系统上无法复原其效果"),
    "declined_file": ("it writes to the file `{detail}`", "它會寫入檔案 `{detail}`",
                      "它会写入文件 `{detail}`"),
    "declined_call": ("it calls `{detail}`", "它會呼叫 `{detail}`", "它会调用 `{detail}`"),
    "declined_timeout": ("it ran longer than {detail} s", "執行超過 {detail} 秒",
                         "运行超过 {detail} 秒"),
    "array": ("{dtype} array of shape {shape}", "{dtype} 陣列，形狀 {shape}",
              "{dtype} 数组，形状 {shape}"),
}

# The gist of errors a learner's answer commonly raises, by pattern of the engine's (TF's)
# message: what the message says, and the hint at the fix.  Another message is quoted as it
# is in English; in Chinese only its class is named and the hint says how to read it.
_TEXT.update({
    "err_branch": ("`{v}` gets a value in one branch only; both branches of a graph's `If` "
                   "must give it one.",
                   "`{v}` 只在一個分支裡有值；計算圖的 `If` 兩個分支都必須給它值。",
                   "`{v}` 只在一个分支里有值；计算图的 `If` 两个分支都必须给它值。"),
    "hint_err_branch": ("Give `{v}` a value before the `if`, or in the other branch too.",
                        "在 `if` 之前先給 `{v}` 一個值，或在另一個分支也給它值。",
                        "在 `if` 之前先给 `{v}` 一个值，或在另一个分支也给它值。"),
    "err_shapes": ("the shapes of two tensors do not fit together.",
                   "兩個張量的形狀對不上。", "两个张量的形状对不上。"),
    "hint_err_shapes": ("Print the shapes (`x.shape`) of the tensors on the failing line, and "
                        "check the `axis=` of reductions.",
                        "印出出錯那一行各個張量的形狀（`x.shape`），並檢查歸約的 `axis=`。",
                        "打印出错那一行各个张量的形状（`x.shape`），并检查归约的 `axis=`。"),
    "err_arguments": ("the function was called with another number of arguments than it "
                      "takes.",
                      "呼叫時給的參數個數和函式定義的不一樣。",
                      "调用时给的参数个数和函数定义的不一样。"),
    "hint_err_arguments": ("Keep the parameters the exercise gives the function (the check "
                           "calls it the same way).",
                           "保留練習給這個函式的參數（檢查也用同樣的方式呼叫它）。",
                           "保留练习给这个函数的参数（检查也用同样的方式调用它）。"),
    "err_attribute": ("`{a}` does not exist there.", "那裡沒有 `{a}`。", "那里没有 `{a}`。"),
    "hint_err_attribute": ("Check the spelling; an API tfgraph_edu does not have yet is "
                           "reported this way, and the exercise can be solved without it.",
                           "檢查拼字；tfgraph_edu 還沒有的 API 也會這樣回報，不用它也能完成練習。",
                           "检查拼写；tfgraph_edu 还没有的 API 也会这样报告，不用它也能完成练习。"),
    "err_variable": ("the function creates a `tf.Variable` on every call.",
                     "函式每次呼叫都會建立新的 `tf.Variable`。",
                     "函数每次调用都会创建新的 `tf.Variable`。"),
    "err_numpy": ("a symbolic tensor of the graph was given to NumPy or Python.",
                  "把計算圖裡的符號張量交給了 NumPy 或 Python。",
                  "把计算图里的符号张量交给了 NumPy 或 Python。"),
    "hint_err_numpy": ("Inside a `tf.function` compute with TensorFlow ops (`tf.…`): NumPy "
                       "sees only the symbolic tensors of the trace, not numbers.",
                       "在 `tf.function` 裡請用 TensorFlow 的運算（`tf.…`）計算：NumPy 只看得到"
                       "追蹤時的符號張量，看不到數字。",
                       "在 `tf.function` 里请用 TensorFlow 的运算（`tf.…`）计算：NumPy 只看得到"
                       "追踪时的符号张量，看不到数字。"),
    "err_other": ("the message is TensorFlow's, in English.",
                  "錯誤訊息是 TensorFlow 的英文原文。", "错误信息是 TensorFlow 的英文原文。"),
})

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

# Predict, then run
_TEXT.update({
    "predict_none": ("No prediction yet: the cell above still says `prediction = ...`.",
                     "還沒有預測：上面的儲存格仍然是 `prediction = ...`。",
                     "还没有预测：上面的单元格仍然是 `prediction = ...`。"),
    "hint_predict_none": ("Replace `...` with your guess, run that cell, then run this one "
                          "again.",
                          "把 `...` 換成你的猜測，執行那個儲存格，再重新執行這一個。",
                          "把 `...` 换成你的猜测，运行那个单元格，再重新运行这一个。"),
    "predict_ok": ("You predicted `{p}`, and {seen}.", "你預測 `{p}`，結果{seen}。",
                   "你预测 `{p}`，结果{seen}。"),
    "predict_bad": ("You predicted `{p}`, but {seen}.", "你預測 `{p}`，但是{seen}。",
                    "你预测 `{p}`，但是{seen}。"),
    "seen_prints": ("the cell printed {n} line(s)", "儲存格印出了 {n} 行",
                    "单元格打印了 {n} 行"),
    "seen_traces": ("the cell traced {n} graph(s)", "儲存格追蹤了 {n} 張計算圖",
                    "单元格追踪了 {n} 张计算图"),
    "seen_value": ("the code gives `{v}`", "程式碼得到的是 `{v}`", "代码得到的是 `{v}`"),
    "seen_ops": ("the graph holds `{v}`", "計算圖裡有 `{v}`", "计算图里有 `{v}`"),
    "seen_missing": ("missing: `{v}`", "少了：`{v}`", "少了：`{v}`"),
    "seen_extra": ("not there: `{v}`", "其實沒有：`{v}`", "其实没有：`{v}`"),
    "hint_predict_prints": ("Python's `print` runs only while the function traces; "
                            "`tf.print` is an op of the graph and prints on every call. Count "
                            "the traces first.",
                            "Python 的 `print` 只在函式追蹤時執行；`tf.print` 是計算圖裡的運算，"
                            "每次呼叫都會印出。先數一數追蹤了幾次。",
                            "Python 的 `print` 只在函数追踪时运行；`tf.print` 是计算图里的运算，"
                            "每次调用都会打印。先数一数追踪了几次。"),
    "hint_predict_traces": ("A call traces when its input differs from every earlier call's "
                            "(a new shape or dtype, a new Python value). What traced here: "
                            "{reasons}",
                            "輸入和之前每次呼叫都不一樣（新的形狀或資料型別、新的 Python 值）時，"
                            "呼叫就會追蹤。這裡追蹤的原因：{reasons}",
                            "输入和之前每次调用都不一样（新的形状或数据类型、新的 Python 值）时，"
                            "调用就会追踪。这里追踪的原因：{reasons}"),
    "hint_predict_ops": ("The optimiser folds ops whose inputs are all constants into one "
                         "`Const` and prunes ops no output needs; open the optimiser's report "
                         "with `%%trace` to see each step.",
                         "最佳化器會把輸入全是常數的運算折疊成一個 `Const`，並剪掉沒有輸出需要的"
                         "運算；用 `%%trace` 打開最佳化器的報告，可以看到每一步。",
                         "优化器会把输入全是常量的运算折叠成一个 `Const`，并剪掉没有输出需要的"
                         "运算；用 `%%trace` 打开优化器的报告，可以看到每一步。"),
    "hint_predict_value": ("Run the code again under `%%trace` and follow what each line does "
                           "while tracing and on each call.",
                           "在 `%%trace` 下重新執行程式碼，看看每一行在追蹤時和每次呼叫時"
                           "做了什麼。",
                           "在 `%%trace` 下重新运行代码，看看每一行在追踪时和每次调用时"
                           "做了什么。"),
})


def _say(key: str, **values) -> str:
    text = _TEXT[key][LANGUAGES.index(language())]
    return text.format(**values)


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
