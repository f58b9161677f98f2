"""Crafted SavedModel folders: every malformed input is a SavedModelError (a ValueError),
never a hang, a RecursionError, a MemoryError or code run.  Folders are written by the
tests; the hang cases run in a subprocess with a timeout."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
import tracemalloc

import numpy as np
import pytest

import tfgraph_edu as tf
from tfgraph_edu.saved_model.files import write_fingerprint as reseal

SavedModelError = tf.saved_model.SavedModelError


class _Model(tf.Module):
    def __init__(self):
        super().__init__()
        self.v = tf.Variable([1.0, 2.0])

    @tf.function
    def f(self, x):
        return x * 3.0 + self.v


@pytest.fixture(scope="module")
def original(tmp_path_factory):
    folder = tmp_path_factory.mktemp("orig") / "model"
    m = _Model()
    m.f(tf.constant([1.0, 1.0]))
    tf.saved_model.save(m, folder)
    return folder


@pytest.fixture
def model(original, tmp_path):
    folder = tmp_path / "model"
    shutil.copytree(original, folder)
    return folder


def _manifest(folder):
    return json.loads((folder / "saved_model.json").read_text())


def _write(folder, manifest):
    (folder / "saved_model.json").write_text(json.dumps(manifest))
    reseal(folder)  # crafted: sealed again, so the checks behind the checksums are reached


def _const_array(folder):
    """The array file of the model's Const node (3.0) and of its variable."""
    m = _manifest(folder)
    for spec in m["graphs"].values():
        for node in spec["nodes"]:
            if node["op"] == "Const":
                return node["attrs"]["value"]["tensor"], m["variables"][0]["value"]
    raise AssertionError("no Const")


def test_the_error_is_a_value_error_exported_as_tf_saved_model_error():
    assert issubclass(tf.saved_model.SavedModelError, ValueError)


def test_original_loads_and_computes(model):
    out = tf.saved_model.load(model).f(tf.constant([1.0, 2.0]))
    np.testing.assert_array_equal(out.numpy(), [4.0, 8.0])


BAD_JSON = [
    b"", b"{", b"[1, 2", b"\xff\xfe{}", b"{'format': 1}", b"null", b"[]", b"42", b'"text"',
    b"{\"format\": \"tfgraph_edu.saved_model/1\"}",
    b"[" * 200_000 + b"]" * 200_000,  # deeper than any recursion limit
    b'{"a":' * 100_000 + b"1" + b"}" * 100_000,
    b"1" * 50_000,  # an integer too long to convert
    b"\x00" * 100,
]


@pytest.mark.parametrize("i", range(len(BAD_JSON)))
def test_bad_json(model, i):
    (model / "saved_model.json").write_bytes(BAD_JSON[i])
    reseal(model)  # crafted: sealed again, so the checks behind the checksums are reached
    with pytest.raises(SavedModelError):
        tf.saved_model.load(model)


def _nest(depth):
    value = {"output": 0}
    for _ in range(depth):
        value = {"list": [value]}
    return value


MANIFEST_EDITS = {
    "outputs nested 70 deep": lambda m: m["functions"]["f"][0].__setitem__("outputs",
                                                                          _nest(70)),
    "graphs not a dict": lambda m: m.__setitem__("graphs", []),
    "functions a list": lambda m: m.__setitem__("functions", [1]),
    "variables missing": lambda m: m.pop("variables"),
    "graph key not identifier": lambda m: m["functions"]["f"][0].__setitem__("graph", "a b"),
    "function name not identifier": lambda m: m["functions"].__setitem__(
        "not-a-name", m["functions"].pop("f")),
    "function name shadows variables": lambda m: m["functions"].__setitem__(
        "variables", m["functions"].pop("f")),
    "function name a dunder": lambda m: m["functions"].__setitem__(
        "__class__", m["functions"].pop("f")),
    "parameter name not identifier": lambda m: m["functions"]["f"][0]["params"][0].__setitem__(
        "name", "x=1"),
    "negative variable index": lambda m: m["functions"]["f"][0]["captures"][0].__setitem__(
        "variable", -1),
    "bool variable index": lambda m: m["functions"]["f"][0]["captures"][0].__setitem__(
        "variable", True),
    "n_args a string": lambda m: m["functions"]["f"][0].__setitem__("n_args", "1"),
    "node is a list": lambda m: _graph(m)["nodes"].__setitem__(0, []),
    "attr key with a quote": lambda m: _node(m, "Mul")["attrs"].__setitem__(
        "a'b", {"value": 1}),
    "attr key unknown to the op": lambda m: _node(m, "Mul")["attrs"].__setitem__(
        "evil", {"value": 1}),
    "attr list nested deeply": lambda m: _node(m, "Mul")["attrs"].__setitem__(
        "T", {"list": [{"list": [{"list": [{"list": [{"list": [{"value": 1}]}]}]}]}]}),
    "unknown attr kind": lambda m: _node(m, "Mul")["attrs"].__setitem__("T", {"pickle": "x"}),
    "shape with negative dim": lambda m: _node(m, "Mul")["outputs"][0].__setitem__(
        "shape", [-1]),
    "shape of 40 dims": lambda m: _node(m, "Mul")["outputs"][0].__setitem__("shape", [1] * 40),
    "output dtype wrong": lambda m: _node(m, "Mul")["outputs"][0].__setitem__("dtype", "int32"),
    "output shape wrong": lambda m: _node(m, "Mul")["outputs"][0].__setitem__("shape", [3]),
    "output count wrong": lambda m: _node(m, "Mul")["outputs"].append(
        {"shape": [2], "dtype": "float32"}),
    "const dtype attr disagrees": lambda m: _node(m, "Const")["attrs"].__setitem__(
        "dtype", {"dtype": "int32"}),
    "unknown dtype": lambda m: _node(m, "Mul")["outputs"][0].__setitem__("dtype", "float31"),
    "variable dtype wrong": lambda m: m["variables"][0].__setitem__("dtype", "float64"),
    "input used before defined": lambda m: _graph(m)["nodes"].reverse(),
    "self-referencing graph": lambda m: _node(m, "Mul")["attrs"].__setitem__(
        "f", {"func": m["functions"]["f"][0]["graph"]}),
    "array path escapes": lambda m: m["variables"][0].__setitem__("value", "../../x.npy"),
    "array path absolute": lambda m: m["variables"][0].__setitem__("value", "/etc/passwd"),
    "array missing": lambda m: m["variables"][0].__setitem__("value", "arrays/99.npy"),
    "graph input not a placeholder": lambda m: _graph(m)["inputs"].__setitem__(0, "mul:0"),
    "output index out of range": lambda m: m["functions"]["f"][0].__setitem__(
        "outputs", {"output": 5}),
    "format wrong": lambda m: m.__setitem__("format", "tfgraph_edu.saved_model/999"),
    "resource input disagrees with the variable": lambda m: next(
        n for n in _graph(m)["nodes"] if n.get("handle"))["handle"].__setitem__("shape", [3]),
    "handle on a float node": lambda m: _node(m, "Mul").__setitem__(
        "handle", {"shape": [2], "dtype": "float32"}),
}


def _graph(m):
    return m["graphs"][m["functions"]["f"][0]["graph"]]


def _node(m, op):
    return next(n for n in _graph(m)["nodes"] if n["op"] == op)


@pytest.mark.parametrize("edit", sorted(MANIFEST_EDITS))
def test_malformed_manifests(model, edit):
    m = _manifest(model)
    MANIFEST_EDITS[edit](m)
    _write(model, m)
    with pytest.raises(SavedModelError):
        tf.saved_model.load(model)


def _npy_bytes(header: str, data: bytes = b"", version: int = 1) -> bytes:
    head = header.encode("latin1")
    pad = (-(len(head) + 11)) % 64
    head = head + b" " * pad + b"\n"
    size = len(head).to_bytes(2 if version == 1 else 4, "little")
    return b"\x93NUMPY" + bytes([version, 0]) + size + head + data


FORGED = {
    "absurd shape": _npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': "
                               "(1000000000000, 1000000), }", b"\0" * 8),
    "shape just over the file": _npy_bytes("{'descr': '<f4', 'fortran_order': False, "
                                           "'shape': (3,), }", b"\0" * 8),
    "trailing bytes": _npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }",
                                 b"\0" * 12),
    "object dtype (pickle)": _npy_bytes("{'descr': '|O', 'fortran_order': False, "
                                        "'shape': (1,), }", b"\x80\x04N."),
    "structured dtype": _npy_bytes("{'descr': [('a', '<f4')], 'fortran_order': False, "
                                   "'shape': (2,), }", b"\0" * 8),
    "void dtype": _npy_bytes("{'descr': '|V8', 'fortran_order': False, 'shape': (1,), }",
                             b"\0" * 8),
    "f3 dtype": _npy_bytes("{'descr': '<f3', 'fortran_order': False, 'shape': (1,), }",
                           b"\0" * 3),
    "code in header": _npy_bytes("{'descr': __import__('os').getcwd(), 'fortran_order': "
                                 "False, 'shape': (2,), }", b"\0" * 8),
    "negative dim": _npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (-2,), }",
                               b"\0" * 8),
    "40 dims": _npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (" + "1, " * 40
                          + "), }", b"\0" * 4),
    "bad magic": b"\x93NUMPZ\x01\x00" + b"\0" * 100,
    "version 9": _npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }",
                            b"\0" * 8).replace(b"NUMPY\x01", b"NUMPY\x09", 1),
    "header longer than file": b"\x93NUMPY\x01\x00\xff\xff{'descr'",
    "v2 header of 4 GB": b"\x93NUMPY\x02\x00\xff\xff\xff\xff{",
    "empty file": b"",
    "wrong dtype for the variable": _npy_bytes(
        "{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }", b"\0" * 16),
    "wrong shape for the const": _npy_bytes(
        "{'descr': '<f4', 'fortran_order': False, 'shape': (5,), }", b"\0" * 20),
}


@pytest.mark.parametrize("case", sorted(FORGED))
@pytest.mark.parametrize("which", ["const", "variable"])
def test_forged_npy_files(model, case, which):
    const, var = _const_array(model)
    (model / (const if which == "const" else var)).write_bytes(FORGED[case])
    reseal(model)  # crafted: sealed again, so the checks behind the checksums are reached
    tracemalloc.start()
    try:
        with pytest.raises(SavedModelError):
            tf.saved_model.load(model)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 20 * 2 ** 20, "nothing big is allocated for a forged header"


def test_missing_and_odd_folders(tmp_path, model):
    for target in (tmp_path / "nothing", tmp_path / "empty"):
        (tmp_path / "empty").mkdir(exist_ok=True)
        with pytest.raises(SavedModelError):
            tf.saved_model.load(target)
    afile = tmp_path / "file.txt"
    afile.write_text("x")
    with pytest.raises(SavedModelError, match="not a folder"):
        tf.saved_model.load(afile)
    with pytest.raises(SavedModelError):
        tf.saved_model.load(12345)
    (model / "saved_model.json").unlink()
    (model / "saved_model.json").mkdir()
    with pytest.raises(SavedModelError, match="not a regular file"):
        tf.saved_model.load(model)


def test_symlinks_leaving_the_folder_are_refused(model, tmp_path):
    const, var = _const_array(model)
    outside = tmp_path / "outside.npy"
    shutil.copy(model / var, outside)
    for target in (outside, "/etc/passwd", "/dev/zero", "/proc/self/environ"):
        os.remove(model / var)
        os.symlink(target, model / var)
        with pytest.raises(SavedModelError, match="leaves the model folder"):
            tf.saved_model.load(model)
    # a link that stays inside the folder is fine
    os.remove(model / var)
    os.symlink(outside.name, model / "arrays" / "link_target.npy")
    shutil.copy(outside, model / "arrays" / "inside.npy")
    os.symlink("inside.npy", model / var)
    assert tf.saved_model.load(model).f(tf.constant([0.0, 0.0])).numpy().tolist() == [1, 2]
    os.remove(model / "saved_model.json")
    os.symlink("/dev/zero", model / "saved_model.json")
    with pytest.raises(SavedModelError, match="leaves the model folder"):
        tf.saved_model.load(model)


_PROBE = textwrap.dedent('''
    import os, sys
    folder, watched = sys.argv[1], sys.argv[2:]
    opened = []
    def hook(event, args):
        if event == "open" and args and isinstance(args[0], (str, bytes, os.PathLike)):
            path = os.path.realpath(os.fsdecode(args[0]))
            if path in watched:
                opened.append(path)
    sys.addaudithook(hook)
    import tfgraph_edu as tf
    try:
        tf.saved_model.load(folder)
        print("LOADED")
    except tf.saved_model.SavedModelError as exc:
        print("REFUSED", str(exc).splitlines()[0])
    print("OPENED", opened)
''')


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
@pytest.mark.parametrize("which", ["manifest", "array", "device"])
def test_fifos_and_devices_are_refused_without_being_opened(model, which):
    const, var = _const_array(model)
    if which == "manifest":
        path = model / "saved_model.json"
        os.remove(path)
        os.mkfifo(path)
    elif which == "array":
        path = model / var
        os.remove(path)
        os.mkfifo(path)
    else:  # a device node inside the folder cannot be made without root: a bind-like link
        path = model / var
        os.remove(path)
        try:
            os.mknod(path, 0o600 | __import__("stat").S_IFCHR, os.makedev(1, 5))  # /dev/zero
        except PermissionError:
            pytest.skip("creating a device node needs privileges")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    out = subprocess.run([sys.executable, "-c", _PROBE, str(model), str(path.resolve())],
                         capture_output=True, text=True, timeout=60, env=env)
    assert out.returncode == 0, out.stderr
    assert "REFUSED" in out.stdout and "not a regular file" in out.stdout, out.stdout
    assert "OPENED []" in out.stdout, out.stdout


def test_size_budget(model):
    size = (model / "saved_model.json").stat().st_size
    with pytest.raises(SavedModelError, match="over the budget"):
        tf.saved_model.load(model, max_manifest_bytes=size - 1)
    tf.saved_model.load(model, max_manifest_bytes=size)
    with pytest.raises(SavedModelError, match="max_array_bytes"):
        tf.saved_model.load(model, max_array_bytes=8)  # the variable alone needs 8, + const
    tf.saved_model.load(model, max_array_bytes=12)
    with pytest.raises(SavedModelError, match="max_nodes"):
        tf.saved_model.load(model, max_nodes=3)


def test_a_big_but_honest_array_needs_a_raised_budget(tmp_path):
    class Big(tf.Module):
        def __init__(self):
            super().__init__()
            self.v = tf.Variable(tf.ones([3 * 2 ** 20]))  # 12 MiB

        @tf.function
        def f(self, x):
            return tf.reduce_sum(self.v) + x

    m = Big()
    m.f(tf.constant(1.0))
    tf.saved_model.save(m, tmp_path / "big")
    with pytest.raises(SavedModelError, match="max_array_bytes"):
        tf.saved_model.load(tmp_path / "big", max_array_bytes=2 ** 20)
    loaded = tf.saved_model.load(tmp_path / "big", max_array_bytes=2 ** 24)
    assert float(loaded.f(tf.constant(1.0))) == 3 * 2 ** 20 + 1
