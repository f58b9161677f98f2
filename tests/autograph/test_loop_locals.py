"""Names first assigned in a tensor loop's body, on every path, and not read after the loop
are the body's own locals (not loop state), as in TensorFlow's AutoGraph."""

from __future__ import annotations

import pytest

import tfgraph_edu as tf


def test_a_gradient_tape_opened_in_each_iteration():
    w = tf.Variable(2.0)

    @tf.function
    def f(n):
        total = tf.constant(0.0)
        for i in tf.range(n):
            with tf.GradientTape() as tape:
                y = w * tf.cast(i, tf.float32)
            total += tape.gradient(y, w)
        return total

    assert float(f(tf.constant(4))) == 0.0 + 1.0 + 2.0 + 3.0


def test_a_name_assigned_in_both_branches_then_read_in_the_body():
    def g(n):
        s = 0
        for i in range(n):
            if i % 2 == 0:
                v = 1
            else:
                v = 2
            s += v
        return s

    traced = tf.function(g)
    assert int(traced(tf.constant(5))) == g(5) == 7



def test_a_name_only_the_body_defines_needs_one_iteration():
    @tf.function
    def last_double(n):
        for i in tf.range(n):
            x = i * 2
        return x

    assert int(last_double(tf.constant(3))) == 4
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="loop must iterate at least once to initialize x"):
        last_double(tf.constant(0))


def test_the_target_of_a_range_loop_that_never_ran_is_the_start():
    @tf.function
    def last(a, n):
        for i in tf.range(a, n):  # noqa: B007 - the target is what the test reads
            pass
        return i

    assert int(last(tf.constant(2), tf.constant(5))) == 4
    assert int(last(tf.constant(5), tf.constant(5))) == 5
