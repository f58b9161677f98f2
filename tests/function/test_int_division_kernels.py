"""Integer FloorDiv/FloorMod by a constant: the compiled graph's pre-resolved kernels agree
with Python's own ``//`` and ``%`` (both floor toward negative infinity, as TF's ops do)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tfgraph_edu as tf

_INTS = st.lists(st.integers(-1000, 1000), min_size=1, max_size=6)


@settings(max_examples=40, deadline=None)
@given(_INTS, st.integers(-7, 7).filter(lambda d: d != 0))
def test_floor_div_and_mod_by_constant_match_python(xs, d):
    f = tf.function(lambda x: (x // d, x % d, tf.math.floordiv(x, d), tf.math.floormod(x, d)))
    outs = f(tf.constant(xs))
    want_div = [x // d for x in xs]
    want_mod = [x % d for x in xs]
    for got, want in zip(outs, (want_div, want_mod, want_div, want_mod)):
        assert got.numpy().tolist() == want


def test_division_by_a_constant_zero_still_raises_in_the_graph():
    f = tf.function(lambda x: x // 0)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Integer division by zero"):
        f(tf.constant([1, 2]))
    g = tf.function(lambda x: x % tf.constant([1, 0]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Integer division by zero"):
        g(tf.constant([1, 2]))


def test_float_division_by_constant_zero_is_inf_as_in_tf():
    f = tf.function(lambda x: x // 0.0)
    out = f(tf.constant([1.0, -1.0])).numpy()
    assert np.isinf(out).all() and out[0] > 0 > out[1]


def test_an_empty_integer_division_by_zero_divides_nothing():
    # TensorFlow 2.21: floormod/floordiv of an empty int32 tensor by 0 give empty tensors (no
    # error), eagerly and in a tf.function; a reduction's gradient over a scalar computes
    # (axes + rank) % rank with rank 0 and no axes this way
    empty = tf.constant([], tf.int32)
    for fn in (tf.math.floormod, tf.math.floordiv, tf.function(lambda x, y: x % y)):
        out = fn(empty, tf.constant(0))
        assert out.shape == (0,) and out.dtype == tf.int32
