"""The exercise checks: they accept right answers, reject wrong ones with the engine's reasons,
never raise on the learner's mistakes, and answer in the notebook's language."""

from __future__ import annotations

import numpy as np
import pytest

import tfgraph_edu as tf
from tfgraph_edu import exercises as ex


@pytest.fixture(autouse=True)
def english():
    ex.set_language("en")
    yield
    ex.set_language(None)


def test_language_comes_from_the_notebook_folder(tmp_path, monkeypatch):
    ex.set_language(None)
    monkeypatch.delenv("TFGRAPH_EDU_LANG", raising=False)
    for lang in ("en", "zh-Hant", "zh-Hans"):
        (tmp_path / lang).mkdir()
        monkeypatch.chdir(tmp_path / lang)
        assert ex.language() == lang
    monkeypatch.chdir(tmp_path)
    assert ex.language() == "en"
    monkeypatch.setenv("TFGRAPH_EDU_LANG", "zh-Hant")
    assert ex.language() == "zh-Hant"
    with pytest.raises(ValueError):
        ex.set_language("fr")


def test_a_plain_function_is_not_a_tf_function():
    def f(x):
        return x
    fb = ex.is_tf_function(f)
    assert not fb.ok
    assert "@tf.function" in repr(fb)
    assert ex.is_tf_function(tf.function(f)).ok


def test_retracing_is_caught_with_the_engines_reason():
    @tf.function
    def f(x):
        return x * 2

    calls = [(tf.constant([1.0] * n),) for n in (1, 2, 3)]
    fb = ex.traces_at_most(f, calls, most=1)
    assert not fb.ok
    assert "traced 3 times" in repr(fb)
    assert "shape (2,)" in repr(fb)  # the reason recorded by the tracer

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def g(x):
        return x * 2

    assert ex.traces_at_most(g, calls, most=1).ok


def test_an_error_in_the_learners_code_becomes_feedback():
    @tf.function
    def f(x):
        return tf.matmul(x, x)

    fb = ex.traces_at_most(f, [(tf.constant([1.0, 2.0]),)])
    assert not fb.ok
    assert "raised `ValueError`" in repr(fb) and "MatMul" in repr(fb)  # TF's shape error


def test_graph_has_looks_inside_loop_bodies():
    @tf.function
    def unrolled(n):
        s = tf.constant(0)
        for i in range(n):
            s += i
        return s

    @tf.function
    def looped(n):
        s = tf.constant(0)
        for i in tf.range(n):
            s += i
        return s

    assert not ex.graph_has(unrolled, (20,), ops=[ex.LOOPS], max_ops=15).ok
    fb = ex.graph_has(looped, (tf.constant(20),), ops=[ex.LOOPS], max_ops=40)
    assert fb.ok, repr(fb)
    assert "AddV2" in ex.graph_ops(looped, tf.constant(20))  # the body's add


def test_same_results_against_numpy():
    @tf.function
    def mse(y_true, y_pred):
        return tf.reduce_mean(tf.square(y_true - y_pred))

    @tf.function
    def wrong(y_true, y_pred):
        return tf.reduce_sum(tf.square(y_true - y_pred))

    calls = [(tf.constant([1.0, 2.0, 3.0]), tf.constant([1.5, 2.0, 2.0]))]
    def reference(a, b):
        return np.mean((a - b) ** 2)
    assert ex.same_results(mse, reference, calls).ok
    fb = ex.same_results(wrong, reference, calls)
    assert not fb.ok and "expected `0.4167`" in repr(fb)


def test_calls_differ_and_returns_in_order():
    import random

    @tf.function
    def frozen():
        return tf.constant(random.random())

    @tf.function
    def fresh():
        return tf.random.uniform([])

    assert not ex.calls_differ(frozen).ok
    assert ex.calls_differ(fresh).ok

    v = tf.Variable(0)

    @tf.function
    def count():
        v.assign_add(1)
        return v.read_value()

    assert ex.returns_in_order(count, [1, 2, 3]).ok
    # a check observes without disturbing: the variable is as the learner left it, so the
    # same calls checked again give 1, 2 again
    assert v.numpy() == 0
    assert ex.returns_in_order(count, [1, 2]).ok
    assert not ex.returns_in_order(count, [2, 3]).ok


def test_optimised_reads_the_pass_report():
    @tf.function
    def folds(x):
        return x + tf.constant(2.0) * tf.constant(3.0)

    @tf.function
    def nothing(x):
        return x + 1.0

    assert ex.optimised(folds, (tf.constant(1.0),), "constant_folding").ok
    assert not ex.optimised(nothing, (tf.constant(1.0),), "constant_folding").ok


def test_run_functions_eagerly_must_be_switched_back():
    tf.config.run_functions_eagerly(True)
    try:
        assert not ex.runs_functions_as_graphs().ok
    finally:
        tf.config.run_functions_eagerly(False)
    assert ex.runs_functions_as_graphs().ok


def test_feedback_speaks_chinese_and_renders_html():
    ex.set_language("zh-Hant")
    fb = ex.is_tf_function(lambda x: x)
    assert "不是 tf.function" in repr(fb) and "提示" in repr(fb)
    ex.set_language("zh-Hans")
    fb = ex.all_of(ex.is_tf_function(tf.function(lambda x: x)))
    assert "全部检查通过" in repr(fb)
    assert "<script" not in ex.Feedback().wrong("<script>", "<b>")._repr_html_()
    assert "<b>" not in ex.Feedback().wrong("x", "<b>")._repr_html_()
    assert ex.say("a", "b", "c") == "c"


def test_traced_at_most_reads_what_the_learners_calls_did():
    @tf.function
    def step(x, lr):
        return x - lr * x

    for lr in (0.1, 0.05):
        step(tf.constant(1.0), lr)
    fb = ex.traced_at_most(step, 1)
    assert not fb.ok and "Python argument lr changed" in repr(fb)

    @tf.function
    def step2(x, lr):
        return x - lr * x

    for lr in (0.1, 0.05):
        step2(tf.constant(1.0), tf.constant(lr))
    assert ex.traced_at_most(step2, 1).ok


def test_value_is():
    assert ex.value_is("x", tf.constant([1.0, 2.0]), [1.0, 2.0]).ok
    fb = ex.value_is("x", tf.constant([1.0, 2.0]), [1.0, 2.5])
    assert not fb.ok and "expected `[1. , 2.5]`" in repr(fb)


def test_predict_counts_what_the_block_printed_and_traced(capsys):
    @tf.function
    def f(x):
        print("tracing")
        tf.print("running")
        return x

    with ex.predict(..., "prints") as none:
        f(tf.constant(1.0))
    assert not none.feedback.ok and none.feedback.hints  # no prediction yet, stable
    with ex.predict(1, "prints") as seen:  # traced already: only tf.print's line
        f(tf.constant(2.0))
    assert seen.feedback.ok, repr(seen.feedback)
    with ex.predict(1, "traces") as traced:
        f(tf.constant([1.0, 2.0]))  # a new shape
        f(tf.constant(3.0))
    assert traced.feedback.ok
    ex.set_language("zh-Hant")
    with ex.predict(0, "traces") as wrong:
        f(tf.constant([1.0, 2.0, 3.0]))
    text = repr(wrong.feedback)
    assert not wrong.feedback.ok and "形狀 (3,) 之前沒出現過" in text  # the engine's reason
    assert ex.PREDICTIONS[-1] == {"what": "traces", "predicted": 0, "seen": 1, "right": False}
    assert "tracing" in capsys.readouterr().out  # the block's output still shows


def test_check_prediction_compares_sets_and_values():
    assert ex.check_prediction({"Mul", "Const"}, {"Const", "Mul"}, "ops").ok
    fb = ex.check_prediction(["Mul"], {"Const", "Mul"}, "ops")
    assert not fb.ok and "missing: `{'Const'}`" in repr(fb)
    assert ex.check_prediction((3, 1), [3, 1]).ok
    assert not ex.check_prediction(2, tf.constant(3)).ok
