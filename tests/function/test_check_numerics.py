"""tf.debugging.enable_check_numerics, against TensorFlow 2.21: the reports below are TF's
text (without its "{{function_node __wrapped__...}}" prefix and " name: " suffix)."""

from __future__ import annotations

import numpy as np
import pytest

import tfgraph_edu as tf


@pytest.fixture
def checking():
    tf.debugging.enable_check_numerics()
    yield
    tf.debugging.disable_check_numerics()


def test_an_eager_op_making_inf_or_nan_is_reported(checking):
    x = tf.constant([-1.0, 0.0, 1.0])
    with pytest.raises(tf.errors.InvalidArgumentError) as err:
        tf.math.log(x)
    assert str(err.value) == (
        '\n\n!!! Detected Infinity or NaN in output 0 of eagerly-executing op "Log" (# of '
        "outputs: 1) !!!\n  dtype: <dtype: 'float32'>\n  shape: (3,)\n  # of -Inf elements: 1\n"
        "  # of +NaN elements: 1\n\n  Input tensor: tf.Tensor([-1.  0.  1.], shape=(3,), "
        "dtype=float32)\n\n : Tensor had -Inf and NaN values [Op:CheckNumericsV2]")
    with pytest.raises(tf.errors.InvalidArgumentError) as err:
        tf.constant([1e38, -1e38, 0.0]) * tf.constant([10.0, 10.0, float("nan")])
    assert "  Input tensors (2):\n         0: tf.Tensor([ 1.e+38 -1.e+38  0.e+00], shape=(3,), " \
        "dtype=float32)\n         1: tf.Tensor([10. 10. nan], shape=(3,), dtype=float32)\n\n " \
        ": Tensor had -Inf, +Inf, and NaN values" in str(err.value)
    # finite results, integer ops and ops that only move values pass
    assert tf.math.log(tf.constant([2.0])).numpy().tolist() == [np.log(np.float32(2.0))]
    assert (tf.constant([1, 2]) // tf.constant([1, 1])).numpy().tolist() == [1, 2]
    assert tf.reshape(tf.constant([np.inf]), [1, 1]).shape == (1, 1)


def test_a_graph_traced_while_checking_has_a_check_after_each_float_op(checking):
    @tf.function
    def g(a, b):
        return a / b

    one, zero = tf.constant(1.0), tf.constant(0.0)
    ops = [(op.name, op.type) for op in g.get_concrete_function(one, zero).graph.get_operations()]
    assert ("truediv/CheckNumericsV2", "CheckNumericsV2") in ops
    assert float(g(one, tf.constant(2.0))) == 0.5
    with pytest.raises(tf.errors.InvalidArgumentError) as err:
        g(one, zero)
    text = str(err.value)
    assert text.startswith("Graph execution error:\n\nDetected at node truediv/CheckNumericsV2 "
                           "defined at (most recent call last):")
    assert '\n\n!!! Detected Infinity or NaN in output 0 of graph op "RealDiv" (# of outputs: ' \
        "1) !!!\n  dtype: <dtype: 'float32'>\n  shape: ()\n\n  Input tensors (2):\n         0: " \
        'Tensor("a:0", shape=(), dtype=float32)\n         1: Tensor("b:0", shape=(), ' \
        'dtype=float32)\n  Graph name: "g"\n' in "\n\n" + text.split("\n\n", 2)[2]
    assert text.endswith(" : Tensor had +Inf values\n\t [[{{node truediv/CheckNumericsV2}}]] "
                         f"[Op:{g.get_concrete_function(one, zero).name}]")


def test_a_function_traced_before_is_checked_as_one_eager_op():
    @tf.function
    def g(a, b):
        return a / b

    one, zero = tf.constant(1.0), tf.constant(0.0)
    assert np.isinf(g(one, zero).numpy())
    tf.debugging.enable_check_numerics()
    try:
        with pytest.raises(tf.errors.InvalidArgumentError) as err:
            g(one, zero)
    finally:
        tf.debugging.disable_check_numerics()
    name = g.get_concrete_function(one, zero).name
    assert str(err.value).startswith(
        f'\n\n!!! Detected Infinity or NaN in output 0 of eagerly-executing op "{name}" (# of '
        "outputs: 1) !!!\n  dtype: <dtype: 'float32'>\n  shape: ()\n  # of +Inf elements: 1\n\n"
        "  Input tensors (2):\n         0: tf.Tensor(1.0, shape=(), dtype=float32)\n")
    assert np.isinf(g(one, zero).numpy())  # off again: inf without a word, as TF


def test_gradients_work_while_checking(checking):
    x = tf.constant([-1.0, 0.0, 1.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(x * x)
    assert tape.gradient(y, x).numpy().tolist() == [-2.0, 0.0, 2.0]

    @tf.function
    def grad(v):
        with tf.GradientTape() as t:
            t.watch(v)
            out = tf.reduce_sum(tf.sin(v))
        return t.gradient(out, v)

    np.testing.assert_allclose(grad(x).numpy(), np.cos(x.numpy()), rtol=1e-6)
