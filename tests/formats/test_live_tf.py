"""Live TensorFlow objects shown through their GraphDef (formats/live.py).

The first tests need real TensorFlow (run them in the check-tf venv: TF is never a
dependency, so elsewhere they are skipped); their expectations are TF's own answers,
asked in the test.  The last test runs without TF: GraphViewer's entry hook takes an object
that looks to it like a TF object (its class's module, `tensorflow` in sys.modules)."""

from __future__ import annotations

import os
import sys
import types
from collections import Counter

import pytest

from tfgraph_edu.formats.live import from_tf, is_tf_object, viewable


def _tf():
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    return pytest.importorskip("tensorflow", reason="real TensorFlow is not installed here")


def _cond_function(tf):
    @tf.function
    def f(x):
        if tf.reduce_sum(x) > 0:
            return x * x
        return -x
    return f


def test_a_tf_function_shows_each_traced_concrete_function():
    tf = _tf()
    f = _cond_function(tf)
    f(tf.constant([1.0, 2.0]))
    f(tf.constant([1.0]))
    opened = from_tf(f)
    want = f._list_all_concrete_functions()  # TF's own list of traces
    assert [fn.name for fn in opened.functions] == [
        cf.name.decode() if isinstance(cf.name, bytes) else cf.name for cf in want]
    for fn, cf in zip(opened.functions, want):
        gd = cf.graph.as_graph_def()
        assert Counter(op.type for op in fn.graph.operations) == Counter(n.op for n in gd.node)
        (cond,) = [op for op in fn.graph.operations if op.type == "StatelessIf"]
        (tf_cond,) = [n for n in gd.node if n.op == "StatelessIf"]
        assert cond.attrs["then_branch"].name == tf_cond.attr["then_branch"].func.name
        then = {f.signature.name: f for f in gd.library.function}[
            tf_cond.attr["then_branch"].func.name]
        assert Counter(op.type for op in cond.attrs["then_branch"].graph.operations
                       if op.type != "Placeholder") == Counter(n.op for n in then.node_def)


def test_concrete_function_graph_and_graph_def_are_accepted():
    tf = _tf()
    cf = _cond_function(tf).get_concrete_function(tf.TensorSpec([None], tf.float32))
    n = len(cf.graph.as_graph_def().node)
    for obj in (cf, cf.graph, cf.graph.as_graph_def()):
        assert is_tf_object(obj)
        opened = from_tf(obj)
        assert len(opened.graph.operations) == n
        assert len(opened.library) == 2


def test_an_untraced_tf_function_says_so():
    tf = _tf()
    with pytest.raises(ValueError, match="has not been traced yet"):
        from_tf(_cond_function(tf))


def test_other_objects_pass_through_untouched():
    assert viewable(3) == 3
    assert not is_tf_object(object())


def test_graph_viewer_takes_a_tf_looking_object(monkeypatch):
    """Without TF: a stand-in whose class lives in a `tensorflow.` module and whose
    as_graph_def() returns the GraphDef of a file real TF 2.21 wrote."""
    pytest.importorskip("anywidget")
    pytest.importorskip("tensorboard")
    from tensorboard.compat.proto import graph_pb2

    from tfgraph_edu.jupyter.widgets import GraphViewer
    here = os.path.join(os.path.dirname(__file__), "..", "fixtures", "real_tf", "cond_graph.pb")
    with open(here, "rb") as f:
        gd = graph_pb2.GraphDef.FromString(f.read())
    fake_tf = types.ModuleType("tensorflow")
    monkeypatch.setitem(sys.modules, "tensorflow", fake_tf)
    Graph = type("Graph", (), {"__module__": "tensorflow.python.framework.ops",
                               "as_graph_def": lambda self: gd})
    viewer = GraphViewer(Graph())
    assert viewer.functions == ["graph (9 nodes)"]
    # the branch's nodes, in place (TF's cond/ prefix left out, as for our own bodies)
    assert "cond/then/mul" in viewer.nodes
    assert viewer.nodes["cond"]["type"] == "StatelessIf"
    assert viewer.svg.startswith("<?xml") or "<svg" in viewer.svg
    with pytest.raises(NotImplementedError, match="cannot step through it"):
        viewer.run_steps()


def test_live_graphs_carry_the_learners_source_lines():
    tf = _tf()

    @tf.function
    def f(x):
        y = x * 2.0  # LINE-MUL
        if tf.reduce_sum(y) > 0:
            y = y + 1.0  # LINE-ADD
        return y

    cf = f.get_concrete_function(tf.TensorSpec([None], tf.float32))
    opened = from_tf(cf)
    lines = open(__file__).read().splitlines()
    want_mul = next(i for i, t in enumerate(lines, 1) if t.endswith("# LINE-MUL"))
    want_add = next(i for i, t in enumerate(lines, 1) if t.endswith("# LINE-ADD"))
    mul = opened.graph.get_operation_by_name("mul")
    assert mul.source[0] == __file__ and mul.source[1] == want_mul and mul.source[2] == "f"
    (cond,) = [op for op in opened.graph.operations if op.type in ("If", "StatelessIf")]
    then = cond.attrs["then_branch"].graph
    (add,) = [op for op in then.operations if op.type == "AddV2"]
    assert add.source[1] == want_add
