"""tf.sparse.sparse_dense_matmul, tf.sparse.slice, tf.sparse.transpose (issue 25, guide
sparse_tensor). Expected values recorded from TF 2.21."""

import numpy as np
import pytest

import tfgraph_edu as tf
from tests.ops.numeric import numeric_grad


def _st_c(values=(13., 15., 17.)):
    return tf.sparse.SparseTensor(indices=([0, 1], [1, 0], [1, 1]), values=list(values),
                                  dense_shape=(2, 2))



@pytest.mark.parametrize("traced", [False, True])
def test_sparse_dense_matmul_values(traced):
    mm = tf.sparse.sparse_dense_matmul
    if traced:
        mm = tf.function(mm)
    mb = tf.constant([[4.], [6.]])
    # recorded from TF 2.21
    np.testing.assert_array_equal(mm(_st_c(), mb).numpy(), [[78.], [162.]])
    np.testing.assert_array_equal(mm(_st_c(), mb, adjoint_a=True).numpy(), [[90.], [154.]])
    np.testing.assert_array_equal(mm(_st_c(), tf.constant([[1., 2.]]), adjoint_b=True).numpy(),
                                  [[26.], [49.]])
    dense_first = mm(tf.constant([[1., 2.], [3., 4.], [5., 6.]]), _st_c())
    np.testing.assert_array_equal(dense_first.numpy(), [[30., 47.], [60., 107.], [90., 167.]])


def test_sparse_dense_matmul_guide_cell_and_traced_shape():
    st = tf.sparse.SparseTensor(indices=([0, 1], [1, 0], [1, 1]), values=[13, 15, 17],
                                dense_shape=(2, 2))
    out = tf.sparse.sparse_dense_matmul(st, tf.constant([[4], [6]]))
    assert str(out) == "tf.Tensor(\n[[ 78]\n [162]], shape=(2, 1), dtype=int32)"
    seen = []

    @tf.function
    def f(a, b):
        r = tf.sparse.sparse_dense_matmul(a, b)
        seen.append(str(r))
        return r
    f(_st_c(), tf.constant([[4.], [6.]]))
    # recorded from TF 2.21: the op sits in a name scope of its own name
    assert seen == ['Tensor("SparseTensorDenseMatMul/SparseTensorDenseMatMul:0", '
                    'shape=(None, 1), dtype=float32)']


def test_sparse_dense_matmul_errors():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Cannot multiply A and B because inner dimension does not match: "
                             r"2 vs. 3.  Did you forget a transpose\?  Dimensions of A: "
                             r"\[2, 2\).  Dimensions of B: \[3,1\]"):
        tf.sparse.sparse_dense_matmul(_st_c(), tf.constant([[1.], [2.], [3.]]))
    bad = tf.sparse.SparseTensor([[0, 5]], [1.], [2, 2])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"k \(5\) from index\[0,1\] out of bounds \(>=2\)"):
        tf.sparse.sparse_dense_matmul(bad, tf.constant([[4.], [6.]]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="expected to be a float tensor "
                                                             "but is a int32 tensor"):
        tf.sparse.sparse_dense_matmul(_st_c(), tf.constant([[4], [6]]))


# recorded from TF 2.21: d/d values and d/d b of sum(y * [[1, 2], [3, 4]])
_GRADS = {(False, False): ([10., 16., 26.], [[45., 60.], [64., 94.]]),
          (False, True): ([5., 36., 11.], [[45., 64.], [60., 94.]]),
          (True, False): ([16., 10., 26.], [[39., 52.], [66., 98.]]),
          (True, True): ([36., 5., 11.], [[39., 66.], [52., 98.]])}


@pytest.mark.parametrize("adj", sorted(_GRADS))
@pytest.mark.parametrize("traced", [False, True])
def test_sparse_dense_matmul_gradient(adj, traced):
    w = tf.constant([[1., 2.], [3., 4.]])
    indices = [[0, 1], [1, 0], [1, 1]]

    def loss(values, b):
        sp = tf.sparse.SparseTensor(indices, values, [2, 2])
        y = tf.sparse.sparse_dense_matmul(sp, b, adjoint_a=adj[0], adjoint_b=adj[1])
        return tf.reduce_sum(y * w)

    def grads(values, b):
        with tf.GradientTape() as tape:
            tape.watch([values, b])
            z = loss(values, b)
        return tape.gradient(z, [values, b])
    if traced:
        grads = tf.function(grads)
    v0, b0 = np.array([13., 15., 17.]), np.array([[4., 1.], [6., 2.]])
    gv, gb = grads(tf.constant(v0, tf.float32), tf.constant(b0, tf.float32))
    np.testing.assert_allclose(gv.numpy(), _GRADS[adj][0])
    np.testing.assert_allclose(gb.numpy(), _GRADS[adj][1])
    f64 = tf.constant([[1., 2.], [3., 4.]], tf.float64)

    def loss64(v, b):
        sp = tf.sparse.SparseTensor(indices, tf.constant(v), [2, 2])
        y = tf.sparse.sparse_dense_matmul(sp, tf.constant(b), adjoint_a=adj[0],
                                          adjoint_b=adj[1])
        return float(tf.reduce_sum(y * f64).numpy())
    np.testing.assert_allclose(gv.numpy(), numeric_grad(lambda v: loss64(v, b0), v0),
                               rtol=1e-6)
    np.testing.assert_allclose(gb.numpy(), numeric_grad(lambda b: loss64(v0, b), b0),
                               rtol=1e-6)


def _pattern_a(values=(1, 1, 1, 1, 1, 1)):
    return tf.sparse.SparseTensor(indices=[[2, 4], [3, 3], [3, 4], [4, 3], [4, 4], [5, 4]],
                                  values=list(values), dense_shape=[8, 5])


@pytest.mark.parametrize("traced", [False, True])
def test_sparse_slice(traced):
    sl = tf.function(tf.sparse.slice) if traced else tf.sparse.slice
    s = sl(_pattern_a(), start=[3, 3], size=[2, 5])  # recorded from TF 2.21
    np.testing.assert_array_equal(s.indices.numpy(), [[0, 0], [0, 1], [1, 0], [1, 1]])
    np.testing.assert_array_equal(s.dense_shape.numpy(), [2, 2])
    s = sl(_pattern_a(), start=[0, 10], size=[8, 6])
    assert s.indices.numpy().shape == (0, 2)
    np.testing.assert_array_equal(s.dense_shape.numpy(), [8, 0])
    s = sl(_pattern_a(), start=[9, 10], size=[8, 6])
    np.testing.assert_array_equal(s.dense_shape.numpy(), [0, 0])
    s = sl(_pattern_a(), start=[-1, 0], size=[8, 6])  # TF shifts the indices by one
    np.testing.assert_array_equal(s.indices.numpy(), [[3, 4], [4, 3], [4, 4], [5, 3], [5, 4],
                                                      [6, 4]])
    np.testing.assert_array_equal(s.dense_shape.numpy(), [8, 5])


def test_sparse_slice_error_and_traced_shape():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Expected start to be a vector of length 2 but got length 1"):
        tf.sparse.slice(_pattern_a(), start=[1], size=[8, 6])
    shapes = []

    @tf.function
    def g(a):
        s = tf.sparse.slice(a, [1, 1], [2, 2])
        t = tf.sparse.transpose(a)
        shapes.extend([s.shape, t.shape, t.indices.shape])
        return s.values
    g(_pattern_a())
    assert [str(s) for s in shapes] == ["(None, None)", "(5, 8)", "(None, 2)"]  # TF 2.21


@pytest.mark.parametrize("traced", [False, True])
def test_sparse_slice_gradient(traced):
    w = tf.constant([1., 2., 3., 4.])

    def grads(v):
        with tf.GradientTape() as tape:
            tape.watch(v)
            sp = tf.sparse.SparseTensor(_pattern_a().indices, v, [8, 5])
            z = tf.reduce_sum(tf.sparse.slice(sp, [3, 3], [2, 5]).values * w)
        return tape.gradient(z, v)
    if traced:
        grads = tf.function(grads)
    g = grads(tf.constant([1., 2., 3., 4., 5., 6.]))
    np.testing.assert_array_equal(g.numpy(), [0., 1., 2., 3., 4., 0.])  # TF 2.21


@pytest.mark.parametrize("traced", [False, True])
def test_sparse_transpose(traced):
    tr = tf.function(tf.sparse.transpose) if traced else tf.sparse.transpose
    out = tr(tf.sparse.SparseTensor([[0, 3], [2, 4]], [15, 25], [3, 10]))
    np.testing.assert_array_equal(out.indices.numpy(), [[3, 0], [4, 2]])  # TF 2.21
    np.testing.assert_array_equal(out.dense_shape.numpy(), [10, 3])
    x = tf.sparse.SparseTensor([[0, 3, 1], [2, 4, 0]], [15, 25], [3, 10, 2])
    out = tr(x, perm=[2, 0, 1])
    np.testing.assert_array_equal(out.indices.numpy(), [[0, 2, 4], [1, 0, 3]])
    np.testing.assert_array_equal(out.values.numpy(), [25, 15])
    np.testing.assert_array_equal(out.dense_shape.numpy(), [2, 3, 10])
    assert tf.sparse.transpose(x, perm=[2, 0, 1]).shape == (2, 3, 10)


def test_sparse_transpose_gradient_through_reorder():
    v = tf.Variable([1., 2.])
    with tf.GradientTape() as tape:
        sp = tf.sparse.SparseTensor([[0, 3, 1], [2, 4, 0]], v, [3, 10, 2])
        z = tf.reduce_sum(tf.sparse.transpose(sp).values * tf.constant([1., 2.]))
    np.testing.assert_array_equal(tape.gradient(z, v).numpy(), [2., 1.])  # TF 2.21


def test_guide_cell_transpose_then_matmul_in_function():
    @tf.function
    def f(x, y):
        return tf.sparse.sparse_dense_matmul(x, y)
    a = tf.sparse.SparseTensor(indices=[[0, 3], [2, 4]], values=[15, 25], dense_shape=[3, 10])
    b = tf.sparse.to_dense(tf.sparse.transpose(a))
    assert str(f(a, b)) == ("tf.Tensor(\n[[225   0   0]\n [  0   0   0]\n [  0   0 625]], "
                            "shape=(3, 3), dtype=int32)")  # TF 2.21
