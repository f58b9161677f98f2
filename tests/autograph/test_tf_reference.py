"""AutoGraph behaviours pinned to what TensorFlow 2.21 does (found by
benchmarks/against_tf/differential.py; every expected value or error below came from TF)."""

from __future__ import annotations

import pytest

import tfgraph_edu as tf


def while_else(n):
    i = tf.constant(0)
    while i < n:
        i += 1
    else:
        i += 100
    return i


def for_else(n):
    s = tf.constant(0)
    for i in tf.range(n):
        s += i
    else:
        s += 100
    return s


def for_else_break(n):
    s = tf.constant(0)
    for i in tf.range(n):
        if i > 1:
            break
        s += i
    else:
        s += 100
    return s


def python_for_else(n):
    s = n
    for i in range(3):
        s += i
    else:
        s += 100
    return s


@pytest.mark.parametrize("fn,what", [
    (while_else, "Python `bool`"),
    (for_else, "Iterating over a symbolic"),
    (for_else_break, "Iterating over a symbolic"),
])
def test_a_tensor_loop_with_else_is_refused(fn, what):
    # TensorFlow 2.21 gives OperatorNotAllowedInGraphError: AutoGraph leaves a loop with an
    # else block unconverted ("Using a symbolic `tf.Tensor` as a Python `bool` is not allowed"
    # for the while, "Iterating over a symbolic `tf.Tensor` is not allowed" for the fors)
    with pytest.raises(tf.errors.OperatorNotAllowedInGraphError, match=what):
        tf.function(fn)(tf.constant(3))


def test_loops_with_else_run_as_python_eagerly_and_over_python_ranges():
    # TensorFlow 2.21 gives 103, 103 and 1 eagerly, and 106 for the Python range traced
    assert int(while_else(tf.constant(3))) == 103
    assert int(for_else(tf.constant(3))) == 103
    assert int(for_else_break(tf.constant(5))) == 1
    assert int(tf.function(python_for_else)(tf.constant(3))) == 106


def test_the_test_that_picks_a_tensor_while_leaves_no_op_in_the_graph():
    @tf.function
    def f(n):
        s = 0
        while s < n:
            s += 1
        return s

    types = [op.type for op in f.get_concrete_function(tf.constant(1)).graph.get_operations()]
    # TensorFlow 2.21 gives ['Placeholder', 'Const', 'Const', 'Const', 'StatelessWhile',
    # 'Identity']: the comparison lives only inside the loop's condition function
    assert "Greater" not in types and "Less" not in types
    assert types.count("StatelessWhile") == 1
    assert int(f(tf.constant(5))) == 5
