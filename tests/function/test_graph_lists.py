"""Graph tensors inside Python lists and tensor bounds of random ops, in graphs: nothing in a
graph asks a symbolic tensor for its value (TF packs such lists into a Pack node)."""

from __future__ import annotations

import tfgraph_edu as tf


def test_random_int_bounds_that_are_loop_tensors():
    @tf.function
    def total(n):
        s = tf.constant(0)
        for i in tf.range(n):
            s += tf.random.uniform((), i, i + 1, tf.int32)  # always i
        return s

    assert int(total(tf.constant(4))) == 0 + 1 + 2 + 3


def test_a_list_holding_a_graph_tensor_is_packed():
    @tf.function
    def grow(x, i):
        return tf.concat([x, [i, i + 1]], 0)

    assert grow(tf.constant([9]), tf.constant(3)).numpy().tolist() == [9, 3, 4]
    ops = {op.type for op in grow.get_concrete_function(
        tf.constant([9]), tf.constant(3)).graph.get_operations()}
    assert "Pack" in ops
