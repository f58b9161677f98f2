"""Eager tensors: TF's conversion rules, printed formats and errors, as exact strings."""

from __future__ import annotations

import numpy as np
import pytest

import tfgraph_edu as tf


@pytest.mark.parametrize("value,dtype", [
    (1, tf.int32), (1.5, tf.float32), (True, tf.bool), ([1, 2], tf.int32),
    ([1, 2.5], tf.float32), ("hi", tf.string), (np.float64(2), tf.float64),
    (np.arange(3, dtype=np.int64), tf.int64), (np.zeros(2, np.uint8), tf.uint8),
    (2 ** 40, tf.int64),
])
def test_python_and_numpy_values_get_tensorflows_default_dtypes(value, dtype):
    assert tf.constant(value).dtype is dtype


def test_exact_str_and_repr():
    assert str(tf.constant(5.0)) == "tf.Tensor(5.0, shape=(), dtype=float32)"
    assert repr(tf.constant(18)) == "<tf.Tensor: shape=(), dtype=int32, numpy=18>"
    assert str(tf.constant([1, 2, 3])) == "tf.Tensor([1 2 3], shape=(3,), dtype=int32)"
    assert str(tf.constant([[1.0, 2.0], [3.0, 4.0]])) == (
        "tf.Tensor(\n[[1. 2.]\n [3. 4.]], shape=(2, 2), dtype=float32)")
    assert repr(tf.constant([1.5, 2.0])) == (
        "<tf.Tensor: shape=(2,), dtype=float32, numpy=array([1.5, 2. ], dtype=float32)>")
    assert repr(tf.constant(True)) == "<tf.Tensor: shape=(), dtype=bool, numpy=True>"
    assert str(tf.constant("hi")) == "tf.Tensor(b'hi', shape=(), dtype=string)"


def test_dtype_and_shape_objects_print_like_tensorflow():
    assert repr(tf.float32) == "tf.float32"
    assert str(tf.int32) == "<dtype: 'int32'>"
    assert repr(tf.TensorShape([None, 3])) == "TensorShape([None, 3])"
    assert str(tf.TensorShape([2, 3])) == "(2, 3)"
    assert repr(tf.TensorSpec(shape=[None], dtype=tf.float32)) == (
        "TensorSpec(shape=(None,), dtype=tf.float32, name=None)")
    assert tf.as_dtype("float64") is tf.float64
    assert tf.as_dtype(np.int16) is tf.int16


def test_unknown_dtype_name_is_a_type_error():
    with pytest.raises(TypeError, match="Cannot convert the argument `type_value`: 'flaot32'"):
        tf.as_dtype("flaot32")


def test_no_implicit_promotion_between_tensors():
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.constant(1) + tf.constant(1.0)
    assert str(info.value) == (
        "cannot compute AddV2 as input #1(zero-based) was expected to be a int32 tensor but is "
        "a float tensor [Op:AddV2]")


def test_python_scalars_adopt_the_tensors_dtype():
    assert (tf.constant(2.0, tf.float64) * 3).dtype is tf.float64
    assert (3 - tf.constant(2, tf.int64)).dtype is tf.int64
    assert (tf.constant([1, 2]) / 2).dtype is tf.float64  # int / int is float64, as in TF


def test_float_value_into_int_tensor_is_rejected():
    # recorded from TF 2.21: TypeError for *, but `+` raises InvalidArgumentError (AddV2
    # takes the dtype as a hint only; tests/ops/test_probe_differences.py)
    with pytest.raises(TypeError, match="Cannot convert 1.5 to EagerTensor of dtype int32"):
        tf.constant(1) * 1.5


def test_non_numeric_python_object_is_rejected():
    with pytest.raises((TypeError, ValueError), match="object"):
        tf.constant(object())


def test_incompatible_shapes_name_op_and_shapes():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Incompatible shapes: \[3\] vs. \[4\] \[Op:AddV2\]"):
        tf.constant([1, 2, 3]) + tf.constant([1, 2, 3, 4])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Matrix size-incompatible: In\[0\]: \[2,3\], In\[1\]: \[2,3\]"):
        tf.matmul(tf.ones([2, 3]), tf.ones([2, 3]))


def test_op_not_allowed_for_dtype():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Value for attr 'T' of int32 is not in the list of allowed values"):
        tf.sqrt(tf.constant(4))


def test_gather_out_of_range_message():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"indices\[1\] = 5 is not in \[0, 3\) \[Op:GatherV2\]"):
        tf.gather(tf.constant([1, 2, 3]), [0, 5])


def test_integer_division_by_zero():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Integer division by zero"):
        tf.constant(1) // tf.constant(0)


def test_python_protocols():
    t = tf.constant([3, 4])
    assert len(t) == 2 and [int(v) for v in t] == [3, 4]
    assert float(tf.constant(2.5)) == 2.5 and bool(tf.constant(True))
    assert f"{tf.constant(1.25):.1f}" == "1.2"
    assert np.asarray(t).tolist() == [3, 4]
    assert t.numpy().dtype == np.int32 and tf.constant(5).numpy() == 5


def test_tensors_are_unhashable_but_have_refs():
    t = tf.constant(1)
    with pytest.raises(TypeError, match="Tensor is unhashable"):
        _ = {t: 1}
    assert {t.ref(): 1}[t.ref()] == 1 and t.ref().deref() is t


def test_equality_is_elementwise():
    assert (tf.constant([1, 2]) == tf.constant([1, 3])).numpy().tolist() == [True, False]


def test_indexing_uses_strided_slice_semantics():
    x = tf.reshape(tf.range(12), [3, 4])
    np.testing.assert_array_equal(x[1].numpy(), np.arange(12).reshape(3, 4)[1])
    np.testing.assert_array_equal(x[:, ::-2].numpy(), np.arange(12).reshape(3, 4)[:, ::-2])
    np.testing.assert_array_equal(x[..., tf.newaxis].shape, (3, 4, 1))
    assert int(x[-1, -1]) == 11 and int(x[tf.constant(2), 0]) == 8
    with pytest.raises(tf.errors.InvalidArgumentError, match="slice index 3 of dimension 0"):
        x[3]
    with pytest.raises(TypeError, match="Only integers, slices"):
        x[[0, 1]]


def test_constant_with_shape_broadcasts_scalars_and_checks_size():
    assert tf.constant(7, shape=[2, 2]).numpy().tolist() == [[7, 7], [7, 7]]
    with pytest.raises(TypeError, match="has 3 elements, but got `shape` \\(2, 2\\)"):
        tf.constant([1, 2, 3], shape=[2, 2])


def test_executing_eagerly():
    assert tf.executing_eagerly()
