"""``Dataset.flat_map`` and ``Dataset.interleave`` (the data performance guide, issue 25).

Every expected order was recorded once from TensorFlow 2.21's run of the same pipeline."""

import tfgraph_edu as tf


def _ints(ds):
    return [int(x) for x in ds.as_numpy_iterator()]


def test_interleave_order_as_tf():
    ds = tf.data.Dataset.range(1, 6)
    out = _ints(ds.interleave(lambda x: tf.data.Dataset.from_tensors(x).repeat(6),
                              cycle_length=2, block_length=4))
    assert out == [1, 1, 1, 1, 2, 2, 2, 2, 1, 1, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 3, 3, 4, 4,
                   5, 5, 5, 5, 5, 5]
    assert _ints(ds.interleave(lambda x: tf.data.Dataset.range(x), cycle_length=3)) == [
        0, 0, 0, 1, 1, 0, 2, 1, 0, 2, 1, 3, 2, 3, 4]
    assert _ints(ds.interleave(lambda x: tf.data.Dataset.range(x), cycle_length=2,
                               num_parallel_calls=2)) == [
        0, 0, 1, 0, 1, 0, 2, 1, 2, 0, 3, 1, 2, 3, 4]


def test_flat_map_as_tf():
    ds = tf.data.Dataset.range(1, 6)
    assert _ints(ds.flat_map(lambda x: tf.data.Dataset.range(x))) == [
        0, 0, 1, 0, 1, 2, 0, 1, 2, 3, 0, 1, 2, 3, 4]
    pairs = tf.data.Dataset.from_tensor_slices(([1, 2], [3, 4]))
    summed = pairs.flat_map(lambda a, b: tf.data.Dataset.from_tensors(a + b))
    assert repr(summed.element_spec) == "TensorSpec(shape=(), dtype=tf.int32, name=None)"
    assert _ints(summed) == [4, 6]


def _windows(ds):
    return [_ints(w) for w in ds]


def test_window_as_tf():
    windows = tf.data.Dataset.range(100000).window(5, shift=1)
    # TF 2.21's texts and values
    assert repr(windows.element_spec) == (
        "DatasetSpec(TensorSpec(shape=(), dtype=tf.int64, name=None), TensorShape([]))")
    first = next(iter(windows))
    assert repr(first) == (
        "<_VariantDataset element_spec=TensorSpec(shape=(), dtype=tf.int64, name=None)>")
    assert _ints(windows.flat_map(lambda x: x).take(12)) == [0, 1, 2, 3, 4, 1, 2, 3, 4, 5, 2, 3]
    strided = tf.data.Dataset.range(100000).window(10, shift=5, stride=3).flat_map(
        lambda s: s.batch(10, drop_remainder=True))
    assert [x.tolist() for x in strided.take(2).as_numpy_iterator()] == [
        [0, 3, 6, 9, 12, 15, 18, 21, 24, 27], [5, 8, 11, 14, 17, 20, 23, 26, 29, 32]]
    r7 = tf.data.Dataset.range(7)
    assert _windows(r7.window(3, shift=2)) == [[0, 1, 2], [2, 3, 4], [4, 5, 6], [6]]
    assert _windows(r7.window(3, shift=2, drop_remainder=True)) == [[0, 1, 2], [2, 3, 4],
                                                                    [4, 5, 6]]
    assert _windows(r7.window(3)) == [[0, 1, 2], [3, 4, 5], [6]]
    assert _windows(tf.data.Dataset.range(10).window(2, shift=4, stride=2)) == [
        [0, 2], [4, 6], [8]]
