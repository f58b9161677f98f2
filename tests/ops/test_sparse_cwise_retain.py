"""SparseTensor * dense and / dense (SparseDenseCwiseMul/Div), with_values, tf.sparse.retain,
eye, reset_shape (issue 25). Expected values recorded from TF 2.21."""

import numpy as np
import pytest

import tfgraph_edu as tf
from tests.ops.numeric import numeric_grad


def _sp(values=(1., -2., 3.)):
    return tf.sparse.SparseTensor([[0, 1], [1, 0], [2, 2]], list(values), [3, 3])


_D = [[1., 2., 3.], [4., 5., 6.], [7., 8., 9.]]


@pytest.mark.parametrize("traced", [False, True])
def test_sparse_times_and_over_dense(traced):
    def run(sp, other, div=False):
        return (sp / other if div else sp * other).values
    if traced:
        run = tf.function(run, autograph=False)
    d = tf.constant(_D)
    # recorded from TF 2.21
    np.testing.assert_array_equal(run(_sp(), d).numpy(), [2., -8., 27.])
    np.testing.assert_array_equal(run(_sp(), tf.constant([1., 10., 100.])).numpy(),
                                  [10., -2., 300.])
    np.testing.assert_array_equal(run(_sp(), tf.constant([[1.], [10.], [100.]])).numpy(),
                                  [1., -20., 300.])
    np.testing.assert_allclose(run(_sp(), d, True).numpy(), [0.5, -0.5, 0.33333334])
    np.testing.assert_array_equal(run(_sp(), tf.constant(2.), True).numpy(), [0.5, -1., 1.5])


def test_sparse_cwise_dtypes_and_errors():
    half = tf.sparse.SparseTensor([[0, 1]], [3], [2, 2]) / 2
    assert half.dtype == tf.float64 and half.values.numpy().tolist() == [1.5]  # TF 2.21
    q = tf.sparse.SparseTensor([[0, 1], [1, 1]], [7, -7], [2, 2]) / tf.constant([[2, 2]])
    assert q.dtype == tf.float64 and q.values.numpy().tolist() == [3.5, -3.5]
    three = tf.sparse.SparseTensor([[0, 1]], [7], [2, 2]) * tf.constant(3)
    assert three.dtype == tf.int32 and three.values.numpy().tolist() == [21]
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"SparseDenseBinaryOpShared broadcasts dense to sparse only; got "
                             r"incompatible shapes: \[3,3\] vs. \[2\]"):
        _sp() * tf.constant([1., 10.])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"\[3,3\] vs. \[2,3,3\]"):
        _sp() * tf.ones([2, 3, 3])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="SparseDenseCwiseDiv cannot divide by zero,but input dense tensor "
                             "contains zero"):
        tf.sparse.SparseTensor([[0, 1]], [7.], [2, 2]) / tf.constant([[1., 0.]])
    with pytest.raises(ValueError, match="y: Tensor conversion requested dtype float32 for "
                                         "Tensor with dtype int32"):
        _sp() * tf.constant([[1, 2, 3]] * 3)
    with pytest.raises(TypeError, match="unsupported operand"):
        _sp() // 2  # noqa: B018



@pytest.mark.parametrize("traced", [False, True])
def test_sparse_cwise_gradients(traced):
    w = tf.constant([1., 2., 3.])

    def grads(v, d, row):
        with tf.GradientTape(persistent=True) as t:
            t.watch([v, d, row])
            s = tf.sparse.SparseTensor([[0, 1], [1, 0], [2, 2]], v, [3, 3])
            z = tf.reduce_sum((s * d).values * w)
            z2 = tf.reduce_sum((s / d).values)
            z3 = tf.reduce_sum((s * row).values * w)
            z4 = tf.reduce_sum((s / row).values)
        return (t.gradient(z, [v, d]), t.gradient(z2, [v, d]), t.gradient(z3, row),
                t.gradient(z4, row))
    if traced:
        grads = tf.function(grads)
    (gv, gd), (gv2, gd2), grow, grow2 = grads(tf.constant([1., -2., 3.]), tf.constant(_D),
                                              tf.constant([1., 10., 100.]))
    # recorded from TF 2.21
    np.testing.assert_allclose(gv.numpy(), [2., 8., 27.])
    np.testing.assert_allclose(gd.numpy(), [[0., 1., 0.], [-4., 0., 0.], [0., 0., 9.]])
    np.testing.assert_allclose(gv2.numpy(), [0.5, 0.25, 0.1111111119389534], rtol=1e-6)
    np.testing.assert_allclose(gd2.numpy(), [[0., -0.25, 0.], [0.125, 0., 0.],
                                             [0., 0., -0.03703703731298447]], rtol=1e-6)
    np.testing.assert_allclose(grow.numpy(), [-4., 1., 9.])
    np.testing.assert_allclose(grow2.numpy(), [2., -0.009999999776482582,
                                               -0.0003000000142492354], rtol=1e-6)

    def loss(row):
        s = tf.sparse.SparseTensor([[0, 1], [1, 0], [2, 2]],
                                   tf.constant([1., -2., 3.], tf.float64), [3, 3])
        return float(tf.reduce_sum((s / tf.constant(row)).values).numpy())
    np.testing.assert_allclose(grow2.numpy(), numeric_grad(loss, [1., 10., 100.]),
                               rtol=1e-5, atol=1e-9)


def test_with_values_retain_eye_reset_shape():
    out = _sp().with_values(_sp().values * 10)
    np.testing.assert_array_equal(out.values.numpy(), [10., -20., 30.])  # TF 2.21
    with pytest.raises(ValueError, match="Dimensions 3 and 2 are not compatible"):
        _sp().with_values([1., 2.])
    kept = tf.sparse.retain(_sp(), [True, False, True])
    np.testing.assert_array_equal(kept.indices.numpy(), [[0, 1], [2, 2]])
    np.testing.assert_array_equal(kept.values.numpy(), [1., 3.])
    np.testing.assert_array_equal(kept.dense_shape.numpy(), [3, 3])
    with pytest.raises(ValueError, match="Dimensions 3 and 2 are not compatible"):
        tf.sparse.retain(_sp(), [True, False])
    e = tf.sparse.eye(2, 3, dtype=tf.int32)
    np.testing.assert_array_equal(e.indices.numpy(), [[0, 0], [1, 1]])
    assert e.values.dtype == tf.int32 and e.dense_shape.numpy().tolist() == [2, 3]
    assert tf.sparse.eye(2).values.dtype == tf.float32
    assert tf.function(lambda: tf.sparse.eye(3).shape.as_list())() == [3, 3]  # TF: (3, 3)
    r = tf.sparse.reset_shape(tf.sparse.SparseTensor([[0, 1], [1, 0]], [1., 2.], [5, 6]))
    assert r.dense_shape.numpy().tolist() == [2, 2]
    assert tf.sparse.reset_shape(_sp(), [4, 5]).dense_shape.numpy().tolist() == [4, 5]
    with pytest.raises(ValueError, match=r"Requested new_shape should have dimension sizes >= "
                                         r"sp_input.shape.  Found new_shape \(\[3 3\]\), "
                                         r"sp_input.shape \(\[2 5\]\)."):
        tf.sparse.reset_shape(_sp(), [2, 5])


def test_retain_gradient():
    v = tf.Variable([1., -2., 3.])
    with tf.GradientTape() as tape:
        s = tf.sparse.SparseTensor([[0, 1], [1, 0], [2, 2]], v, [3, 3])
        z = tf.reduce_sum(tf.sparse.retain(s, [True, False, True]).values
                          * tf.constant([5., 7.]))
    # recorded from TF 2.21 (an IndexedSlices there, the same dense value)
    np.testing.assert_array_equal(tf.convert_to_tensor(tape.gradient(z, v)).numpy(),
                                  [5., 0., 7.])
