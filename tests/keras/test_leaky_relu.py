"""``tf.keras.layers.LeakyReLU`` as Keras 3: ``negative_slope`` (default 0.3), ``alpha=`` its
deprecated name with a warning, a negative slope refused; recorded from TF 2.21."""

from __future__ import annotations

import numpy as np
import pytest

import tfgraph_edu as tf

X = [-3.0, -0.5, 0.0, 2.0]


def test_values_and_the_deprecated_alpha():
    with pytest.warns(UserWarning, match="Argument `alpha` is deprecated. Use `negative_slope` "
                                         "instead."):
        layer = tf.keras.layers.LeakyReLU(alpha=0.2)
    assert layer.negative_slope == 0.2
    np.testing.assert_allclose(np.asarray(layer(tf.constant(X))),
                               [-0.6000000238418579, -0.10000000149011612, 0.0, 2.0])
    np.testing.assert_allclose(np.asarray(tf.keras.layers.LeakyReLU()(tf.constant(X))),
                               [-0.9000000357627869, -0.15000000596046448, 0.0, 2.0])
    dense = tf.keras.layers.Dense(2, activation=layer, kernel_initializer="ones")
    np.testing.assert_allclose(dense(tf.constant([[-1.0, 0.25]])).numpy(),
                               [[-0.15000000596046448, -0.15000000596046448]])


def test_in_a_model_traced_and_its_gradient():
    model = tf.keras.Sequential([tf.keras.Input((2,)),
                                 tf.keras.layers.Dense(2, kernel_initializer="ones"),
                                 tf.keras.layers.LeakyReLU(negative_slope=0.1)])
    np.testing.assert_allclose(model(tf.constant([[-1.0, 0.25]])).numpy(),
                               [[-0.07500000298023224, -0.07500000298023224]])
    f = tf.function(lambda v: model(v))
    np.testing.assert_allclose(f(tf.constant([[-1.0, 0.25]])).numpy(),
                               [[-0.07500000298023224, -0.07500000298023224]])
    xv = tf.Variable([-1.0, 0.5])
    layer = tf.keras.layers.LeakyReLU(negative_slope=0.2)
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(layer(xv))
    np.testing.assert_allclose(tape.gradient(y, xv).numpy(), [0.20000000298023224, 1.0])


def test_negative_slope_refused():
    with pytest.raises(ValueError, match="cannot be None or negative value. Expected a float. "
                                         "Received: negative_slope=-1"):
        tf.keras.layers.LeakyReLU(negative_slope=-1)
