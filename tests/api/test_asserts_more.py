"""tf.debugging.assert_type, assert_integer, assert_rank_at_least, assert_all_finite against
TensorFlow 2.21 (every message below printed by TF 2.21, run once)."""

from __future__ import annotations

import numpy as np
import pytest

import tfgraph_edu as tf

IAE = tf.errors.InvalidArgumentError


def test_assert_type():
    assert tf.debugging.assert_type(tf.constant([1, 2]), tf.int32) is None
    with pytest.raises(TypeError) as e:
        tf.debugging.assert_type(tf.constant([1.0]), tf.int32)
    assert str(e.value) == "tensor must be of type tf.int32; got tf.float32"
    with pytest.raises(TypeError) as e:
        tf.debugging.assert_type(tf.constant([1.0]), tf.int32, message="m")
    assert str(e.value) == "m.  tensor must be of type tf.int32; got tf.float32"


def test_assert_integer():
    assert tf.debugging.assert_integer(tf.constant([1, 2])) is None
    with pytest.raises(TypeError) as e:
        tf.debugging.assert_integer(tf.constant([1.0]), message="m")
    assert str(e.value) == ("m.  Expected \"x\" to be integer type.  Found: tensor of dtype "
                            "<dtype: 'float32'>")


def test_assert_rank_at_least_eager_and_traced():
    assert tf.debugging.assert_rank_at_least(tf.constant([[1]]), 1) is None
    with pytest.raises(ValueError) as e:
        tf.debugging.assert_rank_at_least(tf.constant([1]), 2, message="m")
    assert str(e.value) == "m.  Tensor  must have rank at least 2.  Received rank 1, shape (1,)"

    @tf.function
    def f(x):
        tf.debugging.assert_rank_at_least(x, 2)
        return x
    with pytest.raises(ValueError, match=r"Tensor x:0 must have rank at least 2.  "
                       r"Received rank 1, shape \(1,\)"):
        f(tf.constant([1.0]))

    @tf.function(input_signature=[tf.TensorSpec(None, tf.float32)])
    def h(x):
        tf.debugging.assert_rank_at_least(x, 2)
        return x
    assert h(tf.constant([[1.0]])).numpy().tolist() == [[1.0]]
    with pytest.raises(IAE, match=r"assertion failed: \[\] \[Tensor x:0 must have rank at "
                       r"least\] \[2\] \[Received shape: \] \[1\]"):
        h(tf.constant([1.0]))


def test_assert_all_finite():
    x = tf.constant([1.0, 2.0])
    assert tf.debugging.assert_all_finite(x, "bad").numpy().tolist() == [1.0, 2.0]
    with pytest.raises(IAE, match="bad : Tensor had Inf values"):
        tf.debugging.assert_all_finite(tf.constant([1.0, np.inf]), "bad")
    with pytest.raises(IAE, match="Value for attr 'T' of int32 is not in the list"):
        tf.debugging.assert_all_finite(tf.constant([1, 2]), "bad")

    @tf.function
    def g(x):
        return tf.debugging.assert_all_finite(x, "bad") * 2
    assert g(x).numpy().tolist() == [2.0, 4.0]
    with pytest.raises(IAE, match=r"bad : Tensor had NaN values\n\t \[\[\{\{node "
                       r"VerifyFinite/CheckNumerics\}\}\]\]"):
        g(tf.constant([1.0, np.nan]))


def test_assert_all_finite_gradient_central_differences():
    # TF: d/dx sum(assert_all_finite(x) * x) = 2x -> [2., 4.]
    x = tf.constant([1.0, 2.0], dtype=tf.float64)
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.reduce_sum(tf.debugging.assert_all_finite(x, "bad") * x)
    grad = t.gradient(y, x).numpy()
    eps = 1e-6

    def fn(v):
        return float(tf.reduce_sum(tf.debugging.assert_all_finite(tf.constant(v), "b")
                                   * tf.constant(v)))
    numeric = [(fn(np.array([1.0, 2.0]) + eps * np.eye(2)[i])
                - fn(np.array([1.0, 2.0]) - eps * np.eye(2)[i])) / (2 * eps) for i in range(2)]
    np.testing.assert_allclose(grad, numeric, rtol=1e-6)
    np.testing.assert_allclose(grad, [2.0, 4.0])
