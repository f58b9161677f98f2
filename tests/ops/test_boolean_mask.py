"""``tf.boolean_mask`` and ``tensor[bool mask]`` (course material, issue 25: the Chinese
course eat_tensorflow2_in_30_days 4-1, three cells).  Expected values recorded from TF 2.21."""

import numpy as np
import pytest

import tfgraph_edu as tf

C = [[-1, 1, -1], [2, 2, -2], [3, -3, 3]]


def _s():
    return tf.reshape(tf.range(24), [2, 3, 4])


def test_values_eagerly_and_in_a_function():
    def run():
        c = tf.constant(C, dtype=tf.float32)
        s = _s()
        return [tf.boolean_mask(c, c < 0), c[c < 0],
                tf.boolean_mask(s, [True, False, True], axis=1),
                tf.boolean_mask(s, [[True, False, True], [False, False, True]]),
                s[tf.constant([True, False])], tf.boolean_mask(s, [True, False, True, False],
                                                               axis=-1)]
    want = [[-1., -1., -2., -3.], [-1., -1., -2., -3.],
            [[[0, 1, 2, 3], [8, 9, 10, 11]], [[12, 13, 14, 15], [20, 21, 22, 23]]],
            [[0, 1, 2, 3], [8, 9, 10, 11], [20, 21, 22, 23]],
            [[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]],
            np.arange(24).reshape(2, 3, 4)[..., [0, 2]].tolist()]  # axis=-1: NumPy's answer
    for outs in (run(), tf.function(run)()):
        for got, w in zip(outs, want):
            assert got.numpy().tolist() == w


def test_a_numpy_bool_array_is_a_mask_too():
    c = tf.constant(C, dtype=tf.float32)
    assert c[np.asarray(C) < 0].numpy().tolist() == [-1., -1., -2., -3.]


def test_the_traced_shape_keeps_what_is_known():
    @tf.function
    def f(x, m):
        return tf.boolean_mask(x, m)
    cf = f.get_concrete_function(tf.TensorSpec([None, 3]), tf.TensorSpec([None], tf.bool))
    assert cf.structured_outputs.shape.as_list() == [None, 3]  # recorded from TF 2.21


def test_errors_as_tf():
    with pytest.raises(ValueError, match="mask cannot be scalar"):
        tf.boolean_mask(_s(), True)
    with pytest.raises(ValueError):
        tf.boolean_mask(_s(), [True, False, True])  # (3,) against the first axis, 2


def test_gradient_against_central_differences():
    x0 = np.array([1., 2., 3.], np.float32)
    x = tf.Variable(x0)
    mask = [True, False, True]
    with tf.GradientTape() as t:
        y = tf.reduce_sum(tf.boolean_mask(x, mask) ** 2)
    g = t.gradient(y, x).numpy()
    np.testing.assert_allclose(g, [2., 0., 6.])  # recorded from TF 2.21

    def fn(v):
        return float(tf.reduce_sum(tf.boolean_mask(tf.constant(v), mask) ** 2))
    eps = 1e-2
    numeric = [(fn(x0 + eps * e) - fn(x0 - eps * e)) / (2 * eps)
               for e in np.eye(3, dtype=np.float32)]
    np.testing.assert_allclose(g, numeric, rtol=1e-3, atol=1e-3)
