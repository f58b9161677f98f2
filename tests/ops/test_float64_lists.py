"""A list of Python floats given a wider dtype is read straight into it (found by the
ragged tensor guide, issue 25).  Expected values recorded once from TensorFlow 2.21."""

import tfgraph_edu as tf


def test_python_floats_into_float64_keep_their_digits():
    # TF 2.21: [0.1, 2.5] exactly (never through float32's 0.10000000149011612)
    assert tf.constant([0.1, 2.5], dtype=tf.float64).numpy().tolist() == [0.1, 2.5]
    assert tf.constant([[0.1], [0.2]], dtype=tf.float64).numpy().tolist() == [[0.1], [0.2]]
    assert tf.convert_to_tensor([0.1], dtype=tf.float64).numpy().tolist() == [0.1]
    assert tf.Variable([0.1, 0.2], dtype=tf.float64).numpy().tolist() == [0.1, 0.2]
    assert tf.constant([0.1 + 1j], dtype=tf.complex128).numpy().tolist() == [0.1 + 1j]
    rt = tf.ragged.constant([[0.1, 2.5], [3.]], dtype=tf.float64)
    assert str(rt) == "<tf.RaggedTensor [[0.1, 2.5], [3.0]]>"  # TF 2.21's text


def test_ragged_repr_is_tfs_layout():
    # TF 2.21's texts: rows of one length print as a matrix; long rows wrap as NumPy does
    assert repr(tf.ragged.constant([[1., 2.], [3., 4.]])) == (
        "<tf.RaggedTensor [[1.0, 2.0],\n [3.0, 4.0]]>")
    assert repr(tf.ragged.constant([[0.1, 2.5], [3.]])) == "<tf.RaggedTensor [[0.1, 2.5], [3.0]]>"
    assert repr(tf.ragged.constant([["a", "b"], []])) == "<tf.RaggedTensor [[b'a', b'b'], []]>"
    assert repr(tf.ragged.constant([[], []])) == "<tf.RaggedTensor [[], []]>"
    long = repr(tf.ragged.constant([list(range(40)), [1]]))
    assert long.splitlines()[0] == ("<tf.RaggedTensor [[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, "
                                    "12, 13, 14, 15, 16, 17, 18, 19, 20,")
    assert long.endswith(",\n [1]]>")
    assert tf.ragged.constant([[1., 2.], [3., 4.]]).numpy().shape == (2, 2)  # TF: one array
