"""Names of TensorFlow 2.21 that tfgraph_edu does not implement say so; names TensorFlow does
not have either give TensorFlow's own message.  The expected texts of the second kind were
recorded from TensorFlow 2.21 (``tf.sortt``: "module 'tensorflow' has no attribute 'sortt'";
``tf.math.foo``: "module 'tensorflow._api.v2.math' has no attribute 'foo'")."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import tfgraph_edu as tf
from tfgraph_edu import _missing

NAMES = json.loads((Path(tf.__file__).parent / "_data" / "tf_names.json").read_text())


def _message(full: str) -> str:
    return (f"tfgraph_edu does not implement tf.{full} yet (TensorFlow 2.21 has it; see the "
            "README for what is implemented)")


def test_the_names_were_recorded_from_tensorflow_2_21():
    assert NAMES["tensorflow_version"] == "2.21.0"
    spaces = NAMES["namespaces"]
    for ns in ("", "math", "nn", "linalg", "random", "strings", "sparse", "ragged", "data",
               "data.experimental", "debugging", "config", "io", "image", "signal", "sets",
               "train", "autograph", "experimental", "saved_model", "summary", "distribute",
               "queue"):
        assert spaces[ns], ns
    assert "sort" in spaces[""] and "top_k" in spaces["math"] and "keras" not in spaces[""]


@pytest.mark.parametrize("expr,full", [
    ("tf.fingerprint", "fingerprint"),  # top-level names TF has
    ("tf.math.bessel_i0", "math.bessel_i0"),
    ("tf.nn.ctc_loss", "nn.ctc_loss"),
    ("tf.signal.fft", "signal.fft"),  # a whole namespace tfgraph_edu lacks
    ("tf.queue.PaddingFIFOQueue", "queue.PaddingFIFOQueue"),  # FIFOQueue is implemented
    ("tf.data.experimental.TFRecordWriter", "data.experimental.TFRecordWriter"),
    ("tf.raw_ops.AddV2", "raw_ops.AddV2"),
])
def test_a_name_tensorflow_has_says_it_is_not_implemented(expr, full):
    with pytest.raises(AttributeError) as info:
        eval(expr, {"tf": tf})
    assert str(info.value) == _message(full)


@pytest.mark.parametrize("expr,text", [
    ("tf.sortt", "module 'tensorflow' has no attribute 'sortt'"),
    ("tf.math.foo", "module 'tensorflow._api.v2.math' has no attribute 'foo'"),
    ("tf.sets.foo", "module 'tensorflow._api.v2.sets' has no attribute 'foo'"),
    ("tf.data.experimental.foo",
     "module 'tensorflow._api.v2.data.experimental' has no attribute 'foo'"),
])
def test_a_name_tensorflow_lacks_gets_tensorflows_message(expr, text):
    with pytest.raises(AttributeError) as info:
        eval(expr, {"tf": tf})
    assert str(info.value) == text


def test_hasattr_is_false_for_what_is_missing_and_a_missing_namespace_is_one_object():
    assert not hasattr(tf, "fingerprint") and not hasattr(tf.math, "bessel_i0")
    assert hasattr(tf, "signal") and tf.signal is tf.signal
    assert not hasattr(tf.signal, "fft")
    assert "not implemented yet" in repr(tf.signal)
    with pytest.raises(ImportError):
        exec("from tfgraph_edu import fingerprint", {})


def test_private_names_keep_pythons_message():
    with pytest.raises(AttributeError, match="module 'tfgraph_edu' has no attribute '_nope'"):
        tf._nope  # noqa: B018
    with pytest.raises(AttributeError, match="has no attribute '__wrapped__'"):
        tf.math.__wrapped__  # noqa: B018


def _resolve(path: str):
    obj = tf
    for part in filter(None, path.split(".")):
        obj = getattr(obj, part)
    return obj


def test_every_recorded_name_resolves_or_says_it_is_missing():
    resolved = missing = 0
    for ns, names in NAMES["namespaces"].items():
        module = _resolve(ns)
        for name in names:
            full = f"{ns}.{name}" if ns else name
            try:
                getattr(module, name)
                resolved += 1
            except AttributeError as e:
                assert str(e) == _message(full), full
                missing += 1
    assert resolved > 250 and missing > 2000  # printed with -s: how much of TF is here
    print(f"\n{resolved} of TensorFlow 2.21's names resolve, {missing} say they are missing")


def test_version_follows_tensorflow_2_21():
    # TensorFlow 2.21 prints "2.21.0" for both
    assert tf.__version__ == "2.21.0" and tf.version.VERSION == "2.21.0"
    major, minor = (int(p) for p in tf.__version__.split(".")[:2])
    assert (major, minor) >= (2, 0)  # the check course notebooks make
    assert re.fullmatch(r"\d+\.\d+\.\d+", tf.__version__)


def test_importing_does_not_read_the_names_file():
    code = ("import tfgraph_edu, tfgraph_edu._missing as m; "
            "print(m._spaces.cache_info().misses)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=Path(tf.__file__).parents[1])
    assert out.stdout.strip() == "0"
    assert _missing.TF_VERSION == "2.21.0"
