"""``tf.random.Generator`` and ``tf.random.stateless_*``: TensorFlow's rules and printed states.

The states below were recorded once from TensorFlow 2.21 (``g.state.numpy()`` after each
call); the numbers drawn differ from TensorFlow's by design (numpy's Philox 4x64, see
ops/stateless_random_ops.py), so only their rules are tested: same state, same numbers.
"""

from __future__ import annotations

import numpy as np
import pytest

import tfgraph_edu as tf

# (call, counter advance) recorded from TF 2.21, starting from Generator.from_seed(1)
TF_ADVANCES = [
    (lambda g: g.normal([2, 3]), 1536),
    (lambda g: g.uniform([4], minval=0, maxval=10, dtype=tf.int32), 1024),
    (lambda g: g.make_seeds(2), 512),
    (lambda g: g.split(2), 512),
    (lambda g: g.make_seeds(3), 768),
    (lambda g: g.make_seeds(), 256),
    (lambda g: g.uniform_full_int([3], tf.int64), 768),
    (lambda g: g.truncated_normal([5]), 1280),
    (lambda g: g.normal([]), 256),
    (lambda g: g.split(3), 768),
    (lambda g: g.normal([2], dtype=tf.float64), 512),
    (lambda g: g.uniform([2], dtype=tf.float64), 512),
    (lambda g: g.uniform([2], maxval=5, dtype=tf.int64), 512),
    (lambda g: g.normal([0]), 0),
    (lambda g: g.uniform_full_int([2]), 512),  # TF's default dtype, uint64
    (lambda g: g.uniform_full_int([3], tf.uint32), 768),
]


def test_states_advance_as_tensorflows():
    g = tf.random.Generator.from_seed(1)
    assert g.state.numpy().tolist() == [1, 0, 0]  # TF: [1, 0, 0]
    assert g.algorithm == 1
    assert repr(g.state).startswith("<tf.Variable 'StateVar:0' shape=(3,) dtype=int64")
    for call, advance in TF_ADVANCES:
        before = int(g.state.numpy()[0])
        call(g)
        assert int(g.state.numpy()[0]) - before == advance


def test_seeds_and_states_as_tensorflow_makes_them():
    assert tf.random.Generator.from_seed(12345).state.numpy().tolist() == [12345, 0, 0]
    assert tf.random.create_rng_state(1, "philox").numpy().tolist() == [1, 0, 0]
    assert tf.random.Generator.from_key_counter(1, [0, 0], "philox").state.numpy().tolist() == \
        [0, 0, 1]
    assert tf.random.Generator.from_state([1, 2, 3], "philox").state.numpy().tolist() == [1, 2, 3]
    g = tf.random.Generator.from_seed(1)
    g.normal([3])
    g.reset_from_seed(5)
    assert g.state.numpy().tolist() == [5, 0, 0]
    children = g.split(2)
    assert isinstance(children, list) and len(children) == 2
    assert [c.state.numpy()[:2].tolist() for c in children] == [[0, 0], [0, 0]]
    assert children[0].state.numpy()[2] != children[1].state.numpy()[2]
    assert g.make_seeds(2).dtype == tf.int64 and g.make_seeds(2).shape == (2, 2)
    assert g.state.trainable is False


def test_same_state_same_numbers_and_a_moved_counter_new_ones():
    a, b = tf.random.Generator.from_seed(7), tf.random.Generator.from_seed(7)
    x = a.normal([4])
    assert x.dtype == tf.float32 and x.shape == (4,)
    np.testing.assert_array_equal(x.numpy(), b.normal([4]).numpy())
    assert not np.array_equal(x.numpy(), a.normal([4]).numpy())
    assert not np.array_equal(tf.random.Generator.from_seed(8).normal([4]).numpy(), x.numpy())


def test_draws_inside_a_function_read_and_move_the_state():
    g = tf.random.Generator.from_seed(1)

    @tf.function
    def f():
        return g.normal([2]), g.normal([2])
    x, y = f()
    assert not np.array_equal(x.numpy(), y.numpy())
    assert g.state.numpy().tolist() == [1025, 0, 0]
    z, _ = f()
    assert not np.array_equal(x.numpy(), z.numpy())
    assert g.state.numpy().tolist() == [2049, 0, 0]
    ops = [op.type for op in f.get_concrete_function().graph.get_operations()]
    # TF 2.21 draws through RngReadAndSkip and StatelessRandomNormalV2 too
    assert ops.count("RngReadAndSkip") == 2 and ops.count("StatelessRandomNormalV2") == 2
    # the same numbers as eagerly from the same state
    h = tf.random.Generator.from_seed(1)
    np.testing.assert_array_equal(h.normal([2]).numpy(), x.numpy())


def test_distributions():
    g = tf.random.Generator.from_seed(3)
    n = g.normal([20000], mean=2.0, stddev=3.0).numpy()
    assert abs(n.mean() - 2.0) < 0.1 and abs(n.std() - 3.0) < 0.1
    t = g.truncated_normal([20000]).numpy()
    assert np.abs(t).max() <= 2.0 and 0.85 < t.std() < 0.9  # a normal cut at 2 sigma: 0.88
    u = g.uniform([20000], minval=-1.0, maxval=3.0).numpy()
    assert u.min() >= -1.0 and u.max() < 3.0 and abs(u.mean() - 1.0) < 0.05
    i = g.uniform([20000], minval=2, maxval=5, dtype=tf.int32).numpy()
    assert set(np.unique(i).tolist()) == {2, 3, 4}


def test_stateless_samplers():
    a = tf.random.stateless_normal([3], seed=[1, 2])
    np.testing.assert_array_equal(a.numpy(), tf.random.stateless_normal([3], seed=[1, 2]).numpy())
    assert not np.array_equal(a.numpy(), tf.random.stateless_normal([3], seed=[1, 3]).numpy())
    assert tf.random.stateless_truncated_normal([2], seed=[1, 2]).dtype == tf.float32
    u = tf.random.stateless_uniform([50], seed=[4, 5], minval=0, maxval=5, dtype=tf.int32)
    assert u.dtype == tf.int32 and u.numpy().min() >= 0 and u.numpy().max() < 5

    @tf.function
    def f(seed):
        return tf.random.stateless_uniform([2], seed=seed, minval=0, maxval=5, dtype=tf.int32)
    np.testing.assert_array_equal(f(tf.constant([1, 2])).numpy(), f(tf.constant([1, 2])).numpy())
    ops = [op.type for op in f.get_concrete_function(tf.constant([1, 2])).graph.get_operations()]
    # TF 2.21's graph of this function: StatelessRandomGetKeyCounter, StatelessRandomUniformIntV2
    assert "StatelessRandomGetKeyCounter" in ops and "StatelessRandomUniformIntV2" in ops


def test_tensorflows_errors():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"seed must have shape \[2\], not \[1\]"):
        tf.random.stateless_normal([2], seed=[1])
    with pytest.raises(ValueError, match="Argument `alg` got unsupported value bogus"):
        tf.random.Generator.from_seed(1, alg="bogus")
    with pytest.raises(TypeError, match="Cannot convert 0.0 to EagerTensor of dtype int32"):
        tf.random.Generator.from_seed(1).normal([2], dtype=tf.int32)
    with pytest.raises(ValueError, match="Must specify maxval for integer dtype"):
        tf.random.Generator.from_seed(1).uniform([2], dtype=tf.int32)
    with pytest.raises(NotImplementedError, match="ThreeFry"):
        tf.random.Generator.from_seed(1, alg="threefry")
    with pytest.raises(NotImplementedError, match="binomial"):
        tf.random.Generator.from_seed(1).binomial([2], counts=5.0, probs=0.5)


def test_global_generator():
    g = tf.random.get_global_generator()
    assert isinstance(g, tf.random.Generator) and g.state.shape == (3,)
    mine = tf.random.Generator.from_seed(9)
    tf.random.set_global_generator(mine)
    try:
        assert tf.random.get_global_generator() is mine
    finally:
        tf.random.set_global_generator(g)
