"""Keras 3's data check in ``fit``/``predict``/``evaluate`` (course material, issue 25:
``model.predict([17.0])`` ran here and is a ValueError in TF 2.21)."""

import numpy as np
import pytest

import tfgraph_edu as tf


@pytest.fixture
def model():
    tf.random.set_seed(42)
    m = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    m.compile(loss="mae", optimizer="sgd")
    m.fit(np.ones((4, 1)), np.ones(4), verbose=0)
    return m


# recorded from TF 2.21: each raises ValueError with this message
@pytest.mark.parametrize("call, message", [
    (lambda m: m.predict([17.0], verbose=0),
     "Unrecognized data type: x=[17.0] (of type <class 'list'>)"),
    (lambda m: m.predict([[17.0]], verbose=0),
     "Unrecognized data type: x=[[17.0]] (of type <class 'list'>)"),
    (lambda m: m.predict((17.0,), verbose=0),
     "Unrecognized data type: x=(17.0,) (of type <class 'tuple'>)"),
    (lambda m: m.fit([1., 2.], [1., 2.], verbose=0),
     "Unrecognized data type: x=[1.0, 2.0] (of type <class 'list'>)"),
    (lambda m: m.fit(np.ones((2, 1)), [1., 2.], verbose=0),
     "Unrecognized data type: x=[[1.]\n [1.]] (of type <class 'numpy.ndarray'>)"),
    (lambda m: m.evaluate([1., 2.], np.ones(2), verbose=0),
     "Unrecognized data type: x=[1.0, 2.0] (of type <class 'list'>)"),
])
def test_python_lists_of_numbers_are_refused(model, call, message):
    with pytest.raises(ValueError) as info:
        call(model)
    assert str(info.value) == message


def test_a_list_holding_one_array_is_that_array(model):
    x = np.ones((2, 1))
    # recorded from TF 2.21: shape (2, 1)
    assert model.predict([x], verbose=0).shape == (2, 1)
    np.testing.assert_allclose(model.predict([x], verbose=0), model.predict(x, verbose=0))


def test_arrays_tensors_and_datasets_still_run(model):
    x = np.ones((3, 1), np.float32)
    assert model.predict(tf.constant(x), verbose=0).shape == (3, 1)
    fresh = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    fresh.compile(loss="mae", optimizer="sgd")
    ds = tf.data.Dataset.from_tensor_slices((x, np.ones(3, np.float32))).batch(2)
    fresh.fit(ds, epochs=1, verbose=0)
    assert fresh.predict(x, verbose=0).shape == (3, 1)
