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
    return re.sub(r"\d+m?s/step", "#/step", re.sub(r" - \d+s - ", " - #s - ", text))


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
