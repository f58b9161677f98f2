"""A tf.function called eagerly under a GradientTape is one recorded op with a traced gradient.

Expected values are derivatives worked out by hand (numpy), never read from our code.
"""

from __future__ import annotations

import numpy as np
import pytest

import tfgraph_edu as tf


def test_issue_example_variable_argument():
    v = tf.Variable(2.0)

    @tf.function
    def add(a, b):
        return a + b

    with tf.GradientTape() as tape:
        y = add(v, 1.0)
    assert float(tape.gradient(y, v)) == 1.0


def test_captured_variables_and_watched_tensor():
    w = tf.Variable([[1.0], [2.0]])
    b = tf.Variable(0.5)
    x = tf.constant([[1.0, 3.0], [2.0, -1.0]])

    @tf.function
    def f(x):
        return tf.reduce_sum(tf.square(tf.matmul(x, w) + b))

    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    gw, gb, gx = tape.gradient(y, [w, b, x])
    xn, wn = x.numpy(), w.numpy()
    r = xn @ wn + 0.5
    np.testing.assert_allclose(gw.numpy(), xn.T @ (2 * r))
    np.testing.assert_allclose(gb.numpy(), np.sum(2 * r))
    np.testing.assert_allclose(gx.numpy(), (2 * r) @ wn.T)


def test_module_whose_call_is_a_tf_function_trains():
    class Linear(tf.Module):
        def __init__(self):
            self.w = tf.Variable(5.0)
            self.b = tf.Variable(0.0)

        @tf.function
        def __call__(self, x):
            return self.w * x + self.b

    rng = np.random.default_rng(0)
    xs = rng.normal(size=100).astype(np.float32)
    ys = (3.0 * xs + 2.0).astype(np.float32)
    model = Linear()
    for _ in range(100):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(model(tf.constant(xs)) - ys))
        dw, db = tape.gradient(loss, [model.w, model.b])
        model.w.assign_sub(0.1 * dw)
        model.b.assign_sub(0.1 * db)
    assert abs(float(model.w) - 3.0) < 1e-2 and abs(float(model.b) - 2.0) < 1e-2


def test_persistent_tape_and_several_gradients():
    x = tf.constant(3.0)

    @tf.function
    def f(x):
        return x * x, tf.sin(x)

    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        sq, s = f(x)
    assert float(tape.gradient(sq, x)) == 6.0
    np.testing.assert_allclose(float(tape.gradient(s, x)), np.cos(3.0), rtol=1e-6)
    np.testing.assert_allclose(float(tape.gradient([sq, s], x)), 6.0 + np.cos(3.0), rtol=1e-6)


def test_nested_tapes_give_second_and_third_derivatives():
    x = tf.constant(1.5)

    @tf.function
    def f(x):
        return x * x * x + tf.exp(x)

    with tf.GradientTape() as t3:
        t3.watch(x)
        with tf.GradientTape() as t2:
            t2.watch(x)
            with tf.GradientTape() as t1:
                t1.watch(x)
                y = f(x)
            d1 = t1.gradient(y, x)
        d2 = t2.gradient(d1, x)
    d3 = t3.gradient(d2, x)
    e = np.exp(1.5)
    np.testing.assert_allclose(float(d1), 3 * 1.5**2 + e, rtol=1e-5)
    np.testing.assert_allclose(float(d2), 6 * 1.5 + e, rtol=1e-5)
    np.testing.assert_allclose(float(d3), 6 + e, rtol=1e-5)


def test_second_derivative_with_respect_to_a_variable():
    v = tf.Variable(2.0)

    @tf.function
    def f():
        return v * v * v

    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            y = f()
        dy = inner.gradient(y, v)
    assert float(dy) == 12.0 and float(outer.gradient(dy, v)) == 12.0


def test_function_calling_function():
    @tf.function
    def inner(x):
        return x * x

    @tf.function
    def outer(x):
        return inner(x) + inner(2.0 * x)

    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = outer(x)
    assert float(tape.gradient(y, x)) == 2 * 3.0 + 8 * 3.0


def test_if_and_while_inside_the_function():
    @tf.function
    def f(x):
        if x > 0:
            y = tf.sin(x) * x
        else:
            y = x
        i = tf.constant(0)
        while i < 3:
            y = y * x
            i += 1
        return y

    for xv in (0.7, -0.4):
        x = tf.constant(xv)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
        want = ((np.cos(xv) * xv + np.sin(xv)) * xv**3 + np.sin(xv) * xv * 3 * xv**2
                if xv > 0 else 4 * xv**3)
        np.testing.assert_allclose(float(tape.gradient(y, x)), want, rtol=1e-5)


def test_random_values_are_the_ones_differentiated():
    @tf.function
    def dropout(x):
        mask = tf.cast(tf.random.uniform([50]) > 0.5, tf.float32)
        return x * mask, mask

    x = tf.constant(np.ones(50, np.float32))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y, mask = dropout(x)
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), mask.numpy())


def test_side_effects_run_once_per_call():
    v = tf.Variable(1.0)
    counter = tf.Variable(0.0, trainable=False)

    @tf.function
    def step(x):
        counter.assign_add(1.0)
        return v * x

    with tf.GradientTape() as tape:
        y = step(tf.constant(2.0))
    assert float(tape.gradient(y, v)) == 2.0
    assert float(counter) == 1.0


def test_unconnected_inputs_and_structured_outputs():
    @tf.function
    def f(x, y, n):
        return {"a": x, "b": x * 2.0, "n": n, "pair": (x, x)}

    x, y = tf.constant(3.0), tf.constant(1.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, y])
        r = f(x, y, tf.constant(1))
    assert float(tape.gradient(r["a"], x)) == 1.0
    assert float(tape.gradient(r["pair"], x)) == 2.0
    assert float(tape.gradient([r["a"], r["b"], r["pair"]], x)) == 5.0
    assert tape.gradient(r["b"], y) is None
    assert float(tape.gradient(r["b"], y, unconnected_gradients="zero")) == 0.0


def test_concrete_function_called_directly():
    @tf.function
    def f(x):
        return tf.reduce_sum(x * x)

    cf = f.get_concrete_function(tf.TensorSpec([None], tf.float32))
    x = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = cf(x)
    assert tape.gradient(y, x).numpy().tolist() == [2.0, 4.0, 6.0]


def test_unwatched_call_is_not_recorded():
    @tf.function
    def f(x):
        return x * x

    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        y = f(x)
    assert tape.gradient(y, x) is None


def test_gradient_matches_eager_for_a_small_network():
    rng = np.random.default_rng(1)
    w1 = tf.Variable(rng.normal(size=(3, 4)).astype(np.float32))
    w2 = tf.Variable(rng.normal(size=(4, 1)).astype(np.float32))
    x = tf.constant(rng.normal(size=(5, 3)).astype(np.float32))

    def net(x):
        h = tf.nn.relu(tf.matmul(x, w1))
        return tf.reduce_mean(tf.tanh(tf.matmul(h, w2)))

    with tf.GradientTape() as tape:
        eager = net(x)
    want = tape.gradient(eager, [w1, w2])
    with tf.GradientTape() as tape:
        traced = tf.function(net)(x)
    got = tape.gradient(traced, [w1, w2])
    for a, b in zip(got, want):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("persistent", [False, True])
def test_backward_function_is_built_once(persistent):
    @tf.function
    def f(x):
        return x * 3.0

    x = tf.constant(1.0)
    cf = None
    for _ in range(3):
        with tf.GradientTape(persistent=persistent) as tape:
            tape.watch(x)
            y = f(x)
        assert float(tape.gradient(y, x)) == 3.0
        cf = f.get_concrete_function(x)
        first = cf._gradient.first()
        assert cf._gradient.first() is first


def test_gradient_of_a_variable_itself_is_one():
    v0 = tf.Variable(2.0)
    v1 = tf.Variable([1.0, 2.0])
    with tf.GradientTape() as tape:
        result = v0
    assert float(tape.gradient(result, v0)) == 1.0
    with tf.GradientTape() as tape:
        result = [v0, v1 * 3.0]
    g0, g1 = tape.gradient(result, [v0, v1])
    assert float(g0) == 1.0 and g1.numpy().tolist() == [3.0, 3.0]


def test_persistent_tape_differentiates_its_own_gradient_through_a_call():
    @tf.function
    def f(x):
        return x * x * x

    x = tf.constant(2.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = f(x)
        dy = tape.gradient(y, x)
    assert float(dy) == 12.0 and float(tape.gradient(dy, x)) == 12.0
