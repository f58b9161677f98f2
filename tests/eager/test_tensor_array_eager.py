"""An eager tf.TensorArray behaves as TensorFlow 2.21's (each expected value below is what
TF 2.21 printed for the same lines): arrays made from one share their contents, a read
clears its item unless ``clear_after_read=False``; in a tf.function reads clear nothing."""

from __future__ import annotations

import pytest

import tfgraph_edu as tf


def test_writes_are_seen_through_the_array_they_came_from():
    ta = tf.TensorArray(tf.int32, size=3, clear_after_read=False)
    ta2 = ta.write(0, 5)
    assert ta2 is not ta
    assert ta.read(0).numpy() == 5 and ta.size().numpy() == 3
    ta.write(1, 7)
    assert ta2.stack().numpy().tolist() == [5, 7, 0]
    grow = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
    grow.write(0, 1.0)
    grow.write(1, 2.0)  # results dropped, as in the guides' eager examples
    assert grow.stack().numpy().tolist() == [1.0, 2.0] and grow.size().numpy() == 2


def test_a_read_clears_its_item_eagerly():
    ta = tf.TensorArray(tf.int32, size=2)
    ta.write(0, 5)
    assert ta.read(0).numpy() == 5
    assert ta.stack().numpy().tolist() == [0, 0]  # TF 2.21: [0 0]
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Could not read index 0 twice because it was cleared"):
        ta.read(0)
    ta.write(0, 8)
    assert ta.read(0).numpy() == 8  # written again: readable again
    un = tf.TensorArray(tf.int32, size=2).unstack(tf.constant([[1, 2], [3, 4]]))
    assert un.read(1).numpy().tolist() == [3, 4]
    with pytest.raises(ValueError, match="Could not gather index 1: it was cleared"):
        un.gather([1, 0])  # TF 2.21 raises a ValueError here too (not an answer)
    unwritten = tf.TensorArray(tf.int32, size=2)
    unwritten.write(1, 3)
    assert unwritten.read(0).numpy() == 0 and unwritten.stack().numpy().tolist() == [0, 3]


def test_in_a_function_reads_clear_nothing():
    @tf.function
    def f():
        ta = tf.TensorArray(tf.int32, size=2)
        ta = ta.write(0, 5)
        return ta.read(0), ta.read(0), ta.stack()

    first, second, stacked = f()
    assert first.numpy() == second.numpy() == 5 and stacked.numpy().tolist() == [5, 0]


def test_gradients_through_eager_writes():
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        ta = tf.TensorArray(tf.float32, size=2)
        ta = ta.write(0, x * x)
        ta = ta.write(1, 3 * x)
        total = tf.reduce_sum(ta.stack())
    assert tape.gradient(total, x).numpy() == 7.0  # 2x + 3 at x = 2, TF 2.21 gives 7.0
