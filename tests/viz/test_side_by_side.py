"""Our graph of a cond function beside the GraphDef real TF 2.21 wrote for the same function
(tests/fixtures/real_tf/cond_graph.pb; TF's op types recorded in facts.json)."""

from __future__ import annotations

import json
import os
from collections import Counter

import pytest

pytest.importorskip("tensorboard", reason="the tf-files extra is not installed")

import tfgraph_edu as tf  # noqa: E402
from tfgraph_edu.viz import open_graph, side_by_side  # noqa: E402

FIXTURES = os.path.join(os.path.dirname(__file__), "..", "fixtures", "real_tf")
with open(os.path.join(FIXTURES, "facts.json")) as f:
    FACTS = json.load(f)["cond_graph"]


@tf.function
def cond_fn(x):  # the function make_fixtures.py traced with real TF
    if tf.reduce_sum(x) > 0:
        return x * x
    return -x


def test_side_by_side_lists_what_each_graph_has():
    cf = cond_fn.get_concrete_function(tf.TensorSpec([None], tf.float32))
    shown = side_by_side(cf, open_graph(os.path.join(FIXTURES, "cond_graph.pb")))
    ours = Counter(op.type for op in cf.graph.operations)
    theirs = Counter(FACTS["op_types"])
    graph_row = shown.diff.functions[0]
    assert graph_row.where == "graph"
    assert graph_row.left == ours and graph_row.right == theirs
    assert graph_row.only_right == theirs - ours
    # the If returns through TF's Identity nodes (cond/Identity, cond/Identity_1): as many
    # Identity ops as TF's graph (facts.json)
    assert ours["Identity"] == theirs["Identity"] and "Identity" not in graph_row.only_right
    # the branches are matched with TF's: then with cond_true, else with cond_false
    wheres = [f.where for f in shown.diff.functions]
    assert wheres == ["graph", "StatelessIf.else_branch", "StatelessIf.then_branch"]
    tf_lib = {k.split("_")[1]: Counter(v) for k, v in FACTS["library"].items()}
    assert shown.diff.functions[1].right == tf_lib["false"]
    assert shown.diff.functions[2].right == tf_lib["true"]
    text = shown.text()
    assert text.splitlines()[0].startswith(f"tfgraph_edu: {shown.diff.totals[0]} ops")
    html = shown._repr_mimebundle_()["text/html"]
    # two pictures (images of SVG, shown before the notebook is trusted), or two DOT texts
    assert html.count('src="data:image/svg+xml;base64,') == 2 or html.count("digraph") == 2
    assert "only TensorFlow" in html


def test_side_by_side_needs_a_read_graph():
    cf = cond_fn.get_concrete_function(tf.TensorSpec([None], tf.float32))
    with pytest.raises(TypeError, match="open_graph"):
        side_by_side(cf, cf)
