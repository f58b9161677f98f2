"""``keras.losses.CategoricalCrossentropy`` (the effective TF2 guide, issue 25).

Values recorded once from TensorFlow 2.21 + Keras 3 on the same inputs."""

import numpy as np
import pytest

import tfgraph_edu as tf


@pytest.mark.parametrize("kw, y_true, y_pred, expected", [
    ({"from_logits": True}, [[1, 0]], [[-1.0, 3.0]], 4.01815),
    ({}, [[0., 1., 0.], [0., 0., 1.]], [[0.05, 0.95, 0.], [0.1, 0.8, 0.1]], 1.1769392),
    ({"label_smoothing": 0.2}, [[0., 1., 0.], [0., 0., 1.]],
     [[0.05, 0.95, 0.], [0.1, 0.8, 0.1]], 1.7413325),
    ({"from_logits": True, "label_smoothing": 0.1}, [[0., 1.], [1., 0.]],
     [[2., 1.], [0.5, -1.]], 0.76983744),
    ({}, [[0., 1.]], [[2., 6.]], 0.2876821),  # probabilities rescaled to sum to 1
])
def test_values_as_keras(kw, y_true, y_pred, expected):
    loss = tf.keras.losses.CategoricalCrossentropy(**kw)(y_true, y_pred)
    assert loss.dtype == tf.float32 and loss.shape == ()
    np.testing.assert_allclose(loss.numpy(), expected, rtol=2e-6)
