"""Random ops: TF's seed rules, distributions, and statefulness."""

from __future__ import annotations

import numpy as np
import pytest

import tfgraph_edu as tf


def test_global_seed_makes_sequences_repeat():
    tf.random.set_seed(5)
    a1, a2 = tf.random.normal([3]), tf.random.uniform([3])
    tf.random.set_seed(5)
    b1, b2 = tf.random.normal([3]), tf.random.uniform([3])
    np.testing.assert_array_equal(a1.numpy(), b1.numpy())
    np.testing.assert_array_equal(a2.numpy(), b2.numpy())
    assert not np.array_equal(a1.numpy(), tf.random.normal([3]).numpy())


def test_op_seed_without_global_seed_is_reproducible_per_seed_but_advances():
    tf.random.set_seed(None)
    first = tf.random.uniform([4], seed=7).numpy()
    second = tf.random.uniform([4], seed=7).numpy()
    assert not np.array_equal(first, second)  # same op seed: the op's stream advances


def test_distributions():
    tf.random.set_seed(0)
    n = tf.random.normal([20000], mean=3.0, stddev=2.0).numpy()
    assert abs(n.mean() - 3.0) < 0.1 and abs(n.std() - 2.0) < 0.1
    u = tf.random.uniform([20000], minval=-1.0, maxval=1.0).numpy()
    assert u.min() >= -1.0 and u.max() < 1.0 and abs(u.mean()) < 0.05
    t = tf.random.truncated_normal([20000]).numpy()
    assert np.abs(t).max() <= 2.0
    i = tf.random.uniform([1000], minval=2, maxval=5, dtype=tf.int32)
    assert i.dtype is tf.int32 and set(np.unique(i.numpy())) == {2, 3, 4}
    assert tf.random.normal([2], dtype=tf.float64).dtype is tf.float64


def test_errors():
    with pytest.raises(ValueError, match="Must specify maxval for integer dtype"):
        tf.random.uniform([2], dtype=tf.int32)
    with pytest.raises(TypeError, match="floating-point"):  # TF's class: TypeError
        tf.random.normal([2], dtype=tf.int32)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Need minval < maxval"):
        tf.random.uniform([2], minval=3, maxval=3, dtype=tf.int32)
