"""Random programs with branches and loops: plain numpy by hand, eager, the step-by-step
interpreter, and the compiled graphs (unoptimised and optimised, where cond branches and
loop bodies are written in place) all give the same values."""

from __future__ import annotations

import warnings

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import tfgraph_edu as tf
from tfgraph_edu.runtime import run_graph
from tfgraph_edu.runtime.compiled import CompiledGraph

_NONZERO = st.integers(-5, 5).filter(lambda c: c != 0)
_INT_OPS = {"+": (lambda a, c: a + c, np.add), "-": (lambda a, c: a - c, np.subtract),
            "*": (lambda a, c: a * c, np.multiply), "//": (lambda a, c: a // c, np.floor_divide),
            "%": (lambda a, c: a % c, np.mod)}
_FLOAT_OPS = {"+": (lambda a, c: a + c, np.add), "*": (lambda a, c: a * c, np.multiply),
              "/": (lambda a, c: a / c, np.true_divide),
              "max": (lambda a, c: tf.maximum(a, c), np.maximum)}


def statements(depth):
    simple = st.one_of(
        st.tuples(st.just("int"), st.sampled_from(sorted(_INT_OPS)), _NONZERO),
        st.tuples(st.just("float"), st.sampled_from(sorted(_FLOAT_OPS)), _NONZERO),
        st.tuples(st.just("mix"), st.integers(2, 7)))
    if depth == 0:
        return simple
    block = st.lists(statements(depth - 1), min_size=0, max_size=3)
    return st.one_of(
        simple,
        st.tuples(st.just("cond"), st.integers(0, 2), block, block),
        st.tuples(st.just("while"), st.integers(0, 4), block))


def run_tf(program, x, y):
    """The program with TF ops (eagerly, or traced when called inside tf.function)."""
    for stmt in program:
        kind = stmt[0]
        if kind == "int":
            x = _INT_OPS[stmt[1]][0](x, stmt[2])
        elif kind == "float":
            y = _FLOAT_OPS[stmt[1]][0](y, float(stmt[2]))
        elif kind == "mix":
            y = y + tf.cast(x % stmt[1], tf.float32)
        elif kind == "cond":
            _, r, then, other = stmt
            x, y = tf.cond(x % 3 == r, lambda t=then, a=x, b=y: run_tf(t, a, b),
                           lambda o=other, a=x, b=y: run_tf(o, a, b))
        else:
            _, n, body = stmt
            _, x, y = tf.while_loop(lambda i, a, b, n=n: i < n,
                                    lambda i, a, b, body=body: (i + 1, *run_tf(body, a, b)),
                                    (tf.constant(0), x, y))
    return x, y


def run_numpy(program, x, y):
    """The same program by hand with numpy scalars and arrays (int32 wraps, floor division)."""
    for stmt in program:
        kind = stmt[0]
        if kind == "int":
            x = _INT_OPS[stmt[1]][1](x, np.int32(stmt[2]))
        elif kind == "float":
            y = _FLOAT_OPS[stmt[1]][1](y, np.float32(stmt[2]))
        elif kind == "mix":
            y = y + np.float32(np.mod(x, np.int32(stmt[1])))
        elif kind == "cond":
            _, r, then, other = stmt
            x, y = run_numpy(then if np.mod(x, np.int32(3)) == r else other, x, y)
        else:
            for _ in range(stmt[1]):
                x, y = run_numpy(stmt[2], x, y)
    return x, y


def _check(got, want):
    assert int(got[0]) == int(want[0])
    np.testing.assert_allclose(np.asarray(got[1], np.float32), want[1], rtol=2e-5, atol=1e-5)


@settings(max_examples=40, deadline=None)
@given(st.lists(statements(2), min_size=1, max_size=5), st.integers(-50, 50))
def test_branches_and_loops_agree_across_executors(program, x0):
    y0 = np.array([0.5, -1.25, 3.0], np.float32)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        want = run_numpy(program, np.int32(x0), y0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no executor may warn where TF is silent
        x, y = tf.constant(x0), tf.constant(y0)
        _check([t.numpy() for t in run_tf(program, x, y)], want)
        fn = tf.function(lambda a, b: run_tf(program, a, b), autograph=False)
        _check([t.numpy() for t in fn(x, y)], want)
        cf = fn.get_concrete_function(x, y)
        feeds = [np.asarray(x0, np.int32), y0]
        _check(run_graph(cf.graph, cf.inputs, feeds, cf.outputs), want)
        _check(CompiledGraph(cf.graph, cf.inputs, cf.outputs, "raw")(*feeds), want)


def collatz(n):
    x = n
    odd = 0
    for _ in tf.range(60):
        if x % 2 == 0:
            x = x // 2
        else:
            x = 3 * x + 1
            odd += 1
    return x, odd


def collatz_python(n):
    x, odd = n, 0
    for _ in range(60):
        if x % 2 == 0:
            x = x // 2
        else:
            x, odd = 3 * x + 1, odd + 1
    return x, odd


@settings(max_examples=15, deadline=None)
@given(st.integers(1, 10_000))
def test_autograph_loop_with_branch_compiles_in_place(n):
    fn = tf.function(collatz)
    got = fn(tf.constant(n))
    assert (int(got[0]), int(got[1])) == collatz_python(n)
    code = fn.get_concrete_function(tf.constant(n)).compiled.code
    assert "while True:" in code and "else:" in code


def test_int32_overflow_wraps_silently_in_compiled_scalar_code():
    fn = tf.function(lambda x: (x + 1, x * 2, -x))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        a, b, c = fn(tf.constant(2 ** 31 - 1))
    assert int(a) == -2 ** 31 and int(b) == -2 and int(c) == -(2 ** 31 - 1)
