"""tf.roll, tf.meshgrid, tf.math.bincount, tf.clip_by_global_norm (and tf.linalg.global_norm,
tf.nn.l2_loss) against TensorFlow 2.21.

Every expected value, dtype, error class and message below was printed by TensorFlow 2.21
(run once under real TensorFlow); each API runs eagerly and inside tf.function."""

from __future__ import annotations

import numpy as np
import pytest

import tfgraph_edu as tf


def _plain(r):
    return tf.nest.map_structure(lambda t: None if t is None else (t.dtype.name,
                                                                    t.numpy().tolist()), r)


CASES = [  # (expression, TF 2.21's result)
    (lambda: tf.roll([[0, 1, 2], [3, 4, 5]], shift=[1, -1], axis=[0, 1]),
     ("int32", [[4, 5, 3], [1, 2, 0]])),
    (lambda: tf.meshgrid([1, 2, 3], [4, 5]),
     [("int32", [[1, 2, 3], [1, 2, 3]]), ("int32", [[4, 4, 4], [5, 5, 5]])]),
    (lambda: tf.meshgrid([1, 2, 3], [4, 5], indexing="ij"),
     [("int32", [[1, 1], [2, 2], [3, 3]]), ("int32", [[4, 5], [4, 5], [4, 5]])]),
    (lambda: tf.math.bincount([1, 1, 2, 4]), ("int32", [0, 2, 1, 0, 1])),
    (lambda: tf.math.bincount([1, 1, 2, 4], weights=[.5, .5, 1., 2.], minlength=7),
     ("float32", [0.0, 1.0, 1.0, 0.0, 2.0, 0.0, 0.0])),
    (lambda: tf.math.bincount([1, 1, 2, 4], maxlength=3), ("int32", [0, 2, 1])),
    (lambda: tf.math.bincount(tf.constant([], tf.int32)), ("int32", [])),
    (lambda: tf.math.bincount([[1, 1], [2, 4]]), ("int32", [0, 2, 1, 0, 1])),
    (lambda: tf.math.bincount([[1, 1], [2, 4]], axis=-1),
     ("int32", [[0, 2, 0, 0, 0], [0, 0, 1, 0, 1]])),
    (lambda: tf.math.bincount([1, 2], dtype=tf.float32), ("float32", [0.0, 1.0, 1.0])),
    (lambda: tf.math.bincount([1., 2.]), ("int32", [0, 1, 1])),
    (lambda: tf.clip_by_global_norm([tf.constant([3., 4.]), tf.constant([[12.]])], 5.0),
     ([("float32", [1.1538461446762085, 1.5384615659713745]),
       ("float32", [[4.615384578704834]])], ("float32", 13.0))),
    (lambda: tf.clip_by_global_norm([tf.constant([3., 4.]), None], 100.0),
     ([("float32", [3.0, 4.0]), None], ("float32", 5.0))),
]


@pytest.mark.parametrize("i", range(len(CASES)))
def test_values_as_tensorflow_2_21_gives_them(i):
    fn, want = CASES[i]
    for got in (fn(), tf.function(fn, autograph=False)()):
        got = _plain(got)
        got = tuple(got) if isinstance(want, tuple) and isinstance(want[0], list) else got
        if isinstance(want, tuple) and isinstance(want[0], list):
            got = (list(got[0]), got[1])
            np.testing.assert_allclose(got[1][1], want[1][1], rtol=1e-6)
            for g, w in zip(got[0], want[0]):
                assert (g is None) == (w is None)
                if g is not None:
                    assert g[0] == w[0]
                    np.testing.assert_allclose(g[1], w[1], rtol=1e-6)
        else:
            assert got == want


NAN = float("nan")
MORE = [  # TF 2.21's results
    (lambda: tf.math.divide_no_nan(tf.constant([1.0, 2.0, NAN, 3.0]),
                                   tf.constant([0.0, 4.0, 0.0, NAN])),
     "('float32', [0.0, 0.5, 0.0, nan])"),
    (lambda: tf.math.divide_no_nan(tf.constant([1, 2]), tf.constant([0, 4])),
     "('float64', [0.0, 0.5])"),
    (lambda: tf.math.divide_no_nan(tf.constant([[1.0], [2.0]]), tf.constant([0.0, 4.0])),
     "('float32', [[0.0, 0.25], [0.0, 0.5]])"),
    (lambda: tf.math.count_nonzero(tf.constant([0, 1, 2])), "('int64', 2)"),
    (lambda: tf.math.count_nonzero(tf.constant([[0., 1.], [2., NAN]]), axis=1, keepdims=True),
     "('int64', [[1], [2]])"),
    (lambda: tf.math.count_nonzero(tf.constant(["", "a"])), "('int64', 1)"),
    (lambda: tf.math.count_nonzero(tf.constant([True, False]), dtype=tf.int32), "('int32', 1)"),
]


@pytest.mark.parametrize("i", range(len(MORE)))
def test_divide_no_nan_and_count_nonzero(i):
    fn, want = MORE[i]
    for got in (fn(), tf.function(fn, autograph=False)()):
        assert str((got.dtype.name, got.numpy().tolist())) == want


def test_divide_no_nan_gradient_as_tensorflow_2_21():
    # TF 2.21: d/dx = [0, 0.5, -1.5], d/dy = [0, -0.25, -2.25]
    x = tf.constant([1.0, 2.0, 3.0], tf.float64)
    y = tf.constant([0.0, 4.0, -2.0], tf.float64)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, y])
        z = tf.reduce_sum(tf.math.divide_no_nan(x, y) * [1., 2., 3.])
    assert tape.gradient(z, x).numpy().tolist() == [0.0, 0.5, -1.5]
    assert tape.gradient(z, y).numpy().tolist() == [0.0, -0.25, -2.25]


def test_global_norm_and_l2_loss():
    # TF 2.21: tf.linalg.global_norm([[3., 4.], [[12.]]]) = 13.0; tf.nn.l2_loss([3., 4.]) = 12.5
    assert float(tf.linalg.global_norm([tf.constant([3., 4.]), tf.constant([[12.]])])) == 13.0
    assert float(tf.nn.l2_loss(tf.constant([3., 4.]))) == 12.5


ERRORS = [  # (expression, eager class, message, class when traced) from TF 2.21
    (lambda: tf.roll([1, 2, 3], [1, 2], [0]), tf.errors.InvalidArgumentError,
     "shift and axis must have the same size", ValueError),
    (lambda: tf.roll([1, 2, 3], 1, 1), tf.errors.InvalidArgumentError, "axis 1 is out of range",
     tf.errors.InvalidArgumentError),
    (lambda: tf.math.bincount([1, -1]), tf.errors.InvalidArgumentError,
     "Input arr must be non-negative!", tf.errors.InvalidArgumentError),
    (lambda: tf.clip_by_global_norm(tf.constant([1., 2.]), 1.0), TypeError,
     "`t_list` should be a sequence of tensors. Received", TypeError),
    (lambda: tf.meshgrid([1, 2], [3], indexing="xx"), ValueError,
     "Argument `indexing` parameter must be either 'xy' or 'ij', got 'xx'", ValueError),
]


@pytest.mark.parametrize("i", range(len(ERRORS)))
def test_errors_as_tensorflow_2_21_raises_them(i):
    fn, eager_cls, text, graph_cls = ERRORS[i]
    with pytest.raises(eager_cls) as info:
        fn()
    assert text in str(info.value)
    with pytest.raises(graph_cls):
        tf.function(fn, autograph=False)()


def _central(f, x, eps=1e-6):
    g = np.zeros_like(x)
    for idx in np.ndindex(*x.shape):
        up, down = x.copy(), x.copy()
        up[idx] += eps
        down[idx] -= eps
        g[idx] = (f(up) - f(down)) / (2 * eps)
    return g


@pytest.mark.parametrize("api", ["roll", "meshgrid", "clip_by_global_norm", "clip_inactive"])
def test_gradients_match_central_differences_eagerly_and_in_tf_function(api):
    x0 = np.array([[0.3, -1.2, 2.5], [1.1, 0.2, -0.4]])
    w = np.arange(1.0, 7.0).reshape(2, 3)
    fns = {
        "roll": lambda x: tf.roll(x, [1, 2], [0, 1]) * w,
        "meshgrid": lambda x: tf.meshgrid(x[0], x[1, :2])[0] * x[1, 2],
        "clip_by_global_norm": lambda x: tf.clip_by_global_norm([x, x[0] * 2.0], 1.5)[0][1],
        "clip_inactive": lambda x: tf.clip_by_global_norm([x], 100.0)[0][0] * w,
    }
    fn = fns[api]

    def loss(x):
        return tf.reduce_sum(fn(x) * tf.reduce_sum(fn(x)))

    def grad(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            out = loss(x)
        return tape.gradient(out, x)

    want = _central(lambda v: float(loss(tf.constant(v))), x0)
    np.testing.assert_allclose(grad(tf.constant(x0)).numpy(), want, atol=1e-6)
    np.testing.assert_allclose(tf.function(grad)(tf.constant(x0)).numpy(), want, atol=1e-6)
