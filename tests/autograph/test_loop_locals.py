"""Names first assigned in a tensor loop's body, on every path, and not read after the loop
are the body's own locals (not loop state), as in TensorFlow's AutoGraph."""

from __future__ import annotations

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

