"""Keras as the guides use it: functional models, more layers, metrics, History, summary().

Expected numbers are numpy computations of each layer's documented formula; the summary's
table is Keras 3's format (box-drawing table, 33/24/15-wide columns, sizes in B/KB)."""

from __future__ import annotations

import numpy as np
import pytest

import tfgraph_edu as tf


def test_functional_model_replays_its_layers():
    inputs = tf.keras.Input(shape=[3])
    assert inputs.shape.as_list() == [None, 3]
    hidden = tf.keras.layers.Dense(4, activation="relu")
    out_layer = tf.keras.layers.Dense(2)
    model = tf.keras.Model(inputs=inputs, outputs=out_layer(hidden(inputs)))
    x = np.array([[2.0, 2.0, 2.0], [1.0, -1.0, 0.5]], np.float32)
    k1, b1, k2, b2 = (v.numpy() for v in model.variables)
    want = np.maximum(x @ k1 + b1, 0) @ k2 + b2
    np.testing.assert_allclose(model(x).numpy(), want, rtol=1e-6)
    assert [type(layer).__name__ for layer in model.layers] == ["InputLayer", "Dense", "Dense"]
    with pytest.raises(TypeError, match="KerasTensor cannot be used"):
        inputs + 1


def test_summary_prints_keras_table():
    inputs = tf.keras.Input(shape=(3,))
    x = tf.keras.layers.Dense(3, name="d1")(inputs)
    model = tf.keras.Model(inputs, tf.keras.layers.Dense(2, name="d2")(x), name="tiny")
    lines = []
    model.summary(print_fn=lines.append)
    text = lines[0].splitlines()
    assert text[0] == 'Model: "tiny"'
    assert text[1] == "┏" + "━" * 33 + "┳" + "━" * 24 + "┳" + "━" * 15 + "┓"
    assert text[2] == "┃ Layer (type)                    ┃ Output Shape           ┃       Param # ┃"
    assert text[4].startswith("│ input_layer")
    assert text[4].endswith("│ (None, 3)              │             0 │")
    assert text[6] == "│ d1 (Dense)                      │ (None, 3)              │            12 │"
    assert text[8] == "│ d2 (Dense)                      │ (None, 2)              │             8 │"
    assert text[-3:] == [" Total params: 20 (80.00 B)", " Trainable params: 20 (80.00 B)",
                         " Non-trainable params: 0 (0.00 B)"]


def test_sequential_with_input_builds_at_once_and_names_layers_as_keras():
    model = tf.keras.Sequential([tf.keras.Input(shape=(8, 8, 1)),
                                 tf.keras.layers.Conv2D(2, 3, activation="relu"),
                                 tf.keras.layers.MaxPooling2D(),
                                 tf.keras.layers.Flatten(),
                                 tf.keras.layers.Dense(3)])
    names = [layer.name.split("_")[0] for layer in model.layers]
    assert names[0] == "conv2d" and model.layers[1].name.startswith("max_pooling2d")
    assert model.layers[0].output.shape.as_list() == [None, 6, 6, 2]
    assert model.layers[1].output.shape.as_list() == [None, 3, 3, 2]
    assert model.layers[0].count_params() == 3 * 3 * 1 * 2 + 2


def test_conv2d_and_maxpool_layers_match_numpy():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(1, 4, 4, 2)).astype(np.float32)
    conv = tf.keras.layers.Conv2D(3, (2, 2), padding="same")
    y = conv(x).numpy()
    k, b = conv.kernel.numpy(), conv.bias.numpy()
    xp = np.pad(x, ((0, 0), (0, 1), (0, 1), (0, 0)))  # SAME for k=2: pad after
    want = np.zeros((1, 4, 4, 3))
    for i in range(4):
        for j in range(4):
            want[0, i, j] = np.tensordot(xp[0, i:i + 2, j:j + 2], k, axes=3) + b
    np.testing.assert_allclose(y, want, rtol=1e-5, atol=1e-6)
    pooled = tf.keras.layers.MaxPooling2D(pool_size=2)(x).numpy()
    np.testing.assert_array_equal(pooled, x.reshape(1, 2, 2, 2, 2, 2).max(axis=(2, 4)))


def test_batch_normalization_training_and_inference():
    x = np.array([[1.0, 10.0], [3.0, 14.0]], np.float32)
    bn = tf.keras.layers.BatchNormalization()
    out = bn(x, training=True).numpy()
    mean, var = x.mean(0), x.var(0)
    np.testing.assert_allclose(out, (x - mean) / np.sqrt(var + 1e-3), rtol=1e-5)
    np.testing.assert_allclose(bn.moving_mean.numpy(), 0.01 * mean, rtol=1e-5)
    np.testing.assert_allclose(bn.moving_variance.numpy(), 0.99 + 0.01 * var, rtol=1e-5)
    inference = bn(x, training=False).numpy()
    np.testing.assert_allclose(inference, (x - 0.01 * mean) / np.sqrt(
        0.99 + 0.01 * var + 1e-3), rtol=1e-5)
    assert [v.trainable for v in bn.variables] == [True, True, False, False]


def test_lstm_cell_and_rnn_match_numpy():
    rng = np.random.default_rng(1)
    x = rng.normal(size=(2, 3, 4)).astype(np.float32)
    cell = tf.keras.layers.LSTMCell(5)
    rnn = tf.keras.layers.RNN(cell, return_sequences=True)
    got = rnn(x).numpy()
    k, rk, b = cell.kernel.numpy(), cell.recurrent_kernel.numpy(), cell.bias.numpy()
    assert b.tolist() == [0.0] * 5 + [1.0] * 5 + [0.0] * 10  # unit_forget_bias

    def sig(v):
        return 1 / (1 + np.exp(-v))

    h, c = np.zeros((2, 5)), np.zeros((2, 5))
    for t in range(3):
        z = x[:, t] @ k + h @ rk + b
        i, f, g, o = np.split(z, 4, axis=-1)
        c = sig(f) * c + sig(i) * np.tanh(g)
        h = sig(o) * np.tanh(c)
        np.testing.assert_allclose(got[:, t], h, rtol=1e-5, atol=1e-6)


def test_lambda_reshape_and_functional_loss_in_compile():
    xs = np.linspace(-2, 2, 64).astype(np.float32)
    ys = xs ** 2 + 2 * xs - 5
    model = tf.keras.Sequential([
        tf.keras.layers.Lambda(lambda x: tf.stack([x, x ** 2], axis=1)),
        tf.keras.layers.Dense(1, kernel_initializer=tf.random.normal)])
    model.compile(loss=tf.keras.losses.MSE, optimizer=tf.keras.optimizers.SGD(learning_rate=0.05))
    history = model.fit(xs, ys, epochs=30, batch_size=16, verbose=0)
    assert isinstance(history, tf.keras.callbacks.History)
    assert history.epoch == list(range(30))
    assert history.history["loss"][-1] < history.history["loss"][0] / 5
    per_example = tf.keras.losses.MSE(np.ones((2, 3)), np.zeros((2, 3), np.float32))
    assert per_example.numpy().tolist() == [1.0, 1.0]
    r = tf.keras.layers.Reshape((2, 3))(np.arange(12, dtype=np.float32).reshape(2, 6))
    assert r.shape.as_list() == [2, 2, 3]


def test_metrics_mean_and_sparse_categorical_accuracy():
    m = tf.keras.metrics.Mean()
    assert m.result().numpy() == 0.0
    m.update_state([1.0, 2.0, 6.0])
    assert m.result().numpy() == 3.0
    m.update_state(5.0, sample_weight=3.0)
    np.testing.assert_allclose(m.result().numpy(), (9.0 + 15.0) / 6.0)
    m.reset_state()
    assert m.result().numpy() == 0.0
    acc = tf.keras.metrics.SparseCategoricalAccuracy()
    acc.update_state([[2], [1], [0]], [[0.1, 0.2, 0.7], [0.5, 0.4, 0.1], [0.9, 0.05, 0.05]])
    np.testing.assert_allclose(acc.result().numpy(), 2 / 3, rtol=1e-6)


def test_fit_on_a_dataset_with_accuracy_metric():
    rng = np.random.default_rng(2)
    x = rng.normal(size=(96, 4)).astype(np.float32)
    y = (x[:, 0] > 0).astype(np.int32)
    ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(32)
    model = tf.keras.Sequential([tf.keras.layers.Dense(2)])
    model.compile(optimizer=tf.keras.optimizers.Adam(0.1),
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"])
    history = model.fit(ds, epochs=10, verbose=0)
    assert set(history.history) == {"loss", "accuracy"}
    assert history.history["accuracy"][-1] > 0.9
    loss, accuracy = model.evaluate(x, y)
    assert accuracy > 0.9 and loss < history.history["loss"][0]


def test_save_and_load_weights(tmp_path):
    model = tf.keras.Sequential([tf.keras.Input(shape=(3,)), tf.keras.layers.Dense(2)])
    with pytest.raises(ValueError, match=r"must end in `.weights.h5`"):
        model.save_weights(str(tmp_path / "my_checkpoint"))
    path = str(tmp_path / "m.weights.h5")
    model.save_weights(path)
    other = tf.keras.Sequential([tf.keras.Input(shape=(3,)), tf.keras.layers.Dense(2)])
    other.load_weights(path)
    x = np.ones((1, 3), np.float32)
    np.testing.assert_array_equal(other(x).numpy(), model(x).numpy())


def test_functional_api_builds_custom_layers_eagerly_and_layer_repr():
    class Flexible(tf.keras.layers.Layer):
        def __init__(self, units, **kwargs):
            super().__init__(**kwargs)
            self.units = units

        def build(self, input_shape):  # random initial values need eager execution
            self.w = tf.Variable(tf.random.normal([input_shape[-1], self.units]))

        def call(self, x):
            return tf.matmul(x, self.w)

    inputs = tf.keras.Input(shape=[3])
    layer = Flexible(2, name="flex")
    model = tf.keras.Model(inputs=inputs, outputs=layer(inputs))
    x = np.ones((1, 3), np.float32)
    np.testing.assert_allclose(model(x).numpy(), x @ layer.w.numpy(), rtol=1e-6)
    assert repr(layer) == "<Flexible name=flex, built=True>"


def test_whole_model_files_follow_keras3_naming_rules(tmp_path):
    model = tf.keras.Sequential([tf.keras.Input(shape=(3,)), tf.keras.layers.Dense(2)])
    with pytest.raises(ValueError, match="Invalid filepath extension for saving"):
        model.save(str(tmp_path / "exname_of_file"))
    with pytest.raises(ValueError, match="File format not supported"):
        tf.keras.models.load_model(str(tmp_path / "exname_of_file"))
    path = str(tmp_path / "m.keras")
    model.save(path)
    again = tf.keras.models.load_model(path)
    x = np.ones((2, 3), np.float32)
    np.testing.assert_array_equal(again(x).numpy(), model(x).numpy())
    with_lambda = tf.keras.Sequential([tf.keras.layers.Lambda(lambda v: v * 2),
                                       tf.keras.layers.Dense(1)])
    with_lambda(x)
    with_lambda.save(str(tmp_path / "l.keras"))  # saving works; loading would need code
    with pytest.raises(ValueError, match="Lambda"):
        tf.keras.models.load_model(str(tmp_path / "l.keras"))
