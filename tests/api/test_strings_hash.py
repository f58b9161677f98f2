"""tf.strings.to_hash_bucket_fast (FarmHash Fingerprint64) and to_hash_bucket_strong
(SipHash-2-4) against TensorFlow 2.21: every bucket below was printed by TF 2.21 (run once)."""

from __future__ import annotations

import pytest

import tfgraph_edu as tf

WORDS = ["hello", "", "Hello, World!", "日本語", "a" * 100,
         "abcdefghijklmnopqrstuvwxyz0123456789" * 3]


def test_to_hash_bucket_fast_is_tfs_fingerprint():
    # TF: with 2**62 buckets the fingerprints themselves (mod 2**62)
    assert tf.strings.to_hash_bucket_fast(WORDS, 2 ** 62).numpy().tolist() == [
        3786372426573024488, 1936946117179621455, 2134954489577875522, 1846174170784512071,
        3930626154289304810, 4022457115783104590]
    assert tf.strings.to_hash_bucket_fast(WORDS, 10).numpy().tolist() == [6, 3, 0, 3, 8, 0]
    assert tf.strings.to_hash_bucket_fast([b"\xff\x00x"], 1000).numpy().tolist() == [81]
    r = tf.strings.to_hash_bucket_fast("hello", 5)
    assert r.dtype == tf.int64 and r.shape == () and int(r) == 1


def test_to_hash_bucket_fast_in_function_and_errors():
    f = tf.function(lambda x: tf.strings.to_hash_bucket_fast(x, 7))
    assert f(tf.constant([["a", "b"], ["c", "d"]])).numpy().tolist() == [[5, 2], [5, 2]]
    node = f.get_concrete_function(tf.TensorSpec([None], tf.string)).graph.as_graph_def().node[1]
    assert node.op == "StringToHashBucketFast"
    assert "key: \"num_buckets\"\n  value {\n    i: 7\n  }" in str(node)  # as TF prints it
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Value for attr 'num_buckets' of 0 must be at least minimum 1"):
        tf.strings.to_hash_bucket_fast(["a"], 0)
    with pytest.raises(TypeError, match=r"Cannot convert \[1\] to EagerTensor of dtype string"):
        tf.strings.to_hash_bucket_fast([1], 3)


def test_siphash24_reference_vector():
    # the SipHash paper's vector: key bytes 00..0f, empty message -> 0x726fdb47dd0e0e31
    from tfgraph_edu.ops.siphash import siphash24
    k0 = int.from_bytes(bytes(range(8)), "little")
    k1 = int.from_bytes(bytes(range(8, 16)), "little")
    assert siphash24(k0, k1, b"") == 0x726FDB47DD0E0E31


def test_to_hash_bucket_strong_is_tfs():
    assert tf.strings.to_hash_bucket_strong(WORDS, 2 ** 62, [1, 2]).numpy().tolist() == [
        2957200328589801622, 443797209252341627, 528696062820349177, 1091377360618762286,
        656730686299328706, 3060473624618691193]
    assert tf.strings.to_hash_bucket_strong(WORDS, 10, [1, 2]).numpy().tolist() == [
        2, 5, 9, 6, 0, 7]
    # a negative key word is read as its unsigned 64 bits, as in TF
    assert tf.strings.to_hash_bucket_strong(WORDS, 1000, [2 ** 63 - 1, -5]).numpy().tolist() \
        == [466, 338, 899, 195, 299, 9]


def test_to_hash_bucket_strong_in_function_and_errors():
    f = tf.function(lambda x: tf.strings.to_hash_bucket_strong(x, 7, [3, 4]))
    assert f(tf.constant([["a", "b"], ["c", "d"]])).numpy().tolist() == [[6, 0], [1, 1]]
    node = f.get_concrete_function(tf.TensorSpec([None], tf.string)).graph.as_graph_def().node[1]
    assert str(node).endswith('key: "key"\n  value {\n    list {\n      i: 3\n      i: 4\n'
                              '    }\n  }\n}\n')
    for key in ([1], [1, 2, 3]):
        with pytest.raises(tf.errors.InvalidArgumentError, match="Key must have 2 elements"):
            tf.strings.to_hash_bucket_strong(["a"], 3, key)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Value for attr 'num_buckets' of 0 must be at least minimum 1"):
        tf.strings.to_hash_bucket_strong(["a"], 0, [1, 2])
