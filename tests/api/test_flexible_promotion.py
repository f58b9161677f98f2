"""tnp.experimental_enable_numpy_behavior(dtype_conversion_mode='all'|'safe'): TF's flexible
type promotion with weak tensors. The lattice is checked pair by pair against
tests/fixtures/real_tf/flexible_promotion_tf221.json (tf.add of every pair of dtypes, strong
and weak, recorded from TF 2.21 by make_flexible_promotion.py); the other values were recorded
from TF 2.21 running the tf_numpy_type_promotion guide's cells."""

import json
from pathlib import Path

import numpy as np
import pytest

import tfgraph_edu as tf
from tfgraph_edu._api import numpy_api
from tfgraph_edu.ops import numpy_behavior

tnp = tf.experimental.numpy
RECORDED = json.loads((Path(__file__).parents[1] / "fixtures" / "real_tf" /
                       "flexible_promotion_tf221.json").read_text())


@pytest.fixture
def mode():
    def switch(name):
        tnp.experimental_enable_numpy_behavior(dtype_conversion_mode=name)
    yield switch
    numpy_api._disable_numpy_behavior()


def _operand(code):
    name = code.rstrip("*")
    t = tf.constant(True) if name == "bool" else tf.constant(np.array(1, dtype=name))
    return numpy_behavior.mark_weak(t) if code.endswith("*") else t


def _outcome(a, b):
    """The dtype tf.add gives (run where the engine's AddV2 takes it; complex results are
    checked as the operands' promoted dtype, the engine's AddV2 has no complex kernel)."""
    x, y = _operand(a), _operand(b)
    try:
        if a == b == "bool":
            r = tf.math.logical_or(x, y)
        elif "complex" in a + b:
            x, y, weak = numpy_behavior.flexible_operands(x, y)
            return x.dtype.name + ("*" if weak else "")
        else:
            r = tf.add(x, y)
    except TypeError:
        return "TypeError"
    return r.dtype.name + ("*" if numpy_behavior.is_weak(r) else "")


@pytest.mark.parametrize("name", ["all", "safe"])
def test_lattice_is_tfs(mode, name):
    mode(name)
    wrong = {}
    for pair, want in RECORDED[name].items():
        a, b = pair.split("+")
        got = _outcome(a, b)
        if got != want:
            wrong[pair] = (got, want)
    assert not wrong
    assert len(RECORDED[name]) == 17 * 17


def test_python_values_make_weak_constants(mode):
    mode("all")
    for text, want in RECORDED["constants"].items():
        t = tf.constant(eval(text, {"np": np}))  # noqa: S307 - the fixture's own literals
        assert t.dtype.name + ("*" if numpy_behavior.is_weak(t) else "") == want, text


def test_guide_cells(mode):
    # recorded from TF 2.21 (the tf_numpy_type_promotion guide)
    mode("all")
    assert repr(tf.constant(10, tf.int32) + tf.constant(5.0, tf.float32)) == \
        "<tf.Tensor: shape=(), dtype=float32, numpy=15.0>"
    assert repr(tf.constant(5)) == "<tf.Tensor: shape=(), dtype=int32, numpy=5, weak=True>"
    assert str(tf.constant(5)) == "tf.Tensor(5, shape=(), dtype=int32, weak=True)"
    assert repr(-tf.constant(5)) == "<tf.Tensor: shape=(), dtype=int32, numpy=-5, weak=True>"
    assert repr(tf.math.abs([100.0, 4.0])) == ("<tf.Tensor: shape=(2,), dtype=float32, numpy="
                                               "array([100.,   4.], dtype=float32), weak=True>")
    assert repr(tf.constant(5, tf.int32)) == "<tf.Tensor: shape=(), dtype=int32, numpy=5>"
    r = tf.constant(1, tf.int64) + tf.constant(3.2, tf.float16)
    assert r.dtype == tf.float16 and float(r) == 4.19921875
    r = tf.constant(1.2) + tf.constant(3.1, tf.float16)
    assert r.dtype == tf.float16 and float(r) == 4.30078125
    a, b, c = np.array(1, dtype=np.int8), tf.constant(1), np.array(1, dtype=np.float16)
    assert repr(tf.add(tf.add(a, b), c)) == "<tf.Tensor: shape=(), dtype=float16, numpy=3.0>"
    r = np.array(3.2, np.float16) + tf.constant(1, tf.int8) + tf.constant(50)
    assert r.dtype == tf.float16 and float(r) == 54.1875
    r = tf.constant(5, tf.int16) - tf.constant(1, tf.float32)
    assert repr(r) == "<tf.Tensor: shape=(), dtype=float32, numpy=4.0>"
    v = tf.Variable(10, tf.int32)
    assert repr(v.assign_add(tf.constant(5, tf.int16))) == \
        "<tf.Variable 'UnreadVariable' shape=() dtype=int32, numpy=15>"
    assert repr(tf.constant(tf.constant(10, tf.int16), tf.float32)) == \
        "<tf.Tensor: shape=(), dtype=float32, numpy=10.0>"
    assert repr(tnp.array(1)) == "<tf.Tensor: shape=(), dtype=int32, numpy=1, weak=True>"
    assert repr(tnp.array(1.0)) == "<tf.Tensor: shape=(), dtype=float32, numpy=1.0, weak=True>"
    assert repr(tf.add(1, 2.0)) == "<tf.Tensor: shape=(), dtype=float32, numpy=3.0, weak=True>"
    assert repr(tf.constant(1) / tf.constant(2)) == \
        "<tf.Tensor: shape=(), dtype=float64, numpy=0.5, weak=True>"


def test_safe_mode_refuses(mode):
    mode("safe")
    with pytest.raises(TypeError) as e:
        tf.constant(10, dtype=tf.int32) + tf.constant(5.0, dtype=tf.float32)
    # recorded from TF 2.21
    assert str(e.value) == (
        "In promotion mode PromoMode.SAFE, implicit dtype promotion between (<dtype: 'int32'>, "
        "weak=False) and (<dtype: 'float32'>, weak=False) is disallowed. You need to explicitly "
        "specify the dtype in your op, or relax your dtype promotion rules (such as from SAFE "
        "mode to ALL mode).")


def test_legacy_after_all_and_tf_add_with_numpy_first(mode):
    mode("all")
    mode("legacy")
    a, b, c = np.array(1, dtype=np.int8), tf.constant(1), np.array(1, dtype=np.float16)
    # recorded from TF 2.21: tf.add converts its first argument alone
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"input #1\(zero-based\) was expected to be a int8 tensor"):
        tf.add(tf.add(a, b), c)
    assert repr(tf.add(tf.add(b, a), c)) == "<tf.Tensor: shape=(), dtype=int32, numpy=3>"
    r = np.array(3.2, np.float16) + tf.constant(1, tf.int8) + tf.constant(50)
    assert r.dtype == tf.float64 and float(r) == 54.19921875
    assert repr(tf.constant(5)) == "<tf.Tensor: shape=(), dtype=int32, numpy=5>"


def test_numpy_values_cast_as_numpy_does():
    # recorded from TF 2.21 (no NumPy behaviour): NumPy values are cast, Python floats refused
    assert repr(tf.constant(np.array(300), tf.int8)) == \
        "<tf.Tensor: shape=(), dtype=int8, numpy=44>"
    assert repr(tf.constant(np.float64(1.5), tf.int32)) == \
        "<tf.Tensor: shape=(), dtype=int32, numpy=1>"
    assert repr(tf.add(tf.constant(1), np.array(1.5, np.float16))) == \
        "<tf.Tensor: shape=(), dtype=int32, numpy=2>"
    with pytest.raises(TypeError):
        tf.constant(1.5, tf.int32)


def test_what_is_not_implemented_says_so(mode):
    mode("all")
    with pytest.raises(NotImplementedError, match="dtype_conversion_mode='all'"):
        tf.function(lambda x: x + 1)(tf.constant(1.0))
    with pytest.raises(NotImplementedError, match="dtype_conversion_mode='all'"):
        tnp.sum(tnp.array([1, 2]) + tnp.array(1.5))
