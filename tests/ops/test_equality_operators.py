"""``==`` and ``!=`` on tensors as TF 2.21's operators: a Python value the tensor's dtype
cannot hold is an error (never a quiet False), shapes that cannot broadcast compare as a
scalar False.  Every expectation is recorded from TF 2.21 (the same expressions)."""

from __future__ import annotations

import numpy as np
import pytest

import tfgraph_edu as tf


@pytest.mark.parametrize("expr", [
    lambda a: a == 1.5, lambda a: a != 1.5, lambda a: a == 1.0, lambda a: 1.5 == a,
    lambda a: a == [1.5, 2], lambda a: a == "x", lambda a: a != "x",
    lambda a: tf.Variable([1, 2]) == 1.5, lambda a: 1.5 in [a],
    lambda a: tf.constant([True]) == 1,
])
def test_a_value_the_dtype_cannot_hold_raises_type_error(expr):
    a = tf.constant([1, 2])
    # recorded from TF 2.21: TypeError "Cannot convert 1.5 to EagerTensor of dtype int32"
    with pytest.raises(TypeError, match="Cannot convert"):
        expr(a)


def test_an_object_no_tensor_holds_raises_value_error():
    a = tf.constant([1, 2])
    # recorded from TF 2.21: ValueError "Attempt to convert a value (...) with an unsupported
    # type (<class 'object'>) to a Tensor."
    for expr in (lambda: a == object(), lambda: a != object()):
        with pytest.raises(ValueError, match="unsupported type"):
            expr()


def test_what_tf_compares():
    a = tf.constant([1, 2])
    # recorded from TF 2.21
    assert (a == None) is False and (a != None) is True  # noqa: E711 - the operator itself
    np.testing.assert_array_equal((a == np.float64(1.5)).numpy(), [True, False])
    np.testing.assert_array_equal((a == np.array([1.5, 2.0])).numpy(), [True, True])
    np.testing.assert_array_equal((a == True).numpy(), [True, False])  # noqa: E712
    np.testing.assert_array_equal((a == (1, 2)).numpy(), [True, True])
    np.testing.assert_array_equal((tf.constant([1.5, 2.0]) == 1).numpy(), [False, False])
    np.testing.assert_array_equal((tf.constant(["a", "x"]) == "x").numpy(), [False, True])
    assert a in [a]  # the identity, before any comparison
    with pytest.raises(tf.errors.InvalidArgumentError, match="expected to be a int32 tensor"):
        a == tf.constant([1.5, 2.0])  # noqa: B015


def test_shapes_that_cannot_broadcast_compare_as_a_scalar():
    a = tf.constant([1, 2])
    # recorded from TF 2.21: <tf.Tensor: shape=(), dtype=bool, numpy=False> (True for !=),
    # eagerly and in a tf.function
    for got, want in ((a == tf.constant([1, 2, 3]), False), (a != tf.constant([1, 2, 3]), True),
                      (tf.function(lambda x: x == tf.constant([1, 2, 3]))(a), False)):
        assert got.shape == () and got.dtype == tf.bool and bool(got.numpy()) is want


def test_in_a_function_a_float_for_an_int_tensor_raises():
    @tf.function
    def f(x):
        return x == 1.5

    # recorded from TF 2.21: TypeError (in user code)
    with pytest.raises(TypeError):
        f(tf.constant([1, 2]))
