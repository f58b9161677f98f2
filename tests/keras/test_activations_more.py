"""Keras 3 activations by name: elu, selu, silu/swish, softsign, softplus, exponential;
values, names and gradients recorded from TF 2.21 (float32, last digits within 1e-6)."""

from __future__ import annotations

import numpy as np
import pytest

import tfgraph_edu as tf

X = [-3.0, -1.0, -1e-4, 0.0, 1e-4, 0.5, 2.0]
SILU = [-0.14227762818336487, -0.2689414322376251, -4.9997499445453286e-05, 0.0,
        5.000249439035542e-05, 0.3112296760082245, 1.7615941762924194]
EXPECTED = {
    "elu": ("elu", [-0.9502129554748535, -0.6321205496788025, -0.00010001659393310547, 0.0,
                    9.999999747378752e-05, 0.5, 2.0]),
    "selu": ("selu", [-1.6705687046051025, -1.1113307476043701, -0.00017583910084795207, 0.0,
                      0.00010507010301807895, 0.5253505110740662, 2.1014020442962646]),
    "swish": ("silu", SILU),
    "silu": ("silu", SILU),
    "softsign": ("softsign", [-0.75, -0.5, -9.999000030802563e-05, 0.0, 9.999000030802563e-05,
                              0.3333333432674408, 0.6666666865348816]),
    "softplus": ("softplus", [0.04858735203742981, 0.3132616877555847, 0.6930971741676331,
                              0.6931471824645996, 0.6931971907615662, 0.9740769863128662,
                              2.1269280910491943]),
    "exponential": ("exponential", [0.049787066876888275, 0.3678794503211975,
                                    0.9998999834060669, 1.0, 1.000100016593933,
                                    1.6487212181091309, 7.389056205749512]),
}


@pytest.mark.parametrize("name", list(EXPECTED))
def test_activation_values_and_names(name):
    fn = tf.keras.activations.get(name)
    fname, values = EXPECTED[name]
    assert fn.__name__ == fname
    np.testing.assert_allclose(np.asarray(fn(tf.constant(X))), values, rtol=1e-6, atol=1e-12)
    traced = tf.function(lambda v: fn(v))
    np.testing.assert_allclose(np.asarray(traced(tf.constant(X))), values, rtol=1e-6,
                               atol=1e-12)


def test_elu_alpha_and_the_elu_op_near_zero():
    np.testing.assert_allclose(
        np.asarray(tf.keras.activations.elu(tf.constant(X), alpha=0.5)),
        [-0.47510647773742676, -0.31606027483940125, -5.0008296966552734e-05, 0.0,
         9.999999747378752e-05, 0.5, 2.0], rtol=1e-6)
    # TF's Elu computes exp(x) - 1 in float32: -1.0001659e-04 for -1e-4 (expm1 would give
    # -9.9995e-05, a difference the harness's tolerance sees)
    assert tf.nn.elu(tf.constant([-1e-4])).numpy()[0] == np.float32(-0.00010001659393310547)


@pytest.mark.parametrize("name,grad", [("elu", [0.3678794503211975, 1.0]),
                                       ("selu", [0.6467685699462891, 1.0507010221481323]),
                                       ("swish", [0.07232948392629623, 0.7399612069129944])])
def test_gradients(name, grad):
    xv = tf.Variable([-1.0, 0.5])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.keras.layers.Activation(name)(xv))
    g = tape.gradient(y, xv).numpy()
    np.testing.assert_allclose(g, grad, rtol=1e-6)
    f = tf.keras.activations.get(name)
    for i, x in enumerate([-1.0, 0.5]):
        eps = 1e-3
        num = (float(f(tf.constant(x + eps, tf.float64))) -
               float(f(tf.constant(x - eps, tf.float64)))) / (2 * eps)
        assert abs(num - g[i]) < 1e-5


def test_dense_with_selu():
    d = tf.keras.layers.Dense(2, activation="selu", kernel_initializer="ones")
    np.testing.assert_allclose(d(tf.constant([[-1.0, 0.25]])).numpy(),
                               [[-0.9276319742202759, -0.9276319742202759]], rtol=1e-6)
