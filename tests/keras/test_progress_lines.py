"""What ``predict``/``evaluate`` print by default and what ``fit`` returns, as Keras 3 in TF
2.21 (course material, issue 25: mrdbourke's regression notebook shows their progress bars
and the ``History`` of a cell ending in ``model.fit(...)``)."""

import re

import numpy as np
import pytest

import tfgraph_edu as tf


@pytest.fixture
def model():
    tf.random.set_seed(42)
    m = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    m.compile(loss="mae", optimizer="sgd", metrics=["mae"])
    X = np.arange(-7., 15., 3.)[:, None]
    m.fit(X, X[:, 0] + 10, epochs=1, verbose=0)
    return m, X


def _shown(capsys):
    return re.sub(r"\d+(\.\d+)?(ms|s|us)", "T", capsys.readouterr().out)


def test_predict_and_evaluate_print_the_finished_bar_by_default(model, capsys):
    m, X = model
    y = X[:, 0] + 10
    m.predict(X)
    # recorded from TF 2.21 (ANSI colours and the erased updates removed, times as T)
    assert _shown(capsys) == "1/1 ━━━━━━━━━━━━━━━━━━━━ T T/step\n"
    m.predict(X, verbose=2)
    assert _shown(capsys) == "1/1 - T - T/step\n"
    loss, mae = m.evaluate(X, y)
    out = _shown(capsys)
    assert out == f"1/1 ━━━━━━━━━━━━━━━━━━━━ T T/step - loss: {loss:.4f} - mae: {mae:.4f}\n"
    m.evaluate(X, y, verbose=2)
    assert _shown(capsys).startswith("1/1 - T - T/step - loss: ")
    m.predict(np.zeros((70, 1)))
    assert _shown(capsys) == "3/3 ━━━━━━━━━━━━━━━━━━━━ T T/step\n"  # 32 a batch, as TF


def test_small_values_in_scientific_notation(model, capsys):
    m, X = model
    near = m.predict(X, verbose=0)[:, 0] + 1e-5
    m.evaluate(X, near, verbose=2)
    # recorded from TF 2.21: values under 1e-3 print as 9.8944e-06
    assert re.fullmatch(r"1/1 - T - T/step - loss: \d\.\d{4}e-0\d - mae: \d\.\d{4}e-0\d\n",
                        _shown(capsys))


def test_quiet_calls_print_nothing(model, capsys):
    m, X = model
    m.predict(X, verbose=0)
    m.predict_on_batch(X)
    m.evaluate(X, X[:, 0], verbose=0)
    assert capsys.readouterr().out == ""  # recorded from TF 2.21: nothing


def test_the_history_shows_as_keras_3s(model):
    m, X = model
    h = m.fit(X, X[:, 0], epochs=1, verbose=0)
    assert re.fullmatch(r"<keras\.src\.callbacks\.history\.History object at 0x[0-9a-f]+>",
                        repr(h))
