"""tf.data with SparseTensor elements, as the sparse tensor and data guides use them;
expected values recorded from TF 2.21 (the same programs run under real TensorFlow)."""

import numpy as np
import pytest

import tfgraph_edu as tf


def sparse_data():
    return tf.sparse.SparseTensor(indices=[(0, 0), (0, 1), (0, 2), (4, 3), (5, 0), (5, 1)],
                                  values=[1, 1, 1, 1, 1, 1], dense_shape=(6, 4))


def triple(st):
    return (st.indices.numpy().tolist(), st.values.numpy().tolist(),
            st.dense_shape.numpy().tolist())


def test_slices_spec_and_rows():
    ds = tf.data.Dataset.from_tensor_slices(sparse_data())
    # recorded from TF 2.21
    assert repr(ds.element_spec) == "SparseTensorSpec(TensorShape([4]), tf.int32)"
    assert repr(ds) == ("<_TensorSliceDataset element_spec=SparseTensorSpec("
                        "TensorShape([4]), tf.int32)>")
    rows = [triple(e) for e in ds]
    assert rows == [([[0], [1], [2]], [1, 1, 1], [4]), ([], [], [4]), ([], [], [4]),
                    ([], [], [4]), ([[3]], [1], [4]), ([[0], [1]], [1, 1], [4])]
    first = next(iter(ds))
    assert type(first).__name__ == "SparseTensor" and first.values.dtype == tf.int32
    assert str(first) == (
        "SparseTensor(indices=tf.Tensor(\n[[0]\n [1]\n [2]], shape=(3, 1), dtype=int64), "
        "values=tf.Tensor([1 1 1], shape=(3,), dtype=int32), "
        "dense_shape=tf.Tensor([4], shape=(1,), dtype=int64))")


def test_from_tensors_spec():
    ds = tf.data.Dataset.from_tensors(
        tf.SparseTensor(indices=[[0, 0], [1, 2]], values=[1, 2], dense_shape=[3, 4]))
    # recorded from TF 2.21
    assert repr(ds.element_spec) == "SparseTensorSpec(TensorShape([3, 4]), tf.int32)"
    assert [triple(e) for e in ds] == [([[0, 0], [1, 2]], [1, 2], [3, 4])]


def test_batch_unbatch():
    ds = tf.data.Dataset.from_tensor_slices(sparse_data())
    batched = ds.batch(4)
    # recorded from TF 2.21
    assert repr(batched.element_spec) == "SparseTensorSpec(TensorShape([None, 4]), tf.int32)"
    assert repr(ds.batch(4, drop_remainder=True).element_spec) == \
        "SparseTensorSpec(TensorShape([4, 4]), tf.int32)"
    assert [triple(e) for e in batched] == [
        ([[0, 0], [0, 1], [0, 2]], [1, 1, 1], [4, 4]),
        ([[0, 3], [1, 0], [1, 1]], [1, 1, 1], [2, 4])]
    unbatched = batched.unbatch()
    assert repr(unbatched.element_spec) == "SparseTensorSpec(TensorShape([4]), tf.int32)"
    assert [triple(e) for e in unbatched] == [triple(e) for e in ds]


def test_batch_takes_the_largest_dense_shape():
    ds = tf.data.Dataset.range(1, 4).map(
        lambda i: tf.sparse.SparseTensor([[0, i - 1]], [i], [2, i]))
    # recorded from TF 2.21
    assert repr(ds.element_spec) == "SparseTensorSpec(TensorShape([2, None]), tf.int64)"
    assert [triple(e) for e in ds.batch(3)] == [
        ([[0, 0, 0], [1, 0, 1], [2, 0, 2]], [1, 2, 3], [3, 2, 3])]


def test_map_in_and_out():
    ds = tf.data.Dataset.from_tensor_slices(sparse_data())
    doubled = ds.map(lambda x: x * 2)
    # recorded from TF 2.21: a fully known spec gives the function a constant dense shape
    assert repr(doubled.element_spec) == "SparseTensorSpec(TensorShape([4]), tf.int32)"
    assert triple(next(iter(doubled))) == ([[0], [1], [2]], [2, 2, 2], [4])
    assert repr(ds.map(tf.sparse.to_dense).element_spec) == \
        "TensorSpec(shape=(4,), dtype=tf.int32, name=None)"
    assert repr(ds.map(lambda x: tf.zeros(x.dense_shape)).element_spec) == \
        "TensorSpec(shape=(4,), dtype=tf.float32, name=None)"
    made = tf.data.Dataset.range(3).map(lambda i: tf.sparse.SparseTensor([[i]], [i], [5]))
    assert repr(made.element_spec) == "SparseTensorSpec(TensorShape([5]), tf.int64)"
    assert [triple(e) for e in made] == [([[i]], [i], [5]) for i in range(3)]
    kept = ds.filter(lambda x: tf.reduce_sum(x.values) > 1)
    assert [triple(e) for e in kept] == [([[0], [1], [2]], [1, 1, 1], [4]),
                                         ([[0], [1]], [1, 1], [4])]


def test_zip_reduce_numpy_and_loop_in_function():
    ds = tf.data.Dataset.from_tensor_slices(sparse_data())
    z = tf.data.Dataset.zip((ds, tf.data.Dataset.range(6)))
    # recorded from TF 2.21
    assert repr(z.element_spec) == ("(SparseTensorSpec(TensorShape([4]), tf.int32), "
                                    "TensorSpec(shape=(), dtype=tf.int64, name=None))")
    assert int(ds.reduce(tf.constant(0), lambda s, x: s + tf.sparse.reduce_sum(x))) == 6
    # TF 2.21's as_numpy_iterator gives a SparseTensor element as its dense array
    first = next(ds.as_numpy_iterator())
    assert first.dtype == np.int32 and first.tolist() == [1, 1, 1, 0]
    assert next(ds.batch(2).as_numpy_iterator()).tolist() == [[1, 1, 1, 0], [0, 0, 0, 0]]

    @tf.function
    def total(ds):
        s = tf.constant(0, tf.int32)
        for e in ds:
            s += tf.sparse.reduce_sum(e)
        return s
    assert int(total(ds)) == 6
    assert int(total(ds.batch(4))) == 6


def test_three_dimensional_slices():
    st = tf.sparse.SparseTensor([[0, 0, 1], [1, 1, 0]], [1., 2.], [2, 3, 4])
    ds = tf.data.Dataset.from_tensor_slices(st)
    # recorded from TF 2.21
    assert repr(ds.element_spec) == "SparseTensorSpec(TensorShape([3, 4]), tf.float32)"
    assert [triple(e) for e in ds] == [([[0, 1]], [1.0], [3, 4]), ([[1, 0]], [2.0], [3, 4])]


def test_refusals():
    ds = tf.data.Dataset.from_tensor_slices(sparse_data())
    with pytest.raises(TypeError, match="`padded_batch` is only supported for datasets that "
                                        "produce tensor elements"):  # TF 2.21's message
        ds.padded_batch(2)
    with pytest.raises(TypeError, match="Incompatible dataset elements"):  # TF 2.21's
        ds.concatenate(tf.data.Dataset.range(3))


def test_concatenate():
    a = tf.data.Dataset.from_tensor_slices(tf.sparse.SparseTensor([[0, 1]], [1], [2, 4]))
    b = tf.data.Dataset.from_tensor_slices(tf.sparse.SparseTensor([[0, 2]], [7], [1, 5]))
    c = a.concatenate(b)
    # recorded from TF 2.21
    assert repr(c.element_spec) == "SparseTensorSpec(TensorShape([None]), tf.int32)"
    assert [triple(e) for e in c] == [([[1]], [1], [4]), ([], [], [4]), ([[2]], [7], [5])]


def test_zeros_of_a_shape_tensor_inside_a_function():
    # tf.zeros(tf.shape(x)) in a tf.function (it failed converting the symbolic shape);
    # recorded from TF 2.21: tf.Tensor([0. 0.], shape=(2,), dtype=float32)
    f = tf.function(lambda x: tf.zeros(tf.shape(x)))
    out = f(tf.ones([2]))
    assert out.dtype == tf.float32 and out.numpy().tolist() == [0.0, 0.0]


def test_value_type_of_composite_specs():
    # recorded from TF 2.21: <class '...sparse_tensor.SparseTensor'>, <class '...RaggedTensor'>
    ds = tf.data.Dataset.from_tensors(
        tf.SparseTensor(indices=[[0, 0], [1, 2]], values=[1, 2], dense_shape=[3, 4]))
    assert ds.element_spec.value_type is tf.sparse.SparseTensor
    assert tf.RaggedTensorSpec([2, None], tf.int32).value_type is tf.RaggedTensor
