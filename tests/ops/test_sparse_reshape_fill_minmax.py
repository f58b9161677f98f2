"""tf.sparse.reshape, fill_empty_rows, minimum, maximum (issue 25). Expected values recorded
from TF 2.21."""

import numpy as np
import pytest

import tfgraph_edu as tf


def _sp():
    return tf.sparse.SparseTensor([[0, 1], [1, 0], [2, 2]], [1., -2., 3.], [3, 3])


@pytest.mark.parametrize("traced", [False, True])
def test_sparse_reshape(traced):
    rs = tf.function(tf.sparse.reshape) if traced else tf.sparse.reshape
    out = rs(_sp(), [9])  # recorded from TF 2.21
    np.testing.assert_array_equal(out.indices.numpy(), [[1], [3], [8]])
    np.testing.assert_array_equal(out.dense_shape.numpy(), [9])
    out = rs(_sp(), [-1, 9])
    np.testing.assert_array_equal(out.indices.numpy(), [[0, 1], [0, 3], [0, 8]])
    np.testing.assert_array_equal(out.dense_shape.numpy(), [1, 9])
    out = rs(_sp(), [1, 3, 3])
    np.testing.assert_array_equal(out.indices.numpy(), [[0, 0, 1], [0, 1, 0], [0, 2, 2]])
    np.testing.assert_array_equal(out.values.numpy(), [1., -2., 3.])
    assert tf.sparse.reshape(_sp(), [9, -1]).shape == (9, 1)


def test_sparse_reshape_errors_and_gradient():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Input to reshape is a tensor with 9 dense values, but the "
                             r"requested shape has 8. input_shape=\[3,3\] output_shape=\[4,2\]"):
        tf.sparse.reshape(_sp(), [4, 2])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="only one output dimension may be -1, not both 0 and 1"):
        tf.sparse.reshape(_sp(), [-1, -1])
    v = tf.Variable([1., 5.])
    with tf.GradientTape() as tape:
        a = tf.sparse.SparseTensor([[0, 0], [1, 1]], v, [2, 2])
        z = tf.reduce_sum(tf.sparse.reshape(a, [4]).values * tf.constant([2., 3.]))
    np.testing.assert_array_equal(tape.gradient(z, v).numpy(), [2., 3.])  # TF 2.21


@pytest.mark.parametrize("traced", [False, True])
def test_fill_empty_rows(traced):
    fill = tf.function(tf.sparse.fill_empty_rows) if traced else tf.sparse.fill_empty_rows
    out, empty = fill(tf.sparse.SparseTensor([[0, 1], [2, 2]], [1., 3.], [3, 3]), 0.)
    # recorded from TF 2.21
    np.testing.assert_array_equal(out.indices.numpy(), [[0, 1], [1, 0], [2, 2]])
    np.testing.assert_array_equal(out.values.numpy(), [1., 0., 3.])
    np.testing.assert_array_equal(empty.numpy(), [False, True, False])
    out, empty = fill(tf.sparse.SparseTensor([[1, 1], [3, 0]], [4, 5], [5, 2]), -1)
    np.testing.assert_array_equal(out.indices.numpy(), [[0, 0], [1, 1], [2, 0], [3, 0], [4, 0]])
    np.testing.assert_array_equal(out.values.numpy(), [-1, 4, -1, 5, -1])
    np.testing.assert_array_equal(empty.numpy(), [True, False, True, False, True])
    out, _ = fill(tf.sparse.SparseTensor([[2, 2], [0, 1]], [3., 1.], [3, 3]), 0.)
    np.testing.assert_array_equal(out.values.numpy(), [1., 0., 3.])


def test_fill_empty_rows_shapes_in_function_and_gradient():
    seen = []

    @tf.function
    def f(s):
        q, m = tf.sparse.fill_empty_rows(s, 0.)
        seen.extend([q.shape, q.indices.shape, m.shape])
        return q.values
    f(_sp())
    assert [str(s) for s in seen] == ["(None, None)", "(None, 2)", "(None,)"]  # TF 2.21
    v = tf.Variable([1., 5.])
    d = tf.Variable(7.)
    with tf.GradientTape() as tape:
        e = tf.sparse.SparseTensor([[0, 1], [2, 2]], v, [3, 3])
        q, _ = tf.sparse.fill_empty_rows(e, d)
        z = tf.reduce_sum(q.values * tf.constant([1., 2., 3.]))
    gv, gd = tape.gradient(z, [v, d])
    np.testing.assert_array_equal(gv.numpy(), [1., 3.])  # TF 2.21
    assert float(gd.numpy()) == 2.0


def test_sparse_minimum_maximum():
    a = tf.sparse.SparseTensor([[0, 0], [1, 1]], [1., 5.], [2, 2])
    b = tf.sparse.SparseTensor([[0, 0], [0, 1]], [3., -2.], [2, 2])
    lo, hi = tf.sparse.minimum(a, b), tf.sparse.maximum(a, b)
    # recorded from TF 2.21: the union of the indices, a missing value counting as 0
    np.testing.assert_array_equal(lo.indices.numpy(), [[0, 0], [0, 1], [1, 1]])
    np.testing.assert_array_equal(lo.values.numpy(), [1., -2., 0.])
    np.testing.assert_array_equal(hi.values.numpy(), [3., 0., 5.])
    traced = tf.function(tf.sparse.minimum)(a, b)
    np.testing.assert_array_equal(traced.values.numpy(), [1., -2., 0.])
    v = tf.Variable([1., 5.])
    with tf.GradientTape() as tape:
        z = tf.reduce_sum(tf.sparse.minimum(
            tf.sparse.SparseTensor([[0, 0], [1, 1]], v, [2, 2]), b).values)
    with pytest.raises(TypeError, match="takes 2 positional arguments but 3 were given"):
        tape.gradient(z, v)  # TF 2.21's gradient of SparseSparseMinimum fails so


@pytest.mark.parametrize("traced", [False, True])
def test_sparse_softmax(traced):
    sm = tf.function(lambda s: tf.sparse.softmax(s).values) if traced else (
        lambda s: tf.sparse.softmax(s).values)
    s = tf.sparse.SparseTensor([[0, 0], [0, 2], [1, 1]], [1., 2., 3.], [2, 3])
    # recorded from TF 2.21
    np.testing.assert_allclose(sm(s).numpy(), [0.2689414322376251, 0.7310585975646973, 1.0],
                               rtol=1e-6)
    s3 = tf.sparse.SparseTensor([[0, 0, 0], [0, 0, 2], [1, 1, 1], [1, 1, 2]],
                                [1., 2., 3., 5.], [2, 2, 3])
    np.testing.assert_allclose(sm(s3).numpy(), [0.2689414322376251, 0.7310585975646973,
                                                0.11920291185379028, 0.8807970285415649],
                               rtol=1e-6)


def test_sparse_softmax_gradient_and_errors():
    def loss(v):
        y = tf.sparse.softmax(tf.sparse.SparseTensor([[0, 0], [0, 2], [1, 1]], v, [2, 3]))
        return tf.reduce_sum(y.values * tf.constant([1., 3., 5.], v.dtype))
    v = tf.constant([1., 2., 3.])
    with tf.GradientTape() as tape:
        tape.watch(v)
        z = loss(v)
    g = tape.gradient(z, v).numpy()
    np.testing.assert_allclose(g, [-0.3932238817214966, 0.3932238519191742, 0.0],
                               rtol=1e-6, atol=1e-7)  # TF 2.21
    x0, eps = np.array([1., 2., 3.]), 1e-4
    numeric = [(float(loss(tf.constant(x0 + eps * e)).numpy())
                - float(loss(tf.constant(x0 - eps * e)).numpy())) / (2 * eps)
               for e in np.eye(3)]
    np.testing.assert_allclose(g, numeric, rtol=1e-5, atol=1e-7)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Input should have rank >= 2, but received shape: 3"):
        tf.sparse.softmax(tf.sparse.SparseTensor([[0]], [1.], [3]))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Value for attr 'T' of int32 is not in the list of allowed"):
        tf.sparse.softmax(tf.sparse.SparseTensor([[0, 0]], [1], [2, 2]))
