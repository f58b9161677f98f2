"""Differential tests: every function gives the same result run three ways - plain Python on
Python numbers, eagerly on tensors, and converted by AutoGraph inside tf.function - and
hypothesis writes more such programs."""

from __future__ import annotations

import collections
import functools
import itertools
import linecache

import numpy as np
import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

import tfgraph_edu as tf

from .programs import CASES, RETURN_IN_TENSOR_LOOP, TENSOR_ONLY

PARAMS = [pytest.param(fn, args, id=f"{fn.__name__}-{i}")
          for fn, inputs in CASES for i, args in enumerate(inputs)]


def _tensor(v):
    return tf.constant(v, tf.float32 if isinstance(v, float) else tf.int32)


def _value(x):
    return np.asarray(x.numpy() if hasattr(x, "numpy") else x, dtype=np.float64)


@pytest.mark.parametrize("fn,args", PARAMS)
def test_python_eager_and_graph_agree(fn, args):
    want = _value(fn(*args))
    eager = _value(fn(*[_tensor(a) for a in args]))
    graph = _value(tf.function(fn)(*[_tensor(a) for a in args]))
    np.testing.assert_allclose(eager, want, rtol=1e-5)
    np.testing.assert_allclose(graph, want, rtol=1e-5)


@pytest.mark.parametrize("fn,inputs", RETURN_IN_TENSOR_LOOP,
                         ids=[f.__name__ for f, _ in RETURN_IN_TENSOR_LOOP])
def test_return_in_a_tensor_loop_is_python_eagerly_and_refused_traced(fn, inputs):
    for args in inputs:
        want = _value(fn(*args))
        np.testing.assert_allclose(_value(fn(*[_tensor(a) for a in args])), want)
        # TensorFlow 2.21 gives NotImplementedError: a return statement cannot be placed
        # inside this TensorFlow loop
        with pytest.raises(NotImplementedError, match="cannot be placed inside this TensorFlow"):
            tf.function(fn)(*[_tensor(a) for a in args])


@pytest.mark.parametrize("fn,inputs,reference", TENSOR_ONLY,
                         ids=[f.__name__ for f, _, _ in TENSOR_ONLY])
def test_loops_over_tf_range(fn, inputs, reference):
    g = tf.function(fn)
    for (n,) in inputs:
        assert int(g(tf.constant(n))) == reference(n) == int(fn(tf.constant(n)))
    assert g.experimental_get_tracing_count() == 1
    types = [op.type for op in g.concrete_functions[0].graph.get_operations()]
    assert "StatelessWhile" in types


def test_one_graph_serves_every_input():
    g = tf.function(CASES[6][0])  # collatz: a while loop with an if inside
    for n in (27, 1, 6, 97):
        assert int(g(tf.constant(n))) == CASES[6][0](n)
    assert g.experimental_get_tracing_count() == 1


def test_print_in_branches_eager_per_call_graph_at_trace(capsys):
    def f(x):
        if x > 0:
            print("positive")
            tf.print("run: positive")
            y = x
        else:
            print("not positive")
            tf.print("run: not positive")
            y = -x
        return y

    for v in (1, -1):
        f(tf.constant(v))
    eager = capsys.readouterr()
    assert eager.out == "positive\nnot positive\n"
    assert eager.err == "run: positive\nrun: not positive\n"
    g = tf.function(f)
    for v in (1, -1, 2):
        g(tf.constant(v))
    graph = capsys.readouterr()
    assert graph.out == "positive\nnot positive\n"  # both branches traced, once
    assert graph.err == "run: positive\nrun: not positive\nrun: positive\n"


# -- hypothesis writes programs ----------------------------------------------------------------
# The program generator writes functions of (a, b) in the shapes issue 12 lists: nested tensor
# loops with returns at any depth, composite names (d['k']) in branches and loops, zero-trip
# loops, parameters reassigned in loops, a functools.wraps decorator, a Python int that becomes
# a tensor loop variable, and the syntax list (annotations, walrus, lambdas with defaults in
# loops, try/finally, del).  Each runs four ways (see run_four).
VARS = ("a", "b", "c", "d['k']")
_counter = itertools.count()
PROGRAMS_RUN = collections.Counter()  # mode of agreement -> programs (for the closing note)


@st.composite
def expressions(draw, depth=0):
    if depth > 1 or draw(st.booleans()):
        return draw(st.sampled_from(VARS + ("1", "2", "3")))
    op = draw(st.sampled_from(["+", "-", "*"]))
    return f"({draw(expressions(depth + 1))} {op} {draw(expressions(depth + 1))})"


@st.composite
def statements(draw, indent=1, depth=0, in_loop=False):
    pad = "    " * indent
    simple = ["assign", "assign", "aug", "annotated", "walrus", "delete"]
    kinds = simple + (["if", "while", "for", "for", "return", "try", "pyfor",
                       # issue 22: del or None in both branches, an elif chain
                       "del_both", "none_both", "elif"] if depth < 3 else [])
    if not in_loop and depth < 3:
        kinds.append("return_finally")  # issue 22: a return inside finally
    if in_loop:
        # issue 22: returns TF converts in a tensor loop (on every path through the body)
        kinds += ["break", "continue", "lambda", "return_always", "return_both"]
    # issue 22: sparse and ragged loop state (sp, rg), a loop over a ragged tensor's rows
    kinds += ["sparse", "sparse_read", "ragged", "ragged_rows"] + (
        ["sparse_grow"] if depth > 0 else [])
    kind = draw(st.sampled_from(kinds))
    var = draw(st.sampled_from(VARS))
    if kind == "assign":
        return [f"{pad}{var} = {draw(expressions())} % 97"]
    if kind == "aug":
        return [f"{pad}{var} += {draw(st.integers(1, 3))}", f"{pad}{var} = {var} % 97"]
    if kind == "annotated":
        return [f"{pad}c: int = {draw(expressions())} % 97"]
    if kind == "walrus":
        return [f"{pad}if (w := {draw(expressions())} % 97) > {draw(st.integers(0, 40))}:",
                f"{pad}    {var} = w"]
    if kind == "sparse":  # nnz grows, the dense shape stays: a loop variable as in TF
        return [f"{pad}sp = tf.sparse.add(sp, tf.sparse.SparseTensor("
                f"[[{draw(st.integers(0, 2))}, {draw(st.integers(0, 3))}]], [{var} % 7], [3, 4]))"]
    if kind == "sparse_read":
        return [f"{pad}{var} = ({var} + tf.sparse.reduce_sum(sp)) % 97"]
    if kind == "sparse_grow":  # the dense shape changes: TF refuses it in a tensor loop
        return [f"{pad}sp = tf.sparse.concat(0, [sp, sp])"]
    if kind == "ragged":
        return [f"{pad}rg = rg * {draw(st.integers(1, 3))} % 97"]
    if kind == "ragged_rows":  # a loop over the rows: a tensor loop when traced
        return [f"{pad}for row in rg:", f"{pad}    {var} = ({var} + tf.reduce_sum(row)) % 97"]
    if kind == "delete":
        return [f"{pad}tmp = {draw(expressions())}", f"{pad}del tmp"]
    if kind == "lambda":  # issue 22: a default may read loop state (`lambda v, m=c: ...`)
        default = draw(st.sampled_from(["1", "2", "3"] + list(VARS)))
        return [f"{pad}f = lambda v, m={default}: v * m",
                f"{pad}{var} = f({var}) % 97"]
    if kind in ("break", "continue", "return"):
        jump = "return a, b, c, d['k']" if kind == "return" else kind
        return [f"{pad}if {var} > {draw(st.integers(-5, 50))}:", f"{pad}    {jump}"]
    if kind in ("del_both", "none_both", "elif"):
        conds = [f"{draw(st.sampled_from(VARS))} {draw(st.sampled_from(['<', '>', '==']))} "
                 f"{draw(expressions())}" for _ in range(draw(st.integers(2, 4)))]
        if kind == "del_both":  # tmp deleted in both branches; read after only sometimes
            out = [f"{pad}tmp = {draw(expressions())}", f"{pad}if {conds[0]}:",
                   f"{pad}    del tmp", f"{pad}    {var} = ({var} + 1) % 97", f"{pad}else:",
                   f"{pad}    del tmp"]
            if draw(st.integers(0, 3)) == 0:  # TF refuses: 'tmp' must also be initialized
                out.append(f"{pad}{var} = tmp % 97")
            return out
        if kind == "none_both":  # TF refuses a tensor if whose output is None in a branch
            return [f"{pad}n = {var}", f"{pad}if {conds[0]}:", f"{pad}    n = None",
                    f"{pad}else:", f"{pad}    n = None", f"{pad}if n is None:",
                    f"{pad}    {var} = ({var} + 2) % 97"]
        out = []
        for k, cond in enumerate(conds):
            out.append(f"{pad}{'if' if k == 0 else 'elif'} {cond}:")
            out += draw(statements(indent + 1, depth + 1, in_loop))
        return out + [f"{pad}else:"] + draw(statements(indent + 1, depth + 1, in_loop))
    if kind == "return_finally":
        # simple statements only: a return in finally swallows any error raised while the
        # body is traced (Python's rule, TF's too), so the modes would differ for that reason
        body = [f"{pad}    {draw(st.sampled_from(VARS))} = {draw(expressions())} % 97"
                for _ in range(draw(st.integers(1, 2)))]
        return [f"{pad}try:"] + body + [f"{pad}finally:", f"{pad}    e = e + 1",
                                        f"{pad}    return a, b, c, d['k']"]
    if kind == "return_always":
        return [f"{pad}return a, b, c, d['k']"]
    if kind == "return_both":
        return [f"{pad}if {var} > {draw(st.integers(-5, 50))}:", f"{pad}    return a, b, c, d['k']",
                f"{pad}else:", f"{pad}    return b, a, c, d['k']"]
    body = [ln for _ in range(draw(st.integers(1, 2)))
            for ln in draw(statements(indent + 1, depth + 1,
                                      in_loop or kind in ("while", "for")))]
    if kind == "try":
        return [f"{pad}try:"] + body + [f"{pad}finally:", f"{pad}    e = e + 1"]
    cmp = draw(st.sampled_from(["<", ">", "<=", ">=", "==", "!="]))
    cond = f"{var} {cmp} {draw(expressions())}"
    if kind == "if":
        out = [f"{pad}if {cond}:"] + body
        if draw(st.booleans()):
            out += [f"{pad}else:"] + draw(statements(indent + 1, depth + 1, in_loop))
        return out
    if kind == "for":
        bound = draw(st.sampled_from(["0", "1", "3", "a % 3", "b % 4"]))  # may not iterate
        out = [f"{pad}for i{depth} in tf.range({bound}):", f"{pad}    e += 1"] + body
    elif kind == "pyfor":  # a Python loop (unrolled); a tensor break or return in it is refused
        out = [f"{pad}for p{depth} in range({draw(st.integers(0, 2))}):"] + body
    else:
        k = draw(st.integers(0, 4))
        counter = f"j{depth}"
        out = ([f"{pad}{counter} = tf.constant(0)", f"{pad}while {counter} < {k}:",
                f"{pad}    {counter} += 1"] + body)
    if draw(st.integers(0, 7)) == 0:  # issue 22: TF does not convert a function with a loop-else
        out += [f"{pad}else:"] + draw(statements(indent + 1, depth + 1, in_loop))
    return out


@st.composite
def programs(draw):
    lines = []
    if draw(st.booleans()):
        lines.append("@shift")
    lines += ["def prog(a, b):", "    c = a - b", "    d = {'k': b}", "    e = 0",
              "    sp = tf.sparse.SparseTensor([[0, 0]], [1], [3, 4])",
              "    rg = tf.ragged.constant([[1, 2], [3]])"]
    for _ in range(draw(st.integers(1, 4))):
        lines += draw(statements())
    lines.append("    return a, b, c, d['k']")
    return "\n".join(lines) + "\n"


def shift(fn):
    """A decorator of the functools.wraps kind: its own behaviour must survive tf.function."""
    @functools.wraps(fn)
    def wrapper(a, b):
        return tuple(v + 1 for v in fn(a, b))
    return wrapper


# what TensorFlow refuses too: a value (or a return) in only one branch of a tensor if, or a
# loop variable first created in the loop that its probe cannot type
TF_REFUSALS = ("must also have a return statement", "must also be initialized",
               # issue 22, as TF 2.21: a loop that must set the return value runs zero times;
               # a break or return on a tensor in a Python loop; a function with a loop-else is
               # not converted, so a tensor condition in it is Python's (refused)
               "loop must iterate at least once to initialize",
               "the return value from a TensorFlow loop may only be",
               # TF 2.21 too: a `finally` reads a value of a loop body that raised
               "which is out of scope",
               "depend on a TF condition are not supported in Python for loops",
               "started as non-Tensor, then changed to Tensor",
               "as a Python `bool` is not allowed", "Iterating over a symbolic `tf.Tensor`",
               "must be defined before the loop",
               # TF 2.21 refuses a return inside a tensor loop (NotImplementedError)
               "cannot be placed inside this TensorFlow loop",
               # issue 22, TF 2.21 too: an if output None in a branch (`n = None` in both)
               "is None at the end of the",
               # TF 2.21 too: a name deleted in both branches of a Python `if` inside a
               # tensor branch, read afterwards (UnboundLocalError)
               "is used before assignment",
               # issue 22, TF 2.21 too: a SparseTensor whose dense shape changes in a loop
               "before the loop, but shape",
               # TF 2.21 too: a sparse add of shapes [6, 4] and [3, 4] after a sparse_grow;
               # the static check after the op (eagerly the kernel's InvalidArgumentError first)
               "(6, 4) and (3, 4) are incompatible",
               # TF 2.21 too: a loop-else leaves the function unconverted, so Python iterates a
               # symbolic RaggedTensor row by row past its last row (ValueError)
               "of dimension 0 out of bounds")


def _outcome(call):
    try:
        return "ok", tuple(int(v) for v in call())
    except Exception as exc:  # noqa: BLE001 - the class is what is compared
        return "error", type(exc), str(exc)


def run_four(source, a, b):
    """The program run as plain Python, eagerly (run_functions_eagerly), traced, and traced
    with the optimiser off: {mode: ("ok", values) or ("error", class, message)}."""
    filename = f"<hypothesis-program-{next(_counter)}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    namespace: dict = {"tf": tf, "shift": shift}
    exec(compile(source, filename, "exec"), namespace)  # noqa: S102 - generated test program
    reference: dict = {"shift": shift, "tf": tf}
    exec(source.replace("tf.range", "range").replace("tf.constant(0)", "0"), reference)  # noqa: S102
    prog = namespace["prog"]
    ta, tb = tf.constant(a), tf.constant(b)
    out = {"python": _outcome(lambda: reference["prog"](a, b))}
    tf.config.run_functions_eagerly(True)
    try:
        out["eager"] = _outcome(lambda: tf.function(prog)(ta, tb))
    finally:
        tf.config.run_functions_eagerly(False)
    out["traced"] = _outcome(lambda: tf.function(prog)(ta, tb))
    before = tf.config.optimizer.get_experimental_options()
    tf.config.optimizer.set_experimental_options({"disable_meta_optimizer": True})
    try:
        out["unoptimised"] = _outcome(lambda: tf.function(prog)(ta, tb))
    finally:
        tf.config.optimizer.set_experimental_options(
            {"disable_meta_optimizer": before.get("disable_meta_optimizer", False)})
    return out


def check_four(source, a, b):
    """All four agree; or both graph modes raise the same TF error class for a program TF
    refuses too (then the program is not counted as agreeing)."""
    out = run_four(source, a, b)
    traced, unopt = out["traced"], out["unoptimised"]
    assert traced[:2] == unopt[:2], (source, out)
    if traced[0] == "error":
        refused = any(r in traced[2] for r in TF_REFUSALS)
        assert refused, (source, out)
        PROGRAMS_RUN["refused as TF refuses"] += 1
        return False
    assert out["python"] == out["eager"] == traced, (source, out)
    PROGRAMS_RUN["four agree"] += 1
    return True


WALRUS_AFTER_A_LOOP = (  # found with 600 programs: the walrus writes w before it is read
    "def prog(a, b):\n    j0 = tf.constant(0)\n    while j0 < 0:\n        j0 += 1\n"
    "        if (w := a % 97) > 0:\n            a = w\n    if (w := a % 97) > 0:\n"
    "        a = w\n    return a, b\n")


SPARSE_ADD_AFTER_GROW = (  # drawn on Python 3.10: eagerly the kernel's error, traced the static one
    "def prog(a, b):\n    sp = tf.sparse.SparseTensor([[0, 0]], [1], [3, 4])\n"
    "    if a < (a + (a + a)):\n        sp = tf.sparse.concat(0, [sp, sp])\n"
    "        sp = tf.sparse.add(sp, tf.sparse.SparseTensor([[0, 0]], [a % 7], [3, 4]))\n"
    "    return a, b\n")


@settings(max_examples=80, deadline=None)
@given(programs(), st.integers(-20, 20), st.integers(-20, 20))
@example(source=WALRUS_AFTER_A_LOOP, a=0, b=0)
@example(source=SPARSE_ADD_AFTER_GROW, a=4, b=0)
def test_generated_programs(source, a, b):
    assume(check_four(source, a, b))


REGRESSIONS = [
    # a loop variable that is itself loop-invariant (hoisting must pass it through)
    "def prog(a, b):\n    c = a - b\n    d = {'k': b}\n    for i0 in tf.range(1):\n"
    "        a = b % 97\n    return a, b, c, d['k']\n",
    # continue and break in nested tensor loops (flags are not carried by the outer loop)
    "def prog(a, b):\n    c = a - b\n    d = {'k': b}\n    for i0 in tf.range(2):\n"
    "        for i1 in tf.range(3):\n            if a > i1:\n                continue\n"
    "            if b > i1:\n                break\n            c = c + i1\n"
    "    return a, b, c, d['k']\n",
    # a composite name set in a tensor if and a tensor loop
    "def prog(a, b):\n    c = a - b\n    d = {'k': b}\n    if a > 0:\n        d['k'] = 1\n"
    "    else:\n        d['k'] = -1\n    for i0 in tf.range(b % 4):\n"
    "        d['k'] = d['k'] * 2 % 97\n    return a, b, c, d['k']\n",
    # a decorated program whose loop never iterates
    "@shift\ndef prog(a, b):\n    c = a - b\n    d = {'k': b}\n    e = 0\n"
    "    for i0 in tf.range(0):\n        e += 1\n        a = a * 0\n    return a, b, c, d['k']\n",
]


@pytest.mark.parametrize("source", REGRESSIONS)
@pytest.mark.parametrize("a,b", [(0, 0), (-1, 5), (2, 1)])
def test_programs_found_by_the_generator(source, a, b):
    assert check_four(source, a, b)


RETURNS_TF_CONVERTS = [  # issue 22: TF 2.21 converts these (the return is on every path)
    "def prog(a, b):\n    c = a - b\n    d = {'k': b}\n    for i0 in tf.range(a % 3 + 1):\n"
    "        c = c + i0\n        return a, b, c, d['k']\n    return a, b, c, d['k']\n",
    "def prog(a, b):\n    c = a - b\n    d = {'k': b}\n    j0 = tf.constant(0)\n"
    "    while j0 < 4:\n        j0 += 1\n        for i1 in tf.range(2):\n"
    "            if a > i1:\n                return a, b, c, d['k']\n            else:\n"
    "                return b, a, c, d['k']\n    return a, b, c, d['k']\n",
]


@pytest.mark.parametrize("source", RETURNS_TF_CONVERTS)
@pytest.mark.parametrize("a,b", [(0, 0), (-1, 5), (2, 1)])
def test_returns_tf_converts_in_tensor_loops(source, a, b):
    assert check_four(source, a, b)


RETURNS_IN_TENSOR_LOOPS = [
    # a return of a tuple inside a tensor loop
    "def prog(a, b):\n    c = a - b\n    d = {'k': b}\n    for i0 in tf.range(3):\n"
    "        if a < 0:\n            return a, b, c, d['k']\n    return a, b, c, d['k']\n",
    # a return two tensor loops deep
    "def prog(a, b):\n    c = a - b\n    d = {'k': b}\n    for i0 in tf.range(3):\n"
    "        for i1 in tf.range(2):\n            c = c + 1\n            if c > 0:\n"
    "                return a, b, c, d['k']\n    return a, b, c, d['k']\n",
]


@pytest.mark.parametrize("source", RETURNS_IN_TENSOR_LOOPS)
@pytest.mark.parametrize("a,b", [(0, 0), (-1, 5), (2, 1)])
def test_returns_in_tensor_loops_are_refused_when_traced(source, a, b):
    # TensorFlow 2.21 gives NotImplementedError ("a return statement cannot be placed inside
    # this TensorFlow loop") for both programs traced; eagerly they are Python's loops
    out = run_four(source, a, b)
    assert out["python"] == out["eager"]
    for mode in ("traced", "unoptimised"):
        assert out[mode][:2] == ("error", NotImplementedError), out
