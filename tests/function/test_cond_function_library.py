"""The function library of an If as ``as_graph_def()`` prints it (the intro_to_graphs guide):
captured inputs named in the scope of the op that reads them, a branch's idle input named
``Placeholder``, and the unused constants AutoGraph leaves in the else branch when it compares
the branches' values.  Expected values recorded from TF 2.21."""

from __future__ import annotations

import tfgraph_edu as tf


def _library(cf):
    gd = cf.graph.as_graph_def()
    return {fn.signature.name.rsplit("_", 1)[0]: (
        [a.name for a in fn.signature.input_arg],
        [(n.name, n.op, list(n.input)) for n in fn.node_def]) for fn in gd.library.function}


def test_if_statement_branches_as_tf_prints_them():
    @tf.function
    def simple_relu(x):
        if tf.greater(x, 0):
            return x
        else:
            return 0

    lib = _library(simple_relu.get_concrete_function(tf.constant(1)))
    # recorded from TF 2.21
    assert lib["cond_true"] == (["cond_identity_1_x"], [
        ("cond/Const", "Const", []), ("cond/Identity", "Identity", ["cond/Const:output:0"]),
        ("cond/Identity_1", "Identity", ["cond_identity_1_x"])])
    assert lib["cond_false"] == (["cond_placeholder"], [
        ("cond/Const", "Const", []), ("cond/Const_1", "Const", []), ("cond/Const_2", "Const", []),
        ("cond/Const_3", "Const", []), ("cond/Identity", "Identity", ["cond/Const_3:output:0"]),
        ("cond/Const_4", "Const", []), ("cond/Identity_1", "Identity", ["cond/Const_4:output:0"])])
    assert simple_relu(tf.constant(3)).numpy() == 3
    assert simple_relu(tf.constant(-3)).numpy() == 0


def test_tf_cond_captures_named_by_the_reading_op():
    @tf.function
    def f(x, y):
        return tf.cond(x > 0, lambda: x + 1, lambda: y * 2)

    lib = _library(f.get_concrete_function(tf.constant(1), tf.constant(2)))
    # recorded from TF 2.21 (the Const cond/mul/y comes first, so the capture is y_1)
    assert lib["cond_true"][0] == ["cond_add_x", "cond_placeholder"]
    assert lib["cond_false"][0] == ["cond_placeholder", "cond_mul_y_1"]
    assert [n[0] for n in lib["cond_false"][1]] == ["cond/mul/y", "cond/mul", "cond/Identity"]
    assert f(tf.constant(1), tf.constant(5)).numpy() == 2
    assert f(tf.constant(-1), tf.constant(5)).numpy() == 10
