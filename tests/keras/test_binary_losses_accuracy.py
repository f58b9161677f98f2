"""Binary crossentropy (function and class), the accuracies and what
``compile(metrics=["accuracy"])`` picks; every expected value recorded from TF 2.21."""

from __future__ import annotations

import numpy as np
import pytest

import tfgraph_edu as tf

L, M = tf.keras.losses, tf.keras.metrics
YT = [[0.0, 1.0], [0.0, 0.0]]
YP = [[0.6, 0.4], [0.4, 0.6]]


def _close(a, b):
    np.testing.assert_allclose(np.asarray(a, dtype=np.float64), b, rtol=1e-5, atol=1e-7)


def test_binary_crossentropy_function():
    _close(L.binary_crossentropy(YT, YP), [0.9162907600402832, 0.7135581970214844])
    _close(L.binary_crossentropy(YT, [[2.0, -1.0], [0.5, 3.0]], from_logits=True),
           [1.720094919204712, 2.0113320350646973])
    _close(L.binary_crossentropy(YT, YP, label_smoothing=0.2),
           [0.8757442235946655, 0.7135581970214844])
    # probabilities are clipped to [1e-7, 1 - 1e-7]
    _close(L.binary_crossentropy(tf.constant([1.0, 0.0]), tf.constant([1.0, 0.0])),
           1.1920928955078125e-07)
    with pytest.raises(ValueError, match="same rank"):
        L.binary_crossentropy([1.0, 0.0], [[0.5, 0.5]])


def test_binary_crossentropy_traced_and_its_gradient():
    @tf.function
    def g(a, b):
        return L.binary_crossentropy(a, b)
    _close(g(tf.constant([[0.0, 1.0]]), tf.constant([[0.6, 0.4]])), [0.9162907600402832])
    x = tf.Variable([[0.3], [0.8]])
    labels = tf.constant([[1.0], [0.0]])
    with tf.GradientTape() as tape:
        loss = L.BinaryCrossentropy()(labels, x)
    grad = tape.gradient(loss, x).numpy()
    _close(grad, [[-1.6666666269302368], [2.500000238418579]])
    eps, p = 1e-3, np.array([[0.3], [0.8]])

    def f(v):
        y = np.array([[1.0], [0.0]])
        return float(np.mean(-(y * np.log(v) + (1 - y) * np.log(1 - v))))
    for i in range(2):
        up, down = p.copy(), p.copy()
        up[i, 0] += eps
        down[i, 0] -= eps
        assert abs((f(up) - f(down)) / (2 * eps) - grad[i, 0]) < 1e-3


def test_binary_crossentropy_class_and_compile_name():
    assert L.BinaryCrossentropy().name == "binary_crossentropy"
    _close(L.BinaryCrossentropy()(YT, YP), 0.8149244785308838)
    _close(L.BinaryCrossentropy(from_logits=True)(YT, [[2.0, -1.0], [0.5, 3.0]]),
           1.8657134771347046)
    # labels of shape (n,) against predictions of shape (n, 1)
    _close(L.BinaryCrossentropy()(np.array([1, 0, 1]), np.array([[0.9], [0.2], [0.3]])),
           0.5108256340026855)


def test_categorical_crossentropy_function():
    _close(L.categorical_crossentropy([[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
                                      [[0.05, 0.95, 0.0], [0.1, 0.8, 0.1]]),
           [0.051293306052684784, 2.3025851249694824])
    _close(L.categorical_crossentropy([[0.0, 1.0, 0.0]], [[1.0, 2.0, 0.5]], from_logits=True,
                                      label_smoothing=0.1), [0.5477021336555481])


def test_accuracy_functions_and_classes():
    _close(M.binary_accuracy(tf.constant([1.0, 0.0, 1.0, 0.0]),
                             tf.constant([0.7, 0.6, 0.4, 0.1])), [1.0, 0.0, 0.0, 1.0])
    _close(M.binary_accuracy(tf.constant([[1.0], [0.0]]), tf.constant([0.7, 0.2])),
           [[1.0], [1.0]])
    m = M.BinaryAccuracy()
    m.update_state([[1], [1], [0], [0]], [[0.98], [1], [0], [0.6]])
    assert m.name == "binary_accuracy"
    _close(m.result(), 0.75)
    m = M.BinaryAccuracy(threshold=0.9)
    m.update_state([[1], [1], [0], [0]], [[0.98], [0.8], [0], [0.6]])
    _close(m.result(), 0.75)
    m = M.CategoricalAccuracy()
    m.update_state([[0, 0, 1], [0, 1, 0]], [[0.1, 0.9, 0.8], [0.05, 0.95, 0]])
    assert m.name == "categorical_accuracy"
    _close(m.result(), 0.5)
    _close(M.categorical_accuracy([[0, 0, 1], [0, 1, 0]], [[0.1, 0.9, 0.8], [0.05, 0.95, 0]]),
           [0.0, 1.0])
    _close(M.sparse_categorical_accuracy([[2], [1]], [[0.1, 0.6, 0.3], [0.05, 0.95, 0]]),
           [0.0, 1.0])


X = np.array([[1.0, 2.0], [3.0, -1.0], [-2.0, 0.5], [0.5, 0.4], [2.0, 2.0]], dtype="float32")
YB = np.array([0, 1, 0, 1, 1])


@pytest.mark.parametrize("loss,units,act,one_hot,expected", [
    # a sigmoid output of one unit: "accuracy" is binary accuracy (sparse categorical
    # accuracy would compare every label with argmax 0 and give 0.4)
    ("binary_crossentropy", 1, "sigmoid", False, {"accuracy": 0.8, "loss": 0.34957}),
    ("sparse_categorical_crossentropy", 2, "softmax", False,
     {"accuracy": 0.0, "loss": 3.15974}),
    ("categorical_crossentropy", 2, "softmax", True, {"accuracy": 0.0, "loss": 3.15974}),
])
def test_compile_accuracy_is_picked_from_the_shapes(loss, units, act, one_hot, expected):
    model = tf.keras.Sequential([tf.keras.Input((2,)),
                                 tf.keras.layers.Dense(units, activation=act)])
    kernel = (np.array([[1.0], [-1.0]], "float32") if units == 1 else
              np.array([[1.0, -1.0], [-1.0, 0.5]], "float32"))
    model.layers[0].set_weights([kernel, np.zeros(units, "float32")])
    model.compile(optimizer="sgd", loss=loss, metrics=["accuracy"])
    y = np.eye(2, dtype="float32")[YB] if one_hot else YB
    result = model.evaluate(X, y, verbose=0, return_dict=True)
    assert sorted(result) == sorted(expected)
    for key, value in expected.items():
        assert abs(result[key] - value) < 1e-4


def test_a_loss_function_in_compile_matches_ranks_first():
    # compile(loss=tf.keras.losses.binary_crossentropy) with labels (n,) and outputs (n, 1):
    # recorded from TF 2.21
    x = np.array([[1.0, 2.0], [3.0, -1.0], [-2.0, 0.5], [0.5, 0.4]], "float32")
    y = np.array([0, 1, 0, 1])
    model = tf.keras.Sequential([tf.keras.Input((2,)),
                                 tf.keras.layers.Dense(1, activation="sigmoid")])
    model.layers[0].set_weights([np.array([[0.5], [-0.25]], "float32"), np.zeros(1, "float32")])
    model.compile(loss=L.binary_crossentropy, optimizer="sgd", metrics=["accuracy"])
    result = model.evaluate(x, y, verbose=0, return_dict=True)
    assert list(result) == ["accuracy", "loss"]
    assert result["accuracy"] == 1.0 and abs(result["loss"] - 0.4388696551322937) < 1e-6
    history = model.fit(x, y, epochs=2, verbose=0)
    np.testing.assert_allclose(history.history["loss"], [0.43887, 0.43785], atol=1e-5)
    model.compile(loss=L.mae, optimizer="sgd")
    assert abs(model.evaluate(x, y, verbose=0) - 0.33756348490715027) < 1e-6


def test_reset_states_is_gone_as_in_keras_3():
    # recorded from TF 2.21: hasattr(metric, "reset_states") is False for Mean,
    # BinaryAccuracy and Precision; train_loss.reset_states() is an AttributeError
    for metric in (M.Mean(), M.BinaryAccuracy(), M.Precision()):
        assert not hasattr(metric, "reset_states") and hasattr(metric, "reset_state")
    with pytest.raises(AttributeError, match="'Mean' object has no attribute 'reset_states'"):
        M.Mean(name="train_loss").reset_states()
