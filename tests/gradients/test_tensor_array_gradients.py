"""Gradients through tf.TensorArray writes, reads, stack and unstack, eagerly and traced."""

from __future__ import annotations

import numpy as np

import tfgraph_edu as tf


def _squares_plus_read(x, ta_factory, loop):
    ta = ta_factory()
    for i in loop(3):
        ta = ta.write(i, x[i] * x[i])
    return tf.reduce_sum(ta.stack()) + ta.read(1) * 10.0


WANT = [2.0, 4.0 + 40.0, 6.0]  # d/dx of sum(x**2) + 10 * x[1]**2 at x = 1, 2, 3


def test_eager_writes_reads_and_stack():
    x = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = _squares_plus_read(x, lambda: tf.TensorArray(tf.float32, size=3), range)
    assert tape.gradient(y, x).numpy().tolist() == WANT


def test_traced_loop_called_eagerly_under_a_tape():
    @tf.function
    def f(x):
        return _squares_plus_read(
            x, lambda: tf.TensorArray(tf.float32, size=0, dynamic_size=True), tf.range)

    x = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    assert float(y) == 14.0 + 40.0
    assert tape.gradient(y, x).numpy().tolist() == WANT


def test_traced_loop_with_the_tape_inside():
    @tf.function
    def grad(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = _squares_plus_read(x, lambda: tf.TensorArray(tf.float32, size=3), tf.range)
        return tape.gradient(y, x)

    assert grad(tf.constant([1.0, 2.0, 3.0])).numpy().tolist() == WANT


def test_unstack_and_a_recurrence_match_central_differences():
    def rnn(xs, h):
        ta = tf.TensorArray(tf.float64, size=4).unstack(xs)
        out = tf.TensorArray(tf.float64, size=4)
        state = h
        for i in tf.range(4):
            state = tf.tanh(ta.read(i) + state * 0.5)
            out = out.write(i, state)
        return tf.reduce_sum(out.stack() * tf.constant([1.0, -2.0, 3.0, 0.5], tf.float64))

    def plain(xs, h):
        s, state = 0.0, h
        for i, c in enumerate([1.0, -2.0, 3.0, 0.5]):
            state = np.tanh(xs[i] + state * 0.5)
            s += c * state
        return s

    xs = np.array([0.3, -0.2, 0.5, 0.1])
    h = 0.7
    eps = 1e-6
    want_x = [(plain(xs + eps * e, h) - plain(xs - eps * e, h)) / (2 * eps) for e in np.eye(4)]
    want_h = (plain(xs, h + eps) - plain(xs, h - eps)) / (2 * eps)
    x, h0 = tf.constant(xs), tf.constant(h, tf.float64)
    for fn in (tf.function(rnn),):
        with tf.GradientTape() as tape:
            tape.watch([x, h0])
            y = fn(x, h0)
        gx, gh = tape.gradient(y, [x, h0])
        np.testing.assert_allclose(gx.numpy(), want_x, rtol=1e-6)
        np.testing.assert_allclose(float(gh), want_h, rtol=1e-6)


def test_element_read_twice_adds_gradients():
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        # read twice: eagerly TF needs clear_after_read=False for that (else the second read
        # is an error, tests/eager/test_tensor_array_eager.py)
        ta = tf.TensorArray(tf.float32, size=2, clear_after_read=False).write(0, x).write(
            1, 2.0 * x)
        y = ta.read(0) * ta.read(0) + ta.read(1)
    assert float(tape.gradient(y, x)) == 2 * 3.0 + 2.0
