"""``tf.math.cumprod`` (op ``Cumprod``), ``tf.linalg.trace``, ``tf.broadcast_static_shape``
and ``tf.broadcast_dynamic_shape`` (op ``BroadcastArgs``): course material, issue 25 (the
Chinese course eat_tensorflow2_in_30_days 4-2).  Expected values recorded from TF 2.21."""

import numpy as np
import pytest

import tfgraph_edu as tf

X = [[1., 2., 3.], [4., 5., 6.]]


def test_cumprod_values_eagerly_and_in_a_function():
    def run():
        x = tf.constant(X)
        return [tf.math.cumprod(x, axis=1), tf.math.cumprod(x, exclusive=True),
                tf.math.cumprod(x, axis=1, reverse=True, exclusive=True),
                tf.math.cumprod(tf.range(1, 10))]
    want = [[[1., 2., 6.], [4., 20., 120.]], [[1., 1., 1.], [1., 2., 3.]],
            [[6., 3., 1.], [30., 6., 1.]], [1, 2, 6, 24, 120, 720, 5040, 40320, 362880]]
    for outs in (run(), tf.function(run)()):
        for got, w in zip(outs, want):
            assert got.numpy().tolist() == w
    assert outs[3].dtype == tf.int32


def test_cumprod_gradients_as_tf_and_central_differences():
    w = np.array([[1., 2., 3.], [1., 1., 1.]], np.float32)
    v = tf.Variable(X)
    with tf.GradientTape() as t:
        y = tf.reduce_sum(tf.math.cumprod(v, axis=1) * w)
    g = t.gradient(y, v).numpy()
    np.testing.assert_allclose(g, [[23., 11., 6.], [36., 28., 20.]])
    with tf.GradientTape() as t:
        y2 = tf.reduce_sum(tf.math.cumprod(v, axis=1, exclusive=True, reverse=True))
    np.testing.assert_allclose(t.gradient(y2, v).numpy(), [[0., 3., 3.], [0., 6., 6.]])

    x0 = np.array(X, np.float64)

    def f(a):
        return float(tf.reduce_sum(tf.math.cumprod(tf.constant(a), axis=1) * w))
    eps = 1e-4
    numeric = np.zeros_like(x0)
    for i in np.ndindex(x0.shape):
        d = np.zeros_like(x0)
        d[i] = eps
        numeric[i] = (f(x0 + d) - f(x0 - d)) / (2 * eps)
    np.testing.assert_allclose(g, numeric, rtol=1e-4)


def test_trace():
    assert float(tf.linalg.trace(tf.constant([[1.0, 2], [3, 4]]))) == 5.0
    out = tf.linalg.trace(tf.ones([2, 3, 3], tf.int32))
    assert out.dtype == tf.int32 and out.numpy().tolist() == [3, 3]
    assert float(tf.function(tf.linalg.trace)(tf.constant([[1.0, 2], [3, 4]]))) == 5.0


def test_broadcast_shapes():
    assert tf.broadcast_static_shape(tf.TensorShape([3]), tf.TensorShape([3, 1])).as_list() \
        == [3, 3]
    assert tf.broadcast_static_shape(tf.TensorShape([None, 1]), tf.TensorShape([4])) \
        .as_list() == [None, 4]
    c, d = tf.constant([1, 2, 3]), tf.constant([[1], [2], [3]])
    out = tf.broadcast_dynamic_shape(tf.shape(c), tf.shape(d))
    assert out.dtype == tf.int32 and out.numpy().tolist() == [3, 3]
    out = tf.broadcast_dynamic_shape([2, 1], tf.constant([4], tf.int64))
    assert out.dtype == tf.int64 and out.numpy().tolist() == [2, 4]


def test_broadcast_errors():
    with pytest.raises(ValueError, match=r"Incompatible shapes for broadcasting\. .* "
                                         r"Received: \(2,\) and \(3,\)\."):
        tf.broadcast_static_shape(tf.TensorShape([2]), tf.TensorShape([3]))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Incompatible shapes: \[2\] vs\. "
                                                             r"\[3\]"):
        tf.broadcast_dynamic_shape([2], [3])
