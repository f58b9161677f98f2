"""``tf.map_fn``: eagerly, traced (one While op for any number of rows) and differentiated.
Every expected value was recorded once from TensorFlow 2.21.0 running the same calls."""

import numpy as np
import pytest

import tfgraph_edu as tf


def test_rows_mapped_and_stacked():
    x = tf.constant([[1., 2.], [3., 4.], [5., 6.]])
    np.testing.assert_array_equal(tf.map_fn(tf.reduce_sum, x).numpy(), [3., 7., 11.])
    doubled = tf.map_fn(lambda r: r * 2, x)
    assert doubled.shape == (3, 2) and doubled.dtype == tf.float32
    np.testing.assert_array_equal(doubled.numpy(), [[2., 4.], [6., 8.], [10., 12.]])


def test_structures_and_output_signature():
    a, b = tf.constant([1, 2]), tf.constant([10, 20])
    out = tf.map_fn(lambda t: t[0] * t[1], (a, b), fn_output_signature=tf.int32)
    np.testing.assert_array_equal(out.numpy(), [10, 40])  # TF 2.21: [10 40]
    pair = tf.map_fn(lambda t: (t, t * 2), a, fn_output_signature=(tf.int32, tf.int32))
    assert isinstance(pair, tuple)
    np.testing.assert_array_equal(pair[1].numpy(), [2, 4])
    half = tf.map_fn(lambda t: tf.cast(t, tf.float32) / 2, a, fn_output_signature=tf.float32)
    np.testing.assert_array_equal(half.numpy(), [0.5, 1.0])


def test_errors_as_tf():
    with pytest.raises(tf.errors.InvalidArgumentError, match="TensorArray dtype is int32"):
        tf.map_fn(lambda r: tf.cast(r, tf.float32), tf.constant([1, 2]))
    with pytest.raises(ValueError):  # TF: "The two structures don't have the same ..."
        tf.map_fn(lambda t: t[0] + t[1], (tf.constant([1, 2]), tf.constant([10, 20])))


def test_traced_once_for_any_number_of_rows():
    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
    def f(x):
        return tf.map_fn(tf.reduce_max, x)

    np.testing.assert_array_equal(f(tf.constant([[1., 9.], [4., 3.]])).numpy(), [9., 4.])
    np.testing.assert_array_equal(f(tf.constant([[1., 9.]])).numpy(), [9.])
    ops = [op.type for op in f.get_concrete_function().graph.get_operations()]
    assert sum(t.endswith("While") for t in ops) == 1  # TF 2.21: one While


def test_gradient_through_the_rows():
    x = tf.Variable([1., 2., 3.])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.map_fn(lambda r: r * r, x))
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [2., 4., 6.])  # TF 2.21
