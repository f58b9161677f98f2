"""``tf.one_hot``'s dtype as TF 2.21 picks it (course material, issue 25: on_value=5 gave
float32 here, int32 in TF, and strings were refused)."""

import numpy as np
import pytest

import tfgraph_edu as tf

# recorded from TF 2.21: tf.one_hot([0, 2], 3, **kwargs) -> (dtype, values) or error
CASES = [
    (dict(on_value=5), "int32", [[5, 0, 0], [0, 0, 5]]),
    (dict(on_value=5.0), "float32", [[5.0, 0.0, 0.0], [0.0, 0.0, 5.0]]),
    (dict(on_value="a", off_value="b"), "string", [[b"a", b"b", b"b"], [b"b", b"b", b"a"]]),
    (dict(off_value=2), "int32", [[1, 2, 2], [2, 2, 1]]),
    (dict(off_value=2.5), "float32", [[1.0, 2.5, 2.5], [2.5, 2.5, 1.0]]),
    (dict(on_value=5, dtype=tf.float64), "float64", [[5.0, 0.0, 0.0], [0.0, 0.0, 5.0]]),
    (dict(on_value=np.float64(2)), "float64", [[2.0, 0.0, 0.0], [0.0, 0.0, 2.0]]),
    (dict(on_value=tf.constant(3, tf.int64)), "int64", [[3, 0, 0], [0, 0, 3]]),
    (dict(on_value=True, off_value=False), "bool", [[True, False, False], [False, False, True]]),
    (dict(), "float32", [[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]]),
]
ERRORS = [
    (dict(on_value="a"), "Cannot convert 0 to EagerTensor of dtype string"),
    (dict(on_value=5, off_value=0.5),
     "dtype <dtype: 'int32'> of on_value does not match dtype <dtype: 'float32'> of off_value"),
    (dict(on_value=1.5, dtype=tf.int32),
     "dtype <dtype: 'float32'> of on_value does not match dtype parameter <dtype: 'int32'>"),
    (dict(dtype=tf.bool), "Cannot convert 1 to EagerTensor of dtype bool"),
]


@pytest.mark.parametrize("kwargs, dtype, values", CASES)
def test_dtype_and_values_eagerly_and_in_a_function(kwargs, dtype, values):
    for fn in (lambda: tf.one_hot([0, 2], 3, **kwargs),
               tf.function(lambda: tf.one_hot([0, 2], 3, **kwargs))):
        out = fn()
        assert out.dtype.name == dtype
        assert out.numpy().tolist() == values


@pytest.mark.parametrize("kwargs, message", ERRORS)
def test_mismatched_values_are_tfs_type_error(kwargs, message):
    with pytest.raises(TypeError) as info:
        tf.one_hot([0, 2], 3, **kwargs)
    assert str(info.value).startswith(message)
