"""tf.experimental.numpy (tnp) and experimental_enable_numpy_behavior.

Every expected dtype and value below was recorded from TF 2.21 (tests' comments say which
call), by running the same expressions in /work/main/.venv-tf.
"""

import numpy as np
import pytest

import tfgraph_edu as tf
from tfgraph_edu._api import numpy_api

tnp = tf.experimental.numpy


@pytest.fixture
def numpy_on():
    tnp.experimental_enable_numpy_behavior()
    yield
    numpy_api._disable_numpy_behavior()


def _same(t, dtype, value):
    assert t.dtype.name == dtype
    np.testing.assert_allclose(np.asarray(t), np.asarray(value), rtol=1e-6)


# -- before the switch --------------------------------------------------------------------------
def test_tnp_functions_work_before_the_switch_and_tensors_lack_numpy_methods():
    # recorded from TF 2.21: tnp's dtypes apply without the switch
    _same(tnp.asarray(1), "int64", 1)
    _same(tnp.ones([2]), "float64", [1.0, 1.0])
    _same(tnp.sum(tf.constant([1, 2], tf.int32)), "int64", 3)
    t = tf.constant([[1, 2], [3, 4]])
    with pytest.raises(AttributeError, match="experimental_enable_numpy_behavior"):
        t.reshape(-1)
    with pytest.raises(AttributeError, match="experimental_enable_numpy_behavior"):
        t.T  # noqa: B018
    assert not hasattr(t, "astype")
    with pytest.raises(AttributeError, match="no attribute 'item'"):
        t.item  # noqa: B018
    # a property's own error is kept (not replaced by the hint)
    with pytest.raises(AttributeError, match="Tensor.name is undefined"):
        t.name  # noqa: B018
    # TF's operators do not promote before the switch: float32 + float64 NumPy array is float32
    _same(tf.ones(2) + np.ones(2), "float32", [2.0, 2.0])


def test_modes():
    with pytest.raises(ValueError, match="promotion mode xx does not exist"):
        tnp.experimental_enable_numpy_behavior(dtype_conversion_mode="xx")
    with pytest.raises(NotImplementedError, match="dtype_conversion_mode='off'"):
        tnp.experimental_enable_numpy_behavior(dtype_conversion_mode="off")
    assert not hasattr(tf.constant(1), "T")


def test_switching_off_restores_tfs_operators():
    tnp.experimental_enable_numpy_behavior()
    _same(tf.constant([1, 2]) + 1.5, "float64", [2.5, 3.5])
    numpy_api._disable_numpy_behavior()
    # TF 2.21 without NumPy behaviour refuses it (InvalidArgumentError; the engine says
    # TypeError, a difference of its own conversion rules, not of this switch)
    with pytest.raises((TypeError, tf.errors.InvalidArgumentError)):
        tf.constant([1, 2]) + 1.5
    _same(tf.ones(2) + np.ones(2), "float32", [2.0, 2.0])
    assert not hasattr(tf.constant(1), "T") and not hasattr(tf.Variable(1.0), "T")


# -- methods, operators, indexing once on -------------------------------------------------------
def test_numpy_methods(numpy_on):
    t = tf.constant([[1, 2], [3, 4]])
    # recorded from TF 2.21
    _same(t.T, "int32", [[1, 3], [2, 4]])
    _same(t.reshape(1, 4), "int32", [[1, 2, 3, 4]])
    _same(t.reshape(4, order="F"), "int32", [1, 3, 2, 4])
    _same(t.ravel(), "int32", [1, 2, 3, 4])
    _same(t.astype(tnp.float32), "float32", [[1, 2], [3, 4]])
    assert t.tolist() == [[1, 2], [3, 4]]
    assert t.size == 4 and isinstance(t.size, np.int64)
    _same(t.clip(2, 3), "int32", [[2, 2], [3, 3]])
    _same(t.mean(axis=0), "float64", [2.0, 3.0])
    _same(t.max(), "int32", 4)
    _same(t.min(axis=1), "int32", [1, 3])
    _same(t.flatten(), "int32", [1, 2, 3, 4])
    _same(t.transpose(), "int32", [[1, 3], [2, 4]])
    ones = tnp.ones([5, 3], dtype=tnp.float32)
    assert ones.ndim == 2 and ones.T.shape == (3, 5) and isinstance(ones, tnp.ndarray)


def test_operators_promote_as_numpy(numpy_on):
    t = tf.constant([[1, 2], [3, 4]])
    # recorded from TF 2.21
    _same(t + 1.5, "float64", [[2.5, 3.5], [4.5, 5.5]])
    _same(tf.constant([1.0, 2.0]) * 2, "float32", [2.0, 4.0])
    _same(tf.constant([1.0, 2.0]) + np.ones(2), "float64", [2.0, 3.0])
    _same(t + tf.constant(1, tf.int64), "int64", [[2, 3], [4, 5]])
    _same(t / t, "float64", [[1.0, 1.0], [1.0, 1.0]])
    _same(1.5 - t, "float64", [[0.5, -0.5], [-1.5, -2.5]])
    _same(t @ tf.constant([[1.0], [2.0]]), "float64", [[5.0], [11.0]])
    v = tf.constant([1, 2])  # comparisons promote too (recorded from TF 2.21)
    _same(v == 1.5, "bool", [False, False])
    _same(v != 1.5, "bool", [True, True])
    _same(v == tf.constant([1.0, 2.0]), "bool", [True, True])
    _same(v == np.array([1.0, 2.5]), "bool", [True, False])
    # the guide's table (recorded from TF 2.21)
    names = {}
    values = [tnp.asarray(1, dtype=d) for d in (tnp.int32, tnp.int64, tnp.float32, tnp.float64)]
    for i, v1 in enumerate(values):
        for v2 in values[i + 1:]:
            names[v1.dtype.name, v2.dtype.name] = (v1 + v2).dtype.name
    assert names == {("int32", "int64"): "int64", ("int32", "float32"): "float64",
                     ("int32", "float64"): "float64", ("int64", "float32"): "float64",
                     ("int64", "float64"): "float64", ("float32", "float64"): "float64"}


def test_numpy_indexing(numpy_on):
    x = tnp.arange(24).reshape(2, 3, 4)
    # recorded from TF 2.21
    _same(x[1, tnp.newaxis, 1:3, ...], "int64", [[[16, 17, 18, 19], [20, 21, 22, 23]]])
    _same(x[:, (True, False, True)], "int64",
          [[[0, 1, 2, 3], [8, 9, 10, 11]], [[12, 13, 14, 15], [20, 21, 22, 23]]])
    _same(x[1, (0, 0, 1), tnp.asarray([0, 1, 1])], "int64", [12, 13, 17])
    _same(x[[1, 0], 2], "int64", [[20, 21, 22, 23], [8, 9, 10, 11]])
    _same(x[x % 5 == 0], "int64", [0, 5, 10, 15, 20])
    _same(tf.function(lambda t: t[:, [2, 0], 1])(x), "int64", [[9, 1], [21, 13]])
    with pytest.raises(TypeError):
        tnp.arange(6)[1] = -1  # tensors are immutable
    # a mask computed inside a function: an honest error, not a wrong answer
    with pytest.raises(NotImplementedError, match="advanced indexing"):
        tf.function(lambda t: t[t > 1])(tf.constant([1.0, 2.0]))


def test_advanced_index_gradient(numpy_on):
    x = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tnp.sum(x[[1, 1, 0], (2, 0, 1)] ** 2)
    g = tape.gradient(y, x)
    want = np.zeros((2, 3))  # d/dx of x[1,2]^2 + x[1,0]^2 + x[0,1]^2
    want[1, 2], want[1, 0], want[0, 1] = 12.0, 8.0, 4.0
    np.testing.assert_allclose(g.numpy(), want)


# -- functions -----------------------------------------------------------------------------------
def test_functions_dtypes_and_values(numpy_on):
    t = tf.constant([[1, 2], [3, 4]])
    # recorded from TF 2.21
    _same(tnp.sum(t), "int64", 10)
    _same(tnp.sum(t, axis=0), "int64", [4, 6])
    _same(tnp.prod(t), "int64", 24)
    _same(tnp.mean(t), "float64", 2.5)
    _same(tnp.std(t), "float64", 1.118033988749895)
    _same(tnp.var(tf.constant([1.0, 2.0, 4.0])), "float32", 1.5555557012557983)
    _same(tnp.argmax(t), "int64", 3)
    _same(tnp.sqrt(32), "float64", 5.656854249492381)
    _same(tnp.exp(tf.constant([0.0, 1.0])), "float32", [1.0, 2.7182817459106445])
    _same(tnp.dot(t, t), "int32", [[7, 10], [15, 22]])
    _same(tnp.dot([1, 2], [3, 4]), "int64", 11)
    _same(tnp.matmul(t, tf.constant([[1.0], [2.0]])), "float64", [[5.0], [11.0]])
    _same(tnp.maximum(tf.constant([-1.0, 2.0]), 0), "float32", [0.0, 2.0])
    _same(tnp.add(1, 2), "int64", 3)
    _same(tnp.add(1.0, 2), "float64", 3.0)
    _same(tnp.divide(t, 2), "float64", [[0.5, 1.0], [1.5, 2.0]])
    _same(tnp.linspace(0, 1, 5), "float64", [0.0, 0.25, 0.5, 0.75, 1.0])
    _same(tnp.arange(1, 5, 2), "int64", [1, 3])
    _same(tnp.arange(0.0, 1.0, 0.25), "float64", [0.0, 0.25, 0.5, 0.75])
    _same(tnp.full([2], 3.0), "float64", [3.0, 3.0])
    _same(tnp.eye(2), "float64", [[1.0, 0.0], [0.0, 1.0]])
    _same(tnp.zeros_like(t), "int32", [[0, 0], [0, 0]])
    _same(tnp.ones_like(t, dtype=tnp.float32), "float32", [[1, 1], [1, 1]])
    _same(tnp.where(t > 2, t, 0), "int32", [[0, 0], [3, 4]])
    _same(tnp.concatenate([t, tf.constant([[5.0, 6.0]])]), "float64", [[1, 2], [3, 4], [5, 6]])
    _same(tnp.allclose(t, t + 1e-9), "bool", True)
    _same(tnp.array([1, 2], ndmin=2), "int64", [[1, 2]])
    _same(tnp.asarray([1.0, 2]), "float64", [1.0, 2.0])
    assert tnp.result_type(tnp.int32, tnp.float32) == tf.float64
    assert tnp.promote_types(tnp.int32, tnp.float32) == np.dtype("float64")
    assert tnp.float32 is np.float32 and tnp.float32 == tf.float32


def test_numpy_interop(numpy_on):
    s = np.sum(tnp.ones([2, 3]))  # recorded from TF 2.21: a NumPy float64
    assert type(s) is np.float64 and s == 6.0
    _same(tnp.sum(np.ones([2, 3])), "float64", 6.0)
    assert np.asarray(15 + 2 * tnp.random.randn(1, 10)).shape == (1, 10)


def test_prefer_float32(numpy_on):
    tnp.experimental_enable_numpy_behavior(prefer_float32=True)
    # recorded from TF 2.21: Python floats read as float32; default dtypes unchanged
    _same(tnp.asarray(1.0), "float32", 1.0)
    _same(tnp.add(1.0, 2.0), "float32", 3.0)
    _same(tnp.ones(1), "float64", [1.0])
    _same(tf.constant([[1, 2], [3, 4]]) + 1.5, "float64", [[2.5, 3.5], [4.5, 5.5]])
    tnp.experimental_enable_numpy_behavior(prefer_float32=False)
    _same(tnp.asarray(1.0), "float64", 1.0)


def test_random_dtypes_and_shapes():
    assert tnp.random.randn(2, 3).shape == (2, 3) and tnp.random.randn(2).dtype == tf.float64
    u = tnp.random.uniform(2.0, 3.0, size=(100,)).numpy()
    assert u.min() >= 2.0 and u.max() < 3.0
    r = tnp.random.randint(0, 3, size=50).numpy()
    assert r.dtype == np.int64 and set(r.tolist()) <= {0, 1, 2}
    with pytest.raises(NotImplementedError, match="poisson"):
        tnp.random.poisson(1.0, 3)


# -- in tf.function and under GradientTape -----------------------------------------------------
def test_in_function_matches_eager(numpy_on):
    def f(a):
        return tnp.sum(tnp.maximum(tnp.matmul(a, a.T) - 3, 0) / a.size)
    a = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    _same(f(a), "float64", 10.0)  # recorded from TF 2.21 (a.size is a NumPy int64)
    _same(tf.function(f)(a), "float64", 10.0)


def test_gradient_against_central_differences(numpy_on):
    x0 = np.array([[0.3, -1.2, 2.0], [0.7, 0.1, -0.4]])
    w = tnp.asarray(np.array([[1.0, -2.0], [0.5, 0.3], [-1.0, 2.0]]))

    def loss(x):
        y = tnp.maximum(tnp.matmul(x, w), 0.0)
        return tnp.sum(tnp.square(y.T.reshape(-1))) + tnp.mean(tnp.exp(x))

    for fn in (loss, tf.function(loss)):
        x = tnp.asarray(x0)
        with tf.GradientTape() as tape:
            tape.watch(x)
            value = fn(x)
        g = tape.gradient(value, x).numpy()
        eps, num = 1e-6, np.zeros_like(x0)
        for i in np.ndindex(x0.shape):
            d = np.zeros_like(x0)
            d[i] = eps
            up, down = float(loss(tnp.asarray(x0 + d))), float(loss(tnp.asarray(x0 - d)))
            num[i] = (up - down) / (2 * eps)
        np.testing.assert_allclose(g, num, rtol=1e-5, atol=1e-6)


_W = [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]


def _grads_of_closed_over(x, w):
    with tf.GradientTape() as tape:
        tape.watch(w)
        loss = tnp.sum(tnp.square(tnp.matmul(x, w)))
    return tape.gradient(loss, w)


def test_watching_an_eager_tensor_closed_over_in_a_function():
    w = tf.constant(_W)
    x = tf.constant([[1.0, 0.0, 2.0]])
    want = [[22.0, 28.0], [0.0, 0.0], [44.0, 56.0]]  # recorded from TF 2.21
    _same(_grads_of_closed_over(x, w), "float32", want)
    _same(tf.function(lambda x: _grads_of_closed_over(x, w))(x), "float32", want)


def test_vectorized_map():
    # recorded from TF 2.21
    rows = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    _same(tf.vectorized_map(lambda r: r * r + 1.0, rows), "float32",
          [[2.0, 5.0], [10.0, 17.0], [26.0, 37.0]])
    a, b = tf.vectorized_map(lambda p: (p[0] + p[1], tnp.sum(p[0])),
                             (tf.constant([[1.0, 2.0], [3.0, 4.0]]), tf.constant([10.0, 20.0])))
    _same(a, "float32", [[11.0, 12.0], [23.0, 24.0]])
    _same(b, "float32", [3.0, 7.0])
    w = tf.constant(_W)
    per_row = tf.function(lambda xs: tf.vectorized_map(
        lambda r: _grads_of_closed_over(tnp.expand_dims(r, 0), w), xs))
    _same(per_row(tf.constant([[1.0, 0.0, 2.0], [0.0, 1.0, 0.0]])), "float32",
          [[[22.0, 28.0], [0.0, 0.0], [44.0, 56.0]], [[0.0, 0.0], [6.0, 8.0], [0.0, 0.0]]])
