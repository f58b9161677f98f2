"""The two graph executors always agree with each other and with eager execution."""

from __future__ import annotations

import linecache

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import tfgraph_edu as tf
from tfgraph_edu.runtime import run_graph

UNARY = [tf.negative, tf.tanh, tf.sigmoid, tf.abs, tf.square, tf.nn.relu,
         lambda x: tf.reduce_sum(x, axis=1, keepdims=True) + x,
         lambda x: tf.transpose(x), lambda x: x[::-1, 1:2] * 2.0]
BINARY = [tf.add, tf.subtract, tf.multiply, tf.maximum, tf.minimum, tf.matmul,
          lambda a, b: tf.where(a > b, a, b)]


@st.composite
def programs(draw):
    """A random DAG: each step applies an op to earlier values (by index)."""
    steps = []
    for i in range(draw(st.integers(1, 12))):
        n = 2 + i
        if draw(st.booleans()):
            steps.append(("u", draw(st.integers(0, len(UNARY) - 1)),
                          draw(st.integers(0, n - 1))))
        else:
            steps.append(("b", draw(st.integers(0, len(BINARY) - 1)),
                          draw(st.integers(0, n - 1)), draw(st.integers(0, n - 1))))
    outputs = draw(st.lists(st.integers(0, 1 + len(steps)), min_size=1, max_size=3))
    return steps, outputs


def run_program(program, a, b):
    steps, outputs = program
    values = [a, b]
    for step in steps:
        if step[0] == "u":
            out = UNARY[step[1]](values[step[2]])
        else:
            out = BINARY[step[1]](values[step[2]], values[step[3]])
        # keep every value 3x3 so any op can follow any other
        if out.shape.as_list() != [3, 3]:
            out = tf.broadcast_to(tf.reduce_mean(out), [3, 3])
        values.append(out)
    return [values[i] for i in outputs]


@settings(max_examples=60, deadline=None)
@given(programs(), st.integers(0, 2 ** 16))
def test_eager_interpreter_and_fast_path_agree(program, seed):
    rng = np.random.default_rng(seed)
    a = tf.constant(rng.normal(size=(3, 3)).astype(np.float32))
    b = tf.constant(rng.normal(size=(3, 3)).astype(np.float32))
    eager = [t.numpy() for t in run_program(program, a, b)]
    fn = tf.function(lambda x, y: run_program(program, x, y))
    fast = [t.numpy() for t in fn(a, b)]
    cf = fn.get_concrete_function(a, b)
    steps: list[str] = []
    interpreted = run_graph(cf.graph, cf.inputs, [a.numpy(), b.numpy()], cf.outputs,
                            hook=lambda op, ins, outs: steps.append(op.type))
    for e, f, i in zip(eager, fast, interpreted):
        np.testing.assert_allclose(f, e, rtol=1e-5, atol=1e-6)
        # the same kernels; a matmul on a view or a copy may round its last bit differently
        # with some BLAS kernels (numpy 1.24's OpenBLAS does)
        np.testing.assert_allclose(np.asarray(i), f, rtol=1e-6, atol=1e-7)
    cf.graph.verify()


def test_interpreter_hook_reports_each_op_with_values():
    @tf.function
    def f(x):
        return x * 2 + 1

    cf = f.get_concrete_function(tf.constant(3))
    seen = []
    out = run_graph(cf.graph, cf.inputs, [np.int32(3)], cf.outputs,
                    hook=lambda op, ins, outs: seen.append((op.name, [int(v) for v in ins],
                                                            [int(v) for v in outs])))
    assert int(out[0]) == 7
    assert seen == [("mul/y", [], [2]), ("mul", [3, 2], [6]), ("add/y", [], [1]),
                    ("add", [6, 1], [7]), ("Identity", [7], [7])]


def test_fast_path_source_is_readable_and_in_linecache():
    @tf.function
    def f(x):
        return tf.nn.relu(x * 2.0)

    cf = f.get_concrete_function(tf.constant([1.0]))
    src = cf.compiled.source
    assert src.splitlines()[0].startswith("def __inference_f_")
    assert "# mul (Mul)" in src and "# Relu (Relu)" in src
    assert linecache.getlines(cf.compiled.filename)[1] == cf.compiled.code.splitlines(True)[1]


def test_very_large_graphs_compile_in_parts(monkeypatch):
    from tfgraph_edu.runtime import compiled
    monkeypatch.setattr(compiled, "CHUNK", 3)
    tf.config.optimizer.set_experimental_options({"disable_meta_optimizer": True})
    try:
        @tf.function
        def f(x, i):
            for k in range(5):
                x = tf.sin(x) + float(k)
            return tf.gather(x, i)

        x = tf.constant([0.1, 0.2])
        want = x.numpy()
        for k in range(5):
            want = np.sin(want) + k
        assert float(f(x, tf.constant([1]))[0]) == np.float32(want[1])
        src = f.get_concrete_function(x, tf.constant([1])).compiled.source
        assert "_part0(" in src and "_part3(" in src
        with np.testing.assert_raises(tf.errors.InvalidArgumentError) as info:
            f(x, tf.constant([7]))
        assert "[[{{node GatherV2}}]]" in str(info.exception)
    finally:
        from tfgraph_edu.optimize import options
        options._options.pop("disable_meta_optimizer", None)


def test_compiled_mean_of_float32_is_float32_with_any_numpy():
    # the fast path divides the sum by the count; numpy 1.x made float32 scalar / int a float64
    x = np.arange(12, dtype=np.float32).reshape(3, 4) / np.float32(7)

    @tf.function
    def means(t):
        return tf.reduce_mean(t), tf.reduce_mean(t, axis=0), tf.reduce_mean(t, axis=1,
                                                                             keepdims=True)

    for got, want in zip(means(tf.constant(x)), (np.mean(x), np.mean(x, axis=0),
                                                  np.mean(x, axis=1, keepdims=True))):
        assert got.numpy().dtype == np.float32
        np.testing.assert_array_equal(got.numpy(), want)
