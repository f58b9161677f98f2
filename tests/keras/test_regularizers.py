"""tf.keras.regularizers and Dense's kernel/bias regularizers in losses, evaluate and fit,
against Keras 3 in TF 2.21 (every value and message below printed by TF 2.21)."""

from __future__ import annotations

import numpy as np
import pytest

import tfgraph_edu as tf

r = tf.keras.regularizers


def test_penalties():
    x = tf.constant([[1.0, -2.0], [3.0, 0.5]])
    assert abs(float(r.L2()(x)) - 0.14249999821186066) < 1e-7
    assert abs(float(r.L1(0.1)(x)) - 0.6500000357627869) < 1e-6
    assert abs(float(r.L1L2(l1=0.1, l2=0.2)(x)) - 3.500000238418579) < 1e-6
    assert type(r.get("l2")).__name__ == "L2" and r.l2 is r.L2
    assert isinstance(r.get("l1l2"), r.L1L2)
    for bad in ("nope", 3, "l1_l2"):  # Keras 3 has no 'l1_l2' name
        with pytest.raises(ValueError, match=f"^Could not interpret regularizer identifier: "
                                             f"{bad}$"):
            r.get(bad)
    with pytest.raises(ValueError) as e:
        r.L2(-1)
    assert str(e.value) == ("Invalid value for argument l2: expected a non-negative float."
                            "Received: l2=-1")


def test_penalty_gradient_central_differences():
    w = tf.Variable([[1.0, -2.0], [3.0, 0.5]], dtype=tf.float64)
    reg = r.L1L2(l1=0.1, l2=0.2)
    with tf.GradientTape() as t:
        p = reg(w)
    g = t.gradient(p, w).numpy()
    base, eps, num = w.numpy(), 1e-6, np.zeros((2, 2))
    for i in np.ndindex(2, 2):
        d = np.zeros((2, 2))
        d[i] = eps
        num[i] = (float(reg(tf.constant(base + d))) - float(reg(tf.constant(base - d)))) / (2 * eps)
    np.testing.assert_allclose(g, num, rtol=1e-6)


def _model():
    d = tf.keras.layers.Dense(2, kernel_regularizer=r.L2(0.1), bias_regularizer="l1",
                              kernel_initializer="ones", bias_initializer="ones")
    m = tf.keras.Sequential([tf.keras.Input((3,)), d])
    m.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
    return m, d


def test_layer_and_model_losses():
    m, d = _model()
    np.testing.assert_allclose([float(v) for v in m.losses], [0.6, 0.02], rtol=1e-6)
    np.testing.assert_allclose([float(v) for v in d.losses], [0.6, 0.02], rtol=1e-6)


def test_evaluate_and_fit_add_the_penalties():
    m, d = _model()
    x, y = np.ones((4, 3), np.float32), np.zeros((4, 2), np.float32)
    assert abs(m.evaluate(x, y, verbose=0) - 16.6200008392334) < 1e-4
    h = m.fit(x, y, epochs=2, batch_size=4, verbose=0)
    np.testing.assert_allclose(h.history["loss"], [16.6200008392334, 5.684741973876953],
                               rtol=1e-5)
    np.testing.assert_allclose(d.kernel.numpy(), np.full((3, 2), 0.3345000147819519), rtol=1e-5)
    np.testing.assert_allclose(d.bias.numpy(), [0.3640999495983124] * 2, rtol=1e-5)
    assert abs(m.evaluate(x, y, verbose=0) - 1.9447457790374756) < 1e-4
    assert abs(m.train_on_batch(x, y) - 1.9447457790374756) < 1e-4


def test_saving_a_regularized_dense_is_refused(tmp_path):
    m, _ = _model()
    with pytest.raises(NotImplementedError, match="does not save a Dense layer's"):
        m.save(str(tmp_path / "m.keras"))
