"""GradientTape's API beyond gradient(): jacobian, batch_jacobian, what it watches, unconnected
gradients and tf.stop_gradient - as TensorFlow documents them."""

from __future__ import annotations

import numpy as np
import pytest

import tfgraph_edu as tf


def _numeric_jacobian(f, x, eps=1e-6):
    x = np.asarray(x, np.float64)
    y0 = np.asarray(f(x))
    jac = np.zeros(y0.shape + x.shape)
    for idx in np.ndindex(*x.shape):
        e = np.zeros_like(x)
        e[idx] = eps
        jac[(...,) + idx] = (np.asarray(f(x + e)) - np.asarray(f(x - e))) / (2 * eps)
    return jac


def test_jacobian_shape_and_values():
    xv = np.array([[0.5, -1.0, 2.0], [1.5, 0.2, -0.3]])
    wv = np.array([[1.0, 2.0], [0.5, -1.0], [3.0, 0.1]])
    x = tf.constant(xv)
    w = tf.Variable(wv)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.sigmoid(tf.matmul(x, w))
    jx, jw = tape.jacobian(y, [x, w])
    assert jx.shape.as_list() == [2, 2, 2, 3] and jw.shape.as_list() == [2, 2, 3, 2]

    def sig(a):
        return 1 / (1 + np.exp(-a))
    np.testing.assert_allclose(jx.numpy(), _numeric_jacobian(lambda a: sig(a @ wv), xv),
                               rtol=1e-5, atol=1e-9)
    np.testing.assert_allclose(jw.numpy(), _numeric_jacobian(lambda b: sig(xv @ b), wv),
                               rtol=1e-5, atol=1e-9)


def test_jacobian_of_a_tf_function_call_and_inside_a_tf_function():
    f = tf.function(lambda x: tf.sin(x) * x[0])
    xv = np.array([0.3, 1.2, -0.7])
    x = tf.constant(xv)
    want = _numeric_jacobian(lambda a: np.sin(a) * a[0], xv)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    np.testing.assert_allclose(tape.jacobian(y, x).numpy(), want, rtol=1e-6, atol=1e-9)

    @tf.function
    def jac(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.sin(x) * x[0]
        return tape.jacobian(y, x)
    np.testing.assert_allclose(jac(x).numpy(), want, rtol=1e-6, atol=1e-9)


def test_jacobian_unconnected_and_non_persistent_reuse():
    x, z = tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0, 5.0])
    with tf.GradientTape() as tape:
        tape.watch([x, z])
        y = x * 2.0
    jx, jz = tape.jacobian(y, [x, z])
    assert jz is None and jx.numpy().tolist() == [[2.0, 0.0], [0.0, 2.0]]
    with pytest.raises(RuntimeError, match="non-persistent GradientTape can only be used"):
        tape.jacobian(y, x)
    with tf.GradientTape() as tape:
        tape.watch([x, z])
        y = x * 2.0
    jz = tape.jacobian(y, z, unconnected_gradients=tf.UnconnectedGradients.ZERO)
    assert jz.shape.as_list() == [2, 3] and not jz.numpy().any()


def test_batch_jacobian_as_documented():
    with tf.GradientTape() as g:
        x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
        g.watch(x)
        y = x * x
    bj = g.batch_jacobian(y, x)
    assert bj.numpy().tolist() == [[[2, 0], [0, 4]], [[6, 0], [0, 8]]]


def test_batch_jacobian_is_the_diagonal_of_the_jacobian():
    rng = np.random.default_rng(3)
    xv = rng.normal(size=(4, 3))
    wv = rng.normal(size=(3, 5))
    x, w = tf.constant(xv), tf.constant(wv)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.tanh(tf.matmul(x, w))
    j = tape.jacobian(y, x).numpy()
    bj = tape.batch_jacobian(y, x).numpy()
    assert bj.shape == (4, 5, 3)
    np.testing.assert_allclose(bj, np.stack([j[b, :, b, :] for b in range(4)]), rtol=1e-12)
    assert float(tape.batch_jacobian(y * 0.0 + 1.0, tf.constant(xv)).numpy().sum()) == 0.0


def test_batch_jacobian_errors():
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.reduce_sum(x, axis=1)
        z = tf.concat([x, x], axis=0)
    with pytest.raises(ValueError, match=r"Shape \(2,\) must have rank at least 2"):
        tape.batch_jacobian(y, x)
    # TensorFlow puts the shapes' own parentheses inside its parentheses
    with pytest.raises(ValueError, match=r"Need first dimension of target shape \(\(4, 2\)\) "
                                         r"and source shape \(\(2, 2\)\) to match."):
        tape.batch_jacobian(z, x)


def test_watch_accessed_variables_false():
    x0, x1 = tf.Variable(0.0), tf.Variable(10.0)
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        tape.watch(x1)
        y = tf.math.sin(x0) + tf.tanh(x1 * 0.1)
        ys = tf.reduce_sum(y)
    grad = tape.gradient(ys, {"x0": x0, "x1": x1})
    assert grad["x0"] is None
    np.testing.assert_allclose(float(grad["x1"]), 0.1 * (1 - np.tanh(1.0) ** 2), rtol=1e-6)
    assert tape.watched_variables() == (x1,)

    a, b = tf.Variable(2.0), tf.Variable(3.0)
    f = tf.function(lambda: a * b)
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        tape.watch(a)
        y = f()
    assert float(tape.gradient(y, a)) == 3.0 and tape.watched_variables() == (a,)
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        y = f()
    assert tape.watched_variables() == ()
    assert tape.gradient(y, [a, b]) == [None, None]


def test_watched_variables_include_those_read_by_a_tf_function():
    a, b = tf.Variable(2.0), tf.Variable(3.0, trainable=False)
    f = tf.function(lambda x: a * b * x)
    with tf.GradientTape() as tape:
        f(tf.constant(1.0))
    assert tape.watched_variables() == (a,)


def test_unconnected_gradients_options():
    x, y = tf.constant([1.0, 2.0]), tf.constant(3.0)
    v = tf.Variable([[1.0, 2.0]])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, y])
        z = x * 2.0
    assert tape.gradient(z, [y, v]) == [None, None]
    gy, gv = tape.gradient(z, [y, v], unconnected_gradients="zero")
    assert float(gy) == 0.0 and gv.shape.as_list() == [1, 2] and not gv.numpy().any()
    gy, gv = tape.gradient(z, [y, v], unconnected_gradients=tf.UnconnectedGradients.ZERO)
    assert float(gy) == 0.0
    assert tape.gradient(z, y, unconnected_gradients=tf.UnconnectedGradients.NONE) is None
    with pytest.raises(ValueError, match="Unknown value for unconnected_gradients: 'nope'"):
        tape.gradient(z, y, unconnected_gradients="nope")


def test_integer_sources_get_none():
    x = tf.constant(3)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    assert tape.gradient(y, x) is None


def test_stop_gradient_eagerly_in_a_tf_function_and_through_a_call():
    x = tf.constant(2.0)

    def body(x):
        return x * x + tf.stop_gradient(x * x) * x

    want = 2 * 2.0 + 2.0 * 2.0  # d/dx of x*x + c*x with c = x*x held fixed
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = body(x)
    assert float(tape.gradient(y, x)) == want
    f = tf.function(body)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    assert float(tape.gradient(y, x)) == want

    @tf.function
    def inside(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = body(x)
        return tape.gradient(y, x)
    assert float(inside(x)) == want


def test_stop_gradient_on_a_variable_and_whole_output():
    v = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        y = tf.stop_gradient(v) * v
    assert float(tape.gradient(y, v)) == 3.0
    f = tf.function(lambda: tf.stop_gradient(v * v))
    with tf.GradientTape() as tape:
        y = f()
    assert tape.gradient(y, v) is None


def test_persistent_tape_gradient_inside_its_context_records_for_second_order(caplog):
    x = tf.constant(3.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x * x
        dy = tape.gradient(y, x)
    assert "inside its context is significantly less efficient" in caplog.text
    assert float(dy) == 27.0 and float(tape.gradient(dy, x)) == 18.0


def test_output_gradients_weight_the_targets():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    g = tape.gradient(y, x, output_gradients=tf.constant([10.0, 100.0]))
    assert g.numpy().tolist() == [20.0, 400.0]


def test_integer_watch_target_and_source_warn_as_tensorflow_does(caplog):
    x = tf.constant(10)
    with tf.GradientTape() as g:
        g.watch(x)
        y = x * x
    assert g.gradient(y, x) is None
    text = caplog.text
    assert ("The dtype of the watched tensor must be floating (e.g. tf.float32), got "
            "tf.int32") in text
    assert ("The dtype of the target tensor must be floating (e.g. tf.float32) when calling "
            "GradientTape.gradient, got tf.int32") in text
    assert ("The dtype of the source tensor must be floating (e.g. tf.float32) when calling "
            "GradientTape.gradient, got tf.int32") in text


def test_input_gradient_regularisation_through_relu_matches_differences():
    xv = np.array([[1.0, -2.0], [0.5, 3.0]])
    wv = np.array([[0.3, -0.7], [1.1, 0.4]])
    c = np.array([[1.0, 2.0]])
    x, w = tf.constant(xv), tf.Variable(wv)
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.reduce_sum(tf.nn.relu(tf.matmul(x, w)) * c)
        gx = inner.gradient(y, x)
        penalty = tf.reduce_sum(gx * gx)
    got = outer.gradient(penalty, w).numpy()

    def plain(wa):
        gxa = ((xv @ wa) > 0) * c @ wa.T
        return float((gxa ** 2).sum())
    eps = 1e-6
    want = np.zeros_like(wv)
    for idx in np.ndindex(*wv.shape):
        e = np.zeros_like(wv)
        e[idx] = eps
        want[idx] = (plain(wv + e) - plain(wv - e)) / (2 * eps)
    np.testing.assert_allclose(got, want, rtol=1e-6)


def test_hessian_as_the_jacobian_of_a_gradient():
    rng = np.random.default_rng(5)
    xv = rng.normal(size=(4, 3))
    kv = rng.normal(size=(3, 2))
    x, kernel = tf.constant(xv), tf.Variable(kv)

    def grad_of(k):
        h = np.tanh(xv @ k)
        return xv.T @ (2 * h * (1 - h ** 2)) / h.size  # d mean(tanh(xk)**2) / dk

    with tf.GradientTape() as t2:
        with tf.GradientTape() as t1:
            loss = tf.reduce_mean(tf.tanh(tf.matmul(x, kernel)) ** 2)
        g = t1.gradient(loss, kernel)
    hess = t2.jacobian(g, kernel).numpy()
    assert hess.shape == (3, 2, 3, 2)
    eps = 1e-6
    want = np.zeros((3, 2, 3, 2))
    for idx in np.ndindex(3, 2):
        e = np.zeros_like(kv)
        e[idx] = eps
        want[(...,) + idx] = (grad_of(kv + e) - grad_of(kv - e)) / (2 * eps)
    np.testing.assert_allclose(hess, want, rtol=1e-6, atol=1e-10)
    flat = hess.reshape(6, 6)
    np.testing.assert_allclose(flat, flat.T, atol=1e-12)


def test_jacobian_without_pfor_needs_a_persistent_tape():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    with pytest.raises(RuntimeError, match="must be created with persistent=True to compute "
                                           "the jacobian with eager execution enabled"):
        tape.jacobian(y, x, experimental_use_pfor=False)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x
    assert tape.jacobian(y, x, experimental_use_pfor=False).numpy().tolist() == [[2, 0], [0, 4]]
