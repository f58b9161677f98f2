"""Instruments observe, never disturb: the learner's code run again, apart (layer 7).

``%%trace``'s timing runs, the graph viewer's step mode and the exercise checks call the
learner's functions again.  Run in the learner's kernel, every ``assign_add``, ``tf.print``,
random op, optimizer step or ``py_function`` would happen again, and the learner's next cell
would see the instrument's work as its own.  :func:`run_apart` runs such a task where it
cannot reach the learner's world:

- **apart** (``os.fork`` on Linux, the default there): in a forked copy of the kernel process.
  The copy prints to ``/dev/null``, may not write, move or delete a file (an audit hook
  refuses, and the task is then declined), sends back only a JSON result over a pipe and
  exits.  The kernel never runs the instrument's calls, so everything - variables, optimizer
  slots, random generators, the Python objects a ``py_function`` changes, event logs, files,
  printed output - stays exactly as the learner's cell left it.
- **in place** (no fork: Windows, macOS, or ``TFGRAPH_EDU_ISOLATION=inplace``): the task runs
  in the kernel with stdout/stderr captured and dropped, and every variable's value and the
  random state snapshotted before and restored after.  A graph with an op whose state cannot
  be restored (``OpDef.state`` ``"python"`` or ``"iterator"``, read from the op definitions)
  is not run: :class:`Declined` names the op.  Python objects the Python function itself
  changes when it runs eagerly are not restored in this mode; :func:`mode` says which mode
  is in use so an instrument can say so.
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
import os
import random
import select
import signal
import sys
import time
import warnings

import numpy as np

from ..ops import random_ops, state_ops
from . import events

__all__ = ["Declined", "Interrupted", "mode", "run_apart", "states_touched", "unrestorable"]

# states the in-place mode restores (or that need no restoring)
_RESTORABLE = frozenset({"variable", "random", "output", "check", "body"})


class Declined(Exception):
    """The instrument did not run the task, and says why: ``kind`` is ``"op"`` (an op whose
    effects cannot be undone in place), ``"file"`` (the task writes a file), ``"call"`` (it
    calls something with effects outside the process, such as ``os.system``) or
    ``"timeout"``; ``detail`` names the op, file, call or seconds."""

    _TEXT = {"op": "its graph runs {}, whose effects cannot be undone on this system",
             "file": "it writes to the file {}", "call": "it calls {}",
             "timeout": "it ran longer than {} s"}

    def __init__(self, kind: str, detail: str):
        super().__init__(self._TEXT[kind].format(detail))
        self.kind, self.detail = kind, detail


class Interrupted(Exception):
    """The kernel was interrupted while the task ran apart; nothing of it reached the kernel."""


def mode() -> str:
    """``"apart"`` (a forked copy of the process) or ``"inplace"`` (snapshot and restore)."""
    chosen = os.environ.get("TFGRAPH_EDU_ISOLATION", "")
    if chosen in ("apart", "inplace"):
        return chosen if chosen == "inplace" or hasattr(os, "fork") else "inplace"
    return "apart" if sys.platform.startswith("linux") and hasattr(os, "fork") else "inplace"


# -- what a graph touches, from the op definitions ----------------------------------------------

def states_touched(graphs) -> dict[str, str]:
    """``{state: first op name}`` for every kind of state (``OpDef.state``) the ops of
    ``graphs`` touch, looking into branches, loop bodies and called functions."""
    found: dict[str, str] = {}
    seen: set[int] = set()
    todo = list(graphs)
    while todo:
        graph = todo.pop()
        if id(graph) in seen:
            continue
        seen.add(id(graph))
        for op in graph.get_operations():
            state = op.opdef.state
            if state is not None and state != "body":
                found.setdefault(state, f"{op.type} ({op.name})")
            for value in op.attrs.values():
                inner = getattr(value, "graph", None)
                if inner is not None and hasattr(inner, "get_operations"):
                    todo.append(inner)
    return found


def unrestorable(graphs) -> str | None:
    """The first op (``"PyFunc (PyFunc)"``) whose state the in-place mode cannot restore."""
    for state, op in states_touched(graphs).items():
        if state not in _RESTORABLE:
            return op
    return None


# -- running a task ------------------------------------------------------------------------------

def run_apart(task, graphs=(), progress=None, timeout: float = 600.0):
    """Run ``task(report)`` where it cannot change the learner's world and return its result,
    which must be JSON data (numbers, strings, lists, dicts).  ``report(*values)`` passes
    progress to ``progress(*values)`` in the kernel.  Raises :class:`Declined` (the task was
    not run, or would have written a file), :class:`Interrupted`, or the task's own error
    (a ``tf.errors`` class by name; others as ``RuntimeError``)."""
    report = progress or (lambda *values: None)
    if _inside[0]:  # a task of a task (a check that calls another): already apart
        return task(report)
    if mode() == "apart":
        return _forked(task, progress, timeout)
    blocker = unrestorable(graphs)
    if blocker is not None:
        raise Declined("op", blocker)
    _inside[0] = True
    try:
        with _restored(), events.timing_runs():
            return task(report)
    except KeyboardInterrupt:  # the state is restored by now
        raise Interrupted("interrupted; the state the runs changed was restored") from None
    finally:
        _inside[0] = False


_inside = [False]  # True in the forked copy, and while a task runs in place


# the in-place mode

@contextlib.contextmanager
def _restored():
    handles = [(h, h.value, np.array(h.value, copy=True), h.var_shape)
               for h in list(state_ops.LIVE_HANDLES)]
    seeds = random_ops.STATE
    seed_state = (seeds.global_seed, seeds.counter, dict(seeds.generators),
                  {k: g.bit_generator.state for k, g in seeds.generators.items()},
                  seeds.unseeded.bit_generator.state)
    np_state, py_state = np.random.get_state(), random.getstate()
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            yield
    finally:
        for h, value, copy, shape in handles:
            if value.flags.writeable and not np.array_equal(value, copy, equal_nan=True):
                value[...] = copy  # changed in place: the same array object, restored
            h.value, h.var_shape = value, shape
        (seeds.global_seed, seeds.counter, generators, states, unseeded) = seed_state
        seeds.generators.clear()
        seeds.generators.update(generators)
        for key, gen in generators.items():
            gen.bit_generator.state = states[key]
        seeds.unseeded.bit_generator.state = unseeded
        np.random.set_state(np_state)
        random.setstate(py_state)


# the forked mode

_ERRORS_BY_NAME: dict[str, type] = {}


def _error(kind: str, message: str) -> Exception:
    if not _ERRORS_BY_NAME:
        from .. import errors
        for name in dir(errors):
            value = getattr(errors, name)
            if isinstance(value, type) and issubclass(value, errors.OpError):
                _ERRORS_BY_NAME[name] = value
        _ERRORS_BY_NAME.update(ValueError=ValueError, TypeError=TypeError,
                               NotImplementedError=NotImplementedError)
    cls = _ERRORS_BY_NAME.get(kind)
    if cls is None:
        return RuntimeError(f"{kind}: {message}")
    if cls in (ValueError, TypeError, NotImplementedError):
        return cls(message)
    return cls(None, None, message)


def _forked(task, progress, timeout):
    read_end, write_end = os.pipe()
    with warnings.catch_warnings():  # Python 3.12+ warns about forking with threads running
        warnings.simplefilter("ignore", DeprecationWarning)
        pid = os.fork()
    if pid == 0:  # pragma: no cover - the child; coverage cannot follow it
        try:
            os.close(read_end)
            _child(task, write_end)
        finally:
            os._exit(0)
    os.close(write_end)
    try:
        return _receive(read_end, pid, progress, timeout)
    except KeyboardInterrupt:
        raise Interrupted("interrupted; the runs happened in a copy of the kernel, which "
                          "was stopped: nothing changed here") from None
    finally:
        os.close(read_end)
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)


def _receive(fd, pid, progress, timeout):
    deadline = time.monotonic() + timeout
    buffer = b""
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise Declined("timeout", f"{timeout:.0f}")
        ready, _, _ = select.select([fd], [], [], min(left, 1.0))
        if not ready:
            continue
        chunk = os.read(fd, 65536)
        if not chunk:
            raise RuntimeError("the copy of the kernel that ran the task stopped without an "
                               "answer")
        buffer += chunk
        while b"\n" in buffer:
            line, buffer = buffer.split(b"\n", 1)
            message = json.loads(line)
            if "progress" in message:
                if progress is not None:
                    progress(*message["progress"])
            elif "result" in message:
                return message["result"]
            elif "declined" in message:
                raise Declined(*message["declined"])
            elif "error" in message:
                raise _error(*message["error"])


_WRITES = frozenset({"os.remove", "os.rename", "os.rmdir", "os.mkdir", "os.truncate",
                     "os.symlink", "os.link", "os.chmod", "os.chown", "os.utime",
                     "shutil.rmtree", "shutil.move", "shutil.copyfile", "os.removexattr",
                     "os.setxattr", "os.putenv", "os.unsetenv", "os.system", "os.exec",
                     "os.posix_spawn", "os.spawn", "os.kill", "os.killpg", "subprocess.Popen",
                     "socket.connect", "socket.sendto"})
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_TRUNC


def _child(task, fd) -> None:  # pragma: no cover - runs in the forked copy
    _inside[0] = True
    signal.signal(signal.SIGINT, signal.SIG_DFL)  # an interrupted kernel stops the copy too
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    os.dup2(null, 2)
    sys.stdout = sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115
    logging.disable(logging.CRITICAL)
    warnings.simplefilter("ignore")
    sys.dont_write_bytecode = True
    refused: list[tuple[str, str]] = []

    def audit(event, args):
        if event == "open":
            path, how, flags = args
            if isinstance(path, int):
                return
            writes = (isinstance(how, str) and any(c in how for c in "wax+")) or bool(
                (flags or 0) & _WRITE_FLAGS)
            if writes and os.fspath(path) != os.devnull:
                refused.append(("file", os.fspath(path)))
                raise PermissionError(f"{os.fspath(path)}: an instrument's run may not write files")
        elif event in _WRITES or event.startswith("os.exec") or event.startswith("os.spawn"):
            refused.append(("call", event))
            raise PermissionError(f"{event}: an instrument's run may not call it")

    sys.addaudithook(audit)

    def send(**message):
        data = (json.dumps(message) + "\n").encode()
        while data:
            data = data[os.write(fd, data):]

    try:
        result = task(lambda *values: send(progress=list(values)))
    except BaseException as exc:  # noqa: BLE001 - sent to the kernel, which raises it
        if refused:
            send(declined=refused[0])
        else:
            send(error=[type(exc).__name__, str(exc)])
        return
    if refused:  # the task caught the refusal itself: its result is not to be trusted
        send(declined=refused[0])
    else:
        send(result=result)
