"""``tf.nn.bias_add`` (ops ``BiasAdd`` and its gradient ``BiasAddGrad``); every value, error
class and message below was recorded from TF 2.21 running the same calls."""

from __future__ import annotations

import numpy as np
import pytest

import tfgraph_edu as tf


def test_values_in_both_layouts():
    np.testing.assert_array_equal(tf.nn.bias_add(tf.ones([2, 3]), [1.0, 2.0, 3.0]).numpy(),
                                  [[2, 3, 4], [2, 3, 4]])
    out = tf.nn.bias_add(tf.ones([2, 3, 2]), tf.constant([1.0, 2.0, 3.0]), data_format="NCHW")
    np.testing.assert_array_equal(out.numpy(), [[[2, 2], [3, 3], [4, 4]]] * 2)


def test_errors_eager_and_traced():
    x, b = tf.ones([2, 4]), tf.constant([1.0, 2.0, 3.0])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Must provide as many biases as "
                       r"the last dimension of the input tensor: \[3\] vs. \[2,4\]"):
        tf.nn.bias_add(x, b)
    with pytest.raises(ValueError, match="Dimensions must be equal, but are 4 and 3"):
        tf.function(lambda: tf.nn.bias_add(x, b))()
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Biases must be 1D: \[2,2\]"):
        tf.nn.bias_add(x, tf.ones([2, 2]))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Input tensor must be at least 2D: \[3\]"):
        tf.nn.bias_add(tf.ones([3]), b)


def test_gradient_is_bias_add_grad():
    b = tf.constant([1.0, 2.0, 3.0])

    @tf.function
    def g(x, b):
        with tf.GradientTape() as t:
            t.watch([x, b])
            y = tf.reduce_sum(tf.nn.bias_add(x, b, data_format="NCHW") ** 2)
        return t.gradient(y, [x, b])

    dx, db = g(tf.ones([2, 3, 2]), b)
    np.testing.assert_array_equal(dx.numpy(), [[[4, 4], [6, 6], [8, 8]]] * 2)
    np.testing.assert_array_equal(db.numpy(), [16, 24, 32])
    graph = g.get_concrete_function(tf.ones([2, 3, 2]), b).graph
    (grad,) = [op for op in graph.get_operations() if op.type == "BiasAddGrad"]
    assert grad.name == "gradient_tape/BiasAdd/BiasAddGrad"
    assert grad.get_attr("data_format") == "NCHW"
    # an exponent nobody differentiates gets no gradient ops (TF's skip_input_indices): the
    # pow's gradient is TF's four ops, no Log
    assert not [op for op in graph.get_operations() if op.type == "Log"]
