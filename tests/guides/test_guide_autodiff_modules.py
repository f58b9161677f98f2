"""What autodiff, advanced_autodiff, basic_training_loops and intro_to_modules rely on that
this branch provides: nn/linalg ops with gradients, the Newton step, einsum diagonals,
Keras layers and models, checkpoints and Keras 3's file rules."""

from __future__ import annotations

import numpy as np
import pytest

import tfgraph_edu as tf


def test_softplus_gradient_is_sigmoid_and_unwatched_is_none():
    x0, x1 = tf.Variable(0.0), tf.Variable(10.0)
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        tape.watch(x1)
        ys = tf.reduce_sum(tf.math.sin(x0) + tf.nn.softplus(x1))
    grad = tape.gradient(ys, {"x0": x0, "x1": x1})
    assert grad["x0"] is None
    np.testing.assert_allclose(grad["x1"].numpy(), 1 / (1 + np.exp(-10.0)), rtol=1e-6)


def test_newton_step_with_linalg_solve_and_a_shape_product():
    w = tf.Variable([[1.0, 2.0], [0.5, -1.0]])
    n = tf.reduce_prod(w.shape)
    assert n.numpy() == 4
    h = tf.eye(int(n)) * 2.0 + tf.eye(int(n)) * 1e-3
    g = tf.reshape(w, [n, 1])
    update = tf.linalg.solve(h, g)
    np.testing.assert_allclose(update.numpy(), w.numpy().reshape(4, 1) / 2.001, rtol=1e-6)
    w.assign_sub(tf.reshape(update, w.shape))
    np.testing.assert_allclose(w.numpy(), np.array([[1.0, 2.0], [0.5, -1.0]]) * (1 - 1 / 2.001),
                               rtol=1e-5)


def test_einsum_selects_batch_diagonals():
    j = np.arange(2 * 3 * 2 * 4, dtype=np.float32).reshape(2, 3, 2, 4)
    got = tf.einsum("bxby->bxy", j).numpy()
    want = np.stack([j[b, :, b, :] for b in range(2)])
    np.testing.assert_array_equal(got, want)


def test_elu_layers_and_batch_normalization_in_a_tape():
    x = tf.random.normal([7, 5])
    layer1 = tf.keras.layers.Dense(8, activation=tf.nn.elu)
    bn = tf.keras.layers.BatchNormalization()
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(bn(layer1(x), training=True))
    g = tape.gradient(y, x)
    # the batch-normalised features sum to beta * n = 0 whatever x is: zero gradient
    np.testing.assert_allclose(g.numpy(), np.zeros((7, 5)), atol=1e-4)


def test_module_training_loop_converges():
    tf.random.set_seed(3)
    x = tf.cast(tf.linspace(-2, 2, 201), tf.float32)
    y = x * 3.0 + 2.0

    class Line(tf.Module):
        def __init__(self):
            super().__init__()
            self.w = tf.Variable(5.0)
            self.b = tf.Variable(0.0)

        def __call__(self, v):
            return self.w * v + self.b

    model = Line()
    assert [v.numpy() for v in model.variables] == [0.0, 5.0]  # b before w, as TF sorts
    for _ in range(200):
        with tf.GradientTape() as t:
            loss = tf.reduce_mean(tf.square(y - model(x)))
        dw, db = t.gradient(loss, [model.w, model.b])
        model.w.assign_sub(0.1 * dw)
        model.b.assign_sub(0.1 * db)
    assert abs(model.w.numpy() - 3.0) < 1e-3 and abs(model.b.numpy() - 2.0) < 1e-3


def test_keras_fit_with_a_function_loss_and_one_big_batch():
    # Recorded from TF 2.21 (Keras 3): the guide's ``tf.keras.losses.mean_squared_error`` is
    # gone (AttributeError; ``mse`` remains), and raw tf.Variables set on a Keras model are
    # not its weights: fit warns that nothing is trainable and the loss stays where it was.
    x = tf.cast(tf.linspace(-2, 2, 201), tf.float32)
    y = x * 3.0 + 2.0

    class LineKeras(tf.keras.Model):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.w = tf.Variable(5.0)
            self.b = tf.Variable(0.0)

        def call(self, v):
            return self.w * v + self.b

    assert not hasattr(tf.keras.losses, "mean_squared_error")
    with pytest.raises(AttributeError, match="mean_squared_error"):
        tf.keras.losses.mean_squared_error  # noqa: B018
    model = LineKeras()
    assert model.trainable_variables == []
    model.compile(run_eagerly=False, optimizer=tf.keras.optimizers.SGD(learning_rate=0.1),
                  loss=tf.keras.losses.mse)
    with pytest.warns(UserWarning, match="The model does not have any trainable weights."):
        history = model.fit(x, y, epochs=10, batch_size=1000, verbose=0)
    expected = np.mean((5.0 * x.numpy() - y.numpy()) ** 2)  # w and b never move
    np.testing.assert_allclose(history.history["loss"], [expected] * 10, rtol=1e-5)
    assert model.w.numpy() == 5.0 and model.b.numpy() == 0.0
    with pytest.raises(ValueError, match=r"\.weights\.h5"):
        model.save_weights("my_checkpoint")


def test_flexible_dense_builds_once_and_rejects_other_widths():
    class FlexibleDense(tf.keras.layers.Layer):
        def __init__(self, out_features, **kwargs):
            super().__init__(**kwargs)
            self.out_features = out_features

        def build(self, input_shape):
            self.w = tf.Variable(tf.random.normal([input_shape[-1], self.out_features]),
                                 name="w")
            self.b = tf.Variable(tf.zeros([self.out_features]), name="b")

        def call(self, inputs):
            return tf.matmul(inputs, self.w) + self.b

    # recorded from TF 2.21 (Keras 3): raw tf.Variables made in build are not the layer's
    # weights, before or after the first call; the summary counts no parameters
    layer = FlexibleDense(out_features=3)
    assert layer.variables == []
    layer(tf.constant([[2.0, 2.0, 2.0]]))
    assert layer.variables == []
    with pytest.raises(tf.errors.InvalidArgumentError, match="Matrix size-incompatible"):
        layer(tf.constant([[2.0, 2.0, 2.0, 2.0]]))
    inputs = tf.keras.Input(shape=[3])
    model = tf.keras.Model(inputs=inputs, outputs=FlexibleDense(2)(FlexibleDense(3)(inputs)))
    lines = []
    model.summary(print_fn=lines.append)
    assert " Total params: 0 (0.00 B)" in lines[0]
    with pytest.raises(ValueError, match="Invalid filepath extension"):
        model.save("exname_of_file")
