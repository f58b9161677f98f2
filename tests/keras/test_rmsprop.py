"""``keras.optimizers.RMSprop`` (the mixed precision guide, issue 25).

Values and variable paths recorded once from TensorFlow 2.21 + Keras 3 on the same steps."""

import numpy as np
import pytest

import tfgraph_edu as tf


@pytest.mark.parametrize("kw, expected, slots", [
    ({}, [0.992630660533905, -1.992626667022705, 2.9926249980926514], ["velocity"]),
    ({"momentum": 0.5}, [0.9891155362129211, -1.9891096353530884, 2.989107608795166],
     ["velocity", "momentum"]),
    ({"learning_rate": 0.1, "rho": 0.8},
     [0.515544056892395, -1.488426685333252, 2.4806017875671387], ["velocity"]),
])
def test_rmsprop_steps_as_keras(kw, expected, slots):
    v = tf.Variable([1.0, -2.0, 3.0])
    opt = tf.keras.optimizers.RMSprop(**kw)
    for _ in range(3):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(v ** 2 * tf.constant([1., 2., 3.]))
        opt.apply_gradients([(tape.gradient(loss, v), v)])
    np.testing.assert_allclose(v.numpy(), expected, rtol=2e-6)
    paths = [x.path for x in opt.variables]
    assert paths[:2] == [f"{opt.name}/iteration", f"{opt.name}/learning_rate"]
    assert [p.rsplit("_", 1)[1] for p in paths[2:]] == slots
    assert opt.name.startswith("rm_sprop")  # Keras 3's snake case of the class name
