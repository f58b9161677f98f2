"""tf.keras.utils, tf.keras.activations.get, Dataset.apply and tf.version, against values
recorded once from TensorFlow 2.21 / Keras 3 (the snippets of each test, run there)."""

import random

import numpy as np
import pytest

import tfgraph_edu as tf


def test_to_categorical_numpy():
    # TF: float64 ndarray [[1,0,0,0],[0,0,1,0],[0,1,0,0]]
    r = tf.keras.utils.to_categorical([0, 2, 1], num_classes=4)
    assert isinstance(r, np.ndarray) and r.dtype == np.float64
    assert r.tolist() == [[1, 0, 0, 0], [0, 0, 1, 0], [0, 1, 0, 0]]
    # TF: a trailing axis of 1 dropped, classes counted: shape (2, 2) [[0,1],[1,0]]
    r = tf.keras.utils.to_categorical(np.array([[1], [0]]))
    assert r.shape == (2, 2) and r.tolist() == [[0, 1], [1, 0]]


def test_to_categorical_tensor_eager_and_function():
    # TF: a float32 tensor [[0,1,0],[1,0,0],[0,0,1]]
    want = [[0, 1, 0], [1, 0, 0], [0, 0, 1]]
    r = tf.keras.utils.to_categorical(tf.constant([1, 0, 2]), 3)
    assert r.dtype == tf.float32 and r.numpy().tolist() == want
    f = tf.function(lambda x: tf.keras.utils.to_categorical(x, 3))
    assert f(tf.constant([1, 0, 2])).numpy().tolist() == want
    # TF: no num_classes with a tensor fails in tf.one_hot
    with pytest.raises(ValueError, match="unsupported type"):
        tf.keras.utils.to_categorical(tf.constant([1, 0, 2]))


def test_normalize():
    # TF: [[0.6, 0.8], [1.0, 0.0]] and, L1 along axis 0, [[0.75, 1.0], [0.25, 0.0]]
    r = tf.keras.utils.normalize(np.array([[3.0, 4.0], [1.0, 0.0]]))
    assert isinstance(r, np.ndarray)
    np.testing.assert_allclose(r, [[0.6, 0.8], [1.0, 0.0]])
    r = tf.keras.utils.normalize(np.array([[3.0, 4.0], [1.0, 0.0]]), axis=0, order=1)
    np.testing.assert_allclose(r, [[0.75, 1.0], [0.25, 0.0]])
    # TF: a float32 tensor [[0.6, 0.8]]
    t = tf.keras.utils.normalize(tf.constant([[3.0, 4.0]]))
    assert t.dtype == tf.float32
    np.testing.assert_allclose(t.numpy(), [[0.6, 0.8]], rtol=1e-6)
    f = tf.function(lambda x: tf.keras.utils.normalize(x))
    np.testing.assert_allclose(f(tf.constant([[3.0, 4.0]])).numpy(), [[0.6, 0.8]], rtol=1e-6)


def test_set_random_seed_seeds_python_and_numpy():
    # TF: after set_random_seed(3), np.random.rand() and random.random() gave these
    tf.keras.utils.set_random_seed(3)
    assert np.random.rand() == 0.5507979025745755
    assert random.random() == 0.23796462709189137
    tf.keras.utils.set_random_seed(3)
    a = tf.random.uniform([2]).numpy()
    tf.keras.utils.set_random_seed(3)
    np.testing.assert_array_equal(tf.random.uniform([2]).numpy(), a)
    with pytest.raises(ValueError, match=r"Expected `seed` argument to be an integer. "
                       r"Received: seed=1.5 \(of type <class 'float'>\)"):
        tf.keras.utils.set_random_seed(1.5)


def test_utils_register_is_savings():
    assert tf.keras.utils.register_keras_serializable is \
        tf.keras.saving.register_keras_serializable
    with pytest.raises(AttributeError, match="TF 2.21 has tf.keras.utils.plot_model"):
        getattr(tf.keras.utils, "plot_model")  # noqa: B009


def test_activations_get():
    a = tf.keras.activations
    assert a.get("relu") is a.relu
    assert a.get(None) is a.linear
    assert a.get(tf.nn.relu) is tf.nn.relu
    # TF's messages
    for bad in ("nope", 5):
        with pytest.raises(ValueError,
                           match=f"Could not interpret activation function identifier: {bad}$"):
            a.get(bad)
    with pytest.raises(AttributeError, match="TF 2.21 has tf.keras.activations.gelu"):
        a.get("gelu")


def test_dataset_apply():
    # TF: [0, 2, 4]
    ds = tf.data.Dataset.range(6).apply(lambda d: d.filter(lambda x: x % 2 == 0))
    assert list(ds.as_numpy_iterator()) == [0, 2, 4]
    with pytest.raises(TypeError, match=r"`transformation_func` must return a "
                       r"`tf.data.Dataset` object. Got <class 'int'>."):
        tf.data.Dataset.range(3).apply(lambda d: 5)


def test_version_constants():
    # TF 2.21.0's own values
    assert tf.version.VERSION == tf.__version__ == "2.21.0"
    assert tf.version.GIT_VERSION == "v2.21.0-rc1-5-ga481b10260d"
    assert tf.version.COMPILER_VERSION == "Clang 18.1.8"
    assert tf.version.GRAPH_DEF_VERSION == 2474
    assert tf.version.GRAPH_DEF_VERSION_MIN_CONSUMER == 0
