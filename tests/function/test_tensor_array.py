"""tf.TensorArray eagerly, in traced loops (the tf.function docs' example), and its errors."""

from __future__ import annotations

import numpy as np
import pytest

import tfgraph_edu as tf


def test_eager_write_read_stack_size_unstack():
    ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
    for i in range(3):
        ta = ta.write(i, float(i) * 1.5)
    assert ta.stack().numpy().tolist() == [0.0, 1.5, 3.0]
    assert int(ta.size()) == 3 and float(ta.read(2)) == 3.0
    un = tf.TensorArray(tf.int32, size=2, clear_after_read=False).unstack(
        tf.constant([[1, 2], [3, 4]]))
    assert un.read(1).numpy().tolist() == [3, 4] and un.element_shape.as_list() == [2]
    assert un.gather([1, 0]).numpy().tolist() == [[3, 4], [1, 2]]


def test_python_loop_in_a_function_unrolls_into_list_ops():
    @tf.function
    def f(x):
        ta = tf.TensorArray(dtype=tf.int32, size=0, dynamic_size=True)
        for i in range(len(x)):
            ta = ta.write(i, x[i] + 1)
        return ta.stack()

    assert f(tf.constant([1, 2, 3])).numpy().tolist() == [2, 3, 4]
    types = [op.type for op in f.get_concrete_function(tf.constant([1, 2, 3])).graph
             .get_operations()]
    assert types.count("TensorListSetItem") == 3 and "TensorListStack" in types


def test_tensor_array_as_a_while_loop_variable():
    @tf.function
    def squares(n):
        ta = tf.TensorArray(tf.float32, size=n)
        for i in tf.range(n):
            ta = ta.write(i, tf.cast(i * i, tf.float32))
        return ta.stack()

    np.testing.assert_array_equal(squares(tf.constant(5)).numpy(), [0, 1, 4, 9, 16])
    np.testing.assert_array_equal(squares(tf.constant(2)).numpy(), [0, 1])
    assert squares.experimental_get_tracing_count() == 1
    types = [op.type for op in squares.get_concrete_function(tf.constant(1)).graph
             .get_operations()]
    assert "StatelessWhile" in types and "TensorListReserve" in types


def test_tensor_array_through_tf_while_loop_and_cond():
    def body(i, ta):
        return i + 1, ta.write(i, i * 10)

    @tf.function
    def f(n):
        _, ta = tf.while_loop(lambda i, ta: i < n, body, [0, tf.TensorArray(tf.int32, size=0,
                                                                           dynamic_size=True)])
        return ta.stack()

    assert f(tf.constant(3)).numpy().tolist() == [0, 10, 20]


def test_errors():
    ta = tf.TensorArray(tf.float32, size=2)
    with pytest.raises(TypeError, match="TensorArray dtype is float32 but Op is trying to write "
                                        "dtype int32"):
        ta.write(0, tf.constant(1))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Trying to access element 5 in a "
                                                             "list with 2 elements"):
        ta.read(5)
    shaped = tf.TensorArray(tf.float32, size=1, element_shape=[2])
    with pytest.raises(ValueError, match="its elements have shape"):
        shaped.write(0, tf.constant([1.0, 2.0, 3.0]))
    mixed = tf.TensorArray(tf.float32, size=2, infer_shape=False).write(0, [1.0]).write(
        1, [1.0, 2.0])
    with pytest.raises(tf.errors.InvalidArgumentError, match="different shapes"):
        mixed.stack()
