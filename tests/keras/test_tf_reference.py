"""Keras behaviour pinned to TensorFlow 2.21 + Keras 3 (issue #25, "silent differences").

Every expected value or error below was recorded by running the same snippet under
TensorFlow 2.21.0 with Keras 3.15.1 (``/work/venv-tf``)."""

import numpy as np
import pytest

import tfgraph_edu as tf


def _dense(units=2, inputs=3, **kwargs):
    layer = tf.keras.layers.Dense(units, **kwargs)
    layer.build((None, inputs))
    return layer


# -- layer.trainable = False --------------------------------------------------------------

def test_freezing_a_layer_moves_its_weights_to_non_trainable():
    # TF 2.21: before 2 0 2 / frozen 0 2 0 2 False 2 / unfrozen 2 True
    d = _dense()
    assert (len(d.trainable_weights), len(d.non_trainable_weights),
            len(d.trainable_variables)) == (2, 0, 2)
    d.trainable = False
    assert (len(d.trainable_weights), len(d.non_trainable_weights),
            len(d.trainable_variables), len(d.non_trainable_variables)) == (0, 2, 0, 2)
    assert d.kernel.trainable is False and len(d.weights) == 2
    d.trainable = True
    assert len(d.trainable_weights) == 2 and d.kernel.trainable is True


def test_unfreezing_keeps_weights_created_non_trainable_non_trainable():
    # TF 2.21: BatchNormalization frozen 0 4; unfrozen 2 2
    bn = tf.keras.layers.BatchNormalization()
    bn.build((None, 3))
    bn.trainable = False
    assert (len(bn.trainable_weights), len(bn.non_trainable_weights)) == (0, 4)
    bn.trainable = True
    assert (len(bn.trainable_weights), len(bn.non_trainable_weights)) == (2, 2)


def test_a_layer_built_frozen_has_no_trainable_weights():
    # TF 2.21: Dense(2, trainable=False) built: 0 trainable weights, kernel.trainable False
    d = _dense(trainable=False)
    assert len(d.trainable_weights) == 0 and d.kernel.trainable is False


def test_tapes_still_watch_a_frozen_layers_weights():
    # TF 2.21: tape.watched_variables() -> ['dense_5/kernel:0', 'dense_5/bias:0']
    d = _dense(trainable=False)
    with tf.GradientTape() as tape:
        tf.reduce_sum(d(np.ones((1, 3), np.float32)))
    assert len(tape.watched_variables()) == 2


def test_freezing_a_model_freezes_every_layer_and_fit_leaves_frozen_weights_alone():
    # TF 2.21: model 2 2; frozen unchanged True, other changed True;
    # model frozen 0 4 False; model unfrozen 4 True
    tf.random.set_seed(0)
    m = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(4),
                             tf.keras.layers.Dense(1)])
    m.layers[0].trainable = False
    assert (len(m.trainable_weights), len(m.non_trainable_weights)) == (2, 2)
    m.compile("sgd", "mse")
    k0, k1 = m.layers[0].kernel.numpy().copy(), m.layers[1].kernel.numpy().copy()
    rng = np.random.default_rng(0)
    x, y = rng.random((8, 3)), rng.random((8, 1))
    m.fit(x, y, epochs=2, verbose=0)
    assert np.array_equal(k0, m.layers[0].kernel.numpy())
    assert not np.array_equal(k1, m.layers[1].kernel.numpy())
    m.trainable = False
    assert (len(m.trainable_weights), len(m.non_trainable_weights)) == (0, 4)
    assert m.layers[1].trainable is False
    m.trainable = True
    assert len(m.trainable_weights) == 4 and m.layers[0].trainable is True


def test_freezing_after_fit_takes_effect_at_the_next_compile():
    # TF 2.21 (Keras 3 keeps its traced train step until compile): after freezing and
    # compiling again, fit leaves the frozen kernel unchanged (difference all zeros)
    tf.random.set_seed(0)
    m = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(4),
                             tf.keras.layers.Dense(1)])
    rng = np.random.default_rng(0)
    x, y = rng.random((8, 3)), rng.random((8, 1))
    m.compile("sgd", "mse")
    m.fit(x, y, epochs=1, verbose=0)
    m.layers[0].trainable = False
    assert len(m.trainable_weights) == 2 and m.layers[0].kernel.trainable is False
    m.compile(tf.keras.optimizers.SGD(), "mse")
    k0 = m.layers[0].kernel.numpy().copy()
    m.fit(x, y, epochs=1, verbose=0)
    assert np.array_equal(k0, m.layers[0].kernel.numpy())


# -- NumPy inputs -------------------------------------------------------------------------

@pytest.mark.parametrize("value", [np.ones((1, 3)), np.ones((1, 3), np.int64)],
                         ids=["float64", "int64"])
def test_dense_on_numpy_returns_a_float32_tensor(value):
    # TF 2.21: Dense(2)(np.ones((1, 3))) -> EagerTensor float32 (also for an int64 array)
    out = _dense()(value)
    assert tf.is_tensor(out) and out.dtype == tf.float32 and out.shape == (1, 2)


def test_float64_tensors_are_cast_to_the_layers_dtype():
    # TF 2.21: Dense(2)(tf.ones((1, 3), tf.float64)).dtype -> float32
    assert _dense()(tf.ones((1, 3), tf.float64)).dtype == tf.float32


class _Identity(tf.keras.layers.Layer):
    def call(self, x):
        return x


def test_the_base_layer_has_no_call():
    # TF 2.21: NotImplementedError "... Layer Layer does not have a `call` method implemented."
    with pytest.raises(NotImplementedError, match="Layer Layer does not have a `call` method"):
        tf.keras.layers.Layer()(np.ones((2,), np.float32))


@pytest.mark.parametrize("layer, value, dtype", [
    (lambda: tf.keras.layers.Lambda(lambda x: x * 2), np.ones((2,)), tf.float32),
    (lambda: tf.keras.layers.Lambda(lambda x: x * 2), np.ones((2,), np.int32), tf.int32),
    (lambda: tf.keras.layers.Flatten(), np.ones((2, 2, 2)), tf.float32),
    (lambda: tf.keras.layers.Activation("relu"), np.ones((2,)), tf.float32),
    (lambda: _Identity(), np.float64(3.0), tf.float32),
], ids=["lambda-f64", "lambda-i32", "flatten", "activation", "identity-scalar"])
def test_weightless_layers_convert_numpy_too(layer, value, dtype):
    # TF 2.21: EagerTensor float32 for float64 arrays; an int32 array stays int32
    out = layer()(value)
    assert tf.is_tensor(out) and out.dtype == dtype


def test_a_float64_layer_casts_float32_inputs_up():
    # TF 2.21: Dense(2, dtype="float64")(np.ones((1, 3), np.float32)) -> float64, kernel too
    d = tf.keras.layers.Dense(2, dtype="float64")
    assert d(np.ones((1, 3), np.float32)).dtype == tf.float64
    assert d.kernel.dtype == tf.float64 and d.dtype == "float64"
    assert tf.keras.layers.Dense(2).dtype == "float32"


def test_python_numbers_as_inputs_are_refused():
    # TF 2.21: ValueError "Only input tensors may be passed as positional arguments. The
    # following argument value should be passed as a keyword argument: 1.0 (of type
    # <class 'float'>)"
    with pytest.raises(ValueError, match="Only input tensors may be passed as positional"):
        _dense()([[1.0, 2.0, 3.0]])


def test_fit_predict_and_call_accept_float64_numpy():
    # TF 2.21: fit -> history keys ['loss']; predict -> ndarray float32 (8, 1);
    # model(x) -> EagerTensor float32; evaluate -> float
    m = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(1)])
    m.compile("sgd", "mse")
    rng = np.random.default_rng(0)
    x, y = rng.random((8, 3)), rng.random((8, 1))
    assert list(m.fit(x, y, epochs=1, verbose=0).history) == ["loss"]
    p = m.predict(x, verbose=0)
    assert type(p) is np.ndarray and p.dtype == np.float32 and p.shape == (8, 1)
    out = m(x)
    assert tf.is_tensor(out) and out.dtype == tf.float32
    assert type(m.evaluate(x, y, verbose=0)) is float


def test_a_functional_model_casts_to_the_dtype_of_its_layers():
    # TF 2.21: Input((3,), dtype="float64") -> Lambda(identity): output float32, for float64
    # and float32 arrays
    i = tf.keras.Input((3,), dtype="float64")
    model = tf.keras.Model(i, tf.keras.layers.Lambda(lambda t: t)(i))
    assert model(np.ones((1, 3))).dtype == tf.float32
    assert model(np.ones((1, 3), np.float32)).dtype == tf.float32


def test_fit_traces_with_the_batch_dimension_unknown(capsys):
    """TF 2.21 + Keras 3.15 printed, for this program, three lines, all ``(None, 5)``: the
    symbolic call that builds the Sequential model and the real call, both in the first trace
    of the train step, then the second trace TF makes because the first created variables;
    the last, smaller batch (100 = 3 x 32 + 4) reuses the same graph."""
    class PrintingLayer(tf.keras.layers.Layer):
        def call(self, inputs):
            print("shape", inputs.shape)
            return inputs

    rng = np.random.default_rng(0)
    model = tf.keras.Sequential([PrintingLayer(), tf.keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    features = rng.normal(size=(100, 5)).astype(np.float32)
    model.fit(features, features[:, :1], batch_size=32, epochs=3, verbose=0)
    assert capsys.readouterr().out.splitlines() == ["shape (None, 5)"] * 3
