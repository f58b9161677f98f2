"""``tf.einsum`` with ``...`` (the tensor guides batch matmuls with it): values, shapes and a
gradient.  Expected values recorded once from TensorFlow 2.21.0 running the same calls."""

import numpy as np

import tfgraph_edu as tf


def test_ellipsis_equations_as_tf():
    a = tf.constant(np.arange(24.).reshape(2, 3, 4))
    b = tf.constant(np.arange(40.).reshape(2, 4, 5))
    out = tf.einsum("...ij,...jk->...ik", a, b)
    assert out.shape == (2, 3, 5) and float(tf.reduce_sum(out)) == 34860.0  # TF 2.21
    np.testing.assert_array_equal(tf.einsum("...i->...", a).numpy(),
                                  [[6., 22., 38.], [54., 70., 86.]])
    assert tf.einsum("i...->...", a).shape == (3, 4)
    assert tf.einsum("...ij->...ji", tf.ones([3, 4])).shape == (4, 3)
    assert tf.einsum("ij...,jk->ik...", tf.ones([2, 3, 7]), tf.ones([3, 4])).shape == (2, 4, 7)


def test_ellipsis_traced_and_differentiated():
    a = tf.Variable(np.ones((2, 3, 4), np.float32))
    b = tf.constant(np.full((2, 4, 5), 2.0, np.float32))

    @tf.function
    def f():
        return tf.reduce_sum(tf.einsum("...ij,...jk->...ik", a, b))

    with tf.GradientTape() as tape:
        y = f()
    assert float(y) == 240.0
    np.testing.assert_allclose(tape.gradient(y, a).numpy(), np.full((2, 3, 4), 10.0))
