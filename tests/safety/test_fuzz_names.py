"""Hypothesis throws hostile names at every place a name can enter: ``name=`` and
``tf.name_scope`` in code, a function's ``__name__``, and every name-holding slot of a
SavedModel manifest written by the test.  Nothing may run (the marker file never
appears), and each attempt either works - computing the right answer - or fails with a
clear error: TF's ValueError for code, SavedModelError for a folder."""

from __future__ import annotations

import copy
import json
import shutil
import string
import tempfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tfgraph_edu as tf
from tfgraph_edu.saved_model.files import write_fingerprint as reseal

from ._hostile import payloads

WORK = Path(tempfile.mkdtemp(prefix="tfgraph_edu_fuzz_"))
MARKER = WORK / "pwned"
FIRST = set(string.ascii_letters + string.digits + ".")
REST = FIRST | set("_-/>\\")
COUNT = {"code": 0, "manifest": 0}

HOSTILE = st.one_of(
    st.text(st.sampled_from(list("aZ9._-/>\\ '\"#()=;:,\n\r\t\x00\\é名\u2028\u202e{}%!`$")),
            min_size=0, max_size=24),
    st.text(max_size=16),  # any unicode, surrogates included
    st.sampled_from(payloads(MARKER)),
    st.builds(lambda c, n: c * n, st.sampled_from(["a", "'", "\n", "é", "/"]),
              st.sampled_from([5000, 20000])),
)


def tf_accepts(name: str, nested: bool, scope: bool) -> bool:
    if not nested and (not name or name[0] not in FIRST):
        return False
    if scope and len(name) > 1 and name.endswith("/") and name[0] not in FIRST:
        return False  # an absolute scope: its name starts the names of the nodes in it
    return all(c in REST for c in name)


@settings(max_examples=250, deadline=None, suppress_health_check=list(HealthCheck))
@given(name=HOSTILE, where=st.sampled_from(["scope", "op", "nested scope", "nested op",
                                            "function name"]))
def test_hostile_names_in_code(name, where):
    COUNT["code"] += 1

    def body(x):
        if where.endswith("op"):
            return tf.multiply(x, 2.0, name=name)
        if where.endswith("scope"):
            with tf.name_scope(name):
                return tf.multiply(x, 2.0)
        return x * 2.0

    def g(x):
        if where.startswith("nested"):
            with tf.name_scope("outer"):
                return body(x)
        return body(x)

    if where == "function name":
        g.__name__ = g.__qualname__ = name
    f = tf.function(g)
    nested = where.startswith("nested")
    should_work = where == "function name" or (name == "" and "scope" in where) or (
        name != "" and tf_accepts(name, nested, where.endswith("scope")))
    try:
        out = f(tf.constant([1.5, -2.0]))
    except ValueError as exc:
        assert not should_work, (name, exc)
        assert "is not a valid" in str(exc)
    else:
        assert should_work or name == "", name
        assert out.numpy().tolist() == [3.0, -4.0]
        f.concrete_functions[0].graph.verify()
    assert not MARKER.exists()


class _Model(tf.Module):
    def __init__(self):
        super().__init__()
        self.v = tf.Variable([1.0, 2.0])

    @tf.function
    def f(self, x):
        if tf.reduce_sum(x) > 0:
            return x + self.v
        return x * 2.0


def _saved() -> tuple[Path, dict]:
    folder = WORK / "original"
    if not folder.exists():
        m = _Model()
        m.f(tf.constant([1.0, 1.0]))
        tf.saved_model.save(m, folder)
    return folder, json.loads((folder / "saved_model.json").read_text())


def _rename_node(m, h, graph_index, node_index):
    key = sorted(m["graphs"])[graph_index % len(m["graphs"])]
    spec = m["graphs"][key]
    node = spec["nodes"][node_index % len(spec["nodes"])]
    old = node["name"]
    node["name"] = h

    def fix(ref):
        name, _, index = ref.rpartition(":")
        return f"{h}:{index}" if name == old else ref

    for n in spec["nodes"]:
        n["inputs"] = [fix(r) for r in n["inputs"]]
        n["control_inputs"] = [h if c == old else c for c in n["control_inputs"]]
    spec["inputs"] = [fix(r) for r in spec["inputs"]]
    spec["outputs"] = [fix(r) for r in spec["outputs"]]


def _rename_graph(m, h, graph_index, _):
    old = sorted(m["graphs"])[graph_index % len(m["graphs"])]
    m["graphs"][h] = m["graphs"].pop(old)
    for spec in m["graphs"].values():
        for n in spec["nodes"]:
            for v in n["attrs"].values():
                if v.get("func") == old:
                    v["func"] = h
    for concretes in m["functions"].values():
        for c in concretes:
            if c["graph"] == old:
                c["graph"] = h


def _nodes(m, graph_index, node_index):
    spec = m["graphs"][sorted(m["graphs"])[graph_index % len(m["graphs"])]]
    return spec["nodes"][node_index % len(spec["nodes"])]


SLOTS = {
    "node name": _rename_node,
    "graph key": _rename_graph,
    "attr key": lambda m, h, g, n: _nodes(m, g, n)["attrs"].__setitem__(h, {"value": 1}),
    "attr string value": lambda m, h, g, n: _nodes(m, g, n)["attrs"].__setitem__(
        next(iter(_nodes(m, g, n)["attrs"]), "x"), {"value": h}),
    "op type": lambda m, h, g, n: _nodes(m, g, n).__setitem__("op", h),
    "output dtype": lambda m, h, g, n: _nodes(m, g, n)["outputs"][0].__setitem__("dtype", h)
    if _nodes(m, g, n)["outputs"] else None,
    "input reference": lambda m, h, g, n: _nodes(m, g, n).__setitem__("inputs", [h]),
    "function name": lambda m, h, g, n: m["functions"].__setitem__(h, m["functions"].pop("f")),
    "parameter name": lambda m, h, g, n: m["functions"]["f"][0]["params"][0].__setitem__(
        "name", h),
    "variable name": lambda m, h, g, n: m["variables"][0].__setitem__("name", h),
    "array reference": lambda m, h, g, n: m["variables"][0].__setitem__("value", h),
    "format": lambda m, h, g, n: m.__setitem__("format", h),
}


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(h=HOSTILE, slot=st.sampled_from(sorted(SLOTS)), g=st.integers(0, 2),
       n=st.integers(0, 7))
def test_hostile_names_in_manifests(h, slot, g, n):
    COUNT["manifest"] += 1
    original, manifest = _saved()
    folder = WORK / "crafted"
    shutil.rmtree(folder, ignore_errors=True)
    shutil.copytree(original, folder)
    m = copy.deepcopy(manifest)
    SLOTS[slot](m, h, g, n)
    (folder / "saved_model.json").write_text(json.dumps(m), encoding="utf-8",
                                             errors="surrogatepass")
    reseal(folder)  # crafted: sealed again, so the checks behind the checksums are reached
    try:
        loaded = tf.saved_model.load(folder)
    except tf.saved_model.SavedModelError as exc:
        assert isinstance(exc, ValueError)
        assert len(str(exc)) < 2000, "errors show hostile text shortened"
    else:
        fname = h if slot == "function name" else "f"
        out = getattr(loaded, fname)(tf.constant([1.0, 1.0]))
        np.testing.assert_array_equal(out.numpy(), [2.0, 3.0])
        out = getattr(loaded, fname)(tf.constant([-1.0, -1.0]))
        np.testing.assert_array_equal(out.numpy(), [-2.0, -2.0])
    assert not MARKER.exists()


@pytest.fixture(scope="module", autouse=True)
def _report():
    yield
    print(f"\nhostile names tried: {COUNT['code']} in code, {COUNT['manifest']} in manifests")
    shutil.rmtree(WORK, ignore_errors=True)
