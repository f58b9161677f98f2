"""Our graphs written as GraphDefs and event files read back by our reader and by
TensorBoard's own loader.  (That real TF loads and runs them as we run them is checked under
TF by benchmarks/against_tf/graph_files.py in `make check-tf`.)"""

from __future__ import annotations

from collections import Counter

import pytest

pytest.importorskip("tensorboard", reason="the tf-files extra is not installed")

import tfgraph_edu as tf  # noqa: E402
from tfgraph_edu.formats import open_graph  # noqa: E402
from tfgraph_edu.formats.export import (  # noqa: E402
    PRODUCER,
    save_graph_def,
    save_graph_event,
    to_graph_def,
)


@tf.function
def loop_and_cond(x, n):
    total = tf.constant(0.0)
    for i in tf.range(n):
        total += x * tf.cast(i, tf.float32)
    if total > 10.0:
        total = total - 10.0
    return tf.nn.relu(total)


def concrete():
    return loop_and_cond.get_concrete_function(tf.TensorSpec([], tf.float32),
                                               tf.TensorSpec([], tf.int32))


def bodies(graph) -> dict:
    """op type.attr -> op types of that body (inputs included), depth first."""
    out = {}
    for op in graph.operations:
        for k, v in sorted(op.attrs.items()):
            if hasattr(v, "graph") and hasattr(v, "function_name"):
                out[f"{op.type}.{k}"] = Counter(o.type for o in v.graph.operations)
                out.update(bodies(v.graph))
    return out


@pytest.mark.parametrize("ext", ["pb", "pbtxt"])
def test_export_round_trips_through_our_reader(tmp_path, ext):
    cf = concrete()
    path = save_graph_def(cf, tmp_path / f"f.{ext}")
    opened = open_graph(path)
    ours, back = cf.graph, opened.graph
    assert [(op.name, op.type) for op in back.operations] == [
        (op.name, op.type) for op in ours.operations]
    assert [[t.name for t in op.inputs] for op in back.operations] == [
        [t.name for t in op.inputs] for op in ours.operations]
    assert bodies(back) == bodies(ours)
    assert set(bodies(ours)) == {"StatelessWhile.body", "StatelessWhile.cond",
                                 "StatelessIf.then_branch", "StatelessIf.else_branch"}
    assert opened.facts["producer"] == PRODUCER
    # dtypes and shapes of the outputs survive (the If's and While's from output_shapes)
    for a, b in zip(ours.operations, back.operations):
        if a.type in ("StatelessIf", "StatelessWhile", "Placeholder"):
            assert [(t.dtype.name, str(t.shape)) for t in a.outputs] == [
                (t.dtype.name, str(t.shape)) for t in b.outputs], a.name


def test_attrs_tf_does_not_declare_are_kept_under_a_private_name():
    gd = to_graph_def(concrete())
    (loop,) = [n for n in gd.node if n.op == "StatelessWhile"]
    # TF's While has no maximum_iterations attr: as in TF, it is a loop variable (and so is
    # the loop counter), and the While carries only attrs TF declares
    assert "maximum_iterations" not in loop.attr
    assert not [k for k in loop.attr if k.startswith("_tfgraph_edu_")]
    assert list(loop.input[:2]) == ["while/loop_counter", "while/maximum_iterations"]
    # a Range carries TF's attrs only (Tidx, no T)
    (rng,) = [n for n in gd.node if n.op == "Range"]
    assert sorted(rng.attr) == ["Tidx"] and rng.attr["Tidx"].type == tf.int32.as_datatype_enum
    # our ConcatV2 keeps its axis as an attr TF's ConcatV2 does not declare (TF's is an
    # input): under a private name
    cat = tf.function(lambda x: tf.concat([x, x], 0)).get_concrete_function(
        tf.TensorSpec([2], tf.float32))
    (node,) = [n for n in to_graph_def(cat).node if n.op == "ConcatV2"]
    assert "axis" not in node.attr and node.attr["_tfgraph_edu_axis"].i == 0
    body = next(f for f in gd.library.function if f.signature.name == loop.attr["body"].func.name)
    # function-body inputs are named as TF names them: op:output_arg:index
    refs = [i for n in body.node_def for i in n.input if ":" in i]
    assert refs and all(len(r.split(":")) == 3 for r in refs)
    assert any(r.endswith(":z:0") for r in refs)  # Mul/AddV2's output argument is z in TF


def test_event_file_loads_in_tensorboard(tmp_path):
    from tensorboard.backend import process_graph
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator
    cf = concrete()
    path = save_graph_event(cf, tmp_path)
    acc = EventAccumulator(str(tmp_path))
    acc.Reload()
    gd = acc.Graph()
    process_graph.prepare_graph_for_ui(gd)
    assert [n.name for n in gd.node] == [op.name for op in cf.graph.operations]
    assert len(gd.library.function) == 4
    opened = open_graph(path)
    assert len(opened.graph.operations) == len(cf.graph.operations)


def test_unsigned_dtypes_are_tfs_enums(tmp_path):
    # TF 2.21's DataType numbers: DT_UINT16 17, DT_UINT32 22, DT_UINT64 23 (recorded from TF)
    f = tf.function(lambda x, y, z: (x * 2, y + 1, z // 3))
    cf = f.get_concrete_function(tf.TensorSpec([2], tf.uint16), tf.TensorSpec([2], tf.uint32),
                                 tf.TensorSpec([2], tf.uint64))
    gd = to_graph_def(cf)
    types = {n.name: n.attr["dtype"].type for n in gd.node if n.op == "Placeholder"}
    assert types == {"x": 17, "y": 22, "z": 23}
    back = open_graph(save_graph_def(cf, tmp_path / "u.pb")).graph
    assert [t.dtype for op in back.operations if op.type == "Placeholder"
            for t in op.outputs] == [tf.uint16, tf.uint32, tf.uint64]
