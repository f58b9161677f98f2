"""A Python int no int64 holds is TF's ValueError, eagerly and inside a tf.function, never an
OverflowError or a wrong 'non-rectangular' message; ints that fit still convert."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import tfgraph_edu as tf

MESSAGE = "Can't convert Python sequence with out-of-range integer to Tensor."


@pytest.mark.parametrize("value", [2 ** 70, -2 ** 63 - 1, 2 ** 63, [1, 2 ** 70],
                                   [[1], [-(2 ** 64)]], (3, 2 ** 100)])
def test_out_of_range_ints(value):
    with pytest.raises(ValueError) as info:
        tf.constant(value)
    assert str(info.value) == MESSAGE

    @tf.function
    def f(x):
        return x + tf.constant(value, dtype=tf.int64)

    with pytest.raises(ValueError, match="out-of-range integer"):
        f(tf.constant(1, tf.int64))


@given(st.integers(-2 ** 63, 2 ** 63 - 1))
def test_ints_that_fit_keep_their_value(v):
    t = tf.constant(v)
    assert int(t.numpy()) == v
    assert t.dtype == (tf.int32 if -2 ** 31 <= v < 2 ** 31 else tf.int64)


def test_a_huge_int_as_float_is_fine():
    assert float(tf.constant(2 ** 70, tf.float32).numpy()) == float(2 ** 70)
