"""The loader accepts only the attribute names an op declares (``OpDef.attrs``), never by
asking numpy: ``inspect.signature`` of a ufunc raises on numpy < 2.4 (and was once read as
"accepted"), and on numpy >= 2.4 it lists the ufunc's own ``out=``/``where=`` keywords,
which must never come from a file."""

from __future__ import annotations

import inspect
import json
import shutil

import numpy as np
import pytest

import tfgraph_edu as tf
from tfgraph_edu.ops import REGISTRY
from tfgraph_edu.saved_model.files import write_fingerprint as reseal

SavedModelError = tf.saved_model.SavedModelError


class _Model(tf.Module):
    def __init__(self):
        super().__init__()
        self.v = tf.Variable([1.0, 2.0])

    @tf.function(input_signature=[tf.TensorSpec([2], tf.float32)])
    def f(self, x):
        return x * 3.0 + self.v


@pytest.fixture(scope="module")
def original(tmp_path_factory):
    folder = tmp_path_factory.mktemp("attrs") / "model"
    tf.saved_model.save(_Model(), folder)
    return folder


def _with_attr(original, folder, key, value):
    shutil.copytree(original, folder)
    manifest = json.loads((folder / "saved_model.json").read_text())
    muls = [n for g in manifest["graphs"].values() for n in g["nodes"] if n["op"] == "Mul"]
    assert muls, "the model has a Mul node"
    muls[0]["attrs"][key] = value
    (folder / "saved_model.json").write_text(json.dumps(manifest))
    reseal(folder)  # crafted: sealed again, so the attribute check is what refuses it
    return folder


def test_mul_runs_a_numpy_ufunc():
    assert isinstance(REGISTRY["Mul"].kernel, np.ufunc)
    assert REGISTRY["Mul"].attrs == frozenset()


@pytest.mark.parametrize("key, value", [
    ("bogus", {"value": 1}),
    ("where", {"tensor": "arrays/0.npy"}),  # a keyword np.multiply itself takes
    ("out", {"value": None}),
    ("dtype", {"dtype": "float64"}),
])
@pytest.mark.parametrize("inspect_works", [True, False])
def test_an_unknown_attribute_on_a_ufunc_op_is_refused(original, tmp_path, monkeypatch, key,
                                                       value, inspect_works):
    folder = _with_attr(original, tmp_path / "m", key, value)
    if not inspect_works:  # as on numpy < 2.4: the check must not depend on it
        def refuse(*args, **kwargs):
            raise ValueError("no signature found for builtin")
        monkeypatch.setattr(inspect, "signature", refuse)
    with pytest.raises(SavedModelError, match=rf"op Mul has no attribute '{key}' \(its "
                                              r"attributes: none\)"):
        tf.saved_model.load(folder)


def test_a_declared_attribute_is_still_accepted(tmp_path):
    class Sums(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([2, 3], tf.float32)])
        def f(self, x):
            return tf.reduce_sum(x, axis=1, keepdims=True)

    tf.saved_model.save(Sums(), tmp_path / "s")
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    got = tf.saved_model.load(tmp_path / "s").f(tf.constant(x)).numpy()
    np.testing.assert_array_equal(got, x.sum(axis=1, keepdims=True))


def test_every_op_has_a_closed_set_of_attribute_names():
    for name, op in REGISTRY.items():
        assert isinstance(op.attrs, frozenset), name
        if not inspect.isfunction(op.kernel):
            # a numpy kernel takes attributes only if the op declares them
            assert op.attrs.isdisjoint({"out", "where", "casting", "order", "subok",
                                        "signature"}), name
