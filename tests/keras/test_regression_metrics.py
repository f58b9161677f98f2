"""``compile(metrics=["mae", "mse"])`` and ``tf.keras.metrics.MeanAbsoluteError`` /
``MeanSquaredError`` (course material, issue 25: mrdbourke's regression notebook compiles
with ``metrics=["mae"]``, which was refused here)."""

import numpy as np
import pytest

import tfgraph_edu as tf


def test_the_metric_classes_as_tf():
    m = tf.keras.metrics.MeanAbsoluteError()
    m.update_state([[1.], [2.]], [[1.5], [3.]])
    # recorded from TF 2.21: mean_absolute_error 0.75, mean_squared_error 0.8125 (weighted)
    assert m.name == "mean_absolute_error"
    assert float(m.result()) == pytest.approx(0.75)
    m2 = tf.keras.metrics.MeanSquaredError()
    m2.update_state([[1.], [2.]], [[1.5], [3.]], sample_weight=[1., 3.])
    assert m2.name == "mean_squared_error"
    assert float(m2.result()) == pytest.approx(0.8125)
    m2.reset_state()
    assert float(m2.result()) == 0.0


def test_labels_of_rank_one_against_predictions_of_shape_n_1():
    m = tf.keras.metrics.MeanAbsoluteError()
    m.update_state([1., 2.], [[1.5], [3.]])  # no (n, n) broadcast
    assert float(m.result()) == pytest.approx(0.75)


def test_compile_by_name_logs_and_evaluates_them():
    X = np.arange(-7., 15., 3.)
    y = X + 10
    tf.random.set_seed(42)
    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    model.compile(loss=tf.keras.losses.mae, optimizer=tf.keras.optimizers.SGD(),
                  metrics=["mae", "mse"])
    h = model.fit(tf.expand_dims(X, axis=-1), y, epochs=2, verbose=0)
    # recorded from TF 2.21: history keys; evaluate gives [loss, mae, mse], loss == mae
    assert sorted(h.history) == ["loss", "mae", "mse"]
    r = model.evaluate(X[:, None], y, verbose=0)
    assert len(r) == 3 and r[0] == pytest.approx(r[1], rel=1e-5)
    pred = model.predict(X[:, None], verbose=0)[:, 0]
    assert r[1] == pytest.approx(np.mean(np.abs(pred - y)), rel=1e-5)
    assert r[2] == pytest.approx(np.mean((pred - y) ** 2), rel=1e-5)


def test_unknown_names_are_still_refused():
    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    with pytest.raises(ValueError, match="Unknown metric function: 'nope'"):
        model.compile(loss="mse", metrics=["nope"])
