"""The traced graph is shared, never edited: a pass reads it, and the pass that edits first
runs again writing fresh copies (optimize/rewrite.py).  Every pass must give the same graph
and the same report that in-place editing of a private copy gives (the reference here), and
pruning's backward sweep the same nodes as runtime.schedule."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tfgraph_edu as tf
from tfgraph_edu.ops.control_flow_ops import GraphFunction
from tfgraph_edu.ops.convert import Const
from tfgraph_edu.ops.graph_ops import NoOp
from tfgraph_edu.ops.identity_ops import Identity
from tfgraph_edu.ops.math_ops import Mul, Sin
from tfgraph_edu.optimize import PIPELINE, rewrite
from tfgraph_edu.optimize.pruning import needed
from tfgraph_edu.optimize.report import PassReport
from tfgraph_edu.runtime.schedule import schedule


def _value(v):
    if isinstance(v, np.ndarray):
        return ("array", v.dtype.str, v.shape, v.tobytes())
    if isinstance(v, GraphFunction):
        return ("function", v.function_name, _dump(v.graph, v.inputs, v.outputs))
    if isinstance(v, (list, tuple)):
        return tuple(_value(x) for x in v)
    return repr(v)


def _dump(g, inputs, outputs):
    """The graph by names only, and a check that every node and edge belongs to ``g``."""
    ops = g.operations
    for i, op in enumerate(ops):
        assert op.graph is g and op._id == i
        assert all(t.op is op and t.value_index == k for k, t in enumerate(op.outputs))
        assert all(ops[t.op._id] is t.op for t in op.inputs)
        assert all(ops[c._id] is c for c in op.control_inputs)
    assert {name: op for name, op in g._by_name.items()} == {op.name: op for op in ops}
    for t in list(inputs) + list(outputs) + [inner for _, inner in g._captures.values()]:
        assert ops[t.op._id] is t.op
    return ([(op.name, op.type, [t.name for t in op.inputs], [c.name for c in op.control_inputs],
              {k: _value(v) for k, v in op.attrs.items()},
              [(str(t.shape), t.dtype.name, repr(t.handle_shape)) for t in op.outputs])
             for op in ops],
            [t.name for t in inputs], [t.name for t in outputs],
            [(k, t.name) for k, (_, t) in g._captures.items()], sorted(g._names_in_use.items()))


def _changes(report):
    return [(c.node, c.action, c.why, c.by) for c in report.changes], str(report)


def _check_every_pass(graph, inputs, outputs, passes=None):
    """Each pass in pipeline order: shared (read, then copy if it edits) == edited in place."""
    for label, fn in passes or [(label, fn) for label, _, fn, _ in PIPELINE]:
        traced = _dump(graph, inputs, outputs)
        mine = rewrite.copy_graph(graph, inputs, outputs)
        ref_report = PassReport(label)
        ref = fn(*mine, ref_report)  # edits the private copy in place
        report = PassReport(label)
        try:
            with rewrite.shared(graph, copy=False):
                got = fn(graph, inputs, outputs, report)
        except rewrite.Changed:
            report = PassReport(label)
            with rewrite.shared(graph, copy=True):
                got = fn(graph, inputs, outputs, report)
        assert _dump(graph, inputs, outputs) == traced, f"{label} edited the shared graph"
        assert _dump(*got) == _dump(*ref), label
        assert _changes(report) == _changes(ref_report), label
        if got[0] is graph:
            assert not ref_report.changes, f"{label} changed nothing in the shared graph"
        graph, inputs, outputs = got


def _cf(fn, *args):
    cf = tf.function(fn).get_concrete_function(*args)
    return cf.graph, cf.inputs, cf.outputs


SNIPPETS = [  # each reads earlier values a, b and returns a new one
    lambda a, b: a * 1.0,
    lambda a, b: 0.0 + a,
    lambda a, b: a - 0.0,
    lambda a, b: tf.negative(tf.negative(b)),
    lambda a, b: a ** 2 + b ** 3,
    lambda a, b: tf.transpose(tf.transpose(a, [1, 0]), [1, 0]),
    lambda a, b: tf.sin(a) + tf.sin(a),
    lambda a, b: a * tf.eye(3) * 2.0,
    lambda a, b: tf.identity(tf.stop_gradient(a)),
    lambda a, b: a + tf.cast(tf.size(b), tf.float32),
    lambda a, b: tf.reshape(a, [3, 3]) + tf.broadcast_to(b, [3, 3]),
    lambda a, b: tf.exp(a) * 0.0 + b,  # Exp stays: x * 0 is not x
    lambda a, b: (tf.cos(b), a)[1],  # Cos unused: pruned
    lambda a, b: tf.matmul(a, b, transpose_a=True),
]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, len(SNIPPETS) - 1), st.integers(0, 9),
                          st.integers(0, 9)), min_size=1, max_size=12))
def test_each_pass_on_the_shared_graph_equals_editing_a_copy(program):
    def run(a, b):
        values = [a, b]
        for k, i, j in program:
            values.append(SNIPPETS[k](values[i % len(values)], values[j % len(values)]))
        return values[-1]

    x = tf.constant(np.arange(9, dtype=np.float32).reshape(3, 3))
    _check_every_pass(*_cf(run, x, x))


def test_control_edges_loops_and_side_effects():
    v = tf.Variable(1.0)

    def f(x):
        tf.print("a", x * 1.0)
        v.assign_add(x * 1.0)
        s = tf.zeros([])
        for _ in tf.range(3):
            s += tf.reduce_sum(tf.ones([2]) * 2.0) * x
        tf.print("b", v)
        return s + tf.constant(2.0) * 3.0, tf.cos(x) * 1.0, x * 1.0

    graph, inputs, outputs = _cf(f, tf.constant(2.0))
    # control edges the tracer makes only between stateful ops, added by hand: on NoOps, on
    # ops the passes remove (their control inputs pass on), listed twice, implied by data
    first_print = next(op for op in graph.operations if op.type == "PrintV2")
    ones = graph.add_op("one", Const, [], {"dtype": tf.float32, "value": np.float32(1)},
                        [(tf.TensorShape([]), tf.float32)])
    waited = graph.add_op("waited", NoOp, [], {}, [], [first_print])
    graph.add_op("idle", NoOp, [], {}, [], [])
    removed = graph.add_op("removed", Mul, [outputs[2], ones.outputs[0]], {},
                           [(tf.TensorShape([]), tf.float32)], [waited])
    ident = graph.add_op("ident", Identity, removed.outputs, {},
                         [(tf.TensorShape([]), tf.float32)], [waited, waited, first_print])
    out = graph.add_op("out", Sin, ident.outputs, {}, [(tf.TensorShape([]), tf.float32)],
                       [ident, removed])
    outputs = list(outputs) + out.outputs
    _check_every_pass(graph, inputs, outputs)
    # removed ops that are control inputs of others: those get the removed op's own
    _check_every_pass(graph, inputs, outputs, [("waited", _removing({"waited"})),
                                               ("both", _removing({"waited", "ident"})),
                                               ("ident", _removing({"ident", "removed"}))])


def _removing(names):
    """A pass that removes the ops named: forwarded to their first input, or dropped."""
    def remove(graph, inputs, outputs, report):
        rw = rewrite.Rewriter(graph, inputs, outputs)
        for op in graph.operations:
            if op.name not in names:
                rw.copy(op)
            elif op.outputs:
                rw.forward(op, rw.tensors(op.inputs)[:1])
                report.add(op.name, "removed", "asked to")
            else:
                rw.drop(op)
                report.add(op.name, "removed", "asked to")
        return rw.finish()
    return remove


def test_a_graph_where_no_pass_changes_anything_is_still_copied():
    cf = tf.function(lambda x: tf.sin(x)).get_concrete_function(tf.constant(1.0))
    before = _dump(cf.graph, cf.inputs, cf.outputs)
    assert all(not p.changes for p in cf.optimization_report.passes)
    assert cf.optimized_graph is not cf.graph
    assert _dump(cf.optimized_graph, cf.optimized_graph.inputs,
                 cf.optimized_graph.outputs) == before
    assert _dump(cf.graph, cf.inputs, cf.outputs) == before
    assert not set(map(id, cf.optimized_graph.operations)) & set(map(id, cf.graph.operations))


def test_a_reading_sweep_signals_before_it_edits():
    graph, inputs, outputs = _cf(lambda x: x * 1.0 + tf.sin(x), tf.constant(1.0))
    before = _dump(graph, inputs, outputs)
    add = next(op for op in graph.operations if op.type == "AddV2")
    with rewrite.shared(graph, copy=False):
        rw = rewrite.Rewriter(graph, inputs, outputs)
        assert rw.copy(add, inputs=list(add.inputs)) is add  # the same inputs: no edit
        for action in (lambda: rw.forward(add, inputs),
                       lambda: rw.drop(add),
                       lambda: rw.constant(add, [np.float32(1)]),
                       lambda: rw.copy(add, inputs=add.inputs[::-1]),
                       lambda: rw.copy(add, attrs={"T": tf.float32}),
                       lambda: rw.copy(add, control=[graph.operations[0]]),
                       lambda: rw.copy(add, extra_outputs=[(tf.TensorShape([]), tf.float32)]),
                       lambda: rw.add(add, "new", Sin, inputs, {}, [(tf.TensorShape([]),
                                                                      tf.float32)])):
            with pytest.raises(rewrite.Changed):
                action()
    assert _dump(graph, inputs, outputs) == before


def test_a_capture_whose_placeholder_is_pruned_goes():
    c = tf.constant(3.0)
    graph, inputs, outputs = _cf(lambda x: (tf.sin(c), x + 1.0)[1], tf.constant(1.0))
    assert len(graph._captures) == 1
    x = inputs[:1]  # the capture's placeholder is not an input here: nothing needs it
    from tfgraph_edu.optimize.pruning import prune
    _check_every_pass(graph, x, outputs, [("pruning", prune)])
    report = PassReport("pruning")
    with rewrite.shared(graph, copy=False):
        pruned = prune(graph, x, outputs, report)
    assert pruned[0]._captures == {} and len(graph._captures) == 1


def _schedule_set(graph, inputs, outputs):
    keep = {id(op) for op in schedule(graph, outputs)} | {id(t.op) for t in inputs}
    return [int(id(op) in keep) for op in graph.operations]


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(st.integers(0, len(SNIPPETS) - 1), st.integers(0, 9),
                          st.integers(0, 9)), min_size=1, max_size=12), st.randoms())
def test_pruning_keeps_what_schedule_keeps_even_out_of_order(program, rnd):
    def run(a, b):
        values = [a, b]
        for k, i, j in program:
            values.append(SNIPPETS[k](values[i % len(values)], values[j % len(values)]))
        tf.print(values[-2])  # a side effect nothing consumes
        return values[-1]

    graph, inputs, outputs = _cf(run, tf.constant(np.ones((3, 3), np.float32)),
                                 tf.constant(np.ones((3, 3), np.float32)))
    assert list(needed(graph, inputs, outputs)) == _schedule_set(graph, inputs, outputs)
    ops = list(graph.operations)
    rnd.shuffle(graph.operations)  # not topological any more, positions not _id: the fallback
    assert list(needed(graph, inputs, outputs)) == _schedule_set(graph, inputs, outputs)
    graph.operations = ops
