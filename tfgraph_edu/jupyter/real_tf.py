"""``%%trace --tf``: the cell run a second time under real TensorFlow, apart from the
learner's world (layer 9).

TensorFlow is never a dependency: :func:`real_tensorflow` imports it only when asked and says
``None`` when it is not installed.  The second run gets a copy of the notebook's namespace
(:func:`namespace`) in which ``tf`` (and every name bound to a ``tfgraph_edu`` module, and an
``import tfgraph_edu`` in the cell itself) means real TensorFlow, our tensors and variables are
TF's with the same values, containers and arrays are copied, and the ``tfgraph_edu`` objects
TF cannot stand in for (models, tf.functions of earlier cells) are left out and named; the
learner's namespace is never written.  What the run prints - Python's ``print`` and
TensorFlow's own output on the process's stdout and stderr - is caught and kept for the TF
panel, not shown in the cell.
For each tf.function the cell defines, TensorFlow's concrete functions are read (their
graphs through :mod:`formats.live`, the reader the viewer uses) and its eager and graph calls
timed as :func:`timing.compare` times ours: the same call (our last call's arguments, given
to TensorFlow as its own tensors), one warm-up and ``number`` runs each.

Not undone: what the cell does outside Python's namespace (files it writes) happens a second
time in TensorFlow's run; instances of the notebook's own classes are shared, not copied.
"""

from __future__ import annotations

import ast
import builtins
import contextlib
import copy
import io
import linecache
import os
import sys
import tempfile
import types
from dataclasses import dataclass, field

from ..formats.live import from_tf, is_tf_object
from . import timing

INSTALL = "pip install tensorflow-cpu"
MODULE = "tfgraph_edu"


def real_tensorflow():
    """``(tensorflow, None)`` when real TensorFlow imports; ``(None, why)`` when it does not:
    ``why`` is ``"missing"`` when it is not installed, else the import's error in a line.
    TensorFlow's start-up log lines are dropped (``TF_CPP_MIN_LOG_LEVEL`` is set to 2, warnings
    and errors only, unless already set)."""
    if sys.modules.get("tensorflow") is not None:
        return sys.modules["tensorflow"], None
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    try:
        with captured():
            import tensorflow
    except ImportError as exc:
        if getattr(exc, "name", None) == "tensorflow":
            return None, "missing"
        return None, f"{type(exc).__name__}: {exc}"
    except Exception as exc:  # noqa: BLE001 - a broken install: said in the panel, not raised
        return None, f"{type(exc).__name__}: {exc}"
    return tensorflow, None


@contextlib.contextmanager
def captured():
    """Everything printed inside - by Python and by native code on file descriptors 1 and 2 -
    kept in one buffer (``.getvalue()`` once the block is left), in the order written."""
    out = io.StringIO()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    with tempfile.TemporaryFile() as sink:
        saved = []
        try:
            for fd in (1, 2):
                saved.append((fd, os.dup(fd)))
                os.dup2(sink.fileno(), fd)
        except OSError:  # no such descriptors here: Python's own output is still caught
            pass
        text = io.TextIOWrapper(os.fdopen(os.dup(sink.fileno()), "wb"), encoding="utf-8",
                                errors="replace", line_buffering=True, write_through=True)
        try:
            with contextlib.redirect_stdout(text), contextlib.redirect_stderr(text):
                yield out
        finally:
            text.flush()
            text.close()
            for fd, copy in reversed(saved):
                os.dup2(copy, fd)
                os.close(copy)
            sink.seek(0)
            out.write(sink.read().decode("utf-8", "replace"))


@dataclass
class TFFunction:
    """One tf.function of the cell as TensorFlow ran it: ``concrete`` its ConcreteFunctions
    (in trace order), ``graph`` the last one's graph read into our model, ``timings`` eager and
    graph (or None), ``note`` why something is missing."""

    name: str
    function: object = None
    concrete: list = field(default_factory=list)
    graph: object = None
    timings: object = None
    note: tuple | None = None  # (label key, detail)


@dataclass
class TFRun:
    version: str
    output: str = ""
    error: str | None = None
    value: str | None = None  # the repr of the cell's last expression, as IPython shows it
    left_out: list = field(default_factory=list)  # the notebook's names the run did not get
    functions: dict = field(default_factory=dict)  # name -> TFFunction


def _counterpart(tf, module_name: str):
    """The TensorFlow module for a ``tfgraph_edu`` module name (``tfgraph_edu.keras`` ->
    ``tf.keras``), or None when TensorFlow has none."""
    obj = tf
    for part in module_name.split(".")[1:]:
        obj = getattr(obj, part, None)
        if obj is None:
            return None
    return obj


def _importer(tf):
    """``__import__`` for TensorFlow's run: ``tfgraph_edu`` and its modules mean TensorFlow's."""
    real = builtins.__import__

    def importer(name, globals=None, locals=None, fromlist=(), level=0):
        if level == 0 and (name == MODULE or name.startswith(MODULE + ".")):
            target = tf if not fromlist else _counterpart(tf, name)
            if target is None:
                raise ImportError(f"TensorFlow has no module like {name}", name=name)
            return target
        return real(name, globals, locals, fromlist, level)
    return importer


_LEFT_OUT = object()


def _ours(value) -> bool:
    return (type(value).__module__ or "").split(".")[0] == MODULE


def _for_tf(value, tf, user_ns, ns):
    """``value`` of the notebook as TensorFlow's run gets it, so that nothing the run does
    reaches the notebook: a ``tfgraph_edu`` module as TF's, our tensors and variables as TF's
    with the same values, lists, tuples, dicts, sets and numpy arrays copied, the notebook's
    own Python functions bound to the run's namespace; ``_LEFT_OUT`` for other objects of
    ``tfgraph_edu`` (models, tf.functions: calling them would change the notebook's)."""
    if isinstance(value, types.ModuleType):
        if value.__name__ == MODULE or value.__name__.startswith(MODULE + "."):
            other = _counterpart(tf, value.__name__)
            return _LEFT_OUT if other is None else other
        return value
    if isinstance(value, types.FunctionType) and value.__globals__ is user_ns:
        copy_ = types.FunctionType(value.__code__, ns, value.__name__, value.__defaults__,
                                   value.__closure__)
        copy_.__kwdefaults__, copy_.__qualname__ = value.__kwdefaults__, value.__qualname__
        return copy_
    if _ours(value):
        if not hasattr(value, "numpy"):
            return _LEFT_OUT
        try:
            return as_tf(value, tf)
        except Exception:  # noqa: BLE001 - a value TF cannot hold: left out, and said
            return _LEFT_OUT
    if isinstance(value, (list, tuple, dict, set, frozenset, bytearray)) or (
            type(value).__module__ == "numpy" and hasattr(value, "copy")):
        try:
            return copy.deepcopy(value)
        except Exception:  # noqa: BLE001 - not copyable: left out rather than shared
            return _LEFT_OUT
    return value


def namespace(user_ns: dict, tf, hidden=()) -> tuple[dict, list]:
    """The namespace of TensorFlow's run, from the notebook's ``user_ns`` (which is not
    changed): each value as :func:`_for_tf` gives it, ``tf`` and ``import tfgraph_edu`` meaning
    TensorFlow; and the names left out.  IPython's own names (``hidden``: In, Out, _, _i1...)
    are passed as they are: the run does not write them."""
    ns: dict = {}
    left_out = []
    for name, value in list(user_ns.items()):
        if name == "__builtins__":
            continue
        if name in hidden or (name.startswith("_") and not _ours(value)):
            ns[name] = value
            continue
        mine = _for_tf(value, tf, user_ns, ns)
        if mine is _LEFT_OUT:
            if not name.startswith("_"):
                left_out.append(name)
        else:
            ns[name] = mine
    ns["tf"] = tf
    table = dict(vars(builtins))
    table["__import__"] = _importer(tf)
    ns["__builtins__"] = table
    return ns, left_out


def _compile(shell, source: str, number: int):
    """The cell's body compiled for TensorFlow's run, under the file name of the cell's own run
    (so its source is found by AutoGraph and its lines read ``In [n]``), with IPython's syntax
    (magics) transformed; ``(body, last expression or None, file name)``."""
    code = shell.transform_cell(source)
    try:
        try:
            filename = shell.compile.cache(code, number, source)
        except TypeError:  # an IPython whose cache takes no raw code
            filename = shell.compile.cache(code, number)
    except Exception:  # noqa: BLE001 - another IPython: its source kept in linecache as IPython does
        filename = f"<tfgraph_edu --tf {number}>"
        linecache.cache[filename] = (len(code), None, code.splitlines(True), filename)
    tree = ast.parse(code, filename)
    last = None
    if tree.body and isinstance(tree.body[-1], ast.Expr):
        last = ast.Expression(tree.body.pop().value)
    body = compile(tree, filename, "exec", dont_inherit=True)
    value = compile(last, filename, "eval", dont_inherit=True) if last is not None else None
    return body, value, filename


def _error(exc: BaseException, filename: str) -> str:
    """``Class: first line of the message (line k)``, ``k`` the cell's line TF stopped at."""
    line = None
    tb = exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == filename:
            line = tb.tb_lineno
        tb = tb.tb_next
    message = (str(exc).strip().splitlines() or [""])[0][:300]
    return f"{type(exc).__name__}: {message}" + (f" (line {line})" if line else "")


def _is_tf_function(value) -> bool:
    return (is_tf_object(value) and hasattr(value, "python_function")
            and hasattr(value, "get_concrete_function"))


def run_cell(shell, source: str, number: int, names, ours: dict, runs: int,
             tf) -> TFRun:
    """Run ``source`` (the cell's body as ``%%trace`` ran it, cell ``number``) under
    TensorFlow ``tf``; read TF's side of each tf.function in ``names`` (``ours``: name -> our
    Function, whose last call is timed again under TF, ``runs`` runs after a warm-up)."""
    run = TFRun(getattr(tf, "__version__", "?"))
    ns, left_out = namespace(shell.user_ns, tf, getattr(shell, "user_ns_hidden", ()))
    filename = ""
    with captured() as printed:
        try:
            body, last, filename = _compile(shell, source, number)
            exec(body, ns)  # noqa: S102 - the learner's own cell, run as IPython runs it
            if last is not None:
                value = eval(last, ns)  # noqa: S307 - the cell's last expression, as above
                if value is not None:
                    run.value = repr(value)
        except KeyboardInterrupt:
            run.error = "KeyboardInterrupt"
        except Exception as exc:  # noqa: BLE001 - TensorFlow's error is shown, not raised
            run.error = _error(exc, filename)
    run.output = printed.getvalue()
    run.left_out = [name for name in left_out if name not in ns]  # not those the cell made
    with captured():  # reading and timing print nothing of the cell's: what they print is dropped
        for name in names:
            run.functions[name] = _read(name, ns.get(name), ours.get(name), runs, tf)
    return run


def _read(name, fn, ours, runs, tf) -> TFFunction:
    out = TFFunction(name, fn)
    if not _is_tf_function(fn):
        out.note = ("tf_not_defined", name)
        return out
    try:
        out.concrete = list(fn._list_all_concrete_functions())
    except Exception as exc:  # noqa: BLE001 - a TF without this private list: said
        out.note = ("tf_unreadable", f"{type(exc).__name__}: {exc}")
        return out
    if not out.concrete:
        out.note = ("tf_not_called", name)
        return out
    try:
        out.graph = from_tf(out.concrete[-1]).graph
    except Exception as exc:  # noqa: BLE001 - shown in the panel
        out.note = ("tf_unreadable", f"{type(exc).__name__}: {exc}")
    if ours is not None and ours.last_call is not None:
        out.timings = _time(fn, ours.last_call, runs, tf)
    return out


def as_tf(value, tf):
    """Our tensors and variables (in lists, tuples and dicts) as TensorFlow's, with the same
    values and dtypes; anything else as it is."""
    if isinstance(value, (list, tuple)):
        items = [as_tf(v, tf) for v in value]
        return type(value)(*items) if hasattr(value, "_fields") else type(value)(items)
    if isinstance(value, dict):
        return {k: as_tf(v, tf) for k, v in value.items()}
    if _ours(value) and hasattr(value, "numpy"):
        array = value.numpy()
        if "Variable" in type(value).__name__:
            return tf.Variable(array)
        return tf.constant(array)
    return value


def _time(fn, last_call, runs, tf):
    """TF's eager and graph calls, timed as ours: our last call's arguments as TF's, one
    warm-up and ``runs`` runs each; ``(label key, detail)`` when it cannot."""
    try:
        args, kwargs = as_tf(last_call, tf)
    except Exception as exc:  # noqa: BLE001 - arguments TF cannot take: not timed, said
        return ("tf_not_timed", f"{type(exc).__name__}: {exc}")
    try:
        eager = timing.measure(fn.python_function, args, kwargs, runs, "eager")
        graph = timing.measure(fn, args, kwargs, runs, "graph")
    except Exception as exc:  # noqa: BLE001 - shown in the panel
        return ("tf_not_timed", _error(exc, ""))
    return timing.Timings([eager, graph], 2 * (runs + 1), "tf")
