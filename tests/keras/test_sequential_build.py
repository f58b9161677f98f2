"""Sequential.build(input_shape) creates the layers' weights before any call, as Keras
documents; the function guide's fix for passing several models to one tf.function relies
on it ("call model.build(input_shape) to initialize all the weights")."""

import numpy as np
import pytest

import tfgraph_edu as tf


def test_build_creates_the_weights_with_the_input_shape():
    model = tf.keras.Sequential([tf.keras.layers.Dense(4), tf.keras.layers.Dense(2)])
    assert model.variables == () or len(model.variables) == 0
    model.build((None, 3))
    assert [tuple(v.shape) for v in model.variables] == [(3, 4), (4,), (4, 2), (2,)]
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    k1, b1, k2, b2 = (v.numpy() for v in model.variables)
    np.testing.assert_allclose(model(x).numpy(), (x @ k1 + b1) @ k2 + b2, rtol=1e-5)


def test_built_models_can_share_one_tf_function():
    @tf.function
    def run(model, x):
        return model(x)

    x = tf.ones([1, 3])
    unbuilt = [tf.keras.Sequential([tf.keras.layers.Dense(2)]) for _ in range(2)]
    run(unbuilt[0], x)
    with pytest.raises(ValueError, match="singleton tf.Variables"):
        run(unbuilt[1], x)  # the second model would create its weights while traced

    built = [tf.keras.Sequential([tf.keras.layers.Dense(2)]) for _ in range(2)]
    for model in built:
        model.build((None, 3))
    for model in built:
        kernel, bias = (v.numpy() for v in model.variables)
        np.testing.assert_allclose(run(model, x).numpy(), np.ones((1, 3)) @ kernel + bias,
                                   rtol=1e-6)
