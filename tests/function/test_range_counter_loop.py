"""``for i in tf.range(...)`` inside tf.function runs as a counter loop (no Range tensor, no
per-iteration slicing) and gives what the same loop over Python's ``range`` gives."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import tfgraph_edu as tf


def loop(start, limit, delta):
    total = 0
    last = -1
    for i in tf.range(start, limit, delta):
        if i % 7 == 3:
            continue
        total += i * 2
        last = i
        i = i + 100  # rebinding the loop variable does not change the iteration
        total += i - i
        if total > 500:
            break
    return total, last


def loop_python(start, limit, delta):
    total, last = 0, -1
    for i in range(start, limit, delta):
        if i % 7 == 3:
            continue
        total += i * 2
        last = i
        if total > 500:
            break
    return total, last


@settings(max_examples=30, deadline=None)
@given(st.integers(-20, 20), st.integers(-20, 20), st.sampled_from([1, 2, 3, -1, -2]))
def test_counter_loop_matches_python_range(start, limit, delta):
    fn = tf.function(loop)
    got = fn(tf.constant(start), tf.constant(limit), tf.constant(delta))
    assert (int(got[0]), int(got[1])) == loop_python(start, limit, delta)


def test_constant_step_loop_never_builds_or_slices_the_range():
    @tf.function
    def f(n):
        s = 0
        for i in tf.range(n):
            s += i * i
        return s

    cf = f.get_concrete_function(tf.constant(4))
    assert int(f(tf.constant(4))) == 0 + 1 + 4 + 9
    types = {op.type for op in cf.optimized_graph.operations}
    body = [op for op in cf.graph.operations if op.type.endswith("While")][0].attrs["body"]
    body_types = {op.type for op in body.graph.operations}
    assert "Range" not in types and "StridedSlice" not in body_types


def test_float_range_keeps_its_exact_elements():
    @tf.function
    def f():
        out = tf.constant(0.0, tf.float64)
        for x in tf.range(tf.constant(0.0, tf.float64), 1.0, 0.1):
            out = x
        return out

    assert float(f()) == 0.1 * 9  # arange's start + 9 * delta, not nine additions of 0.1
