"""``tf.keras.backend``'s legacy math helpers (course material, issue 25: handson-ml3 12 uses
``K = tf.keras.backend; K.square(K.transpose(t)) + 10``)."""

import numpy as np
import pytest

import tfgraph_edu as tf

K = tf.keras.backend
T = [[1., 2., 3.], [4., 5., 6.]]


def test_values_as_tf_eagerly_and_in_a_function():
    def run():
        t = tf.constant(T)
        return [K.square(K.transpose(t)) + 10, K.mean(t, axis=0),
                K.sum(t, axis=1, keepdims=True), K.abs(-t)[0], K.sqrt(t)[0], K.exp(t)[0, :1],
                K.square([1, 2]), K.mean(tf.constant([1, 2])), K.max(t), K.min(t, axis=1),
                K.dot(t, K.transpose(t))]
    # recorded from TF 2.21
    want = [[[11., 26.], [14., 35.], [19., 46.]], [2.5, 3.5, 4.5], [[6.], [15.]], [1., 2., 3.],
            [1., 1.4142135, 1.7320508], [2.7182817], [1, 4], 1, 6.0, [1., 4.],
            [[14., 32.], [32., 77.]]]
    for outs in (run(), tf.function(run)()):
        for got, w in zip(outs, want):
            np.testing.assert_allclose(got.numpy(), w, rtol=2e-6)
        assert outs[6].dtype == tf.int32 and outs[7].dtype == tf.int32


def test_constants_as_tf():
    assert K.epsilon() == 1e-07 and K.floatx() == "float32"  # recorded from TF 2.21


def test_dot_of_higher_ranks_is_refused_not_guessed():
    with pytest.raises(NotImplementedError, match="backend.dot"):
        K.dot(tf.ones([2, 3, 4]), tf.ones([4, 5]))


def test_the_square_has_a_gradient():
    x = tf.Variable([1.5, -2.0])
    with tf.GradientTape() as tape:
        y = K.sum(K.square(x))
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [3.0, -4.0])
