"""tf.linalg.svd against TensorFlow 2.21: TF's return order (s, u, v), shapes with
full_matrices and compute_uv, values, errors, and gradients.

Expected values were printed by TensorFlow 2.21 (run once under real TensorFlow).  The sign of
each singular vector is LAPACK's choice here and may differ from TensorFlow's, so u and v
are compared by absolute value and by the reconstruction u diag(s) vᵀ."""

from __future__ import annotations

import numpy as np
import pytest

import tfgraph_edu as tf

A = [[1., 2.], [3., 4.], [5., 7.]]
# TF 2.21: tf.linalg.svd(A)
TF_S = [10.191427230834961, 0.367137610912323]
TF_ABS_U = [[0.216784, 0.938923], [0.490454, 0.341463], [0.844073, 0.042735]]
TF_ABS_V = [[0.579753, 0.814792], [0.814792, 0.579753]]


@pytest.mark.parametrize("traced", [False, True])
def test_values_order_and_reconstruction(traced):
    def fn():
        return tf.linalg.svd(tf.constant(A))
    s, u, v = tf.function(fn)() if traced else fn()
    assert (s.shape, u.shape, v.shape) == ([2], [3, 2], [2, 2])
    np.testing.assert_allclose(s.numpy(), TF_S, rtol=1e-5)
    np.testing.assert_allclose(np.abs(u.numpy()), TF_ABS_U, atol=1e-5)
    np.testing.assert_allclose(np.abs(v.numpy()), TF_ABS_V, atol=1e-5)
    rebuilt = u.numpy() @ np.diag(s.numpy()) @ v.numpy().T
    np.testing.assert_allclose(rebuilt, A, atol=1e-5)


def test_shapes_as_tensorflow_gives_them():
    # TF 2.21: full_matrices=True gives (2,), (3, 3), (2, 2); compute_uv=False only s;
    # a [2, 2, 3] batch gives (2, 2), (2, 2, 2), (2, 3, 2)
    s, u, v = tf.linalg.svd(tf.constant(A), full_matrices=True)
    assert (s.shape, u.shape, v.shape) == ([2], [3, 3], [2, 2])
    np.testing.assert_allclose(u.numpy() @ u.numpy().T, np.eye(3), atol=1e-5)
    s = tf.linalg.svd(tf.constant(A), compute_uv=False)
    assert tf.is_tensor(s) and s.shape == [2]
    np.testing.assert_allclose(s.numpy(), TF_S, rtol=1e-5)
    assert [t.shape for t in tf.linalg.svd(tf.zeros([2, 2, 3]))] == [[2, 2], [2, 2, 2],
                                                                      [2, 3, 2]]
    graph = tf.function(lambda: tf.linalg.svd(tf.constant(A), compute_uv=False))()
    np.testing.assert_allclose(graph.numpy(), TF_S, rtol=1e-5)


def test_errors_as_tensorflow_2_21_raises_them():
    # TF 2.21: InvalidArgumentError "Input tensor 0 must have rank >= 2, got 1" eagerly,
    # ValueError "Shape must be at least rank 2 but is rank 1" when traced; int32 refused
    with pytest.raises(tf.errors.InvalidArgumentError, match="must have rank >= 2, got 1"):
        tf.linalg.svd(tf.constant([1., 2.]))
    with pytest.raises(ValueError, match="Shape must be at least rank 2 but is rank 1"):
        tf.function(lambda: tf.linalg.svd(tf.constant([1., 2.])))()
    with pytest.raises(tf.errors.InvalidArgumentError, match="int32"):
        tf.linalg.svd(tf.constant([[1, 2], [3, 4]]))


X = np.array(A, np.float64)
# TF 2.21's gradients of these two losses at A (float64)
TF_GRAD_S = [[-1.404372966224978, 1.2653207157741688], [0.8407865636790433, 0.003688700371349274],
             [0.5589933624060764, 0.6381934084441079]]
TF_GRAD_UV = [[-0.010696470108385162, 0.0363686661833499],
              [-0.046206321274950043, 0.0513526158705276],
              [-0.1031008889376871, 0.05523886896755133]]


def _loss_s(x):
    s, _, _ = tf.linalg.svd(x)
    return tf.reduce_sum(s * [1., 2.])


def _loss_uv(x):  # sign-invariant: |u| and |v|
    _, u, v = tf.linalg.svd(x)
    return (tf.reduce_sum(tf.abs(u[:, 0]) * [1., 2., 3.])
            + tf.reduce_sum(tf.abs(v[:, 1]) * [1., -1.]))


def _loss_s_only(x):
    return tf.reduce_sum(tf.linalg.svd(x, compute_uv=False) * [1., 2.])


def _grad(loss, x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = loss(x)
    return tape.gradient(y, x)


@pytest.mark.parametrize("loss,want", [(_loss_s, TF_GRAD_S), (_loss_uv, TF_GRAD_UV),
                                       (_loss_s_only, TF_GRAD_S)])
def test_gradients_match_tensorflow_and_central_differences(loss, want):
    eps = 1e-6
    numeric = np.zeros_like(X)
    for idx in np.ndindex(*X.shape):
        up, down = X.copy(), X.copy()
        up[idx] += eps
        down[idx] -= eps
        numeric[idx] = (float(loss(tf.constant(up))) - float(loss(tf.constant(down)))) / (2 * eps)
    for got in (_grad(loss, tf.constant(X)), tf.function(lambda x: _grad(loss, x))(tf.constant(X))):
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-7, atol=1e-9)
        np.testing.assert_allclose(got.numpy(), numeric, atol=1e-6)


def test_wide_matrix_gradient_matches_central_differences():
    x = np.array([[1.0, -2.0, 0.5], [0.3, 2.2, -1.0]])

    def loss(t):
        s, u, v = tf.linalg.svd(t)
        return tf.reduce_sum(s * [2., 1.]) + tf.reduce_sum(tf.abs(v) * [[1., 2.], [3., 4.],
                                                                        [5., 6.]])
    numeric = np.zeros_like(x)
    for idx in np.ndindex(*x.shape):
        up, down = x.copy(), x.copy()
        up[idx] += 1e-6
        down[idx] -= 1e-6
        numeric[idx] = (float(loss(tf.constant(up))) - float(loss(tf.constant(down)))) / 2e-6
    np.testing.assert_allclose(_grad(loss, tf.constant(x)).numpy(), numeric, atol=1e-6)


def test_full_matrices_gradient_of_a_non_square_matrix_says_it_is_missing():
    with pytest.raises(NotImplementedError, match="full_matrices=True for square matrices"):
        _grad(lambda t: tf.reduce_sum(tf.linalg.svd(t, full_matrices=True)[1]), tf.constant(X))
