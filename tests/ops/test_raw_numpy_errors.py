"""Errors TensorFlow raises where a bare NumPy error (or a silent answer) used to come out
(issue #25, "raw NumPy errors").

Every expected error class and message gist below was recorded by running the same snippet
under TensorFlow 2.21.0 (with Keras 3.15.1) in ``/work/venv-tf``."""

import numpy as np
import pytest

import tfgraph_edu as tf


@pytest.mark.parametrize("array, kind", [
    (np.array([1, "a"], dtype=object), "int"),
    (np.array(["a", 1], dtype=object), "int"),
    (np.array([1.5, 2.5], dtype=object), "float"),
    (np.array([[1, 2]], dtype=object), "int"),
    (np.array([None], dtype=object), "NoneType"),
])
def test_a_numpy_object_array_of_non_strings_is_refused(array, kind):
    # TF 2.21: ValueError "Failed to convert a NumPy array to a Tensor (Unsupported object
    # type int)." (the type of the first element that is not a string)
    for convert in (tf.constant, tf.convert_to_tensor, tf.Variable):
        with pytest.raises(ValueError, match=rf"Failed to convert a NumPy array to a Tensor "
                                             rf"\(Unsupported object type {kind}\)"):
            convert(array)


def test_object_arrays_of_strings_and_numbers_with_a_dtype_convert():
    # TF 2.21: array([b'a', b'b'], dtype=object) as tf.string; [1, 2] with dtype=tf.int32
    # -> int32 [1, 2]; an empty object array -> shape (0,) string
    t = tf.constant(np.array(["a", "b"], dtype=object))
    assert t.dtype == tf.string and t.numpy().tolist() == [b"a", b"b"]
    assert tf.constant(np.array([b"a"], dtype=object)).numpy().tolist() == [b"a"]
    t = tf.constant(np.array([1, 2], dtype=object), dtype=tf.int32)
    assert t.dtype == tf.int32 and t.numpy().tolist() == [1, 2]
    t = tf.constant(np.array([], dtype=object))
    assert t.dtype == tf.string and t.shape == (0,)


def _three_writes():
    a = tf.TensorArray(tf.float32, size=2)
    a = a.write(0, 1.0)
    a = a.write(1, 2.0)
    a = a.write(2, 3.0)
    return a.stack()


def test_writing_past_a_fixed_size_tensor_array_eagerly_is_out_of_range():
    # TF 2.21: OutOfRangeError "Tried to write to index 2 but array is not resizeable and
    # size is: 2"
    with pytest.raises(tf.errors.OutOfRangeError,
                       match="Tried to write to index 2 but array is not resizeable and size "
                             "is: 2"):
        _three_writes()


def test_writing_past_a_fixed_size_tensor_array_in_a_graph_is_invalid_argument():
    # TF 2.21: InvalidArgumentError "Graph execution error: ... Trying to modify element 2
    # in a list with 2 elements."
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Trying to modify element 2 in a list with 2 elements"):
        tf.function(_three_writes)()


def test_a_dynamic_size_tensor_array_grows():
    # TF 2.21: TensorArray(size=2, dynamic_size=True).write(3, 1.0).stack() -> [0. 0. 0. 1.]
    def grow():
        a = tf.TensorArray(tf.float32, size=2, dynamic_size=True)
        return a.write(3, 1.0).stack()

    assert grow().numpy().tolist() == [0.0, 0.0, 0.0, 1.0]
    assert tf.function(grow)().numpy().tolist() == [0.0, 0.0, 0.0, 1.0]


def test_fill_with_a_non_scalar_value_raises_eagerly_as_in_graphs():
    # TF 2.21 eager: InvalidArgumentError "value must represent a scalar, got shape [2]
    # [Op:Fill]"; traced: ValueError "Shape must be rank 0 but is rank 1 for '{{node Fill}}
    # = Fill[...]'"; eager dims of rank 2: "dims must represent a vector, got shape [1,1]"
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"value must represent a scalar, got shape \[2\]"):
        tf.fill([2], [1, 2])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"value must represent a scalar, got shape \[1,1\]"):
        tf.fill([2, 2], [[1.0]])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"dims must represent a vector, got shape \[1,1\]"):
        tf.fill([[2]], 1.0)

    @tf.function
    def traced():
        return tf.fill([2], [1, 2])

    with pytest.raises(ValueError, match=r"\{\{node Fill\}\}"):
        traced()


def test_split_along_an_axis_out_of_range():
    # TF 2.21 eager: InvalidArgumentError "-input rank(-2) <= split_dim < input rank (2),
    # but got 5 [Op:Split] name: split" (also for axis=-3); traced: ValueError "Dimension
    # size, given by scalar input 5 must be in range [-2, 2) for '{{node split}} = ...'"
    for axis in (5, -3):
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match=rf"-input rank\(-2\) <= split_dim < input rank \(2\), but got "
                                 rf"{axis}"):
            tf.split(tf.zeros([4, 2]), 2, axis=axis)

    @tf.function
    def traced():
        return tf.split(tf.zeros([4, 2]), 2, axis=5)

    with pytest.raises(ValueError, match=r"given by scalar input 5 must be in range \[-2, 2\)"):
        traced()


def test_zeros_and_ones_of_a_negative_shape():
    # TF 2.21 eager: InvalidArgumentError "Dimension -1 must be >= 0 [Op:Fill] name: ";
    # traced: ValueError "Fill dimensions must be >= 0 for '{{node zeros}} = Fill[...]'"
    for make, dims, bad in ((tf.zeros, [-1, 2], -1), (tf.ones, [-3], -3),
                            (lambda d: tf.fill(d, 1.0), [-3], -3)):
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match=rf"Dimension {bad} must be >= 0 \[Op:Fill\]"):
            make(dims)

    @tf.function
    def traced():
        return tf.zeros([-1, 2])

    with pytest.raises(ValueError, match="Fill dimensions must be >= 0"):
        traced()


def test_zeros_of_a_huge_shape_is_out_of_memory_or_too_many_elements():
    # TF 2.21 eager: ResourceExhaustedError "OOM when allocating tensor with
    # shape[1000000,1000000] and type float on /job:localhost/replica:0/task:0/device:CPU:0
    # by allocator mklcpu [Op:Fill]"; tf.zeros([2**62, 4]): InvalidArgumentError "Shape
    # [4611686018427387904,4] would have more than 2**63 - 1 elements [Op:Fill]"
    with pytest.raises(tf.errors.ResourceExhaustedError,
                       match=r"OOM when allocating tensor with shape\[1000000,1000000\] and "
                             r"type float"):
        tf.zeros([10 ** 6, 10 ** 6])
    with pytest.raises(tf.errors.ResourceExhaustedError,
                       match=r"shape\[1099511627776,1048576\]"):
        tf.zeros([2 ** 40, 2 ** 20])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Shape \[4611686018427387904,4\] would have more than 2\*\*63 - 1 "
                             r"elements"):
        tf.zeros([2 ** 62, 4])
