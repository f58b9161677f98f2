"""tf.keras.optimizers.Nadam against Keras 3 in TF 2.21: the weights and optimizer
variables below are what TF 2.21 printed for the same steps (run once)."""

from __future__ import annotations

import numpy as np

import tfgraph_edu as tf


def test_nadam_eager_steps_and_variables():
    tf.keras.backend.clear_session()  # the name a fresh session gives ("nadam")
    w = tf.Variable([1.0, -2.0, 3.0])
    b = tf.Variable(0.5)
    opt = tf.keras.optimizers.Nadam(learning_rate=0.1)
    want = [([0.8937212228775024, -1.8937212228775024, 2.893721103668213], 0.39372122287750244),
            ([0.8202452659606934, -1.8182227611541748, 2.817584991455078], 0.33373403549194336),
            ([0.7546743154525757, -1.7497214078903198, 2.7481741905212402], 0.28550177812576294)]
    for w_want, b_want in want:
        with tf.GradientTape() as t:
            loss = tf.reduce_sum(w * w * tf.constant([1.0, 2.0, 3.0])) + b * b * b
        opt.apply_gradients(zip(t.gradient(loss, [w, b]), [w, b]))
        np.testing.assert_allclose(w.numpy(), w_want, rtol=1e-6)
        np.testing.assert_allclose(b.numpy(), b_want, rtol=1e-6)
    assert opt.name == "nadam"
    got = [(v.path, v.numpy().tolist()) for v in opt.variables]
    assert [p for p, _ in got] == [
        "nadam/iteration", "nadam/learning_rate", "nadam/Variable_0_momentum",
        "nadam/Variable_0_velocity", "nadam/Variable_0_momentum", "nadam/Variable_0_velocity",
        "nadam/variable"]
    assert got[0][1] == 3
    for (_, value), tf_value in zip(got[2:], [
            [0.48691898584365845, -2.0570292472839355, 4.7111616134643555],
            [0.009874841198325157, 0.17408627271652222, 0.9102858304977417],
            0.13601797819137573, 0.0008890649769455194, 0.11397992819547653]):
        np.testing.assert_allclose(value, tf_value, rtol=1e-5)


def test_nadam_in_function_and_by_name():
    opt = tf.keras.optimizers.Nadam(beta_1=0.8, beta_2=0.99, epsilon=1e-3)
    v = tf.Variable([[1.0, 2.0]])

    @tf.function
    def step():
        with tf.GradientTape() as t:
            loss = tf.reduce_sum(tf.sin(v))
        opt.apply_gradients([(t.gradient(loss, v), v)])
    for _ in range(4):
        step()
    np.testing.assert_allclose(v.numpy(), [[0.9963507652282715, 2.003648519515991]], rtol=1e-6)
    m = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1)])
    m.compile(optimizer="nadam", loss="mse")
    assert type(m.optimizer).__name__ == "Nadam"
