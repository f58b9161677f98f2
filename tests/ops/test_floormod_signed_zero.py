"""Float ``FloorMod`` keeps TF's signed zero (course material, issue 25: the Chinese course
eat_tensorflow2_in_30_days 4-2 prints ``a % 3`` with ``-0.``)."""

import numpy as np

import tfgraph_edu as tf

X = [-3., 3., -6., 6., 0., -0., 2.5, -2.5, 7., -7.]
# recorded from TF 2.21: tf.math.floormod(X, 3.) and tf.math.floormod(X, -3.)
BY_3 = [-0., 0., -0., 0., 0., -0., 2.5, 0.5, 1., 2.]
BY_MINUS_3 = [-0., 0., -0., 0., 0., -0., -0.5, -2.5, -2., -1.]


def _same_bits(got, want):
    got = np.asarray(got)
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(np.signbit(got), np.signbit(np.asarray(want, got.dtype)))


def test_eagerly_and_in_a_function():
    x = tf.constant(X)
    for fn in (lambda a, b: tf.math.floormod(a, b), tf.function(lambda a, b: a % b)):
        _same_bits(fn(x, tf.constant(3.)).numpy(), BY_3)
        _same_bits(fn(x, tf.constant(-3.)).numpy(), BY_MINUS_3)


def test_the_course_cell_prints_minus_zero():
    a = tf.constant([[1.0, 2], [-3, 4.0]])
    # recorded from TF 2.21
    assert repr(a % 3) == ("<tf.Tensor: shape=(2, 2), dtype=float32, numpy=\n"
                           "array([[ 1.,  2.],\n       [-0.,  1.]], dtype=float32)>")


def test_float64_and_integers():
    _same_bits(tf.math.floormod(tf.constant([-3., 0.], tf.float64), 3.).numpy(), [-0., 0.])
    assert (tf.constant([-4, 4, -5]) % 3).numpy().tolist() == [2, 1, 1]  # as Python


def test_gradient_is_unchanged():
    x = tf.Variable([-2.5, 4.0])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(x % 3.)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [1.0, 1.0])  # d(x mod c)/dx = 1
