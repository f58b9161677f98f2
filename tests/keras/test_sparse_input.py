"""A Keras model on SparseTensor inputs (guide sparse_tensor, issue 25): Input(sparse=True),
Dense as a sparse-dense product, predict batching the sparse rows. Expected values recorded
from TF 2.21 / Keras 3 running the same program."""

import numpy as np
import pytest

import tfgraph_edu as tf

_EXPECTED = [[3.] * 4, [0.] * 4, [0.] * 4, [0.] * 4, [1.] * 4, [2.] * 4]


def _sparse_data():
    return tf.sparse.SparseTensor(indices=[(0, 0), (0, 1), (0, 2), (4, 3), (5, 0), (5, 1)],
                                  values=[1, 1, 1, 1, 1, 1], dense_shape=(6, 4))


def test_sparse_input_dense_model_call_and_predict():
    x = tf.keras.Input(shape=(4,), sparse=True)
    d = tf.keras.layers.Dense(4, kernel_initializer="ones")
    y = d(x)
    assert repr(x).startswith("<KerasTensor shape=(None, 4), dtype=float32, sparse=True, "
                              "ragged=False, name=")
    assert repr(y).startswith("<KerasTensor shape=(None, 4), dtype=float32, sparse=False, ")
    model = tf.keras.Model(x, y)
    out = model(_sparse_data())
    assert out.dtype == tf.float32
    np.testing.assert_array_equal(out.numpy(), _EXPECTED)
    for batch_size in (32, 4):
        pred = model.predict(_sparse_data(), batch_size=batch_size, verbose=0)
        assert pred.dtype == np.float32
        np.testing.assert_array_equal(pred, _EXPECTED)
    traced = tf.function(lambda s: d(s))(_sparse_data())
    np.testing.assert_array_equal(traced.numpy(), _EXPECTED)


def test_dense_gradient_through_a_sparse_input():
    d = tf.keras.layers.Dense(2, kernel_initializer="ones")
    sp = tf.sparse.SparseTensor([[0, 1], [1, 0]], [2.0, 3.0], [2, 3])
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(d(sp) * tf.constant([[1., 2.], [3., 4.]]))
    gk, gb = tape.gradient(loss, d.trainable_variables)
    # recorded from TF 2.21: there the kernel's gradient is an IndexedSlices (rows [1, 0]),
    # which tfgraph_edu lacks (as for tf.gather's); its dense value is this
    np.testing.assert_array_equal(gk.numpy(), [[9., 12.], [2., 4.], [0., 0.]])
    np.testing.assert_array_equal(gb.numpy(), [4., 6.])


def test_input_arguments_as_keras3():
    with pytest.raises(TypeError, match="Input\\(\\) got an unexpected keyword argument 'foo'"):
        tf.keras.Input(shape=(3,), foo=1)
    with pytest.raises(NotImplementedError, match="ragged"):
        tf.keras.Input(shape=(3,), ragged=True)
