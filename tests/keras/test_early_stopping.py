"""tf.keras.callbacks.EarlyStopping against Keras 3 in TF 2.21, and the chapter 11 optimizer
options inside ``fit``: the epochs run, losses, weights, the callback's state and its
printed lines below were recorded from TF 2.21 (run once on the same data)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import tfgraph_edu as tf

X = np.array([[1.0], [2.0], [3.0], [4.0]], np.float32)
XV = np.array([[1.0], [2.0]], np.float32)  # validation: y = x, training: y = 2x


def _model(optimizer=None):
    m = tf.keras.Sequential([tf.keras.Input((1,)),
                             tf.keras.layers.Dense(1, kernel_initializer="zeros")])
    m.compile(optimizer=optimizer or tf.keras.optimizers.SGD(0.02), loss="mse",
              metrics=["mae"])
    return m


BEST = [[[0.9999999403953552]], [0.3319999873638153]]  # the weights after epoch 2
LAST = [[[1.2667999267578125]], [0.418720006942749]]  # after epoch 3


@pytest.mark.parametrize("options, epochs, weights, state, printed", [
    ({"patience": 2, "restore_best_weights": True, "verbose": 1}, [0, 1, 2, 3], BEST,
     (3, 0.11022388935089111, 2, 1),
     "Epoch 4: early stopping\nRestoring model weights from the end of the best epoch: 2.\n"),
    ({"patience": 1}, [0, 1, 2], LAST, (2, 0.11022388935089111, 1, 1), ""),
    ({"patience": 2, "min_delta": 0.5, "verbose": 1}, [0, 1, 2], LAST,
     (2, 0.2000000923871994, 2, 0), "Epoch 3: early stopping\n"),
    ({"monitor": "val_mae", "patience": 0, "restore_best_weights": True, "verbose": 1},
     [0, 1, 2], BEST, (2, 0.33199983835220337, 1, 1),
     "Epoch 3: early stopping\nRestoring model weights from the end of the best epoch: 2.\n"),
    ({"monitor": "loss", "patience": 1, "mode": "max", "verbose": 1}, [0, 1], BEST,
     (1, 30.0, 1, 0), "Epoch 2: early stopping\n"),
])
def test_early_stopping(options, epochs, weights, state, printed, capsys):
    m = _model()
    es = tf.keras.callbacks.EarlyStopping(**options)
    h = m.fit(X, 2 * X, epochs=12, batch_size=4, shuffle=False, verbose=0,
              validation_data=(XV, XV), callbacks=[es])
    assert h.epoch == epochs
    np.testing.assert_allclose(h.history["val_loss"],
                               [0.2, 0.110224, 0.688425, 1.355069][:len(epochs)], atol=1e-5)
    for got, want in zip(m.get_weights(), weights, strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-5)
    stopped, best, wait, best_epoch = state
    assert (es.stopped_epoch, es.wait, es.best_epoch) == (stopped, wait, best_epoch)
    np.testing.assert_allclose(es.best, best, rtol=1e-5)
    assert m.stop_training is True
    assert capsys.readouterr().out == printed


def test_early_stopping_defaults_and_errors():
    es = tf.keras.callbacks.EarlyStopping()
    assert (es.monitor, es.patience, es.min_delta, es.mode, es.baseline,
            es.restore_best_weights, es.start_from_epoch) == ("val_loss", 0, 0, "auto", None,
                                                              False, 0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        h = _model().fit(X, 2 * X, epochs=2, batch_size=4, verbose=0, callbacks=[es])
    assert h.epoch == [0, 1]  # no val_loss: never stops
    assert [str(w.message) for w in caught] == [
        "Early stopping conditioned on metric `val_loss` which is not available. Available "
        "metrics are: loss,mae"] * 2
    with pytest.raises(ValueError, match="monitor=val_foo, but Keras isn't able to "
                                         "automatically determine"):
        _model().fit(X, 2 * X, epochs=2, batch_size=4, verbose=0, validation_data=(XV, XV),
                     callbacks=[tf.keras.callbacks.EarlyStopping(monitor="val_foo")])


S = tf.keras.optimizers.schedules


@pytest.mark.parametrize("optimizer, weights, losses", [
    (lambda: tf.keras.optimizers.SGD(learning_rate=S.ExponentialDecay(0.05, 2, 0.5),
                                     momentum=0.9, nesterov=True, clipnorm=1.0),
     [[[0.6403519511222839]], [0.6403519511222839]], [27.052505, 19.442438, 12.951214]),
    (lambda: tf.keras.optimizers.AdamW(
        learning_rate=S.PiecewiseConstantDecay([2, 4], [0.1, 0.05, 0.01]), weight_decay=0.1,
        global_clipnorm=1.0),
     [[[0.40337270498275757]], [0.3886190950870514]], [26.902531, 20.004988, 16.713299]),
    (lambda: tf.keras.optimizers.Adagrad(0.3, clipvalue=0.5),
     [[[1.0005974769592285]], [1.0005974769592285]], [22.545448, 11.36849, 5.568603]),
    (lambda: tf.keras.optimizers.Adamax(0.3),
     [[[1.0526849031448364]], [1.2175402641296387]], [21.3225, 10.315676, 4.420641]),
])
def test_optimizer_options_in_fit(optimizer, weights, losses):
    m = _model(optimizer())
    h = m.fit(X, 2 * X, epochs=3, batch_size=2, shuffle=False, verbose=0)
    for got, want in zip(m.get_weights(), weights, strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-5)
    np.testing.assert_allclose(h.history["loss"], losses, rtol=1e-5)
    assert int(m.optimizer.iterations.numpy()) == 6


def test_clipvalue_of_indexed_slices_is_refused():
    emb = tf.Variable(np.ones((4, 2), np.float32))
    with tf.GradientTape() as t:
        loss = tf.reduce_sum(tf.gather(emb, [1, 1, 3]))
    g = t.gradient(loss, emb)
    with pytest.raises(NotImplementedError, match="clipvalue or global_clipnorm of "
                                                  "IndexedSlices"):
        tf.keras.optimizers.SGD(clipvalue=1.0).apply_gradients([(g, emb)])
