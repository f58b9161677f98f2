"""``Model.fit``/``evaluate`` logs as Keras 3 hands them over: sorted by name, validation
values after them as ``val_<name>``, the "Epoch i/n" line only when there are several
epochs; options tfgraph_edu lacks refused.  Expected values recorded from TF 2.21."""

from __future__ import annotations

import re

import numpy as np
import pytest

import tfgraph_edu as tf

X = np.ones((4, 2), "float32")
Y = np.ones((4, 1), "float32")


def _model(metrics):
    model = tf.keras.Sequential([tf.keras.Input((2,)),
                                 tf.keras.layers.Dense(1, kernel_initializer="ones")])
    model.compile(optimizer="sgd", loss="mse", metrics=metrics)
    return model


def _steps(text):
    return re.sub(r"\d+(?:m|u|µ)?s/step", "#/step", re.sub(r" - \d+s - ", " - #s - ", text))


def test_logs_are_sorted_and_validation_follows(capsys):
    model = _model(["mse", "mae"])
    assert model.evaluate(X, Y, verbose=0) == [1.0, 1.0, 1.0]
    assert list(model.evaluate(X, Y, verbose=0, return_dict=True)) == ["loss", "mae", "mse"]
    capsys.readouterr()
    model.fit(X, Y, verbose=2, epochs=1)
    history = model.fit(X, Y, verbose=2, epochs=2, validation_data=(X, Y))
    out = _steps(capsys.readouterr().out)
    # recorded from TF 2.21 (times masked)
    assert out.splitlines() == [
        "1/1 - #s - #/step - loss: 1.0000 - mae: 1.0000 - mse: 1.0000",
        "Epoch 1/2",
        "1/1 - #s - #/step - loss: 0.8836 - mae: 0.9400 - mse: 0.8836 - val_loss: 0.7807 - "
        "val_mae: 0.8836 - val_mse: 0.7807",
        "Epoch 2/2",
        "1/1 - #s - #/step - loss: 0.7807 - mae: 0.8836 - mse: 0.7807 - val_loss: 0.6899 - "
        "val_mae: 0.8306 - val_mse: 0.6899"]
    assert list(history.history) == ["loss", "mae", "mse", "val_loss", "val_mae", "val_mse"]


def test_accuracy_comes_before_loss():
    model = _model(["accuracy"])
    assert list(model.evaluate(X, Y, verbose=0, return_dict=True)) == ["accuracy", "loss"]
    assert list(model.fit(X, Y, verbose=0).history) == ["accuracy", "loss"]
    model = _model([tf.keras.metrics.MeanAbsoluteError(name="b"), "mse"])
    assert list(model.fit(X, Y, verbose=0).history) == ["b", "loss", "mse"]


@pytest.mark.parametrize("option", [{"validation_split": 0.2}, {"class_weight": {0: 1.0}},
                                    {"sample_weight": np.ones(4)}, {"initial_epoch": 1},
                                    {"steps_per_epoch": 2}, {"validation_freq": 2}])
def test_options_not_implemented_are_refused(option):
    with pytest.raises(NotImplementedError, match=next(iter(option))):
        _model(["mae"]).fit(X, Y, verbose=0, **option)


def test_an_unknown_option_is_a_type_error():
    with pytest.raises(TypeError):
        _model(["mae"]).fit(X, Y, verbose=0, workers=2)


def test_learning_rate_scheduler(capsys):
    model = _model(["mae"])
    schedule = tf.keras.callbacks.LearningRateScheduler(lambda epoch: 1e-4 * 10 ** (epoch / 20))
    capsys.readouterr()
    history = model.fit(X, Y, verbose=2, epochs=3, callbacks=[schedule])
    # recorded from TF 2.21 (times masked): the learning rate is logged after the metrics
    assert _steps(capsys.readouterr().out).splitlines() == [
        "Epoch 1/3", "1/1 - #s - #/step - loss: 1.0000 - mae: 1.0000 - learning_rate: 1.0000e-04",
        "Epoch 2/3", "1/1 - #s - #/step - loss: 0.9988 - mae: 0.9994 - learning_rate: 1.1220e-04",
        "Epoch 3/3", "1/1 - #s - #/step - loss: 0.9975 - mae: 0.9987 - learning_rate: 1.2589e-04"]
    assert list(history.history) == ["loss", "mae", "learning_rate"]
    np.testing.assert_allclose(history.history["learning_rate"],
                               [9.999999747378752e-05, 0.00011220184387639165,
                                0.0001258925476577133], rtol=1e-6)
    halve = tf.keras.callbacks.LearningRateScheduler(lambda epoch, lr: lr * 0.5, verbose=1)
    history = model.fit(X, Y, verbose=0, epochs=2, callbacks=[halve])
    assert capsys.readouterr().out == (
        "\nEpoch 1: LearningRateScheduler setting learning rate to 6.294627382885665e-05.\n"
        "\nEpoch 2: LearningRateScheduler setting learning rate to 3.1473136914428324e-05.\n")
    np.testing.assert_allclose(history.history["learning_rate"],
                               [6.294627382885665e-05, 3.1473136914428324e-05], rtol=1e-6)
    with pytest.raises(ValueError, match="should be a float. Got: 1"):
        model.fit(X, Y, verbose=0, callbacks=[
            tf.keras.callbacks.LearningRateScheduler(lambda epoch: 1)])
