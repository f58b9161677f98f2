"""tf.Variable and tf.GradientTape in eager mode."""

from __future__ import annotations

import logging

import numpy as np
import pytest

import tfgraph_edu as tf


def test_variable_repr_and_assignments():
    v = tf.Variable(1.0)
    assert repr(v) == "<tf.Variable 'Variable:0' shape=() dtype=float32, numpy=1.0>"
    # as TF: assign returns the variable to be read, printed as 'UnreadVariable'
    assert repr(v.assign(2.0)) == ("<tf.Variable 'UnreadVariable' shape=() dtype=float32, "
                                   "numpy=2.0>") and float(v) == 2.0
    v.assign_add(0.5)
    v.assign_sub(1.0)
    assert v.numpy() == 1.5
    w = tf.Variable([1, 2], name="w")
    assert repr(w) == ("<tf.Variable 'w:0' shape=(2,) dtype=int32, numpy=array([1, 2], "
                       "dtype=int32)>")


def test_variable_used_as_tensor():
    v = tf.Variable([[1.0, 2.0]])
    assert (v * 2).numpy().tolist() == [[2.0, 4.0]]
    assert tf.matmul(v, v, transpose_b=True).numpy().tolist() == [[5.0]]
    assert v[0, 1].numpy() == 2.0


def test_variable_errors():
    with pytest.raises(ValueError, match="initial_value"):
        tf.Variable(None)
    v = tf.Variable([1.0, 2.0])
    with pytest.raises((ValueError, tf.errors.InvalidArgumentError), match="shape"):
        v.assign([1.0, 2.0, 3.0])
    with pytest.raises(TypeError, match="unhashable"):
        _ = {v: 1}


def test_gradient_of_variable_and_watched_tensor():
    w = tf.Variable(3.0)
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = w * w * x
    gw, gx = tape.gradient(y, [w, x])
    assert float(gw) == 12.0 and float(gx) == 9.0


def test_unwatched_constant_has_no_gradient_and_zero_option():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape(persistent=True) as tape:
        y = x * 2
    assert tape.gradient(y, x) is None
    z = tape.gradient(y, x, unconnected_gradients=tf.UnconnectedGradients.ZERO)
    assert z.numpy().tolist() == [0.0, 0.0]


def test_non_persistent_tape_is_used_once():
    w = tf.Variable(1.0)
    with tf.GradientTape() as tape:
        y = w * 3
    tape.gradient(y, w)
    with pytest.raises(RuntimeError, match="non-persistent GradientTape can only be used"):
        tape.gradient(y, w)


def test_linear_regression_gradients_match_hand_derived():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(32, 5)).astype(np.float32)
    y = rng.normal(size=(32, 1)).astype(np.float32)
    W = tf.Variable(rng.normal(size=(5, 1)).astype(np.float32))
    b = tf.Variable(np.zeros(1, np.float32))
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(tf.matmul(X, W) + b - y))
    gW, gb = tape.gradient(loss, [W, b])
    err = X @ W.numpy() + b.numpy() - y
    np.testing.assert_allclose(gW.numpy(), 2 * X.T @ err / 32, rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(gb.numpy(), 2 * err.sum(0) / 32, rtol=1e-4, atol=1e-6)


def test_stop_recording_and_stop_gradient():
    x = tf.Variable(2.0)
    with tf.GradientTape(persistent=True) as tape:
        with tape.stop_recording():
            a = x * x
        b = tf.stop_gradient(x * x) + x
    assert tape.gradient(a, x) is None
    assert float(tape.gradient(b, x)) == 1.0


def test_watching_an_integer_tensor_warns(caplog):
    with caplog.at_level(logging.WARNING):
        with tf.GradientTape() as tape:
            tape.watch(tf.constant(1))
    assert "float" in caplog.text


def test_watch_accessed_variables_false():
    v = tf.Variable(2.0)
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        y = v * v
    assert tape.gradient(y, v) is None
    assert tape.watched_variables() == ()


def test_variable_classes_are_named_as_in_tensorflow():
    # TensorFlow 2.21 prints ResourceVariable and _UnreadVariable for these two (the
    # autodiff guide prints type(x).__name__)
    v = tf.Variable(2.0)
    assert type(v).__name__ == "ResourceVariable" and isinstance(v, tf.Variable)
    assert type(v.assign(3.0)).__name__ == "_UnreadVariable"
