"""The While op as TF 2.21 builds it: two leading loop variables (``while/loop_counter``,
``while/maximum_iterations``), the counter's increment in the body, the limit's test in the
condition only when ``maximum_iterations`` is given, and TF's range ops before a
``for i in tf.range(...)`` loop.  Every expectation was recorded from TF 2.21
(/work/main/.venv-tf) with the same functions."""

import collections

import numpy as np
import pytest

import tfgraph_edu as tf


@tf.function
def ag_range(x):
    for i in tf.range(3):  # noqa: B007 - as the notebook writes it
        x = x + 1
    return x


@tf.function
def ag_while(x):
    i = tf.constant(0)
    while i < 5:
        x = x * 2
        i += 1
    return x


@tf.function
def wl_plain(x):
    return tf.while_loop(lambda i, x: i < 10, lambda i, x: (i + 1, x + 1), [0, x])[1]


@tf.function
def wl_max(x):
    return tf.while_loop(lambda i, x: i < 10, lambda i, x: (i + 1, x + 1), [0, x],
                         maximum_iterations=4)[1]


@tf.function
def nested(x):
    for i in tf.range(2):  # noqa: B007
        for j in tf.range(3):  # noqa: B007
            x = x + 1
    return x


RANGE_OPS = [("range/start", "Const"), ("range/limit", "Const"), ("range/delta", "Const"),
             ("range", "Range"), ("sub", "Sub"), ("floordiv", "FloorDiv"), ("mod", "FloorMod"),
             ("zeros_like", "Const"), ("NotEqual", "NotEqual"), ("Cast", "Cast"),
             ("add", "AddV2"), ("zeros_like_1", "Const"), ("Maximum", "Maximum")]
WHILE_OPS = [("while/maximum_iterations", "Const"), ("while/loop_counter", "Const")]
WHILE_ATTRS = ['T', '_lower_using_switch_merge', '_num_original_outputs',
               '_read_only_resource_inputs', 'body', 'cond', 'output_shapes',
               'parallel_iterations']

# (function, argument) -> (outer ops, While inputs, {cond/body: op-type multiset}, result)
RECORDED = {
    "ag_range": (
        [("x", "Placeholder")] + RANGE_OPS + WHILE_OPS
        + [("while", "StatelessWhile"), ("Identity", "Identity")],
        ["while/loop_counter", "while/maximum_iterations", "range/start", "x", "range/limit",
         "range/delta"],
        {"body": {"AddV2": 3, "Const": 2, "Identity": 4}, "cond": {"Identity": 1, "Less": 1}},
        4),
    "wl_plain": (
        [("x", "Placeholder"), ("Const", "Const")] + WHILE_OPS
        + [("while", "StatelessWhile"), ("Identity", "Identity")],
        ["while/loop_counter", "while/maximum_iterations", "Const", "x"],
        {"body": {"AddV2": 3, "Const": 3, "Identity": 4},
         "cond": {"Const": 1, "Identity": 1, "Less": 1}},
        11.0),
    "wl_max": (
        [("x", "Placeholder"), ("Const", "Const")] + WHILE_OPS
        + [("while", "StatelessWhile"), ("Identity", "Identity")],
        ["while/loop_counter", "while/maximum_iterations", "Const", "x"],
        {"body": {"AddV2": 3, "Const": 3, "Identity": 4},
         "cond": {"Const": 1, "Identity": 1, "Less": 2, "LogicalAnd": 1}},
        5.0),
}


def _functions(gd):
    out = {}
    for fd in gd.library.function:
        kind = "cond" if "_cond" in fd.signature.name else "body"
        out[kind] = dict(collections.Counter(n.op for n in fd.node_def))
    return out


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_while_as_tf_builds_it(name):
    f, arg = {"ag_range": (ag_range, tf.constant(1)), "wl_plain": (wl_plain, tf.constant(1.)),
              "wl_max": (wl_max, tf.constant(1.))}[name]
    outer, inputs, functions, result = RECORDED[name]
    gd = f.get_concrete_function(arg).graph.as_graph_def()
    assert [(n.name, n.op) for n in gd.node] == outer
    (node,) = [n for n in gd.node if n.op == "StatelessWhile"]
    assert list(node.input) == inputs
    assert sorted(node.attr.keys()) == WHILE_ATTRS
    assert node.attr["_num_original_outputs"] == len(inputs)
    assert node.attr["parallel_iterations"] == 10
    assert _functions(gd) == functions
    np.testing.assert_allclose(f(arg).numpy(), result)


def test_loop_counter_and_limit_as_tf_names_them():
    gd = wl_max.get_concrete_function(tf.constant(1.)).graph.as_graph_def()
    consts = {n.name: (int(n.attr["value"]), n.attr["dtype"]) for n in gd.node
              if n.op == "Const" and n.name.startswith("while/")}
    assert consts == {"while/maximum_iterations": (4, tf.int32),
                      "while/loop_counter": (0, tf.int32)}
    plain = wl_plain.get_concrete_function(tf.constant(1.)).graph.as_graph_def()
    assert [int(n.attr["value"]) for n in plain.node
            if n.name == "while/maximum_iterations"] == [-1]
    fns = {("cond" if "_cond" in fd.signature.name else "body"): fd
           for fd in gd.library.function}
    for fd in fns.values():
        assert [a.name for a in fd.signature.input_arg] == [
            "while_while_loop_counter", "while_while_maximum_iterations", "while_placeholder",
            "while_placeholder_1"]
        assert [a.type for a in fd.signature.input_arg][:2] == [tf.int32, tf.int32]
    assert [n.name for n in fns["cond"].node_def] == [
        "while/Less/y", "while/Less", "while/Less_1", "while/LogicalAnd", "while/Identity"]
    assert [n.name for n in fns["body"].node_def] == [
        "while/add/y", "while/add", "while/add_1/y", "while/add_1", "while/add_2/y",
        "while/add_2", "while/Identity", "while/Identity_1", "while/Identity_2",
        "while/Identity_3"]


def test_nested_range_loops():
    gd = nested.get_concrete_function(tf.constant(1)).graph.as_graph_def()
    bodies = {fd.signature.name.rsplit("_", 1)[0]: dict(collections.Counter(
        n.op for n in fd.node_def)) for fd in gd.library.function}
    assert bodies["while_body"] == {
        "AddV2": 3, "Cast": 1, "Const": 8, "FloorDiv": 1, "FloorMod": 1, "Identity": 4,
        "Maximum": 1, "NotEqual": 1, "Range": 1, "StatelessWhile": 1, "Sub": 1}
    assert bodies["while_while_body"] == {"AddV2": 3, "Const": 2, "Identity": 4}
    assert bodies["while_cond"] == bodies["while_while_cond"] == {"Identity": 1, "Less": 1}
    assert int(nested(tf.constant(1))) == 7


def test_get_operations_as_handson_ml3_prints_them():
    # handson-ml3 12_custom_models_and_training_with_tensorflow, the cells after the
    # tf.while_loop and tf.range examples (TF 2.21's printout)
    @tf.function
    def add_10(x):
        for i in tf.range(10):  # noqa: B007 - as the notebook writes it
            x = x + 1
        return x
    ops = add_10.get_concrete_function(tf.constant(0)).graph.get_operations()
    assert str(ops) == (
        "[<tf.Operation 'x' type=Placeholder>, <tf.Operation 'range/start' type=Const>, "
        "<tf.Operation 'range/limit' type=Const>, <tf.Operation 'range/delta' type=Const>, "
        "<tf.Operation 'range' type=Range>, <tf.Operation 'sub' type=Sub>, "
        "<tf.Operation 'floordiv' type=FloorDiv>, <tf.Operation 'mod' type=FloorMod>, "
        "<tf.Operation 'zeros_like' type=Const>, <tf.Operation 'NotEqual' type=NotEqual>, "
        "<tf.Operation 'Cast' type=Cast>, <tf.Operation 'add' type=AddV2>, "
        "<tf.Operation 'zeros_like_1' type=Const>, <tf.Operation 'Maximum' type=Maximum>, "
        "<tf.Operation 'while/maximum_iterations' type=Const>, "
        "<tf.Operation 'while/loop_counter' type=Const>, "
        "<tf.Operation 'while' type=StatelessWhile>, <tf.Operation 'Identity' type=Identity>]")
    assert int(add_10(tf.constant(0))) == 10


@pytest.mark.parametrize("limit, expected", [(0, [0, 1.0]), (3, [3, 4.0]), (20, [10, 11.0])])
def test_maximum_iterations_limits_the_loop(limit, expected):
    # recorded from TF 2.21, eagerly and in a tf.function
    def run(x):
        # (a list from the body: TF's eager loop with a limit refuses a tuple for a list)
        return tf.while_loop(lambda i, x: i < 10, lambda i, x: [i + 1, x + 1], [0, x],
                             maximum_iterations=limit)
    for f in (run, tf.function(run)):
        i, x = f(tf.constant(1.))
        assert [int(i), float(x)] == expected


def test_maximum_iterations_as_a_tensor_argument():
    @tf.function
    def run(x, n):
        return tf.while_loop(lambda i, x: i < 10, lambda i, x: (i + 1, x * 2.), [0, x],
                             maximum_iterations=n)[1]
    assert float(run(tf.constant(1.), tf.constant(3))) == 8.0
    gd = run.get_concrete_function(tf.constant(1.), tf.constant(3)).graph.as_graph_def()
    (node,) = [n for n in gd.node if n.op == "StatelessWhile"]
    assert list(node.input)[:2] == ["while/loop_counter", "n"]


def test_gradient_through_the_loop_ignores_the_counter():
    x = tf.Variable(1.5)

    @tf.function
    def f():
        with tf.GradientTape() as tape:
            y = tf.while_loop(lambda i, y: i < 3, lambda i, y: (i + 1, y * x), [0, x],
                              maximum_iterations=2)[1]
        return y, tape.gradient(y, x)
    y, g = f()
    # y = x**3 (the limit stops it after two multiplications): dy/dx = 3 x**2
    np.testing.assert_allclose([float(y), float(g)], [1.5 ** 3, 3 * 1.5 ** 2], rtol=1e-6)
