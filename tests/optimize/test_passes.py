"""The optimisation passes: what each changes, that results never change, and the options."""

from __future__ import annotations

import logging

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tfgraph_edu as tf
from tfgraph_edu.runtime import run_graph


@pytest.fixture(autouse=True)
def default_options():
    from tfgraph_edu.optimize import options
    saved = dict(options._options)
    options._options.clear()
    yield
    options._options.clear()
    options._options.update(saved)


def _report(cf):
    return {p.name: [(c.node, c.action) for c in p.changes] for p in cf.optimization_report.passes}


def test_each_pass_on_a_function_that_needs_them():
    @tf.function
    def f(x):
        e = tf.eye(3) * 2.0
        y = tf.negative(tf.negative(x * 1.0 + 0.0))
        a = tf.sin(y) + tf.sin(y)
        b = tf.transpose(tf.transpose(a))
        tf.exp(x)  # unused
        return tf.matmul(b, e) + x ** 2 + tf.cast(tf.size(x), tf.float32)

    x = tf.constant(np.arange(9, dtype=np.float32).reshape(3, 3) / 10)
    cf = f.get_concrete_function(x)
    want = np.sin(x.numpy()) * 2 @ (np.eye(3) * 2) + x.numpy() ** 2 + 9
    np.testing.assert_allclose(f(x).numpy(), want, rtol=1e-5)
    report = _report(cf)
    assert ("Exp", "removed") in report["pruning"]
    # (tf.size of a tensor of known shape is a Const from the start, as TF builds it)
    assert {("eye/diag", "folded"), ("mul", "folded"),
            ("Cast", "folded")} <= set(report["constant_folding"])
    assert {("mul_1", "removed"), ("add", "removed"), ("Neg_1", "removed"),
            ("transpose_1", "removed"), ("pow", "replaced")} <= set(
        report["arithmetic_optimization"])
    assert ("Sin_1", "removed") in report["common_subexpression"]
    types = [op.type for op in cf.optimized_graph.get_operations()]
    assert types.count("Sin") == 1 and "Transpose" not in types and "Pow" not in types
    assert len(cf.optimized_graph.get_operations()) < len(cf.graph.get_operations())
    cf.optimized_graph.verify()
    assert "Exp" in [op.type for op in cf.graph.get_operations()]  # the traced graph is kept


def test_a_reshape_or_broadcast_to_the_shape_it_has_is_removed():
    @tf.function
    def f(x, b):
        same = tf.reshape(x, [2, 3]) + tf.broadcast_to(b, [3])
        return tf.reshape(same, [3, 2]), tf.broadcast_to(b, [2, 3])

    x, b = tf.constant(np.arange(6.0, dtype=np.float32).reshape(2, 3)), tf.constant([1., 2., 3.])
    cf = f.get_concrete_function(x, b)
    removed = [n for n, a in _report(cf)["arithmetic_optimization"] if a == "removed"]
    assert sorted(removed) == ["BroadcastTo", "Reshape"]  # the shape-changing ones stay
    assert [op.type for op in cf.optimized_graph.get_operations()].count("Reshape") == 1
    got = f(x, b)
    np.testing.assert_array_equal(got[0].numpy(), (x.numpy() + b.numpy()).reshape(3, 2))
    np.testing.assert_array_equal(got[1].numpy(), np.broadcast_to(b.numpy(), (2, 3)))


def test_constant_subgraphs_fold_to_one_const():
    @tf.function
    def f():
        return tf.constant(2) * 3

    cf = f.get_concrete_function()
    assert int(f()) == 6
    assert [op.type for op in cf.optimized_graph.get_operations()] == ["Const"]


def test_loop_invariant_work_moves_out_of_the_loop():
    @tf.function
    def f(x, w):
        s = tf.zeros([3])
        for _ in tf.range(4):
            s += tf.reduce_sum(w * 2.0) * x
        return s

    x, w = tf.constant([1., 2., 3.]), tf.constant([1., 1.])
    np.testing.assert_allclose(f(x, w).numpy(), [16., 32., 48.])
    cf = f.get_concrete_function(x, w)
    hoisted = [c for c in cf.optimization_report.changes if c.action == "hoisted"]
    assert any(c.node.endswith("/Sum") for c in hoisted)
    loop = next(op for op in cf.optimized_graph.get_operations() if op.type == "StatelessWhile")
    body_types = [op.type for op in loop.get_attr("body").graph.get_operations()]
    assert "Sum" not in body_types
    assert "Sum" in [op.type for op in cf.optimized_graph.get_operations()]


def test_stateful_ops_and_print_order_are_untouched(capsys):
    v = tf.Variable(1.0)

    @tf.function
    def f(x):
        tf.print("a", x * 1.0)
        v.assign_add(x * 1.0)
        tf.print("b", v)
        v.assign(v * 1.0)
        return v.read_value() + 0.0

    assert float(f(tf.constant(2.0))) == 3.0
    assert capsys.readouterr().err == "a 2\nb 3\n"
    cf = f.get_concrete_function(tf.constant(2.0))
    before = [op.type for op in cf.graph.get_operations() if op.opdef.stateful]
    after = [op.type for op in cf.optimized_graph.get_operations() if op.opdef.stateful]
    assert before == after


def test_options_toggle_passes():
    # TF 2.21.0's answers (recorded): the two disable_* options are always listed
    assert tf.config.optimizer.get_experimental_options() == {
        "disable_model_pruning": False, "disable_meta_optimizer": False}
    tf.config.optimizer.set_experimental_options({"constant_folding": False})
    assert str(tf.config.optimizer.get_experimental_options()) == (
        "{'constant_folding': False, 'disable_model_pruning': False, "
        "'disable_meta_optimizer': False}")

    @tf.function
    def f():
        return tf.constant(2) * 3

    cf = f.get_concrete_function()
    assert "constant_folding" not in [p.name for p in cf.optimization_report.passes]
    assert "Mul" in [op.type for op in cf.optimized_graph.get_operations()]
    tf.config.optimizer.set_experimental_options({"disable_meta_optimizer": True})

    @tf.function
    def g():
        return tf.constant(2) * 3

    cg = g.get_concrete_function()
    assert int(g()) == 6 and cg.optimization_report.passes == []
    with pytest.raises(ValueError, match="Unknown optimizer option 'constant_foldin'"):
        tf.config.optimizer.set_experimental_options({"constant_foldin": True})


def test_grappler_names_without_a_pass_warn(caplog):
    with caplog.at_level(logging.WARNING, logger="tensorflow"):
        tf.config.optimizer.set_experimental_options({"layout_optimizer": False})
    assert "has no effect in tfgraph_edu" in caplog.text


def test_report_prints_per_pass():
    @tf.function
    def f(x):
        return x * 1.0

    cf = f.get_concrete_function(tf.constant([1.0]))
    text = str(cf.optimization_report)
    assert "arithmetic_optimization:" in text and "removed  mul: x * 1 is x (-> x)" in text


OPS = [lambda a, b: a * 1.0, lambda a, b: a + 0.0, lambda a, b: tf.negative(tf.negative(a)),
       lambda a, b: a ** 2, lambda a, b: a ** 3, lambda a, b: tf.transpose(tf.transpose(a)),
       lambda a, b: tf.sin(a) + tf.sin(a), lambda a, b: a * b + tf.eye(3) * 2.0,
       lambda a, b: tf.matmul(a, b), lambda a, b: a - b,
       lambda a, b: a + tf.cast(tf.size(b), tf.float32),
       lambda a, b: tf.reduce_sum(a, axis=0, keepdims=True) + b]


def _values(program, a, b):
    """Every intermediate value of ``program`` run eagerly."""
    values = [a, b]
    for k, i, j in program:
        values.append(OPS[k](values[i % len(values)], values[j % len(values)]))
    return values


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, len(OPS) - 1), st.integers(0, 20), st.integers(0, 20)),
                min_size=1, max_size=10), st.integers(0, 1000))
def test_optimised_and_unoptimised_graphs_agree(program, seed):
    def run(a, b):
        return _values(program, a, b)[-1]

    rng = np.random.default_rng(seed)
    a = tf.constant(rng.uniform(-1, 1, (3, 3)).astype(np.float32))
    b = tf.constant(rng.uniform(-1, 1, (3, 3)).astype(np.float32))
    fn = tf.function(run)
    fast = fn(a, b).numpy()
    cf = fn.get_concrete_function(a, b)
    plain = run_graph(cf.graph, cf.inputs, [a.numpy(), b.numpy()], cf.outputs)[0]
    optimised = run_graph(cf.optimized_graph, cf.optimized_graph.inputs,
                          [a.numpy(), b.numpy()], cf.optimized_graph.outputs)[0]
    # Rewrites TF's Grappler also makes (x ** 3 -> x * Square(x)) may round the last float32
    # bit differently; an op like Sin of a large value passes that on at the value's scale.
    scale = max(float(np.max(np.abs(v.numpy()))) for v in _values(program, a, b))
    tol = 1e-5 + 8 * float(np.finfo(np.float32).eps) * scale
    np.testing.assert_allclose(fast, plain, rtol=1e-5, atol=tol)
    np.testing.assert_allclose(optimised, plain, rtol=1e-5, atol=tol)
    np.testing.assert_allclose(run(a, b).numpy(), plain, rtol=1e-5, atol=1e-5)
    cf.optimized_graph.verify()

