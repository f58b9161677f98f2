"""A built Sequential adjusts an input's rank by one axis of size 1, as Keras 3 does
(course material, issue 25: a model fit on ``expand_dims(X, -1)`` predicts on ``X``)."""

import numpy as np
import pytest

import tfgraph_edu as tf


def _model_1():
    tf.random.set_seed(1)
    m = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    m.build((None, 1))
    return m


def test_one_axis_fewer_is_added_when_the_input_ends_in_1():
    m = _model_1()
    # recorded from TF 2.21: (3, 1) for each
    assert tuple(m(tf.constant([1., 2., 3.])).shape) == (3, 1)
    assert m.predict(np.array([1., 2., 3.]), verbose=0).shape == (3, 1)
    np.testing.assert_allclose(m(tf.constant([1., 2.])).numpy(),
                               m(tf.constant([[1.], [2.]])).numpy())

    @tf.function
    def g(x):
        return m(x)
    assert tuple(g(tf.constant([1., 2.])).shape) == (2, 1)


def test_one_axis_of_size_1_more_is_dropped():
    m = _model_1()
    assert tuple(m(np.array([[[1.]], [[2.]]])).shape) == (2, 1)  # recorded from TF 2.21
    m3 = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2)])
    assert tuple(m3(tf.ones([4, 3, 1])).shape) == (4, 2)  # recorded from TF 2.21


def test_other_ranks_are_refused_as_keras_does():
    m3 = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2)])
    # recorded from TF 2.21: the first layer's check first, then the rank's
    with pytest.raises(ValueError, match="expected min_ndim=2, found ndim=1"):
        m3(tf.ones([4]))
    with pytest.raises(ValueError, match="expected axis -1 of input shape to have value 3"):
        m3(tf.ones([4, 2]))
    with pytest.raises(ValueError, match=r"Expected shape \(None, 3\), but input has "
                                         r"incompatible shape \(2, 4, 3\)"):
        m3(tf.ones([2, 4, 3]))


def test_fit_on_n_1_then_predict_on_n():
    X = np.arange(-100., 100., 4.)
    y = X + 10
    tf.random.set_seed(42)
    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    model.compile(loss="mae", optimizer=tf.keras.optimizers.SGD(), metrics=["mae"])
    model.fit(tf.expand_dims(X, -1), y, epochs=2, verbose=0)
    assert model.predict(X[:10], verbose=0).shape == (10, 1)
