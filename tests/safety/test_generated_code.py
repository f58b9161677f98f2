"""Attacks on the compiled fast path: graph content must never become Python source.

Graphs are built below the name checks (straight through ``Graph.add_op``, or by renaming
the nodes of a traced graph, as a crafted file could), so the compiler itself is what is
attacked; each test asserts that no payload ran (the marker file never appears) and that
the compiled text holds only tokens the compiler makes.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import tfgraph_edu as tf
from tfgraph_edu import dtypes
from tfgraph_edu.graph.graph import Graph
from tfgraph_edu.ops import REGISTRY
from tfgraph_edu.runtime import compiled as compiled_mod
from tfgraph_edu.runtime.compiled import CompiledGraph
from tfgraph_edu.saved_model.files import write_fingerprint as reseal
from tfgraph_edu.shapes import TensorShape

from ._hostile import assert_only_made_names, payloads


def _hostile_graph(name, attr_key, text):
    g = Graph(name)
    spec = [(TensorShape([]), dtypes.float32)]
    x = g.add_op(name + "x", REGISTRY["Placeholder"], [],
                 {"dtype": dtypes.float32, "shape": TensorShape([])}, spec).outputs[0]
    y = g.add_op(name, REGISTRY["AddV2"], [x, x], {}, spec).outputs[0]
    z = g.add_op(name + "/fmt", REGISTRY["StringFormat"], [y],
                 {"template": text, "placeholder": "{}"},
                 [(TensorShape([]), dtypes.string)]).outputs[0]
    # Sub: its kernel is called with the attributes (AddV2 is pre-resolved to np.add)
    w = g.add_op(name + "k", REGISTRY["Sub"], [y, y], {attr_key: text}, spec).outputs[0]
    return g, x, [y, z, w]


@pytest.mark.parametrize("i", range(17))
def test_hostile_names_keys_and_values_stay_data(tmp_path, i):
    marker = tmp_path / "pwned"
    p = payloads(marker)
    name, key, text = p[i], p[(i + 5) % len(p)], p[(i + 9) % len(p)]
    g, x, outs = _hostile_graph(name, key, text)
    cg = CompiledGraph(g, [x], outs[:2], name)
    assert_only_made_names(cg)
    y, z = cg(np.float32(1.5))
    assert float(y) == 3.0
    assert isinstance(z, (bytes, str, np.ndarray))
    # the attribute that is not one of the kernel's parameters reaches it as data and is
    # refused as an unexpected argument, reported as TF's graph error
    cg2 = CompiledGraph(g, [x], outs[2:], name)
    assert_only_made_names(cg2)
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        cg2(np.float32(1.5))
    assert "Graph execution error" in str(info.value)
    assert not marker.exists()
    # the readable listing has one line per compiled line: no name can start a new line
    assert len(cg.source.splitlines()) == len(cg.code.splitlines())
    assert len(max(cg.source.splitlines(), key=len)) < 400


def test_chunked_layout_holds_only_made_names(tmp_path, monkeypatch):
    monkeypatch.setattr(compiled_mod, "CHUNK", 1)
    marker = tmp_path / "pwned"
    for name in payloads(marker)[:8]:
        g, x, outs = _hostile_graph(name, name, name)
        cg = CompiledGraph(g, [x], outs[:2], name)
        assert "_part1(" in cg.code
        assert_only_made_names(cg)
        assert float(cg(np.float32(2.0))[0]) == 4.0
    assert not marker.exists()


def _rename_everything(graph, payload, seen):
    """What a crafted file could hold: every node of ``graph`` and of its branch and body
    graphs renamed to hostile text, and a hostile attribute added."""
    if id(graph) in seen:
        return
    seen.add(id(graph))
    for n, op in enumerate(graph.operations):
        op.name = f"{payload}{n}"
        for v in list(op.attrs.values()):
            if hasattr(v, "graph") and hasattr(v, "function_name"):
                v.function_name = payload
                v._fn = None  # compile it again, under its new names
                _rename_everything(v.graph, payload, seen)


def test_branch_and_loop_bodies_hold_only_made_names(tmp_path):
    marker = tmp_path / "pwned"

    @tf.function
    def f(x):
        if x > 0:
            y = x * 2.0
        else:
            y = -x
        i = tf.constant(0)
        while i < 3:
            y = y + 1.0
            i += 1
        return y

    cf = f.get_concrete_function(tf.constant(1.0))
    for payload in payloads(marker):
        _rename_everything(cf.graph, payload, set())
        cg = CompiledGraph(cf.graph, cf.inputs, cf.outputs, payload)
        assert_only_made_names(cg)
        assert float(cg(np.float32(1.5))[0]) == 6.0
        assert float(cg(np.float32(-1.5))[0]) == 4.5
        nested = [o for o in _all_compiled() if o is not cg and o.name == payload]
        inlined = "while True:" in cg.code and "else:" in cg.code
        assert nested or inlined, "the branches and the loop body were compiled too"
        for sub in nested:
            assert_only_made_names(sub)
    assert not marker.exists()


def _all_compiled():
    return list(compiled_mod._BY_FILENAME.values())


def test_saved_model_with_hostile_names_runs_no_code(tmp_path):
    class M(tf.Module):
        @tf.function
        def __call__(self, x):
            return tf.nn.relu(x * 2.0 + 1.0)

    m = M()
    m(tf.constant([1.0, -3.0]))
    folder = tmp_path / "model"
    tf.saved_model.save(m, str(folder))
    original = json.loads((folder / "saved_model.json").read_text())
    marker = tmp_path / "pwned"
    tried = 0
    for payload in payloads(marker):
        manifest = json.loads(json.dumps(original))
        for spec in manifest["graphs"].values():
            renames = {n["name"]: f"{payload}{i}" for i, n in enumerate(spec["nodes"])}
            for node in spec["nodes"]:
                node["name"] = renames[node["name"]]
                node["inputs"] = [renames[r.rsplit(":", 1)[0]] + ":" + r.rsplit(":", 1)[1]
                                  for r in node["inputs"]]
                node["attrs"][payload] = {"value": payload}
            for k in ("inputs", "outputs"):
                spec[k] = [renames[r.rsplit(":", 1)[0]] + ":" + r.rsplit(":", 1)[1]
                           for r in spec[k]]
        (folder / "saved_model.json").write_text(json.dumps(manifest))
        reseal(folder)  # crafted: sealed again, so the checks behind the checksums are reached
        tried += 1
        try:
            loaded = tf.saved_model.load(str(folder))
            loaded(tf.constant([1.0, -3.0]))
        except (ValueError, tf.errors.OpError, TypeError):
            pass  # refused, or the unknown attribute is refused when the kernel runs
        assert not marker.exists()
    assert tried == len(payloads(marker))
