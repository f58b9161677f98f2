"""``tf.random.shuffle`` (op ``RandomShuffle``; course material, issue 25).  The order it
draws differs from TF's (another generator); shapes, dtypes, seeds, the graph node and the
gradient follow TF 2.21."""

import numpy as np

import tfgraph_edu as tf


def _rows(t):
    return sorted(map(tuple, np.asarray(t).tolist()))


def test_the_rows_are_a_permutation_eagerly_and_in_a_function():
    x = tf.constant([[10, 7], [3, 4], [2, 5]])
    out = tf.random.shuffle(x)
    assert out.shape == (3, 2) and out.dtype == tf.int32
    assert _rows(out) == _rows(x)

    @tf.function
    def f(v):
        return tf.random.shuffle(v, seed=3)
    assert _rows(f(x)) == _rows(x)


def test_every_order_shows_up():
    x = tf.range(3)
    seen = {tuple(tf.random.shuffle(x).numpy()) for _ in range(200)}
    assert len(seen) == 6


def test_seeds_repeat_the_order_after_set_seed():
    x = tf.range(20)
    tf.random.set_seed(42)
    a = [tf.random.shuffle(x, seed=42).numpy(), tf.random.shuffle(x).numpy()]
    tf.random.set_seed(42)
    b = [tf.random.shuffle(x, seed=42).numpy(), tf.random.shuffle(x).numpy()]
    for u, v in zip(a, b):
        np.testing.assert_array_equal(u, v)


def test_corners_as_tf():
    # recorded from TF 2.21: a scalar comes back as it is; strings, int64 and empty rows
    assert int(tf.random.shuffle(tf.constant(5))) == 5
    assert tf.random.shuffle([b"a", b"b"]).dtype == tf.string
    assert tf.random.shuffle(tf.constant([[1, 2], [3, 4]], tf.int64)).dtype == tf.int64
    assert tf.random.shuffle(tf.zeros([0, 3])).shape == (0, 3)


def test_the_graph_node_and_its_seeds_are_tfs():
    tf.random.set_seed(None)  # no global seed: TF's default one with the op's seed

    @tf.function
    def f(x):
        return tf.random.shuffle(x, seed=3)
    g = f.get_concrete_function(tf.TensorSpec([None, 2])).graph
    # recorded from TF 2.21: Placeholder, RandomShuffle (seed 87654321, seed2 3), Identity
    assert [op.type for op in g.get_operations()] == ["Placeholder", "RandomShuffle", "Identity"]
    op = g.get_operations()[1]
    assert (op.get_attr("seed"), op.get_attr("seed2")) == (87654321, 3)
    assert op.outputs[0].shape.as_list() == [None, 2]


def test_no_gradient_flows_through_a_shuffle():
    x = tf.Variable([1., 2., 3.])
    with tf.GradientTape() as t:
        y = tf.random.shuffle(x)
    assert t.gradient(y, x) is None  # recorded from TF 2.21: None
