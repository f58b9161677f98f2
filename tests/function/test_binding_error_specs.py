"""The binding error of a tf.function with an input_signature prints the specs as written:
``name=None`` for an unnamed TensorSpec (the tf.function guide's next_collatz), the name when
one was given.  Expected text recorded once from TensorFlow 2.21.0."""

import pytest

import tfgraph_edu as tf


def test_unnamed_specs_print_name_none():
    @tf.function(input_signature=(tf.TensorSpec(shape=[None], dtype=tf.int32),))
    def next_collatz(x):
        return x

    with pytest.raises(TypeError) as info:
        next_collatz(tf.constant([1.0, 2.0]))
    assert str(info.value).endswith(
        "for signature: (x: TensorSpec(shape=(None,), dtype=tf.int32, name=None)).")
    assert "to TensorSpec(shape=(None,), dtype=tf.int32, name=None)`" in str(info.value)


def test_named_specs_keep_their_name():
    @tf.function(input_signature=(tf.TensorSpec(shape=[None], dtype=tf.int32, name="q"),))
    def g(x):
        return x

    with pytest.raises(TypeError) as info:
        g(tf.constant([1.0, 2.0]))
    assert str(info.value).endswith(
        "for signature: (x: TensorSpec(shape=(None,), dtype=tf.int32, name='q')).")
