"""Keras 3's masks: ``Embedding(mask_zero=True)``, ``_keras_mask`` on outputs, its use by
LSTM and GlobalAveragePooling1D, and BinaryCrossentropy; expected values recorded from TF
2.21 with Keras 3 (the same programs run under real TensorFlow)."""

import warnings

import numpy as np
import pytest

import tfgraph_edu as tf

X = [[1, 2, 0, 0], [3, 0, 0, 0], [4, 5, 6, 7]]
MASK = [[True, True, False, False], [True, False, False, False], [True, True, True, True]]


def _w(shape, k):
    return (np.sin(np.arange(np.prod(shape)) * k) / 2).astype(np.float32).reshape(shape)


def _layers():
    x = tf.constant(X)
    emb = tf.keras.layers.Embedding(10, 2, mask_zero=True)
    lstm_seq = tf.keras.layers.LSTM(3, return_sequences=True)
    lstm_last = tf.keras.layers.LSTM(3)
    e = emb(x)
    emb.set_weights([np.arange(20, dtype=np.float32).reshape(10, 2) / 10 - 1])
    e = emb(x)
    lstm_seq(e)
    lstm_last(e)
    for layer in (lstm_seq, lstm_last):
        layer.set_weights([_w((2, 12), 1.0), _w((3, 12), 2.0), _w((12,), 3.0)])
    return x, emb, lstm_seq, lstm_last, tf.keras.layers.GlobalAveragePooling1D()


# recorded from TF 2.21 (Keras 3), the program of _layers()
SEQ = [[[-0.000244, 0.017662, -0.185604], [-0.024829, 0.056823, -0.286109],
        [-0.024829, 0.056823, -0.286109], [-0.024829, 0.056823, -0.286109]],
       [[-0.059969, 0.047936, -0.172145]] * 4,
       [[-0.090267, 0.063385, -0.148324], [-0.16874, 0.108415, -0.189152],
        [-0.241274, 0.132032, -0.158172], [-0.307975, 0.138264, -0.076416]]]
LAST = [[-0.024829, 0.056823, -0.286109], [-0.059969, 0.047936, -0.172145],
        [-0.307975, 0.138264, -0.076416]]
POOLED = [[-0.012536, 0.037242, -0.235856], [-0.059969, 0.047936, -0.172145],
          [-0.202064, 0.110524, -0.143016]]
GRAD = [[0.001906, -0.001477, -0.06623, 0.003197, 0.000768, -0.002536, 0.016278, -0.018231,
         0.041529, 0.003415, 0.000156, -0.024834],
        [0.005712, 0.000002, -0.05337, 0.004656, 0.001194, -0.000561, -0.002311, -0.010261,
         0.021187, 0.006286, 0.002146, -0.018268]]


def test_embedding_mask_zero():
    x = tf.constant(X)
    e = tf.keras.layers.Embedding(10, 3, mask_zero=True)
    y = e(x)
    # recorded from TF 2.21: compute_mask and the output's _keras_mask are index != 0
    assert e.compute_mask(x).numpy().tolist() == MASK
    assert y._keras_mask.dtype == tf.bool and y._keras_mask.numpy().tolist() == MASK
    assert e.mask_zero is True and e.supports_masking is True
    plain = tf.keras.layers.Embedding(10, 3)
    assert plain.compute_mask(x) is None
    with pytest.raises(AttributeError):  # as in TF: no mask attribute at all
        _ = plain(x)._keras_mask

    @tf.function
    def f(x):
        return e(x)._keras_mask
    assert f(x).numpy().tolist() == MASK


def test_mask_passes_through_dense_and_ends_at_pooling():
    x, emb, lstm_seq, lstm_last, pool = _layers()
    e = emb(x)
    assert tf.keras.layers.Dense(2)(e)._keras_mask.numpy().tolist() == MASK
    seq = lstm_seq(e)
    assert seq._keras_mask.numpy().tolist() == MASK  # return_sequences keeps it
    with pytest.raises(AttributeError):
        _ = lstm_last(e)._keras_mask
    with pytest.raises(AttributeError):
        _ = pool(seq)._keras_mask


def test_masked_lstm_and_pooling_values():
    x, emb, lstm_seq, lstm_last, pool = _layers()
    e = emb(x)
    np.testing.assert_allclose(lstm_seq(e).numpy(), SEQ, atol=2e-6)
    np.testing.assert_allclose(lstm_last(e).numpy(), LAST, atol=2e-6)
    np.testing.assert_allclose(pool(lstm_seq(e)).numpy(), POOLED, atol=2e-6)
    model = tf.keras.Sequential([emb, lstm_seq, pool])
    np.testing.assert_allclose(model(x).numpy(), POOLED, atol=2e-6)

    @tf.function
    def f(x):
        return pool(lstm_seq(emb(x)))
    np.testing.assert_allclose(f(x).numpy(), POOLED, atol=2e-6)


def test_masked_lstm_gradient():
    x, emb, lstm_seq, _, pool = _layers()
    with tf.GradientTape() as tape:
        out = tf.reduce_sum(pool(lstm_seq(emb(x))) ** 2)
    g = tape.gradient(out, lstm_seq.trainable_weights[0])
    np.testing.assert_allclose(g.numpy(), GRAD, atol=2e-6)  # recorded from TF 2.21
    # and against central differences of the same function
    kernel = lstm_seq.trainable_weights[0]
    base = kernel.numpy()
    for (i, j) in ((0, 2), (1, 8)):
        vals = []
        for d in (1e-2, -1e-2):
            k = base.copy()
            k[i, j] += d
            kernel.assign(k)
            vals.append(float(tf.reduce_sum(pool(lstm_seq(emb(x))) ** 2)))
        kernel.assign(base)
        assert abs((vals[0] - vals[1]) / 2e-2 - g.numpy()[i, j]) < 1e-3


def test_a_layer_without_masking_warns_and_drops_it():
    x, emb, *_ = _layers()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = tf.keras.layers.Flatten()(emb(x))
    # Keras 3's warning (recorded from TF 2.21)
    assert any("does not support masking and will therefore destroy the mask information"
               in str(w.message) for w in caught)
    with pytest.raises(AttributeError):
        _ = out._keras_mask


def test_fit_with_a_masked_output_is_refused():
    m = tf.keras.Sequential([tf.keras.layers.Embedding(10, 4, mask_zero=True),
                             tf.keras.layers.Dense(1)])
    m.compile(loss="mse", optimizer="sgd")
    with pytest.raises(NotImplementedError, match="mask"):  # Keras 3 masks the loss
        m.fit(np.array(X), np.zeros((3, 4, 1)), epochs=1, verbose=0)
    with pytest.raises(NotImplementedError, match="mask"):
        m.evaluate(np.array(X), np.zeros((3, 4, 1)), verbose=0)


def test_binary_crossentropy():
    bce = tf.keras.losses.BinaryCrossentropy()
    y = np.array([0., 1., 1., 0.], np.float32)
    p = np.array([[0.1], [0.8], [1.5], [-0.2]], np.float32)
    # recorded from TF 2.21
    np.testing.assert_allclose(float(bce(y, p)), 0.08212608, rtol=1e-6)
    np.testing.assert_allclose(
        float(tf.keras.losses.BinaryCrossentropy(from_logits=True)(y, p)), 0.4787624,
        rtol=1e-6)
    np.testing.assert_allclose(
        float(tf.keras.losses.BinaryCrossentropy(label_smoothing=0.2)(y, p)), 0.97322595,
        rtol=1e-6)
    y2 = np.array([[0., 1.], [1., 1.]], np.float32)
    p2 = np.array([[0.3, 0.6], [0.9, 0.2]], np.float32)
    np.testing.assert_allclose(float(bce(y2, p2)), 0.64557475, rtol=1e-6)

    @tf.function
    def f(y, x):  # in a graph, a Sigmoid's output is read as its logits, as Keras 3 does
        return bce(y, tf.sigmoid(x))
    np.testing.assert_allclose(
        float(f(y, np.array([[30.], [2.], [-1.], [-40.]], np.float32))), 7.8600473, rtol=1e-6)


def test_ragged_guide_model_trains():
    # the ragged tensor guide's model: Embedding(mask_zero) -> LSTM -> GlobalAveragePooling1D
    tf.keras.utils.set_random_seed(0)
    model = tf.keras.Sequential([
        tf.keras.layers.Embedding(10, 16, mask_zero=True),
        tf.keras.layers.LSTM(32, return_sequences=True, use_bias=False),
        tf.keras.layers.GlobalAveragePooling1D(),
        tf.keras.layers.Dense(32),
        tf.keras.layers.Activation(tf.nn.relu),
        tf.keras.layers.Dense(1)])
    model.compile(loss="binary_crossentropy", optimizer="rmsprop")
    history = model.fit(np.array(X), np.array([0., 1., 1.]), epochs=2, verbose=0)
    assert len(history.history["loss"]) == 2
    assert np.isfinite(history.history["loss"]).all()


def test_a_masked_model_saved_and_loaded(tmp_path):
    # the ragged guide saves this model as .keras and calls the loaded one (TF 2.21 loads
    # the same layers, mask_zero kept, and gives the same outputs)
    tf.keras.utils.set_random_seed(3)
    x = np.array(X)
    m = tf.keras.Sequential([
        tf.keras.layers.Embedding(10, 4, mask_zero=True),
        tf.keras.layers.LSTM(5, return_sequences=True, use_bias=False),
        tf.keras.layers.GlobalAveragePooling1D(),
        tf.keras.layers.Dense(3),
        tf.keras.layers.Activation(tf.nn.relu),
        tf.keras.layers.Dense(1)])
    m.compile(loss="binary_crossentropy", optimizer="rmsprop")
    m.fit(x, np.array([0., 1., 1.]), epochs=1, verbose=0)
    m.save(str(tmp_path / "m.keras"))
    loaded = tf.keras.models.load_model(str(tmp_path / "m.keras"))
    assert [type(layer).__name__ for layer in loaded.layers] == [
        "Embedding", "LSTM", "GlobalAveragePooling1D", "Dense", "Activation", "Dense"]
    assert loaded.layers[0].mask_zero is True
    assert loaded.layers[1].return_sequences is True and loaded.layers[1].cell.use_bias is False
    np.testing.assert_allclose(loaded(x).numpy(), m(x).numpy(), rtol=1e-6)


def test_masking_layer_feeds_an_lstm():
    x = np.array([[[1., 2.], [0., 0.], [3., 0.]], [[0., 0.], [0., 0.], [5., 6.]]], np.float32)
    masking = tf.keras.layers.Masking()
    y = masking(x)
    # recorded from TF 2.21
    assert y.numpy().tolist() == x.tolist()
    assert y._keras_mask.numpy().tolist() == [[True, False, True], [False, False, True]]
    assert masking.compute_mask(x).numpy().tolist() == [[True, False, True],
                                                        [False, False, True]]
    assert tf.keras.layers.Masking(mask_value=1.)(x)._keras_mask.numpy().tolist() == \
        [[True] * 3] * 2
    lstm = tf.keras.layers.LSTM(2)
    lstm(y)
    lstm.set_weights([(np.sin(np.arange(16)) / 2).astype(np.float32).reshape(2, 8),
                      (np.cos(np.arange(16)) / 2).astype(np.float32).reshape(2, 8),
                      np.zeros(8, np.float32)])
    np.testing.assert_allclose(lstm(y).numpy(), [[-0.234312, -0.433615],
                                                 [-0.670464, -0.638296]], atol=2e-6)


def test_functional_model_propagates_masks():
    # TF 2.21: the pooled output is the mean over the unmasked steps only (not all steps)
    tf.keras.utils.set_random_seed(0)
    inp = tf.keras.Input((4,), dtype="int32")
    h = tf.keras.layers.Embedding(10, 3, mask_zero=True)(inp)
    h = tf.keras.layers.LSTM(2, return_sequences=True)(h)
    h = tf.keras.layers.Dropout(0.5)(h)  # a layer taking `training` replays too
    model = tf.keras.Model(inp, tf.keras.layers.GlobalAveragePooling1D()(h))
    x = np.array([[1, 2, 0, 0], [3, 0, 0, 0]])
    emb, lstm = model.layers[1], model.layers[2]
    seq = lstm(emb(x)).numpy()
    mask = np.array([[1, 1, 0, 0], [1, 0, 0, 0]], np.float32)[..., None]
    np.testing.assert_allclose(model(x).numpy(), (seq * mask).sum(1) / mask.sum(1), atol=1e-6)
    assert not np.allclose(model(x).numpy(), seq.mean(1), atol=1e-6)
