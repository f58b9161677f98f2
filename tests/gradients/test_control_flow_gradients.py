"""Gradients through If/While ops: variables read in branches and bodies, side effects.

Expected values are derivatives worked out by hand.
"""

from __future__ import annotations

import pytest

import tfgraph_edu as tf


def _cond_reading_variable(v):
    @tf.function
    def f(x):
        if x > 0:
            y = v * v * x
        else:
            y = x
        return y
    return f


def _loop_reading_variable(v):
    @tf.function
    def g(x):
        y = x
        for _ in tf.range(3):
            y = y * v
        return y
    return g


def test_variable_read_in_a_cond_branch_called_eagerly():
    v = tf.Variable(2.0)
    f = _cond_reading_variable(v)
    with tf.GradientTape() as tape:
        y = f(tf.constant(3.0))
    assert float(tape.gradient(y, v)) == 2 * 2.0 * 3.0
    with tf.GradientTape() as tape:
        y = f(tf.constant(-3.0))
    assert float(tape.gradient(y, v, unconnected_gradients="zero")) == 0.0


def test_variable_read_in_a_loop_body_called_eagerly():
    v = tf.Variable(2.0)
    g = _loop_reading_variable(v)
    with tf.GradientTape() as tape:
        y = g(tf.constant(3.0))
    assert float(tape.gradient(y, v)) == 3 * 3.0 * 2.0**2


def test_variable_read_in_a_branch_with_the_tape_inside_the_function():
    v = tf.Variable(2.0)
    f = _cond_reading_variable(v)
    g = _loop_reading_variable(v)

    @tf.function
    def grads(x):
        with tf.GradientTape(persistent=True) as tape:
            a = f(x)
            b = g(x)
        return tape.gradient(a, v), tape.gradient(b, v)

    ga, gb = grads(tf.constant(3.0))
    assert float(ga) == 12.0 and float(gb) == 36.0


def test_tf_cond_reading_a_variable_with_the_tape_inside_the_function():
    v = tf.Variable(1.5)

    @tf.function
    def grads(x):
        with tf.GradientTape() as tape:
            y = tf.cond(x > 0, lambda: tf.square(v) * x, lambda: x)
        return tape.gradient(y, v)

    assert float(grads(tf.constant(2.0))) == 2 * 1.5 * 2.0


def test_changing_the_variable_before_the_gradient_is_refused_not_wrong():
    v = tf.Variable(2.0)
    f = _cond_reading_variable(v)
    with tf.GradientTape(persistent=True) as tape:
        y = f(tf.constant(3.0))
    assert float(tape.gradient(y, v)) == 12.0
    v.assign(5.0)
    with pytest.raises(NotImplementedError, match="changed after"):
        tape.gradient(y, v)


def test_changing_a_variable_read_outside_control_flow_keeps_the_old_value():
    v = tf.Variable(2.0)

    @tf.function
    def f(x):
        return v * v * x

    with tf.GradientTape(persistent=True) as tape:
        y = f(tf.constant(3.0))
    v.assign(5.0)
    assert float(tape.gradient(y, v)) == 12.0  # the value read during the call


def test_writes_in_a_branch_are_not_repeated_by_the_gradient():
    w = tf.Variable(1.0)
    count = tf.Variable(0.0, trainable=False)

    @tf.function
    def f(x):
        if x > 0:
            count.assign_add(1.0)
            y = w * x
        else:
            y = x
        return y

    with tf.GradientTape() as tape:
        y = f(tf.constant(4.0))
    assert float(tape.gradient(y, w)) == 4.0
    assert float(count) == 1.0


def test_random_numbers_in_a_branch_are_refused():
    @tf.function
    def f(x):
        if x > 0:
            y = x * tf.random.uniform([])
        else:
            y = x
        return y

    x = tf.constant(1.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    with pytest.raises(NotImplementedError, match="RandomUniform"):
        tape.gradient(y, x)
