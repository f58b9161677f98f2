"""OnesLike/ZerosLike of a tensor whose shape is known fold to constants (Grappler does the
same); with an unknown dimension they stay and still compute the right values."""

from __future__ import annotations

import numpy as np

import tfgraph_edu as tf


def _types(cf):
    return {op.type for op in cf.optimized_graph.operations}


def test_known_shape_folds_and_values_match():
    f = tf.function(lambda x: (tf.ones_like(x) * 3.0 + x, tf.zeros_like(x) + 1.0))
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    a, b = f(x)
    np.testing.assert_array_equal(a.numpy(), np.array([[4, 5], [6, 7]], np.float32))
    np.testing.assert_array_equal(b.numpy(), np.ones((2, 2), np.float32))
    cf = f.get_concrete_function(x)
    assert not {"OnesLike", "ZerosLike"} & _types(cf)
    assert a.dtype is tf.float32


def test_unknown_shape_is_not_folded():
    f = tf.function(lambda x: tf.ones_like(x),
                    input_signature=[tf.TensorSpec([None], tf.int32)])
    assert f(tf.constant([5, 6, 7])).numpy().tolist() == [1, 1, 1]
    assert "OnesLike" in _types(f.get_concrete_function())


def test_gradient_seed_is_folded_in_a_train_step():
    w = tf.Variable([[0.5], [-1.0]])

    @tf.function
    def step(x):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(tf.matmul(x, w)))
        return tape.gradient(loss, w)

    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    g = step(x).numpy()
    xn = x.numpy()
    want = 2 * xn.T @ (xn @ np.array([[0.5], [-1.0]], np.float32)) / 2
    np.testing.assert_allclose(g, want, rtol=1e-6)
    assert "OnesLike" not in _types(step.get_concrete_function(x))
