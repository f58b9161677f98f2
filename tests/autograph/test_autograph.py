"""AutoGraph: conversion behaviour, graph ops built, errors that teach, sources and caching."""

from __future__ import annotations

import logging

import numpy as np
import pytest

import tfgraph_edu as tf
from tfgraph_edu.autograph import conversion, operators


def _types(fn, *args):
    return [op.type for op in fn.get_concrete_function(*args).graph.get_operations()]


def test_python_condition_traces_one_branch_tensor_condition_traces_both(capsys):
    @tf.function
    def f(x, flag):
        if flag:
            print("python: true branch")
            y = x + 1
        else:
            print("python: false branch")
            y = x - 1
        if x > 0:
            print("tensor: true branch")
            y = y * 2
        else:
            print("tensor: false branch")
            y = -y
        return y

    assert int(f(tf.constant(3), True)) == 8
    assert capsys.readouterr().out == ("python: true branch\ntensor: true branch\n"
                                       "tensor: false branch\n")
    assert int(f(tf.constant(-3), True)) == 2  # same trace: nothing printed
    assert capsys.readouterr().out == ""
    assert _types(f, tf.constant(1), True).count("StatelessIf") == 1


def test_loops_become_while_ops_or_unroll():
    @tf.function
    def over_tf_range(n):
        s = 0
        for i in tf.range(n):
            s += i
        return s

    @tf.function
    def over_python_range(x):
        for _ in range(3):
            x = x * 2
        return x

    assert int(over_tf_range(tf.constant(5))) == 10
    assert "StatelessWhile" in _types(over_tf_range, tf.constant(5))
    assert int(over_python_range(tf.constant(1))) == 8
    types = _types(over_python_range, tf.constant(1))
    assert types.count("Mul") == 3 and "StatelessWhile" not in types


def test_for_over_a_tensor_iterates_its_first_dimension():
    @tf.function
    def total(rows):
        s = tf.zeros([2])
        for row in rows:
            s += row
        return s

    x = tf.constant([[1., 2.], [3., 4.], [5., 6.]])
    assert total(x).numpy().tolist() == [9., 12.]
    assert total(tf.constant([[1., 1.]])).numpy().tolist() == [1., 1.]


def test_ternary_and_logic_operators():
    @tf.function
    def f(x, y):
        a = x if x > y else y
        b = (x > 0 and y > 0) or not (x < -5)
        return a, b

    a, b = f(tf.constant(3), tf.constant(5))
    assert int(a) == 5 and bool(b)
    a, b = f(tf.constant(-7), tf.constant(-9))
    assert int(a) == -7 and not bool(b)


def test_state_changes_in_a_tensor_loop_with_tf_print(capsys):
    @tf.function
    def g(x):
        while tf.reduce_sum(x) > 1:
            tf.print(x)
            x = tf.tanh(x)
        return x

    out = g(tf.constant([2.0, 1.0]))
    want, steps = np.array([2.0, 1.0], np.float32), 0
    while want.sum() > 1:
        want, steps = np.tanh(want), steps + 1
    np.testing.assert_allclose(out.numpy(), want, rtol=1e-6)
    assert capsys.readouterr().err.count("\n") == steps == 5


def test_autograph_false_leaves_python_if_on_a_tensor_an_error():
    @tf.function(autograph=False)
    def f(x):
        if x > 0:
            return x
        return -x

    with pytest.raises(tf.errors.OperatorNotAllowedInGraphError,
                       match="Using a symbolic `tf.Tensor` as a Python `bool` is not allowed"):
        f(tf.constant(1))


def test_do_not_convert():
    @tf.autograph.experimental.do_not_convert
    def helper(x):
        if x > 0:
            return x
        return -x

    @tf.function
    def f(x):
        return helper(x)

    with pytest.raises(tf.errors.OperatorNotAllowedInGraphError):
        f(tf.constant(1))
    assert helper(2) == 2


# -- errors that teach ------------------------------------------------------------------------
def _error(fn, *args):
    with pytest.raises(Exception) as info:
        tf.function(fn)(*args)
    return info


def test_variable_defined_in_one_branch():
    def f(x):
        if x > 0:
            y = 1
        return y  # noqa: F821 - the point of the test

    info = _error(f, tf.constant(1))
    assert info.type is ValueError
    msg = str(info.value)
    assert msg.startswith("in user code:\n\n")
    assert "test_autograph.py" in msg and ", in f  *\n        if x > 0:\n" in msg
    assert "ValueError: 'y' must also be initialized in the else branch. " in msg
    assert msg.endswith("Assign 'y' before the if, or in both branches.")  # the fix


def test_return_in_only_one_branch():
    def f(x):
        if x > 0:
            return x

    info = _error(f, tf.constant(1))
    assert "the else branch must also have a return statement. " in str(info.value)
    assert str(info.value).endswith("(or after the if).")  # the fix, in one sentence


def test_branches_with_different_dtypes_and_none():
    def dtypes(x):
        if x > 0:
            y = 1
        else:
            y = 1.5
        return y

    assert "'y' has dtype int32 in the main branch, but dtype float32 in the else branch" in str(
        _error(dtypes, tf.constant(1)).value)

    def none(x):
        y = None
        if x > 0:
            y = x
        return y

    assert "'y' is None at the end of the else branch" in str(_error(none, tf.constant(1)).value)


def test_loop_variable_changes_dtype_or_shape():
    def dtype(x):
        y = 0
        while x > 0:
            y = 1.5
            x -= 1
        return y

    message = str(_error(dtype, tf.constant(3)).value)
    assert ("TypeError: 'y' has dtype int32 before the loop, but dtype float32 after one "
            "iteration. " in message)
    assert message.endswith("e.g. with tf.cast.")  # the fix, in one sentence

    def shape(x):
        v = tf.constant(0)
        for _ in tf.range(x):
            v = tf.stack([v, v])
        return v

    assert ("'v' has shape () before the loop, but shape (2,) after one iteration"
            in str(_error(shape, tf.constant(2)).value))


def test_loop_variable_read_before_defined():
    def f(n):
        i = 0
        while i < n:
            total = total + i  # noqa: F821
            i += 1
        return total  # noqa: F821

    assert "'total' must be defined before the loop." in str(_error(f, tf.constant(3)).value)


def test_tensor_break_in_a_python_for_loop():
    def f(x):
        for i in range(5):
            if x > i:
                break
            x += 1
        return x

    info = _error(f, tf.constant(2))
    assert ("break and return statements which depend on a TF condition are not supported in "
            "Python for loops. Did you intend to make it a TF loop?") in str(info.value)


def test_generator_functions_run_unconverted_with_a_warning(caplog):
    def gen(x):
        yield x

    with caplog.at_level(logging.WARNING, logger="tensorflow"):
        assert conversion.convertible(gen) is None
    assert "AutoGraph could not transform" in caplog.text and "yield" in caplog.text


@pytest.mark.parametrize("other_text", [False, True])
def test_unavailable_source_warns_and_runs_as_is(caplog, monkeypatch, other_text):
    if other_text:  # other text kept under "<string>" (Python 3.13 answers with it)
        import linecache
        monkeypatch.setitem(linecache.cache, "<string>",
                            (12, None, ["x = 1\n", "y = 2\n"], "<string>"))
    namespace: dict = {}
    exec("def made_by_exec(x):\n    return x + 1\n", namespace)  # no source anywhere
    with caplog.at_level(logging.WARNING, logger="tensorflow"):
        assert int(tf.function(namespace["made_by_exec"])(tf.constant(1))) == 2
    assert "could not get source code" in caplog.text
    assert "do_not_convert" in caplog.text


def test_large_unrolled_loop_warning(caplog, monkeypatch):
    monkeypatch.setattr(operators, "UNROLL_WARNING_ITERATIONS", 20)

    @tf.function
    def f(x):
        for _ in range(30):
            x = x + 1
        return x

    with caplog.at_level(logging.WARNING, logger="tensorflow"):
        assert int(f(tf.constant(0))) == 30
    assert "Large unrolled loop detected. Did you mean to use a TF loop?" in caplog.text


# -- sources, nesting, caching --------------------------------------------------------------------
def test_lambdas_nested_functions_and_methods_convert():
    scale = 3

    def outer(x):
        def inner(y):
            if y > 0:
                return y * scale
            return -y
        return inner(x)

    class Model:
        def __init__(self):
            self.k = 10

        @tf.function
        def __call__(self, x):
            if x > 0:
                return x * self.k
            return x

    relu = tf.function(lambda x: x if x > 0 else 0 * x)
    assert int(tf.function(outer)(tf.constant(2))) == 6
    assert int(tf.function(outer)(tf.constant(-2))) == 2
    assert int(Model()(tf.constant(2))) == 20
    assert int(relu(tf.constant(-4))) == 0 and int(relu(tf.constant(4))) == 4


def test_closures_see_current_values():
    state = {"k": 1}
    k = 2

    def f(x):
        if x > 0:
            return x * k + state["k"]
        return x

    converted = tf.autograph.to_graph(f)
    assert converted(5) == 11
    state["k"] = 100
    assert converted(5) == 110


def test_generated_lines_map_back_and_graph_nodes_remember_user_lines():
    @tf.function
    def f(x):
        if x > 0:
            y = x * 2
        else:
            y = x * 3
        return y

    cf = f.get_concrete_function(tf.constant(1))
    branch = cf.graph.get_operation_by_name("cond").get_attr("then_branch")
    mul = next(op for op in branch.graph.get_operations() if op.type == "Mul")
    filename, line, func = mul.source
    assert filename == __file__ and func == "f"
    import linecache
    assert linecache.getline(filename, line).strip() == "y = x * 2"


def test_conversion_is_cached_and_recorded():
    def f(x):
        return x + 1

    first = conversion.converted_entry(f)
    assert conversion.converted_entry(f) is first
    assert first.seconds > 0
    assert first.filename in __import__("linecache").cache


def test_iterating_a_symbolic_tensor_without_autograph():
    @tf.function(autograph=False)
    def f(x):
        total = 0
        for v in x:
            total += v
        return total

    with pytest.raises(tf.errors.OperatorNotAllowedInGraphError,
                       match="Iterating over a symbolic `tf.Tensor` is not allowed"):
        f(tf.constant([1, 2]))
    assert int(tf.function(f.python_function)(tf.constant([1, 2]))) == 3
