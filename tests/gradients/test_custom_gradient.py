"""tf.custom_gradient eagerly, traced, inside a tf.function called under a tape, with variables.

Expected gradients are the user's grad_fn worked out by hand (they differ on purpose from
the true derivative, so a test would fail if the custom rule were bypassed).
"""

from __future__ import annotations

import numpy as np
import pytest

import tfgraph_edu as tf


@tf.custom_gradient
def log1pexp(x):
    e = tf.exp(x)

    def grad(upstream):
        return upstream * (1 - 1 / (1 + e))
    return tf.math.log(1 + e), grad


@tf.custom_gradient
def clip_gradients(y):
    def backward(dy):
        return tf.minimum(dy, 0.5)
    return y, backward


def test_numerically_stable_gradient_eagerly():
    x = tf.constant(100.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = log1pexp(x)
    assert float(tape.gradient(y, x)) == 1.0  # the plain rule would give nan


def test_custom_rule_is_used_not_the_ops_rule():
    v = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        out = clip_gradients(v * v)
    assert float(tape.gradient(out, v)) == 0.5 * 2 * 2.0


def test_inside_a_tf_function_with_the_tape_inside():
    @tf.function
    def grad(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = log1pexp(x)
        return tape.gradient(y, x)

    assert float(grad(tf.constant(100.0))) == 1.0
    g = grad.get_concrete_function(tf.constant(1.0)).graph
    ops = [op for op in g.get_operations() if op.type == "IdentityN"]
    assert ops and ops[0].get_attr("_gradient_op_type").startswith("CustomGradient-")


def test_tf_function_called_eagerly_under_a_tape_uses_the_custom_rule():
    f = tf.function(lambda x: clip_gradients(x * 3.0))
    x = tf.constant(1.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    assert float(tape.gradient(y, x)) == 0.5 * 3.0


def test_second_derivative_through_the_custom_rule():
    @tf.custom_gradient
    def cube(x):
        def grad(dy):
            return dy * 3.0 * x * x
        return x * x * x, grad

    x = tf.constant(2.0)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = cube(x)
        dy = inner.gradient(y, x)
    assert float(dy) == 12.0 and float(outer.gradient(dy, x)) == 12.0


def test_several_inputs_and_outputs():
    @tf.custom_gradient
    def f(a, b):
        def grad(da, db):
            return da * 10.0 + db, da * 100.0
        return (a * b, a + b), grad

    a, b = tf.constant(1.0), tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch([a, b])
        p, s = f(a, b)
        total = p + 2.0 * s
    ga, gb = tape.gradient(total, [a, b])
    assert float(ga) == 10.0 + 2.0 and float(gb) == 100.0


def test_variables_are_passed_to_grad_fn():
    w = tf.Variable(3.0)

    @tf.custom_gradient
    def scale(x):
        def grad(dy, variables=None):
            assert len(variables) == 1 and variables[0] is w
            return dy * 10.0, [dy * 100.0]
        return x * w, grad

    x = tf.constant(2.0)
    for run in (lambda x: scale(x), tf.function(lambda x: scale(x))):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = run(x)
        gx, gw = tape.gradient(y, [x, w])
        assert float(gx) == 10.0 and float(gw) == 100.0


def test_grad_fn_without_variables_argument_is_refused():
    w = tf.Variable(3.0)

    @tf.custom_gradient
    def scale(x):
        def grad(dy):
            return dy
        return x * w, grad

    with pytest.raises(TypeError, match="grad_fn must accept keyword argument 'variables'"):
        scale(tf.constant(1.0))


def test_wrong_number_of_gradients_is_refused():
    @tf.custom_gradient
    def f(a, b):
        def grad(dy):
            return dy
        return a * b, grad

    a, b = tf.constant(1.0), tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(a)
        y = f(a, b)
    with pytest.raises(ValueError, match="expected to return 2 gradients, but returned 1"):
        tape.gradient(y, a)


def test_gradient_matches_the_true_derivative_where_it_should():
    xs = np.linspace(-3, 3, 7).astype(np.float32)
    x = tf.constant(xs)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = log1pexp(x)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), 1 / (1 + np.exp(-xs)), rtol=1e-6)


def test_custom_rule_closing_over_forward_tensors_in_a_tf_function():
    f = tf.function(log1pexp)
    x = tf.constant(100.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    assert float(tape.gradient(y, x)) == 1.0
