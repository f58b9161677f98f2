"""The name ``tf.autograph.to_code`` gives the converted function (course material, issue 25)."""

import pytest

import tfgraph_edu as tf


def add_10(x):
    return x


def f_2_3(x):
    return x


def add10(x):
    return x


def a_1b(x):
    return x


def g_0(x):
    return x


def _1(x):
    return x


# recorded from TF 2.21: the first line of tf.autograph.to_code(f) for each function
@pytest.mark.parametrize("fn, first", [
    (add_10, "def tf__add(x):"), (f_2_3, "def tf__f_2(x):"), (add10, "def tf__add10(x):"),
    (a_1b, "def tf__a_1b(x):"), (g_0, "def tf__g(x):"), (_1, "def tf__(x):")])
def test_one_trailing_number_is_dropped(fn, first):
    assert tf.autograph.to_code(fn).split("\n")[0] == first


def test_the_scope_keeps_the_whole_name():
    # recorded from TF 2.21: FunctionScope('add_10', ...) keeps the name as written
    assert "FunctionScope('add_10', 'fscope'" in tf.autograph.to_code(add_10)


def test_a_converted_function_still_runs():
    @tf.function
    def add_1(x):
        for _ in tf.range(3):
            x += 1
        return x
    assert int(add_1(tf.constant(5))) == 8
