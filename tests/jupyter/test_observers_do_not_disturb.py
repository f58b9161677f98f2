"""Instruments observe without disturbing: a cell run under ``%%trace``, then stepped in the
graph viewer, then checked by an exercise check leaves exactly the state and the printed
output that the cell alone leaves (issue 27).

Generated stateful programs (assign/assign_add/assign_sub on several variables, tf.print,
seeded random ops, optimizer steps, a py_function with a Python counter) run in a real
IPython shell, once plainly and once under each instrument; the variables, the optimizer's
variables, the Python counter, the next random numbers (global and op-seeded) and the
printed text must be identical.  Both isolation modes are checked: apart (a forked copy of
the kernel) and in place (snapshot and restore, declining ops it cannot undo).
"""

from __future__ import annotations

import contextlib
import io
import os

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from IPython.core.interactiveshell import InteractiveShell

from tfgraph_edu.function import isolation

N_VARS = 3


@pytest.fixture(scope="module")
def shell():
    ip = InteractiveShell.instance()
    ip.run_line_magic("load_ext", "tfgraph_edu")
    ip.run_cell("import tfgraph_edu as tf\nfrom tfgraph_edu import exercises as ex",
                store_history=False)
    return ip


# one statement of the function's body, over float32 variables v0..v2 and the argument x
def _statement(kind, k, j, c, seed):
    return {
        "add": f"v{k}.assign_add({c} * x)",
        "sub": f"v{k}.assign_sub({c})",
        "assign": f"v{k}.assign(v{j} * 0.5 + {c})",
        "print": f'tf.print("v{k} =", v{k}, "x =", x)',
        "random": f"v{k}.assign_add(tf.random.uniform([], seed={seed}))",
        "random_global": f"v{k}.assign_add(tf.random.normal([]))",
        "optimizer": f"opt.apply_gradients([(v{j} - {c}, v{k})])",
        "py_function": f"v{k}.assign_add(tf.py_function(bump, [x], tf.float32))",
        "python_print": 'print("tracing with", x)',
    }[kind]


statements = st.tuples(
    st.sampled_from(["add", "sub", "assign", "print", "random", "random_global", "optimizer",
                     "py_function", "python_print"]),
    st.integers(0, N_VARS - 1), st.integers(0, N_VARS - 1),
    st.sampled_from([0.5, 1.0, 2.0, 3.0]), st.integers(1, 99))
programs = st.tuples(st.lists(statements, min_size=1, max_size=6),
                     st.lists(st.sampled_from([1.0, 2.0, -1.0]), min_size=1, max_size=3),
                     st.sampled_from(["SGD(0.1)", "Adam(0.01)"]))


def _cells(program):
    body, calls, optimizer = program
    setup = "\n".join([
        "tf.random.set_seed(1234)",
        *(f"v{k} = tf.Variable({k + 1}.0)" for k in range(N_VARS)),
        f"opt = tf.keras.optimizers.{optimizer}",
        "hits = [0]",
        "def bump(x):",
        "    hits[0] += 1",
        "    return x * 0.0 + float(hits[0])",
    ])
    lines = ["@tf.function", "def f(x):"]
    lines += [f"    {_statement(*s)}" for s in body]
    lines += ["    return v0 + v1 + v2"]
    lines += [f"out = f(tf.constant({x}))" for x in calls]
    lines += ["print(out)"]
    return setup, "\n".join(lines), calls


STATE = """(
    [v.numpy().tolist() for v in (v0, v1, v2)],
    None if opt.iterations is None else int(opt.iterations.numpy()),
    sorted((k[1], np.asarray(w.numpy()).tolist()) for k, w in opt._slots.items()),
    hits[0],
    tf.random.uniform([3]).numpy().tolist(),
    tf.random.normal([2], seed=7).numpy().tolist(),
    f.experimental_get_tracing_count(),
)"""


def _run(ip, setup, cell, after=()):
    """Run the setup, then the cell, then ``after``; the printed text of the cell and of
    what follows, and the state after it all."""
    ip.run_cell(setup, store_history=False)
    ip.user_ns.update(_cell=cell, isolation_mode=isolation.mode())
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        # silent: %%trace's own panel (its result) is not shown, the cell's prints are
        result = ip.run_cell(cell, store_history=False, silent=True)
        assert result.success, result.error_in_exec or result.error_before_exec
        for extra in after:
            extra_result = ip.run_cell(extra, store_history=False)
            assert extra_result.success, extra_result.error_in_exec
    ip.user_ns["np"] = np
    state = ip.ev(STATE)
    return out.getvalue(), err.getvalue(), state


def _instrumented(ip, setup, cell, calls):
    plain = _run(ip, setup, cell)
    traced = _run(ip, setup, "%%trace -n 3\n" + cell)
    stepped = _run(ip, setup, cell, [
        "from tfgraph_edu.jupyter.widgets import GraphViewer\n"
        "from tfgraph_edu.function.isolation import Declined\n"
        "viewer = GraphViewer(f)\n"
        "try:\n"
        "    viewer.run_steps()\n"
        "except Declined:\n"  # in place, a py_function is not stepped: it says so
        "    assert 'py_function' in _cell and isolation_mode == 'inplace'"])
    checked = _run(ip, setup, cell, [
        f"fb = ex.returns_in_order(f, [[0.0]] * 2, (tf.constant({calls[0]}),))\n"
        f"fb2 = ex.same_results(f, lambda x: 0.0, [(tf.constant({calls[-1]}),)])\n"
        "fb3 = ex.calls_differ(f, (tf.constant(1.0),))"])
    return plain, traced, stepped, checked


def _same(a, b, what):
    assert a[0] == b[0], f"{what}: stdout differs"
    assert a[1] == b[1], f"{what}: printed output (stderr, tf.print) differs"
    assert a[2] == b[2], f"{what}: state differs"


@pytest.mark.parametrize("how", ["apart", "inplace"])
@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(program=programs)
def test_instruments_leave_state_and_output_as_the_cell_alone(shell, monkeypatch, how, program):
    monkeypatch.setenv("TFGRAPH_EDU_ISOLATION", how)
    assert isolation.mode() == how
    setup, cell, calls = _cells(program)
    plain, traced, stepped, checked = _instrumented(shell, setup, cell, calls)
    _same(plain, traced, "%%trace")
    _same(plain, stepped, "step mode")
    _same(plain, checked, "exercise check")


def test_the_issues_examples_count_and_print_as_without_the_magic(shell):
    shell.run_cell("v = tf.Variable(0)", store_history=False)
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        r = shell.run_cell('%%trace -n 20 -o traced\n'
                           '@tf.function\n'
                           'def f(x):\n'
                           '    v.assign_add(1)\n'
                           '    tf.print("x is", x)\n'
                           '    return x * 2\n'
                           'f(tf.constant(1))\nf(tf.constant(2))\n', store_history=False)
    assert r.success
    assert shell.ev("v.numpy()") == 2  # not 44
    assert err.getvalue() == "x is 1\nx is 2\n"  # not 44 lines
    traced = shell.user_ns["traced"]
    t = traced.timings["f"]
    assert t.declined is None and t.extra_runs == 2 * 21
    html = traced._repr_mimebundle_()["text/html"]
    assert "42 extra calls" in html and "copy of this kernel" in html


def test_a_function_that_writes_a_file_is_not_timed_and_the_panel_says_why(shell, tmp_path):
    target = tmp_path / "log.txt"
    shell.user_ns["target"] = str(target)
    r = shell.run_cell('%%trace -n 3 -o traced\n'
                       '@tf.function\n'
                       'def w(x):\n'
                       '    tf.print("x", x, output_stream="file://" + target)\n'
                       '    return x + 1\n'
                       'w(tf.constant(1))\n', store_history=False)
    assert r.success
    assert target.read_text() == "x 1\n"  # the learner's one call, and no timing run
    t = shell.user_ns["traced"].timings["w"]
    assert t.declined == ("file", str(target))
    html = shell.user_ns["traced"]._repr_mimebundle_()["text/html"]
    assert "Not timed: it writes to the file" in html


def test_in_place_the_panel_declines_a_py_function_and_names_it(shell, monkeypatch):
    monkeypatch.setenv("TFGRAPH_EDU_ISOLATION", "inplace")
    shell.run_cell("calls = []", store_history=False)
    r = shell.run_cell('%%trace -n 3 -o traced\n'
                       '@tf.function\n'
                       'def p(x):\n'
                       '    return tf.py_function(lambda a: calls.append(1) or a, [x], '
                       'tf.int32)\n'
                       'p(tf.constant(1))\n', store_history=False)
    assert r.success
    assert shell.ev("len(calls)") == 1
    kind, detail = shell.user_ns["traced"].timings["p"].declined
    assert kind == "op" and detail.startswith("EagerPyFunc")


def test_every_stateful_op_names_the_state_it_touches():
    from tfgraph_edu.ops._core import REGISTRY, STATES
    stateful = {name: op.state for name, op in REGISTRY.items() if op.stateful}
    assert stateful and all(state in STATES for state in stateful.values())
    assert all(op.state is None for op in REGISTRY.values() if not op.stateful)


@pytest.mark.parametrize("how", ["apart", "inplace"])
def test_an_interrupted_timing_leaves_state_untouched_and_says_so(shell, monkeypatch, how):
    monkeypatch.setenv("TFGRAPH_EDU_ISOLATION", how)
    import signal
    import threading
    import time

    shell.run_cell("slow_v = tf.Variable(0)", store_history=False)
    # the learner presses stop while the timing runs (SIGINT to the kernel, as Jupyter does),
    # from half a second after the timing started, again every 0.3 s until the timing has
    # stopped: an interrupt that lands in a gc callback (hypothesis installs one) is lost, as
    # a learner's first press can be
    running = threading.Event()
    run_apart = isolation.run_apart
    default = signal.getsignal(signal.SIGINT)

    def interrupt(signum, frame):
        if running.is_set():
            raise KeyboardInterrupt

    def press_stop():
        time.sleep(0.5)
        while running.is_set():
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.3)

    def stopped_soon(*args, **kwargs):
        running.set()
        timers.append(threading.Thread(target=press_stop))
        timers[-1].start()
        try:
            return run_apart(*args, **kwargs)
        finally:
            running.clear()

    timers: list = []
    signal.signal(signal.SIGINT, interrupt)
    monkeypatch.setattr(isolation, "run_apart", stopped_soon)
    try:
        started = time.monotonic()
        r = shell.run_cell('%%trace -n 50 -o traced\n'
                           '@tf.function\n'
                           'def s(n):\n'
                           '    slow_v.assign_add(1)\n'
                           '    acc = tf.constant(0)\n'
                           '    for i in tf.range(n):\n'
                           '        acc += i\n'
                           '    return acc\n'
                           's(tf.constant(20000))\n', store_history=False)
        for timer in timers:
            timer.join()
    finally:
        signal.signal(signal.SIGINT, default)
    assert r.success and time.monotonic() - started < 10  # stopped: 51 eager runs take minutes
    assert shell.ev("slow_v.numpy()") == 1  # the learner's one call only
    t = shell.user_ns["traced"].timings["s"]
    assert t.declined == ("interrupted", "")
    html = shell.user_ns["traced"]._repr_mimebundle_()["text/html"]
    assert "Timing interrupted: your variables, random state and output are as" in html
    with pytest.raises(ChildProcessError):  # the copy that ran the timing is gone
        os.waitpid(-1, os.WNOHANG)
