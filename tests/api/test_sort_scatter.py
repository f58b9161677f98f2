"""tf.sort, tf.argsort, tf.math.top_k, tf.unique, tf.searchsorted, tf.scatter_nd,
tf.tensor_scatter_nd_* and tf.gather_nd against TensorFlow 2.21.

Every expected value, dtype, error class and message below was printed by TensorFlow 2.21
(run once under real TensorFlow); each API runs eagerly and inside tf.function."""

from __future__ import annotations

import numpy as np
import pytest

import tfgraph_edu as tf


def _modes(fn):
    """``fn()``'s result eagerly and from a tf.function, as (dtype name, list) trees."""
    def plain(r):
        return tf.nest.map_structure(lambda t: (t.dtype.name, t.numpy().tolist()), r)
    return plain(fn()), plain(tf.function(fn, autograph=False)())


CASES = [  # (expression, TF 2.21's result)
    (lambda: tf.sort([3., 1., 2., 1.]), ("float32", [1.0, 1.0, 2.0, 3.0])),
    (lambda: tf.sort([[3, 1, 2], [0, 5, -1]], direction="DESCENDING", axis=0),
     ("int32", [[3, 5, 2], [0, 1, -1]])),
    (lambda: tf.argsort([3., 1., 2., 1.]), ("int32", [1, 3, 2, 0])),
    (lambda: tf.sort(tf.constant([3, 1, 2], tf.uint8)), ("uint8", [1, 2, 3])),
    (lambda: tf.argsort(tf.constant([3, 1, 2], tf.uint8)), ("int32", [1, 2, 0])),
    (lambda: tf.sort(tf.constant([3, -2**63, 2], tf.int64)),
     ("int64", [-9223372036854775808, 2, 3])),
    (lambda: tf.argsort([3., 1., 3., 1.], direction="DESCENDING"), ("int32", [0, 2, 1, 3])),
    (lambda: tf.unique([1, 1, 2, 4, 4, 4, 7, 8, 8]),
     [("int32", [1, 2, 4, 7, 8]), ("int32", [0, 0, 1, 2, 2, 2, 3, 4, 4])]),
    (lambda: tf.unique_with_counts([1, 1, 2, 4, 4, 4, 7, 8, 8]),
     [("int32", [1, 2, 4, 7, 8]), ("int32", [0, 0, 1, 2, 2, 2, 3, 4, 4]),
      ("int32", [2, 1, 3, 1, 2])]),
    (lambda: tf.unique(tf.constant([3., 1., 3.]), out_idx=tf.int64),
     [("float32", [3.0, 1.0]), ("int64", [0, 1, 0])]),
    (lambda: tf.searchsorted([[-3., -1., 2., 10.], [0, 1, 2, 3]], [[-1., 2.5, 11.], [0, 0, 5]]),
     ("int32", [[1, 3, 4], [0, 0, 4]])),
    (lambda: tf.searchsorted([-3., -1., 2., 10.], [-1., 2.5, 11.], side="right",
                             out_type=tf.int64), ("int64", [2, 3, 4])),
    (lambda: tf.nn.top_k([1., 5., 3.], k=1), [("float32", [5.0]), ("int32", [1])]),
    (lambda: tf.math.top_k([[1., 5., 3., 5.], [2, 2, 2, 1]], k=2),
     [("float32", [[5.0, 5.0], [2.0, 2.0]]), ("int32", [[1, 3], [0, 1]])]),
    (lambda: tf.scatter_nd([[4], [3], [1], [7]], [9, 10, 11, 12], [8]),
     ("int32", [0, 11, 0, 10, 9, 0, 0, 12])),
    (lambda: tf.scatter_nd([[1], [1]], [1., 2.], [3]), ("float32", [0.0, 3.0, 0.0])),
    (lambda: tf.scatter_nd([[0], [2]], [[5, 5], [6, 6]], [4, 2]),
     ("int32", [[5, 5], [0, 0], [6, 6], [0, 0]])),
    (lambda: tf.tensor_scatter_nd_update([1, 2, 3, 4], [[1], [3]], [9, 10]),
     ("int32", [1, 9, 3, 10])),
    (lambda: tf.tensor_scatter_nd_add([1, 2, 3, 4], [[1], [1]], [9, 10]), ("int32", [1, 21, 3, 4])),
    (lambda: tf.tensor_scatter_nd_sub([[1, 2], [3, 4]], [[1, 0]], [9]),
     ("int32", [[1, 2], [-6, 4]])),
    (lambda: tf.tensor_scatter_nd_max([1, 5, 3, 4], [[1], [3], [1]], [9, 2, 7]),
     ("int32", [1, 9, 3, 4])),
    (lambda: tf.tensor_scatter_nd_min([[1., 5.], [3., 4.]], [[0, 1], [1, 0]], [2., 1.]),
     ("float32", [[1.0, 2.0], [1.0, 4.0]])),
    (lambda: tf.gather_nd([[1, 2], [3, 4]], [[1, 0], [0, 1]]), ("int32", [3, 2])),
    (lambda: tf.gather_nd([[1, 2], [3, 4]], [[1]]), ("int32", [[3, 4]])),
]


@pytest.mark.parametrize("i", range(len(CASES)))
def test_values_as_tensorflow_2_21_gives_them(i):
    fn, want = CASES[i]
    eager, graph = _modes(fn)
    if isinstance(want, list):  # (values, indices) and (y, idx) results
        eager, graph = list(eager), list(graph)
    assert eager == want
    assert graph == want


def test_results_have_tensorflows_field_names():
    r = tf.math.top_k([1., 5., 3.], k=2)
    assert r.values.numpy().tolist() == [5.0, 3.0] and r.indices.numpy().tolist() == [1, 2]
    assert repr(r).startswith("TopKV2(values=<tf.Tensor")
    u = tf.unique([2, 2, 1])
    assert u.y.numpy().tolist() == [2, 1] and u.idx.numpy().tolist() == [0, 0, 1]
    assert repr(u).startswith("Unique(y=<tf.Tensor")
    values, indices = r
    assert values.shape == [2]


ERRORS = [  # (expression, eager error class and message, error class when traced) from TF 2.21
    (lambda: tf.sort([1., 2.], direction="UP"), ValueError,
     "Argument `direction` should be one of ASCENDING, DESCENDING. Received: direction=UP",
     ValueError),
    (lambda: tf.sort([1., 2.], axis=1), tf.errors.InvalidArgumentError,
     "slice index 1 of dimension 0 out of bounds.", ValueError),
    (lambda: tf.math.top_k([1., 2.], k=3), tf.errors.InvalidArgumentError,
     "input must have at least k columns. Had 2, needed 3", ValueError),
    (lambda: tf.math.top_k([1., 2.], k=-1), tf.errors.InvalidArgumentError,
     "Need k >= 0, got -1", ValueError),
    (lambda: tf.math.top_k(1., k=1), tf.errors.InvalidArgumentError,
     "input must be >= 1-D, got shape []", ValueError),
    (lambda: tf.unique([[1, 2]]), tf.errors.InvalidArgumentError, "unique expects a 1D vector.",
     ValueError),
    (lambda: tf.searchsorted([[1., 2.]], [[1.], [2.]]), tf.errors.InvalidArgumentError,
     "Leading dim_size of both tensors must match.", tf.errors.InvalidArgumentError),
    (lambda: tf.scatter_nd([[4], [9]], [1, 2], [8]), tf.errors.InvalidArgumentError,
     "indices[1] = [9] does not index into shape [8]", tf.errors.InvalidArgumentError),
    (lambda: tf.scatter_nd([[-1]], [1], [8]), tf.errors.InvalidArgumentError,
     "indices[0] = [-1] does not index into shape [8]", tf.errors.InvalidArgumentError),
    (lambda: tf.scatter_nd([[1]], [1, 2], [8]), tf.errors.InvalidArgumentError,
     "Dimensions [0,1) of indices[shape=[1,1]] must match dimensions [0,1) of "
     "updates[shape=[2]]", ValueError),
    (lambda: tf.tensor_scatter_nd_update([1, 2, 3], [[5]], [1]), tf.errors.InvalidArgumentError,
     "indices[0] = [5] does not index into shape [3]", tf.errors.InvalidArgumentError),
    (lambda: tf.tensor_scatter_nd_update([1, 2, 3], [[1]], [1, 2]),
     tf.errors.InvalidArgumentError,
     "Outer dimensions of indices and update must match. Indices shape: [1,1], updates "
     "shape:[2]", ValueError),
]


@pytest.mark.parametrize("i", range(len(ERRORS)))
def test_errors_as_tensorflow_2_21_raises_them(i):
    fn, eager_cls, text, graph_cls = ERRORS[i]
    with pytest.raises(eager_cls) as info:
        fn()
    assert text in str(info.value)
    with pytest.raises(graph_cls):
        tf.function(fn, autograph=False)()


def test_searchsorted_and_sort_refuse_mixed_or_string_dtypes():
    # TF 2.21: InvalidArgumentError "cannot compute LowerBound as input #1(zero-based) was
    # expected to be a float tensor but is a int32 tensor"; sort of strings: InvalidArgumentError
    # naming attr 'T' (eagerly), TypeError when traced
    with pytest.raises(tf.errors.InvalidArgumentError, match="expected to be a float tensor"):
        tf.searchsorted(tf.constant([1., 2.]), tf.constant([1]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="string"):
        tf.sort(tf.constant(["b", "a"]))


def test_scatter_max_gradient_shares_ties_as_tensorflow_does():
    # TF 2.21: d/dx = [1, 1, 0, 4], d/du = [1, 0, 3] (x[1] and u[0] tie at 5)
    x = tf.constant([1., 5., 3., 4.], tf.float64)
    u = tf.constant([5., 2., 7.], tf.float64)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, u])
        y = tf.tensor_scatter_nd_max(x, [[1], [3], [2]], u)
        loss = tf.reduce_sum(y * [1., 2., 3., 4.])
    assert tape.gradient(loss, x).numpy().tolist() == [1.0, 1.0, 0.0, 4.0]
    assert tape.gradient(loss, u).numpy().tolist() == [1.0, 0.0, 3.0]


def _central(f, x, eps=1e-6):
    g = np.zeros_like(x)
    for idx in np.ndindex(*x.shape):
        up, down = x.copy(), x.copy()
        up[idx] += eps
        down[idx] -= eps
        g[idx] = (f(up) - f(down)) / (2 * eps)
    return g


@pytest.mark.parametrize("api", ["sort", "sort_desc", "top_k", "scatter_nd", "tsu"])
def test_gradients_match_central_differences_eagerly_and_in_tf_function(api):
    x0 = np.array([[0.3, -1.2, 2.5], [1.1, 0.2, -0.4]])
    w = np.arange(1.0, 7.0).reshape(2, 3)
    fns = {
        "sort": lambda x: tf.sort(x, axis=0),
        "sort_desc": lambda x: tf.sort(x, direction="DESCENDING"),
        "top_k": lambda x: tf.math.top_k(x, 2).values,
        "scatter_nd": lambda x: tf.scatter_nd([[1], [0]], x, [2, 3]),
        "tsu": lambda x: tf.tensor_scatter_nd_update(x, [[1, 2], [0, 0]], [5.0, 6.0]),
    }
    fn = fns[api]

    def loss(x):
        y = fn(x)
        return tf.reduce_sum(y * w[..., :y.shape[-1]])

    def grad(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            out = loss(x)
        return tape.gradient(out, x)

    want = _central(lambda v: float(loss(tf.constant(v))), x0)
    np.testing.assert_allclose(grad(tf.constant(x0)).numpy(), want, atol=1e-6)
    np.testing.assert_allclose(tf.function(grad)(tf.constant(x0)).numpy(), want, atol=1e-6)
