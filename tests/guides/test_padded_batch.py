"""``Dataset.padded_batch`` (the data guide pads rows of growing length).  Every expected value
was recorded once from TensorFlow 2.21.0 running the same pipeline."""

import numpy as np

import tfgraph_edu as tf


def test_rows_padded_to_the_longest_of_the_batch():
    ds = tf.data.Dataset.range(100).map(lambda x: tf.fill([tf.cast(x, tf.int32)], x))
    ds = ds.padded_batch(4, padded_shapes=(None,))
    assert repr(ds) == ("<_PaddedBatchDataset element_spec=TensorSpec(shape=(None, None), "
                        "dtype=tf.int64, name=None)>")
    first, second = [b.numpy() for b in ds.take(2)]
    np.testing.assert_array_equal(first, [[0, 0, 0], [1, 0, 0], [2, 2, 0], [3, 3, 3]])
    assert second.shape == (4, 7) and second[0].tolist() == [4, 4, 4, 4, 0, 0, 0]


def test_fixed_shapes_padding_values_and_drop_remainder():
    ds = tf.data.Dataset.range(5).map(lambda x: (tf.fill([tf.cast(x, tf.int32)], x), x))
    ds = ds.padded_batch(2, padded_shapes=([4], []),
                         padding_values=(tf.constant(-1, tf.int64), tf.constant(0, tf.int64)),
                         drop_remainder=True)
    assert repr(ds.element_spec) == ("(TensorSpec(shape=(2, 4), dtype=tf.int64, name=None), "
                                     "TensorSpec(shape=(2,), dtype=tf.int64, name=None))")
    out = list(ds.as_numpy_iterator())
    assert len(out) == 2
    np.testing.assert_array_equal(out[1][0], [[2, 2, -1, -1], [3, 3, 3, -1]])
    np.testing.assert_array_equal(out[1][1], [2, 3])
