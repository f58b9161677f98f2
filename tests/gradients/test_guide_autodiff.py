"""The behaviours the autodiff and advanced-autodiff guides show, as our own short programs.

Expected values are the ones TensorFlow prints in those guides (derivable by hand).
"""

from __future__ import annotations

import numpy as np

import tfgraph_edu as tf


def test_gradient_of_a_variable_and_of_a_dict_of_variables():
    x = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        y = x ** 2
    assert float(tape.gradient(y, x)) == 6.0

    w = tf.Variable(tf.random.normal((3, 2)), name="w")
    b = tf.Variable(tf.zeros(2, dtype=tf.float32), name="b")
    x = [[1.0, 2.0, 3.0]]
    with tf.GradientTape(persistent=True) as tape:
        y = x @ w + b
        loss = tf.reduce_mean(y ** 2)
    dl_dw, dl_db = tape.gradient(loss, [w, b])
    assert dl_dw.shape.as_list() == [3, 2] and dl_db.shape.as_list() == [2]
    grad = tape.gradient(loss, {"w": w, "b": b})
    np.testing.assert_allclose(grad["b"].numpy(), dl_db.numpy())
    yv = np.array(x) @ w.numpy() + b.numpy()
    np.testing.assert_allclose(dl_db.numpy(), yv[0], rtol=1e-6)


def test_watched_variables_skip_non_trainable_and_tensors():
    x0 = tf.Variable(3.0, name="x0")
    x1 = tf.Variable(3.0, name="x1", trainable=False)
    x2 = tf.Variable(2.0, name="x2") + 1.0
    x3 = tf.constant(3.0, name="x3")
    with tf.GradientTape() as tape:
        y = (x0 ** 2) + (x1 ** 2) + (x2 ** 2)
    grad = tape.gradient(y, [x0, x1, x2, x3])
    assert float(grad[0]) == 6.0 and grad[1:] == [None, None, None]
    assert [var.name for var in tape.watched_variables()] == ["x0:0"]


def test_intermediate_results_and_persistent_tape():
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
        z = y * y
    assert float(tape.gradient(z, y)) == 18.0
    x = tf.constant([1, 3.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x
        z = y * y
    assert tape.gradient(z, x).numpy().tolist() == [4.0, 108.0]
    assert tape.gradient(y, x).numpy().tolist() == [2.0, 6.0]
    del tape


def test_non_scalar_targets_are_summed():
    x = tf.Variable(2.0)
    with tf.GradientTape(persistent=True) as tape:
        y0 = x ** 2
        y1 = 1 / x
    assert float(tape.gradient(y0, x)) == 4.0 and float(tape.gradient(y1, x)) == -0.25
    assert float(tape.gradient({"y0": y0, "y1": y1}, x)) == 3.75
    with tf.GradientTape() as tape:
        y = x * [3.0, 4.0]
    assert float(tape.gradient(y, x)) == 7.0


def test_control_flow_gradient_of_the_branch_taken():
    x = tf.constant(1.0)
    v0, v1 = tf.Variable(2.0), tf.Variable(2.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        if x > 0.0:
            result = v0
        else:
            result = v1 ** 2
    dv0, dv1 = tape.gradient(result, [v0, v1])
    assert float(dv0) == 1.0 and dv1 is None
    assert tape.gradient(result, x) is None


def test_cases_where_the_gradient_is_none():
    x, y = tf.Variable(2.0), tf.Variable(3.0)
    with tf.GradientTape() as tape:
        z = y * y
    assert tape.gradient(z, x) is None

    x = tf.Variable(2.0)
    seen = []
    for _ in range(2):
        with tf.GradientTape() as tape:
            y = x + 1
        seen.append((type(x).__name__, tape.gradient(y, x)))
        x = x + 1  # replaces the variable with a tensor
    assert seen[0][0] == "ResourceVariable" and float(seen[0][1]) == 1.0  # as TF 2.21 names it
    assert seen[1][0] == "EagerTensor" and seen[1][1] is None

    x = tf.Variable([[1.0, 2.0], [3.0, 4.0]], dtype=tf.float32)
    with tf.GradientTape() as tape:
        x2 = x ** 2
        y = np.mean(x2, axis=0)  # leaves TensorFlow
        y = tf.reduce_mean(y, axis=0)
    assert tape.gradient(y, x) is None

    x0, x1 = tf.Variable(3.0), tf.Variable(0.0)
    with tf.GradientTape() as tape:
        x1.assign_add(x0)  # the tape cannot see through a variable's state
        y = x1 ** 2
    assert tape.gradient(y, x0) is None


def test_zeros_instead_of_none():
    x, y = tf.Variable([2.0, 2.0]), tf.Variable(3.0)
    with tf.GradientTape() as tape:
        z = y ** 2
    assert tape.gradient(z, x, unconnected_gradients=tf.UnconnectedGradients.ZERO) \
        .numpy().tolist() == [0.0, 0.0]


def test_stop_recording_and_reset():
    x, y = tf.constant(2.0), tf.constant(3.0)
    with tf.GradientTape() as t:
        t.watch([x, y])
        x_sq = x * x
        with t.stop_recording():
            y_sq = y * y
        z = x_sq + y_sq
    grad = t.gradient(z, {"x": x, "y": y})
    assert float(grad["x"]) == 4.0 and grad["y"] is None

    reset = True
    with tf.GradientTape() as t:
        y_sq = y * y
        if reset:
            t.reset()
        z = x * x + y_sq
    grad = t.gradient(z, {"x": x, "y": y})
    assert grad["x"] is None and grad["y"] is None  # nothing was watched after the reset


def test_higher_order_gradients_and_a_training_step_with_a_module():
    x = tf.Variable(1.0)
    with tf.GradientTape() as t2:
        with tf.GradientTape() as t1:
            y = x * x * x
        dy_dx = t1.gradient(y, x)
    assert float(dy_dx) == 3.0 and float(t2.gradient(dy_dx, x)) == 6.0

    class Model(tf.Module):
        def __init__(self):
            self.w = tf.Variable(5.0)
            self.b = tf.Variable(0.0)

        @tf.function
        def __call__(self, x):
            return self.w * x + self.b

    model = Model()
    x = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as t:
        loss = tf.reduce_mean(tf.square(model(x) - 2.0 * x))
    dw, db = t.gradient(loss, [model.w, model.b])
    err = 5.0 * np.array([1.0, 2.0, 3.0]) - 2.0 * np.array([1.0, 2.0, 3.0])
    np.testing.assert_allclose(float(dw), np.mean(2 * err * [1.0, 2.0, 3.0]), rtol=1e-6)
    np.testing.assert_allclose(float(db), np.mean(2 * err), rtol=1e-6)
