"""RaggedTensor APIs the ragged tensor guide uses (issue 25), one ragged dimension, eagerly.

Every expected text was recorded once from TensorFlow 2.21's run of the same call."""

import pytest

import tfgraph_edu as tf

DIGITS = [[3, 1, 4, 1], [], [5, 9, 2], [6], []]


@pytest.mark.parametrize("make, text", [
    (lambda d: d[:, :2], "<tf.RaggedTensor [[3, 1], [], [5, 9], [6], []]>"),
    (lambda d: d[:, -2:], "<tf.RaggedTensor [[4, 1], [], [9, 2], [6], []]>"),
    (lambda d: d[1:], "<tf.RaggedTensor [[], [5, 9, 2], [6], []]>"),
    (lambda d: d[1:3, 1:], "<tf.RaggedTensor [[], [9, 2]]>"),
    (lambda d: d[2, 1], "tf.Tensor(9, shape=(), dtype=int32)"),
    (lambda d: d[0, -1], "tf.Tensor(1, shape=(), dtype=int32)"),
    (lambda d: tf.ragged.constant([[1, 2], [3], [4, 5, 6]]) + tf.ragged.constant(
        [[1, 1], [2], [3, 3, 3]]), "<tf.RaggedTensor [[2, 3], [5], [7, 8, 9]]>"),
    (lambda d: tf.ragged.constant([[1, 2], [3], [4, 5, 6]]) + [[1000], [2000], [3000]],
     "<tf.RaggedTensor [[1001, 1002], [2003], [3004, 3005, 3006]]>"),
    (lambda d: tf.ragged.constant([[1, 2], [3], [4, 5, 6]]) * tf.constant([[2], [3], [4]]),
     "<tf.RaggedTensor [[2, 4], [9], [16, 20, 24]]>"),
    (lambda d: tf.ragged.constant([["Hi"], ["How", "are", "you"]]).bounding_shape(),
     "tf.Tensor([2 3], shape=(2,), dtype=int64)"),
    (lambda d: tf.RaggedTensor.from_value_rowids(values=[3, 1, 4, 1, 5, 9, 2],
                                                 value_rowids=[0, 0, 0, 0, 2, 2, 3]),
     "<tf.RaggedTensor [[3, 1, 4, 1], [], [5, 9], [2]]>"),
    (lambda d: tf.RaggedTensor.from_value_rowids(values=[3, 1], value_rowids=[0, 2], nrows=5),
     "<tf.RaggedTensor [[3], [], [1], [], []]>"),
    (lambda d: tf.RaggedTensor.from_tensor([[1, 3, -1, -1], [2, -1, -1, -1], [4, 5, 8, 9]],
                                           padding=-1),
     "<tf.RaggedTensor [[1, 3], [2], [4, 5, 8, 9]]>"),
    (lambda d: tf.RaggedTensor.from_tensor([[1, 3, 0], [2, 0, 7]]),
     "<tf.RaggedTensor [[1, 3, 0],\n [2, 0, 7]]>"),
    (lambda d: tf.RaggedTensor.from_tensor([[1, 3, 0], [2, 0, 7]], lengths=[1, 3]),
     "<tf.RaggedTensor [[1], [2, 0, 7]]>"),
    (lambda d: tf.RaggedTensor.from_sparse(tf.SparseTensor(
        indices=[[0, 0], [2, 0], [2, 1]], values=["a", "b", "c"], dense_shape=[3, 3])),
     "<tf.RaggedTensor [[b'a'], [], [b'b', b'c']]>"),
    (lambda d: tf.RaggedTensor.from_row_starts(values=[3, 1, 4, 1, 5, 9, 2, 6],
                                               row_starts=[0, 4, 4, 7, 8]),
     "<tf.RaggedTensor [[3, 1, 4, 1], [], [5, 9, 2], [6], []]>"),
    (lambda d: tf.RaggedTensor.from_row_limits(values=[3, 1, 4, 1, 5, 9, 2, 6],
                                               row_limits=[4, 4, 7, 8, 8]),
     "<tf.RaggedTensor [[3, 1, 4, 1], [], [5, 9, 2], [6], []]>"),
    (lambda d: tf.RaggedTensor.from_uniform_row_length(values=[3, 1, 4, 1, 5, 9, 2, 6],
                                                       uniform_row_length=2),
     "<tf.RaggedTensor [[3, 1],\n [4, 1],\n [5, 9],\n [2, 6]]>"),
])
def test_ragged_text_as_tf(make, text):
    assert str(make(tf.ragged.constant(DIGITS))) == text


def test_to_sparse_as_tf():
    st = tf.ragged.constant([["Hi"], ["How", "are", "you"]]).to_sparse()
    # TF 2.21's indices, values and dense shape
    assert st.indices.numpy().tolist() == [[0, 0], [1, 0], [1, 1], [1, 2]]
    assert st.values.numpy().tolist() == [b"Hi", b"How", b"are", b"you"]
    assert st.dense_shape.numpy().tolist() == [2, 3]


def test_errors_as_tf():
    x = tf.ragged.constant([[1, 2], [3], [4, 5, 6]])
    with pytest.raises(tf.errors.InvalidArgumentError) as info:  # TF 2.21: this class
        x + tf.ragged.constant([[1], [2, 2], [3, 3, 3]])
    assert str(info.value) == (  # TF 2.21's message (its assert on the row_splits)
        "Condition x == y did not hold.\nIndices of first 1 different values:\n[[1]]\n"
        "Corresponding x values:\n[2]\nCorresponding y values:\n[1]\n"
        "First 3 elements of x:\n[0 2 3]\nFirst 3 elements of y:\n[0 1 3]")
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.ragged.constant([[1, 2, 3], [4], [5, 6]]) + tf.ragged.constant([[1, 2], [3, 4], [5]])
    assert str(info.value).splitlines()[1:5] == [  # TF 2.21's lines
        "Indices of first 2 different values:", "[[1]", " [3]]", "Corresponding x values:"]
    with pytest.raises(tf.errors.InvalidArgumentError):  # TF: slice index 0 out of bounds
        tf.ragged.constant(DIGITS)[1, 0]
