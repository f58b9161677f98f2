"""tf.sets.intersection / union / difference / size against TensorFlow 2.21.

Every expected value and error below was printed by TensorFlow 2.21 (run once under real
TensorFlow).  Results are SparseTensors; inside tf.function they are used through
tf.sparse.to_dense and tf.sets.size (tfgraph_edu's tf.function does not return a SparseTensor
yet: that raises TypeError)."""

from __future__ import annotations

import pytest

import tfgraph_edu as tf

A = [[1, 2, 3], [4, 5, 5]]
B = [[2, 3, 9], [5, 6, 4]]


def _sparse(sp):
    return (sp.indices.numpy().tolist(), sp.values.numpy().tolist(),
            sp.dense_shape.numpy().tolist(), sp.values.dtype.name)


CASES = [  # (call, TF 2.21's (indices, values, dense_shape, dtype))
    (lambda: tf.sets.intersection(tf.constant(A), tf.constant(B)),
     ([[0, 0], [0, 1], [1, 0], [1, 1]], [2, 3, 4, 5], [2, 2], "int32")),
    (lambda: tf.sets.union(tf.constant(A), tf.constant(B)),
     ([[0, 0], [0, 1], [0, 2], [0, 3], [1, 0], [1, 1], [1, 2]], [1, 2, 3, 9, 4, 5, 6], [2, 4],
      "int32")),
    (lambda: tf.sets.difference(tf.constant(A), tf.constant(B)), ([[0, 0]], [1], [2, 1], "int32")),
    (lambda: tf.sets.difference(tf.constant(A), tf.constant(B), aminusb=False),
     ([[0, 0], [1, 0]], [9, 6], [2, 1], "int32")),
    (lambda: tf.sets.intersection(tf.constant([[[1, 2], [3, 3]]]), tf.constant([[[2, 2], [4, 3]]])),
     ([[0, 0, 0], [0, 1, 0]], [2, 3], [1, 2, 1], "int32")),
    (lambda: tf.sets.union(tf.constant([["a", "b"]]), tf.constant([["c", "a"]])),
     ([[0, 0], [0, 1], [0, 2]], [b"a", b"b", b"c"], [1, 3], "string")),
]


@pytest.mark.parametrize("i", range(len(CASES)))
def test_results_as_tensorflow_2_21_gives_them(i):
    fn, want = CASES[i]
    assert _sparse(fn()) == want


def test_inside_tf_function_through_to_dense_and_size():
    # TF 2.21: to_dense(union(A, B)) = [[1, 2, 3, 9], [4, 5, 6, 0]]; size(union(A, B)) = [4, 3]
    a, b = tf.constant(A), tf.constant(B)
    dense = tf.function(lambda x, y: tf.sparse.to_dense(tf.sets.union(x, y)))(a, b)
    assert dense.numpy().tolist() == [[1, 2, 3, 9], [4, 5, 6, 0]]
    sizes = tf.function(lambda x, y: tf.sets.size(tf.sets.union(x, y)))(a, b)
    assert sizes.dtype is tf.int32 and sizes.numpy().tolist() == [4, 3]
    assert tf.sets.size(tf.sets.union(a, b)).numpy().tolist() == [4, 3]
    sp = tf.SparseTensor([[0, 0], [0, 1], [1, 0]], [3, 3, 1], [2, 2])
    assert tf.sets.size(sp).numpy().tolist() == [1, 1]  # TF 2.21: [1, 1]


ERRORS = [  # (call, eager class, TF 2.21's message, class when traced)
    (lambda: tf.sets.intersection([1, 2, 3], [3, 2]), tf.errors.InvalidArgumentError,
     "Shape [3] has rank 1 < 2", ValueError),
    (lambda: tf.sets.union(tf.constant([[1, 2]]), tf.constant([[1, 2], [3, 4]])),
     tf.errors.InvalidArgumentError, "Mismatched shapes [1] vs [2]", ValueError),
    (lambda: tf.sets.union(tf.constant(1), tf.constant(2)), tf.errors.InvalidArgumentError,
     "Shape [] has rank 0 < 2", ValueError),
    (lambda: tf.sets.union(tf.constant([[1., 2.]]), tf.constant([[1., 2.]])), TypeError,
     "'a' has invalid dtype `<dtype: 'float32'>` not in supported dtypes", TypeError),
    (lambda: tf.sets.union(tf.constant([[1, 2]]), tf.constant([[1, 2]], tf.int64)), TypeError,
     "Types don't match, <dtype: 'int32'> vs <dtype: 'int64'>.", TypeError),
    (lambda: tf.sets.size(tf.constant(A)), TypeError, "Expected `SparseTensor`, got", TypeError),
    (lambda: tf.sets.size(tf.SparseTensor([[0], [1]], [1, 1], [3])),
     tf.errors.InvalidArgumentError, "Invalid rank 1.", tf.errors.InvalidArgumentError),
]


@pytest.mark.parametrize("i", range(len(ERRORS)))
def test_errors_as_tensorflow_2_21_raises_them(i):
    fn, eager_cls, text, graph_cls = ERRORS[i]
    with pytest.raises(eager_cls) as info:
        fn()
    assert text in str(info.value)

    def traced():
        r = fn()
        return r if tf.is_tensor(r) else tf.sparse.to_dense(r)
    with pytest.raises(graph_cls):
        tf.function(traced, autograph=False)()
