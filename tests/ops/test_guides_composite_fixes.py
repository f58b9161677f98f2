"""Silent differences the official guides found in sparse and ragged tensors (issue 25).

Every expected value was recorded once from TensorFlow 2.21's run of the same call."""

import numpy as np
import pytest

import tfgraph_edu as tf


def test_sparse_reduce_max_uses_the_stored_values_only():
    # TF 2.21: -3 (from_dense drops the 0; implicit zeros take no part)
    assert int(tf.sparse.reduce_max(tf.sparse.from_dense([-5, 0, -3])).numpy()) == -3
    st = tf.sparse.SparseTensor([[0, 0], [0, 2], [1, 1]], [-1, -4, -2], [3, 3])
    assert int(tf.sparse.reduce_max(st).numpy()) == -1  # TF: -1
    # TF: [-1 -2 0] (a row with no stored value gives 0) and [-1 -2 -4]
    np.testing.assert_array_equal(tf.sparse.reduce_max(st, axis=1).numpy(), [-1, -2, 0])
    np.testing.assert_array_equal(tf.sparse.reduce_max(st, axis=0).numpy(), [-1, -2, -4])
    np.testing.assert_array_equal(tf.sparse.reduce_max(st, axis=1, keepdims=True).numpy(),
                                  [[-1], [-2], [0]])
    st2 = tf.sparse.SparseTensor([[0, 0], [2, 2]], [-1., -4.], [3, 3])
    np.testing.assert_array_equal(tf.sparse.reduce_max(st2, axis=1).numpy(), [-1., 0., -4.])


def test_ragged_to_tensor_with_a_shape_pads_and_truncates():
    rt = tf.ragged.constant([[1, 2, 3], [4]])
    # TF 2.21's results
    np.testing.assert_array_equal(rt.to_tensor(shape=[3, 2]).numpy(), [[1, 2], [4, 0], [0, 0]])
    np.testing.assert_array_equal(rt.to_tensor(shape=[1, None]).numpy(), [[1, 2, 3]])
    np.testing.assert_array_equal(rt.to_tensor(default_value=9, shape=[None, 5]).numpy(),
                                  [[1, 2, 3, 9, 9], [4, 9, 9, 9, 9]])
    s = tf.ragged.constant([["Hi"], ["Welcome", "to", "the", "fair"], ["Have", "fun"]])
    out = s.to_tensor(default_value="", shape=[None, 10])
    assert out.shape == (3, 10)  # TF: shape=(3, 10)
    assert out.numpy()[1].tolist() == [b"Welcome", b"to", b"the", b"fair"] + [b""] * 6


@pytest.mark.parametrize("value", [[["one", "two"], [3, 4]], [[1.5, "two"], [3, 4]],
                                   [[1, 2], [3, "x"]]])
def test_ragged_constant_of_mixed_types_raises_tfs_error(value):
    with pytest.raises(ValueError) as info:
        tf.ragged.constant(value)
    # TF 2.21's message
    assert str(info.value) == "Can't convert Python sequence with mixed types to Tensor."
