"""tf.train.Example (protobuf messages with TF's schema) and tf.io.parse_example with
RaggedFeature / FixedLenFeature; expected values recorded from TF 2.21."""

import pytest

import tfgraph_edu as tf

pbtext = pytest.importorskip("google.protobuf.text_format")  # the tf-files extra


def example(text):
    return pbtext.Merge(text, tf.train.Example()).SerializeToString()


def test_parse_ragged_features():
    batch = [example('features { feature {key: "colors" value {bytes_list {value: ["red", '
                     '"blue"]} } } feature {key: "lengths" value {int64_list {value: [7]} } } }'),
             example('features { feature {key: "colors" value {bytes_list {value: '
                     '["orange"]} } } feature {key: "lengths" value {int64_list {value: []} } } }')]
    out = tf.io.parse_example(batch, {"colors": tf.io.RaggedFeature(tf.string),
                                      "lengths": tf.io.RaggedFeature(tf.int64)})
    # recorded from TF 2.21
    assert str(out["colors"]) == "<tf.RaggedTensor [[b'red', b'blue'], [b'orange']]>"
    assert str(out["lengths"]) == "<tf.RaggedTensor [[7], []]>"
    assert repr(tf.io.RaggedFeature(tf.string)) == (
        "RaggedFeature(dtype=tf.string, value_key=None, partitions=(), "
        "row_splits_dtype=tf.int32, validate=False)")
    fixed = tf.io.parse_example(batch[:1], {"lengths": tf.io.FixedLenFeature([], tf.int64)})
    assert fixed["lengths"].numpy().tolist() == [7]
    with pytest.raises(tf.errors.InvalidArgumentError, match="Data types don't match. "
                       "Expected type: int64, Actual type: string"):
        tf.io.parse_example(batch, {"colors": tf.io.RaggedFeature(tf.int64)})
    # an Example's bytes read back as the same message
    assert tf.train.Example.FromString(batch[1]).features.feature["colors"].bytes_list.value \
        == [b"orange"]
