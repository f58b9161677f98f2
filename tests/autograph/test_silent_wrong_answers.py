"""Regression tests for programs that once gave a different answer than TensorFlow with no
error (issue 12).  Expected values come from running the same code as plain Python."""

from __future__ import annotations

import functools
import types

import numpy as np
import pytest

import tfgraph_edu as tf


def _py(v):
    return np.asarray(v.numpy() if hasattr(v, "numpy") else v).tolist()


# -- a return inside a tensor loop: TF refuses it (eager runs it as Python) ----------------------
def return_from_inner_loop(n):
    c = 0
    for _i in tf.range(n):
        for _k in tf.range(2):
            c += 1
            if c > 0:
                return c
    return c


def return_from_third_loop(n):
    c = 0
    i = 0
    while i < n:
        for _k in tf.range(3):
            for _j in tf.range(2):
                c += 1
                if c > 4:
                    return c * 10
        i += 1
    return c


def _plain(fn, *args):
    """``fn`` run as plain Python: the same code with ``tf.range`` meaning ``range``."""
    namespace = dict(fn.__globals__, tf=types.SimpleNamespace(range=range))
    return types.FunctionType(fn.__code__, namespace)(*args)


@pytest.mark.parametrize("fn", [return_from_inner_loop, return_from_third_loop])
@pytest.mark.parametrize("n", [0, 1, 3, 5])
def test_return_inside_tensor_loops_is_refused_as_tf_refuses_it(fn, n):
    # TensorFlow 2.21 gives NotImplementedError: "a return statement cannot be placed inside
    # this TensorFlow loop; ..." for both functions, whatever n (checked with
    # benchmarks/against_tf/differential.py); answering as Python would is a silent difference
    with pytest.raises(NotImplementedError, match="cannot be placed inside this TensorFlow loop"):
        tf.function(fn)(tf.constant(n))
    tf.config.run_functions_eagerly(True)  # eagerly it is Python's loop, as in TF
    try:
        assert _py(tf.function(fn)(tf.constant(n))) == _plain(fn, n)
    finally:
        tf.config.run_functions_eagerly(False)


# -- composite names are branch and loop state ---------------------------------------------------
def dict_item_in_branches(a):
    x = {"a": a}
    if x["a"] > 0:
        x["b"] = 1
    else:
        x["b"] = -1
    return x["b"]


class Box:
    def __init__(self, v):
        self.v = v


def attribute_in_branches(a):
    obj = Box(a)
    if obj.v > 0:
        obj.v = obj.v * 2
    else:
        obj.v = -obj.v
    return obj.v


def nested_composite_in_loop(n):
    d = {"acc": {"s": 0}}
    for i in tf.range(n):
        d["acc"]["s"] = d["acc"]["s"] + i
    return d["acc"]["s"]


def list_item_in_while(n):
    a = [0, 1]
    i = 0
    while i < n:
        a[1] = a[1] * 2
        i += 1
    return a[1]


@pytest.mark.parametrize("fn", [dict_item_in_branches, attribute_in_branches,
                                nested_composite_in_loop, list_item_in_while])
@pytest.mark.parametrize("n", [-2, 0, 3])
def test_composite_names_are_state(fn, n):
    want = _plain(fn, n)
    assert _py(tf.function(fn)(tf.constant(n))) == want


# -- zero-trip loops ------------------------------------------------------------------------------
def zero_trip_python_range(n):
    s = 10
    for _i in range(n):
        s = s - 1
    return s


def zero_trip_tf_range(n):
    s = 10
    for _i in tf.range(n):
        s = s * 0
    return s


def zero_trip_start_stop(n):
    s = 3
    for i in tf.range(n, 2):
        s += i
    return s


@pytest.mark.parametrize("fn", [zero_trip_python_range, zero_trip_tf_range,
                                zero_trip_start_stop])
@pytest.mark.parametrize("n", [0, -1, 5])
def test_zero_trip_loops_run_no_iteration(fn, n):
    want = _plain(fn, n)
    assert _py(tf.function(fn)(tf.constant(n))) == want


# -- decorators ----------------------------------------------------------------------------------
def double(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return 2 * fn(*args, **kwargs)
    return wrapper


def add_one(fn):
    @functools.wraps(fn)
    def wrapper(x):
        return fn(x) + 1
    return wrapper


def test_wraps_decorator_keeps_the_wrapper():
    @tf.function
    @double
    def g(x):
        return x + 1

    assert float(g(tf.constant(1.0))) == 4.0


def test_stacked_decorators():
    @tf.function
    @add_one
    @double
    def g(x):
        if x > 0:
            return x
        return -x

    assert float(g(tf.constant(3.0))) == 7.0
    assert float(g(tf.constant(-2.0))) == 5.0


# -- unstack / split / iteration with one or zero pieces -----------------------------------------
def _both(fn):
    eager = fn()
    graph = tf.function(fn, autograph=False)()
    return eager, graph


@pytest.mark.parametrize("make", [
    lambda: tf.unstack(tf.constant([[1, 2]])),
    lambda: tf.split(tf.constant([1, 2]), 1),
    lambda: tf.split(tf.constant([1, 2]), [2]),
    lambda: tf.unstack(tf.constant([[1, 2]]), axis=0),
])
def test_one_piece_is_a_list_of_one(make):
    for result in _both(make):
        assert isinstance(result, list) and len(result) == 1
        assert _py(result[0]) in ([1, 2],)


def test_unstack_of_empty_axis_is_empty_list():
    for result in _both(lambda: tf.unstack(tf.zeros([0, 3]))):
        assert result == []


def test_iterating_a_length_one_tensor_yields_one_item():
    def f(t):
        out = []
        for row in t:
            out.append(row)
        return out

    t = tf.constant([[1, 2]])
    assert [_py(r) for r in f(t)] == [[1, 2]]

    @tf.function
    def total(t):
        s = tf.constant([0, 0])
        for row in t:
            s += row
        return s
    assert _py(total(t)) == [1, 2]


# -- empty reductions ----------------------------------------------------------------------------
F32 = np.finfo(np.float32)
I32 = np.iinfo(np.int32)


@pytest.mark.parametrize("make,want", [
    (lambda: tf.reduce_mean(tf.zeros([0])), [float("nan")]),
    (lambda: tf.reduce_max(tf.zeros([0])), [-np.inf]),
    (lambda: tf.reduce_min(tf.zeros([0])), [np.inf]),
    (lambda: tf.reduce_max(tf.zeros([0], tf.int32)), [I32.min]),
    (lambda: tf.reduce_min(tf.zeros([0], tf.int32)), [I32.max]),
    (lambda: tf.reduce_max(tf.zeros([0, 2]), axis=0), [-np.inf, -np.inf]),
    (lambda: tf.reduce_min(tf.zeros([2, 0]), axis=1), [np.inf, np.inf]),
    (lambda: tf.reduce_mean(tf.zeros([2, 0]), axis=1), [float("nan")] * 2),
])
def test_empty_reductions(make, want):
    for result in _both(make):
        np.testing.assert_array_equal(np.ravel(result.numpy()), np.asarray(want))
