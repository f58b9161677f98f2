"""tf.cond and tf.while_loop: Python eagerly, If/While ops with subgraphs in a trace."""

from __future__ import annotations

import numpy as np
import pytest

import tfgraph_edu as tf
from tfgraph_edu.runtime import run_graph


def test_cond_eager_is_python():
    calls = []
    out = tf.cond(tf.constant(True), lambda: calls.append("t") or 1, lambda: calls.append("f"))
    assert out == 1 and calls == ["t"]


def test_cond_in_graph_builds_stateless_if_and_runs_both_executors():
    @tf.function
    def f(x):
        return tf.cond(x > 0, lambda: x * 2, lambda: -x)

    assert int(f(tf.constant(3))) == 6 and int(f(tf.constant(-4))) == 4
    cf = f.get_concrete_function(tf.constant(3))
    op = cf.graph.get_operation_by_name("cond")
    assert op.type == "StatelessIf"
    then_branch = op.get_attr("then_branch")
    assert then_branch.name.startswith("cond_true_")
    # recorded from TF 2.21: the captured x is made after the op's constant, in its scope
    assert [o.type for o in then_branch.graph.get_operations()] == [
        "Const", "Placeholder", "Mul", "Identity"]
    assert [o.name for o in then_branch.graph.get_operations()][:2] == [
        "cond/mul/y", "cond/mul/x"]
    for x in (5, -5):
        want = int(f(tf.constant(x)))
        got = run_graph(cf.graph, cf.inputs, [np.int32(x)], cf.outputs)[0]
        assert int(got) == want
    assert 'func {\n        name: "cond_true_' in str(cf.graph.as_graph_def())


def test_stateful_branch_makes_an_if_and_runs_in_order(capsys):
    v = tf.Variable(0)

    @tf.function
    def f(x):
        tf.cond(x > 0, lambda: v.assign_add(1).read_value(), lambda: v.read_value())
        tf.print("v =", v)
        return v.read_value()

    assert int(f(tf.constant(1))) == 1
    assert int(f(tf.constant(-1))) == 1
    assert capsys.readouterr().err == "v = 1\nv = 1\n"
    types = [op.type for op in f.get_concrete_function(tf.constant(1)).graph.get_operations()]
    assert "If" in types


def test_cond_branch_mismatch_errors():
    @tf.function
    def structure(x):
        return tf.cond(x > 0, lambda: (x, x), lambda: x)

    with pytest.raises(ValueError, match="must have the same number, type, and overall structure"):
        structure(tf.constant(1))

    @tf.function
    def dtypes(x):
        return tf.cond(x > 0, lambda: x, lambda: tf.cast(x, tf.float32))

    with pytest.raises(TypeError, match="output 0 is int32 in true_fn but float32 in false_fn"):
        dtypes(tf.constant(1))


def test_while_loop_eager_and_graph():
    def sum_below(n):
        return tf.while_loop(lambda i, s: i < n, lambda i, s: (i + 1, s + i), [0, 0])[1]

    assert int(sum_below(tf.constant(10))) == 45
    g = tf.function(sum_below)
    assert int(g(tf.constant(10))) == 45 and int(g(tf.constant(4))) == 6
    assert g.experimental_get_tracing_count() == 1
    types = [op.type for op in g.get_concrete_function(tf.constant(1)).graph.get_operations()]
    assert "StatelessWhile" in types


def test_while_loop_maximum_iterations_and_shape_checks():
    @tf.function
    def f(n):
        return tf.while_loop(lambda i: i < n, lambda i: i + 1, [0], maximum_iterations=3)

    assert int(f(tf.constant(100))[0]) == 3

    @tf.function
    def grows(x):
        return tf.while_loop(lambda v: tf.size(v) < 5, lambda v: tf.concat([v, v], 0), [x])

    # TF 2.21's while_v2 words for tf.while_loop itself (AutoGraph's loops say "'v' has
    # shape (1,) before the loop, ...")
    with pytest.raises(ValueError, match=r"Input tensor `x:0` enters the loop with shape \(1,\), "
                                         r"but has shape \(2,\) after one iteration"):
        grows(tf.constant([1]))

    @tf.function
    def invariant(x):
        return tf.while_loop(lambda v: tf.size(v) < 5, lambda v: tf.concat([v, v], 0), [x],
                             shape_invariants=[tf.TensorShape([None])])

    assert invariant(tf.constant([1]))[0].numpy().tolist() == [1] * 8

    @tf.function
    def dtype_change(x):
        return tf.while_loop(lambda v: v < 3, lambda v: tf.cast(v, tf.float32), [x])

    with pytest.raises(TypeError, match="Loop var x:0 enters the loop with type <dtype: 'int32'> "
                                        "but has type <dtype: 'float32'> after 1 iteration"):
        dtype_change(tf.constant(1))


def test_gradient_through_cond_in_a_function():
    v = tf.Variable(2.0)

    @tf.function
    def grad(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.cond(x > 0, lambda: x * x * v, lambda: x * 3.0)
        return tape.gradient(y, x)

    assert float(grad(tf.constant(3.0))) == 12.0
    assert float(grad(tf.constant(-1.0))) == 3.0


def test_error_inside_a_branch_names_the_inner_node():
    @tf.function
    def bad(x):
        return tf.cond(x > 0, lambda: tf.gather(x[None], [3]), lambda: x[None])

    # TF 2.21: a branch's nodes are named under the If op's scope ("cond/GatherV2")
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"(?s)Detected at node cond/GatherV2.*"
                             r"\[\[\{\{node cond/GatherV2\}\}\]\]"):
        bad(tf.constant(1))
    assert int(bad(tf.constant(-1))[0]) == -1


def test_nested_cond_captures_from_two_levels():
    c = tf.constant(100)

    @tf.function
    def f(x, y):
        return tf.cond(x > 0, lambda: tf.cond(y > 0, lambda: x + y + c, lambda: x - y),
                       lambda: -x)

    assert int(f(tf.constant(1), tf.constant(2))) == 103
    assert int(f(tf.constant(1), tf.constant(-2))) == 3
    assert int(f(tf.constant(-1), tf.constant(2))) == 1


def test_gradient_through_a_while_loop_matches_eager():
    def poly(x, n):
        y = x
        for _ in range(n):
            y = y * x + 1.0
        return y

    @tf.function
    def graph_grad(x, n):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x
            for _ in tf.range(n):
                y = y * x + 1.0
        return tape.gradient(y, x)

    for x0, n in ((2.0, 3), (0.5, 5), (-1.5, 0)):
        x = tf.constant(x0)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = poly(x, n)
        np.testing.assert_allclose(float(graph_grad(x, tf.constant(n))), float(
            tape.gradient(y, x)), rtol=1e-6)


def test_gradient_flows_to_values_captured_by_the_loop_body():
    @tf.function
    def grad(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            _, s = tf.while_loop(lambda i, s: i < 4,
                                 lambda i, s: (i + 1, s + tf.sin(x) * tf.cast(i, tf.float32)),
                                 [0, tf.zeros_like(x)])
        return tape.gradient(s, x)

    np.testing.assert_allclose(grad(tf.constant([0.5, 1.0])).numpy(), np.cos([0.5, 1.0]) * 6,
                               rtol=1e-6)


def test_gradient_through_a_loop_with_side_effects_runs_them_once():
    v = tf.Variable(0.0)

    @tf.function
    def f(x):
        def body(y):
            v.assign_add(1.0)
            return y * x

        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.while_loop(lambda y: y < 10.0, body, [x])[0]
        return tape.gradient(y, x)

    assert float(f(tf.constant(2.0))) == 32.0  # y = x**4 after three steps
    assert float(v) == 3.0  # the gradient did not repeat the writes


def test_gradient_through_a_loop_drawing_random_numbers_is_refused():
    @tf.function
    def f(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.while_loop(lambda y: y < 10.0,
                              lambda y: y * x + tf.random.uniform([]), [x])[0]
        return tape.gradient(y, x)

    with pytest.raises(NotImplementedError, match="RandomUniform"):
        f(tf.constant(2.0))


def test_eager_while_loop_as_tensorflow():
    """TF 2.21 eagerly: values go round as they are, the last ones come back as tensors in
    the structure the body returned, and a body result unlike loop_vars is an error."""
    out = tf.while_loop(lambda i, j: i < 3, lambda i, j: [i + 1, j], (tf.constant(1), 2))
    assert isinstance(out, list) and [type(t).__name__ for t in out] == ["EagerTensor"] * 2
    assert [int(t) for t in out] == [3, 2]
    skipped = tf.while_loop(lambda i, j: i > 3, lambda i, j: (i + 1, j), (1, 2))
    assert isinstance(skipped, tuple) and [int(t) for t in skipped] == [1, 2]
    grows = tf.while_loop(lambda i: i < 3, lambda i: [i + 1.5], [0])
    assert grows[0].dtype == tf.float32 and float(grows[0]) == 3.0
    seen = []
    tf.while_loop(lambda i: seen.append(type(i)) or i < 3, lambda i: [i + 1], [0])
    assert seen == [int] * 4  # not converted between iterations
    assert int(tf.while_loop(lambda i: i < 3, lambda i: [i + 1], [0], maximum_iterations=2)[0]) \
        == 2
    with pytest.raises(TypeError, match="Cannot iterate over a scalar tensor"):
        tf.while_loop(lambda i: i < 3, lambda i: i + 1, [tf.constant(0)])
    with pytest.raises(ValueError, match="don't have the same nested structure"):
        tf.while_loop(lambda i, j: i < 3, lambda i, j: (i + 1, (j,)), (tf.constant(1), 2))
    with pytest.raises(ValueError, match="don't have the same number of elements"):
        tf.while_loop(lambda i: i < 3, lambda i: (i + 1, i), [tf.constant(0)])
    with pytest.raises(ValueError, match="'loop_vars' must be provided."):
        tf.while_loop(lambda i: i < 3, lambda i: [i + 1], ())
    with pytest.raises(TypeError, match="'parallel_iterations' must be a positive integer."):
        tf.while_loop(lambda i: i < 3, lambda i: [i + 1], [0], parallel_iterations=0)
    # a bare tensor as loop_vars: TF's TypeError is "Scalar tensor has no `len()`"; ours says
    # what to write instead
    with pytest.raises(TypeError, match="loop_vars must be a list or tuple"):
        tf.while_loop(lambda i: i < 3, lambda i: i + 1, tf.constant(1))


def test_while_loop_in_a_graph_checks_the_body_structure():
    # TF 2.21: a lone result for one loop variable is accepted (and the loop_vars' container
    # comes back); a different nesting is TF's ValueError, where it used to pass unnoticed
    assert tf.function(lambda: tf.while_loop(lambda i: i < 3, lambda i: i + 1,
                                             (tf.constant(0),)), autograph=False)()[0] == 3
    out = tf.function(lambda: tf.while_loop(lambda i, j: i < 3, lambda i, j: [i + 1, j],
                                            (tf.constant(1), 2)))()
    assert isinstance(out, tuple) and [int(t) for t in out] == [3, 2]
    with pytest.raises(ValueError, match=r'Substructure "type=tuple str=\(<tf.Tensor'):
        tf.function(lambda: tf.while_loop(lambda i, j: i < 3, lambda i, j: (i + 1, (j,)),
                                          (tf.constant(1), 2)))()
