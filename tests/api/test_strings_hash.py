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


def test_without_pyfarmhash_an_honest_error(monkeypatch):
    import sys
    monkeypatch.setitem(sys.modules, "farmhash", None)  # as if not installed
    with pytest.raises(NotImplementedError, match="pip install pyfarmhash"):
        tf.strings.to_hash_bucket_fast(["a"], 3)
