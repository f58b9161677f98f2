"""The eager interpreter's short paths give exactly what the general path gives.

Expected values come from numpy by hand and from TensorFlow's documented conversion
rules (a Python number adopts the other operand's dtype; out-of-range values and
floats into integer tensors are errors).
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tfgraph_edu as tf
from tfgraph_edu.eager.dispatch import EAGER
from tfgraph_edu.ops import math_ops


def test_python_number_adopts_the_tensor_dtype_either_side():
    f = tf.constant([1.0, 2.0])
    i = tf.constant([1, 2])
    assert (f * 2).dtype is tf.float32 and (2 * f).dtype is tf.float32
    assert (i * 2).dtype is tf.int32 and (2 + i).dtype is tf.int32
    d = tf.constant([1.0], dtype=tf.float64)
    assert (d + 0.1).numpy()[0] == 1.0 + 0.1  # 0.1 as float64, not rounded through float32
    assert (f + 0.1).numpy()[0] == np.float32(1.0) + np.float32(0.1)


def test_cached_scalars_keep_int_float_and_sign_apart():
    i = tf.constant([7])
    f = tf.constant([7.0])
    assert (i + 2).dtype is tf.int32 and (f + 2.0).dtype is tf.float32
    assert (f + 2).dtype is tf.float32 and (i + 2).numpy()[0] == 9
    one = tf.constant(1.0)
    assert math.copysign(1.0, float(one * -0.0)) == -1.0
    assert math.copysign(1.0, float(one * 0.0)) == 1.0
    assert np.isnan(float(one * float("nan")))


def test_numbers_a_tensor_cannot_hold_raise():
    with pytest.raises(TypeError):
        tf.constant([1, 2]) * 2.5
    # recorded from TF 2.21: an int beyond int32 wraps around (tests/ops/test_probe_differences)
    np.testing.assert_array_equal((tf.constant([1, 2]) + 2 ** 40).numpy(), [1, 2])
    with pytest.raises(ValueError):
        tf.constant([1, 2]) + 2 ** 70
    with pytest.raises(tf.errors.InvalidArgumentError, match="expected to be a float tensor"):
        tf.multiply(tf.constant([1.0]), tf.constant([1], dtype=tf.int32))
    with pytest.raises(tf.errors.InvalidArgumentError, match="attr 'T'"):
        tf.exp(tf.constant([1, 2]))


def test_float_edge_cases_are_silent_and_leave_numpy_settings_alone():
    before = np.geterr()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert np.isinf(tf.exp(tf.constant([100.0])).numpy()[0])
        assert np.isinf((tf.constant(1.0) / tf.constant(0.0)).numpy())
        assert np.isnan(tf.math.log(tf.constant(-1.0)).numpy())
        assert np.isnan(tf.sqrt(tf.constant(-1.0)).numpy())
        assert np.isinf(tf.pow(tf.constant(10.0), tf.constant(100.0)).numpy())
    assert np.geterr() == before
    with warnings.catch_warnings(record=True) as caught:  # the user's numpy still warns
        warnings.simplefilter("always")
        np.exp(np.float32(100.0))
    assert any(issubclass(w.category, RuntimeWarning) for w in caught)


def test_numpy_settings_restored_after_a_failing_kernel():
    before = np.geterr()
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.math.floordiv(tf.constant([1]), tf.constant([0]))
    assert np.geterr() == before


def test_tape_sees_ops_on_the_short_paths():
    x = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.exp(x) * 2.0 + 3.0 * x)
    (g,) = tape.gradient(y, [x])
    np.testing.assert_allclose(g.numpy(), 2 * np.exp([1.0, 2.0, 3.0]) + 3, rtol=1e-6)


def test_variables_and_numpy_arrays_still_convert():
    v = tf.Variable([1.0, 2.0])
    assert (v * 2.0).numpy().tolist() == [2.0, 4.0]
    assert tf.exp(np.zeros(2, np.float32)).numpy().tolist() == [1.0, 1.0]
    assert EAGER.apply(math_ops.AddV2, (1.0, 2.0), None, None).numpy() == 3.0


_BINARY = [(math_ops.AddV2, np.add), (math_ops.Sub, np.subtract), (math_ops.Mul, np.multiply),
           (math_ops.Maximum, np.maximum)]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(-1e6, 1e6, width=32), min_size=1, max_size=5),
       st.floats(-1e6, 1e6, width=32), st.sampled_from(range(len(_BINARY))), st.booleans())
def test_short_and_general_paths_agree(xs, s, k, flip):
    opdef, ref = _BINARY[k]
    x = tf.constant(np.array(xs, np.float32))
    args = (s, x) if flip else (x, s)
    fast = EAGER.apply(opdef, args, None, None).numpy()
    general = EAGER._apply_general(opdef, args, None, None).numpy()
    a = np.array(xs, np.float32)
    want = ref(np.float32(s), a) if flip else ref(a, np.float32(s))
    np.testing.assert_array_equal(fast, want)
    np.testing.assert_array_equal(general, want)
