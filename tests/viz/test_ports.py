"""Inputs and outputs of branches and loop bodies are ports named by the learner's names."""

from __future__ import annotations

import re

import tfgraph_edu as tf
from tfgraph_edu.viz import dot as vdot

from .helpers import cluster_block


@tf.function
def _program(x):
    if tf.reduce_sum(x) > 0:
        x = x * 2.0
    total = tf.constant(0.0)
    for i in tf.range(3):
        total += tf.reduce_sum(x) * tf.cast(i, tf.float32)
    return total


def _labels(block: str) -> dict[str, str]:
    """node id -> (first line of) label, for the port nodes of a DOT block."""
    return {a: b.split("\\n")[0] for a, b in
            re.findall(r'^\s*"([^"]*)" \[label="((?:[^"\\]|\\.)*)"[^\n]*tfg-port', block, re.M)}


def test_loop_ports_carry_the_loop_variable_names_and_captures_their_outer_names():
    graph = _program.get_concrete_function(tf.constant([1.0, 2.0])).graph
    dot = vdot.graph_to_dot(graph, collapse=set())
    body = cluster_block(dot, "cluster_while/body")
    shown = set(_labels(body).values())
    # the loop variables (AutoGraph's counter shown as "iteration") and x: captured from the
    # If's output, which the engine names after the op ("cond"), but which is the learner's x
    assert {"iteration", "total", "x"} <= shown
    assert not shown & {"cond", "Placeholder", "Placeholder_1", "unused_capture"}
    assert "unused_capture" not in cluster_block(dot, "cluster_while/cond")
    # the If's branches: x comes in, x goes out
    then = _labels(cluster_block(dot, "cluster_cond/then"))
    assert sorted(then.values()) == ["x", "x"]


def test_ports_are_classed_for_the_viewer():
    graph = _program.get_concrete_function(tf.constant([1.0, 2.0])).graph
    dot = vdot.graph_to_dot(graph, collapse=set())
    body = cluster_block(dot, "cluster_while/body")
    assert "tfg-port tfg-input" in body and "tfg-port tfg-output" in body


def test_a_variable_captured_by_a_loop_body_is_a_port_named_by_the_variable():
    v = tf.Variable(2.0, name="w")

    @tf.function
    def f(x):
        total = tf.constant(0.0)
        for _ in tf.range(3):
            total += x * v
        return total

    graph = f.get_concrete_function(tf.constant(1.0)).graph
    body = cluster_block(vdot.graph_to_dot(graph, collapse=set()), "cluster_while/body")
    assert {"w", "x", "total", "iteration"} <= set(_labels(body).values())
    assert not any("resource" in name for name in _labels(body).values())


def test_a_branch_input_is_named_by_the_variable_the_if_reads():
    @tf.function
    def f(x):
        with tf.name_scope("layer"):
            x = tf.nn.relu(x * 2.0)
        if tf.reduce_sum(x) > 0:
            x = x * 2.0
        return x

    graph = f.get_concrete_function(tf.constant([1.0, -1.0])).graph
    dot = vdot.graph_to_dot(graph, collapse=set())
    # the branches capture layer/Relu:0 (the engine names the placeholder "layer_relu"): the
    # learner calls it x
    for branch in ("then", "else"):
        assert sorted(_labels(cluster_block(dot, f"cluster_cond/{branch}")).values()) == [
            "x", "x"]


def test_constants_nothing_uses_in_a_branch_are_left_out_and_the_details_say_so():
    """Both branches return, so AutoGraph sets ``do_return = True`` in each; the else branch
    holds two more ``True`` constants that nothing reads.  They are not drawn (the one that
    feeds ``do_return`` is), and the details pane keeps them, saying why they are not drawn."""
    from tfgraph_edu.jupyter.widgets import node_details

    @tf.function
    def f(x):
        if tf.reduce_sum(x) > 0:
            return x * 2.0
        else:
            return -x

    graph = f.get_concrete_function(tf.constant([1.0, -1.0])).graph
    dot = vdot.graph_to_dot(graph, collapse=set())
    branch = cluster_block(dot, "cluster_cond/else")
    drawn = set(re.findall(r'^\s*"([^"]*)" \[', branch, re.M))
    else_graph = next(op for op in graph.operations if op.name == "cond").attrs["else_branch"]
    consts = [op for op in else_graph.graph.operations if op.type == "Const"]
    read = {t.op.name for op in else_graph.graph.operations for t in op.inputs}
    unused = {f"cond/else/{op.name.rsplit('/', 1)[-1]}" for op in consts if op.name not in read}
    used = {f"cond/else/{op.name.rsplit('/', 1)[-1]}" for op in consts if op.name in read}
    assert unused and used, (unused, used)
    assert not unused & drawn and used <= drawn, (drawn, unused)
    details = node_details(graph)
    assert details["cond"]["tf_note"] == "tf_unused_consts"
    assert all(details[n]["tf_note"] == "tf_unused_const" for n in unused)
    assert all("tf_note" not in details[n] for n in used)


@tf.function
def _limited(x):
    return tf.while_loop(lambda i, x: i < 10, lambda i, x: (i + 1, x * 2.0), [0, x],
                         maximum_iterations=4)[1]


def _node_ids(dot: str) -> set[str]:
    return set(re.findall(r'^\s*"([^"]*)" \[label=', dot, re.M))


def test_tf_loop_counter_and_range_length_are_not_drawn():
    # TF 2.21's While carries while/loop_counter and while/maximum_iterations, and a range loop
    # computes an unused length (sub ... Maximum); the graph has them, the drawing does not
    graph = _program.get_concrete_function(tf.constant([1.0, 2.0])).graph
    names = {op.name for op in graph.get_operations()}
    assert {"while/loop_counter", "while/maximum_iterations", "floordiv", "Maximum"} <= names
    dot = vdot.graph_to_dot(graph, collapse=set())
    ids = _node_ids(dot)
    assert not {i for i in ids if "loop_counter" in i or "maximum_iterations" in i}
    assert not ids & {"sub", "floordiv", "mod", "NotEqual", "Cast", "Maximum", "zeros_like"}
    assert "range" in ids  # the range itself stays
    body = cluster_block(dot, "cluster_while/body")
    assert "add_2" not in body and "Identity_1" not in body  # the counter's add, the limit
    assert {"iteration", "total", "x"} <= set(_labels(body).values())


def test_a_given_maximum_iterations_is_drawn_where_the_condition_tests_it():
    graph = _limited.get_concrete_function(tf.constant(1.0)).graph
    dot = vdot.graph_to_dot(graph, collapse=set())
    cond = cluster_block(dot, "cluster_while/cond")
    assert {"loop_counter", "maximum_iterations"} <= set(_labels(cond).values())
    assert "LogicalAnd" in cond
    assert '"while/maximum_iterations" [label=' in dot  # the 4 feeds the loop
    body = cluster_block(dot, "cluster_while/body")
    assert "loop_counter" not in body and "add_2" not in body


def test_the_optimised_graph_hides_the_loop_counter_too():
    # the optimiser merges the counter's 0 with the range's start (equal constants), so the
    # While's first input is no longer named loop_counter; the body's placeholders still are
    graph = _program.get_concrete_function(tf.constant([1.0, 2.0])).optimized_graph
    w = next(op for op in graph.operations if op.type in ("While", "StatelessWhile"))
    assert not w.inputs[0].op.name.endswith("loop_counter")  # what made it show before
    ids = _node_ids(vdot.graph_to_dot(graph, collapse=set()))
    assert not {i for i in ids if "loop_counter" in i or "maximum_iterations" in i}, ids
