"""tf.data with RaggedTensors as the ragged tensor guide uses it; expected values recorded
from TF 2.21 (the guide's cells run under real TensorFlow)."""

import pytest

import tfgraph_edu as tf


def features():
    return {"colors": tf.ragged.constant([["red", "blue"], ["orange"], ["black", "yellow"],
                                         ["green"]]),
            "lengths": tf.ragged.constant([[7], [], [1, 3], [3, 5, 2]], dtype=tf.int64)}


def test_slices_batch_unbatch():
    ds = tf.data.Dataset.from_tensor_slices(features())
    # recorded from TF 2.21
    assert repr(ds.element_spec["lengths"]) == \
        "RaggedTensorSpec(TensorShape([None]), tf.int64, 0, tf.int64)"
    rows = [(e["colors"].numpy().tolist(), e["lengths"].numpy().tolist()) for e in ds]
    assert rows == [([b"red", b"blue"], [7]), ([b"orange"], []),
                    ([b"black", b"yellow"], [1, 3]), ([b"green"], [3, 5, 2])]
    batched = ds.batch(2)
    assert [str(e["lengths"]) for e in batched] == ["<tf.RaggedTensor [[7], []]>",
                                                    "<tf.RaggedTensor [[1, 3], [3, 5, 2]]>"]
    assert [e["lengths"].numpy().tolist() for e in batched.unbatch()] == \
        [[7], [], [1, 3], [3, 5, 2]]
    with pytest.raises(NotImplementedError, match="RaggedTensorValue"):
        list(batched.as_numpy_iterator())


def test_dense_to_ragged_batch_and_map():
    ds = tf.data.Dataset.from_tensor_slices([1, 5, 3, 2, 8]).map(tf.range)
    out = [str(e) for e in ds.apply(tf.data.experimental.dense_to_ragged_batch(2))]
    # recorded from TF 2.21
    assert out == ["<tf.RaggedTensor [[0], [0, 1, 2, 3, 4]]>",
                   "<tf.RaggedTensor [[0, 1, 2], [0, 1]]>",
                   "<tf.RaggedTensor [[0, 1, 2, 3, 4, 5, 6, 7]]>"]

    def transform(f):
        return {"mean_length": tf.math.reduce_mean(f["lengths"]),
                "length_ranges": tf.ragged.range(f["lengths"])}
    got = [(int(e["mean_length"].numpy()), str(e["length_ranges"]))
           for e in tf.data.Dataset.from_tensor_slices(features()).map(transform)]
    assert got == [(7, "<tf.RaggedTensor [[0, 1, 2, 3, 4, 5, 6]]>"), (0, "<tf.RaggedTensor []>"),
                   (2, "<tf.RaggedTensor [[0], [0, 1, 2]]>"),
                   (3, "<tf.RaggedTensor [[0, 1, 2], [0, 1, 2, 3, 4], [0, 1]]>")]
