"""The compiler's fast paths.  Very large graphs compile as a chain of part functions, and
parts alike in all but the compiler's names share one compile (runtime/shared_parts.py):
values, error reports and the line mapping must be exactly those of compiling every part's
own text.  Operator lines take constant scalars as numpy scalars."""

from __future__ import annotations

import sys

import numpy as np
import pytest

import tfgraph_edu as tf
from tfgraph_edu.runtime import compiled, shared_parts


@pytest.fixture
def compiled_texts(monkeypatch):
    """Small parts, and the texts CPython is actually asked to compile."""
    monkeypatch.setattr(compiled, "CHUNK", 3)
    seen: list[str] = []

    def spy(text, *args, **kwargs):
        seen.append(text)
        return compile(text, *args, **kwargs)

    monkeypatch.setattr(shared_parts, "compile", spy, raising=False)
    return seen


def _unrolled():
    @tf.function
    def f(x, i):
        for k in range(8):
            x = tf.squeeze(tf.expand_dims(x, k % 2), axis=k % 2) * 0.5 + float(k)
            x = x + tf.gather(x, i + k)
        return x
    return f


def _reference(x, i):
    x = x.astype(np.float32)
    for k in range(8):
        x = x * np.float32(0.5) + np.float32(k)
        x = x + x[i + k]
    return x


def test_alike_parts_compile_once_and_compute_the_same(compiled_texts):
    f = _unrolled()
    x = np.arange(12, dtype=np.float32)
    for i in (0, 2, 4):
        np.testing.assert_array_equal(f(tf.constant(x), tf.constant(i)).numpy(),
                                      _reference(x, i))
    cg = f.get_concrete_function(tf.constant(x), tf.constant(0)).compiled
    parts = cg.code.count("_part") // 2  # each part: its def line and its call
    assert parts > 10
    defined = sum(text.count("\ndef ") for text in compiled_texts)
    assert defined < parts  # some parts were not compiled from their text


def test_an_error_in_a_shared_part_names_its_own_node(compiled_texts):
    f = _unrolled()
    x = tf.constant(np.arange(12, dtype=np.float32))
    f(x, tf.constant(0))
    assert sum(text.count("\ndef ") for text in compiled_texts) < \
        f.get_concrete_function(x, tf.constant(0)).compiled.code.count("_part") // 2
    for i, node in ((5, "GatherV2_7"), (6, "GatherV2_6"), (10, "GatherV2_2")):
        with pytest.raises(tf.errors.InvalidArgumentError) as info:
            f(x, tf.constant(i))
        assert f"[[{{{{node {node}}}}}]]" in str(info.value)
        assert "= 12 is not in [0, 12)" in str(info.value)


def test_every_part_runs_its_own_lines_and_names(monkeypatch):
    """Each part function's code has its own name, first line, variable and global names,
    and an error raised in it reports its own line of the full text."""
    bodies = ["v1 = k1(a0, n=(0,))", "v2 = k2(v1, n=(1,))", "v3 = k3(v2, n=(0,))",
              "v4 = k4(v3, n=(0,))",  # alike to the part before: shared
              "v5 = k5(v4, c5=c7)", "v6 = k6(v5, c9=c8)",  # keyword names are not names
              "v7 = k7(v6, c7, c7)", "v8 = k8(v7, c7, c8)"]  # not one to one: c7 -> c7, c8
    lines, parts, calls = [], [], []
    for j, body in enumerate(bodies):
        parts.append((f"g_part{j}", len(lines), len(lines) + 3))
        lines += [f"def g_part{j}({'a0' if j == 0 else f'v{j}'}):", "    " + body,
                  f"    return (v{j + 1},)"]
    lines += ["def g(a0):", *(f"    (v{j + 1},) = g_part{j}({'a0' if j == 0 else f'v{j}'})"
                              for j in range(len(bodies))), "    return [v8]"]

    def kernel(tag):
        def run(*args, **kw):
            calls.append((tag, args, kw))
            if args[0] == "fail":
                raise ValueError(tag)
            return args[0]
        return run

    seen: list[str] = []
    monkeypatch.setattr(shared_parts, "compile",
                        lambda text, *a: seen.append(text) or compile(text, *a), raising=False)
    ns = {f"k{j}": kernel(f"k{j}") for j in range(1, 9)}
    ns.update(c7=7, c8=8)
    shared_parts.compile_module(lines, parts, "<test parts>", ns)
    assert seen[0].count("def ") == len(bodies)  # all but one part, and g
    assert ns["g"]("x") == ["x"]
    assert calls == [("k1", ("x",), {"n": (0,)}), ("k2", ("x",), {"n": (1,)}),
                     ("k3", ("x",), {"n": (0,)}), ("k4", ("x",), {"n": (0,)}),
                     ("k5", ("x",), {"c5": 7}), ("k6", ("x",), {"c9": 8}),
                     ("k7", ("x", 7, 7), {}), ("k8", ("x", 7, 8), {})]
    for j, (name, first, _) in enumerate(parts):
        code = ns[name].__code__
        assert (code.co_name, code.co_firstlineno) == (name, first + 1)
        assert code.co_varnames == (lines[first][len(name) + 5:-2], f"v{j + 1}")
    # g_part3 is g_part2's code with its names swapped: it fails on its own line 11
    try:
        ns["g_part3"]("fail")
    except ValueError:
        tb = sys.exc_info()[2].tb_next  # the frame of g_part3 (then the kernel's)
        assert tb.tb_frame.f_code.co_name == "g_part3"
        assert tb.tb_lineno == 11 and tb.tb_frame.f_locals == {"v3": "fail"}
    else:
        raise AssertionError("g_part3 did not call k4")


def test_parts_differing_in_more_than_names_are_compiled_from_their_text(monkeypatch):
    seen: list[str] = []
    monkeypatch.setattr(shared_parts, "compile",
                        lambda text, *a: seen.append(text) or compile(text, *a), raising=False)
    lines = ["def g_part0(a0):", "    v1 = a0 + 1", "    return (v1,)",
             "def g_part1(v1):", "    v2 = v1 + 2", "    return (v2,)",
             "def g_part2(v2):", "    v3 = v2 + c1", "    return (v3,)",
             "def g_part3(v3):", "    v4 = v3 + c3", "    return (v4,)",
             "def g(a0):", "    (v1,) = g_part0(a0)", "    (v2,) = g_part1(v1)",
             "    (v3,) = g_part2(v2)", "    (v4,) = g_part3(v3)", "    return [v4]"]
    ns = {"c1": 10, "c3": 1000}
    shared_parts.compile_module(lines, [(f"g_part{j}", 3 * j, 3 * j + 3) for j in range(4)],
                                "<test parts 2>", ns)
    assert ns["g"](0) == [1013]
    assert seen[0].count("def ") == 4  # g_part3 alone was alike (to g_part2)


def test_a_constant_scalar_operand_is_a_numpy_scalar():
    """Operator lines read a scalar constant as a numpy scalar (no array in scalar work);
    an operand that is not a constant keeps its name."""
    @tf.function
    def f(x):
        return x * 2.0 + x

    cg = f.get_concrete_function(tf.constant(1.5)).compiled
    mul, add = [line for line in cg.code.splitlines() if " * " in line or " + " in line]
    const = mul.split(" * ")[1]
    assert isinstance(cg._namespace[const], np.float32)  # a scalar, not a 0-d array
    assert add.split(" = ")[1] == f"{mul.split()[0]} + a0"
    assert float(f(tf.constant(1.5))) == 4.5
