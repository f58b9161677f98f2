"""tf.experimental.ExtensionType and the dispatch decorators against TF 2.21.

``tests/fixtures/extension_type/probe.py`` builds extension types (fields of tensors,
mappings, tuples of nested types, defaults), checks their reprs, specs, immutability,
validation and equality, carries them through tf.function (retracing by spec,
input_signature, concrete functions), tf.cond, tf.while_loop, AutoGraph loops and a
gradient, and dispatches tf.stack / unary / binary elementwise APIs to handlers.  Its output
under TF 2.21 was recorded once in ``tf_2_21.txt`` (``python probe.py tf`` in the check-tf
venv); the test runs it under tfgraph_edu and compares line by line (object addresses
masked).
"""

import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np

import tfgraph_edu as tf

HERE = Path(__file__).resolve().parents[1] / "fixtures" / "extension_type"
_ADDR = re.compile(r"0x[0-9a-f]+")


def _run(probe):
    env = {**os.environ, "PYTHONPATH": str(HERE.parents[2])}
    out = subprocess.run([sys.executable, str(HERE / probe)], capture_output=True,
                         text=True, timeout=300, check=True, env=env).stdout
    return [_ADDR.sub("0x", x) for x in out.splitlines()]


def _recorded(name):
    return [_ADDR.sub("0x", x) for x in (HERE / name).read_text().splitlines()]


def test_probe_prints_what_tf_2_21_printed():
    assert _run("probe.py") == _recorded("tf_2_21.txt")


def test_data_probe_prints_what_tf_2_21_printed():
    got, want = _run("data_probe.py"), _recorded("data_tf_2_21.txt")
    assert len(got) == len(want)
    for g, w in zip(got, want):
        # an error line may add the sentence that says how to fix it, after TF's own text
        assert g == w or (" !! " in w and g.startswith(w + " (")), (g, w)


class MT(tf.experimental.ExtensionType):
    values: tf.Tensor
    mask: tf.Tensor


def _masked_sum_sq(values):
    return tf.reduce_sum(tf.where(MT(values, [True, False, True]).mask, values * values, 0.0))


def test_gradient_through_an_extension_type_matches_central_differences():
    x0 = np.array([1.0, 2.0, 3.0], np.float32)
    for fn in (_masked_sum_sq, tf.function(_masked_sum_sq)):
        x = tf.constant(x0)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = fn(x)
        grad = tape.gradient(y, x).numpy()
        eps = 1e-2
        numeric = []
        for i in range(3):
            d = np.zeros(3, np.float32)
            d[i] = eps
            numeric.append((float(fn(tf.constant(x0 + d))) - float(fn(tf.constant(x0 - d))))
                           / (2 * eps))
        np.testing.assert_allclose(grad, numeric, rtol=1e-2, atol=1e-2)


def test_string_annotations_that_do_not_resolve_fail_as_in_tf():
    # recorded from TF 2.21: a class made in a namespace where `tf` is not a module global
    # (exec'd code with `from __future__ import annotations`) fails when a value is built
    ns = {"tf": tf}
    exec(compile("from __future__ import annotations\n"  # noqa: S102 - the test's own code
                 "class M(tf.experimental.ExtensionType):\n  values: tf.Tensor\n",
                 "<cell>", "exec"), ns)
    try:
        ns["M"]([1])
    except TypeError as e:
        assert str(e) == "values: Unsupported type annotation 'tf.Tensor'"
    else:
        raise AssertionError("no TypeError")


def test_map_fn_over_a_plain_extension_type_and_saved_model_refuse_honestly(tmp_path):
    from tfgraph_edu.saved_model.save import NotEncodableError
    m = MT([1, 2], [True, False])
    try:
        tf.map_fn(lambda x: x, m)
    except NotImplementedError as e:
        assert "tfgraph_edu" in str(e)
    else:
        raise AssertionError("no NotImplementedError")

    class Keep(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([2], tf.int32)])
        def wrap(self, x):
            return MT(x, tf.ones_like(x, tf.bool))
    class Take(tf.Module):
        @tf.function(input_signature=[MT.Spec(tf.TensorSpec(None, tf.int32),
                                              tf.TensorSpec(None, tf.bool))])
        def total(self, x):
            return tf.reduce_sum(x.values)
    # MT has no registered name (`__name__` in its body): TF 2.21 raises NotEncodableError
    # ("No encoder for object MT.Spec(...) of type <class '...MT.Spec'>.") on save
    for i, module in enumerate((Keep(), Take())):
        try:
            tf.saved_model.save(module, str(tmp_path / f"m{i}"))
        except NotEncodableError as e:
            assert str(e).startswith("No encoder for object MT.Spec(") and "__name__" in str(e)
        else:
            raise AssertionError("no NotEncodableError")
