"""Errors raised while a converted function is traced, pointed at the user's lines (layer 5).

TensorFlow reports them "in user code:" with the user's file, line and source
line for each of the user's frames (``*`` marks converted functions).  We do the
same, mapping generated code back through the source maps.
"""

from __future__ import annotations

import linecache
import os
import sys

from ..errors import OpError
from ..tracing.graph_builder import GENERATED_SOURCES

_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class PyCTError(Exception):
    """The base of AutoGraph's own errors (TF: ``autograph.pyct.errors.PyCTError``)."""


class AutoGraphError(PyCTError):
    """TF: ``autograph.impl.api.AutoGraphError``."""


class StagingError(AutoGraphError):
    """An error of a class TF's AutoGraph does not rebuild, raised while a converted function
    was traced (a ``RecursionError``, ``IndexError``, ``ZeroDivisionError``...): TF reports it
    as this class, the original class and message on the last line of "in user code:".
    Neither TF nor tfgraph_edu exports it under ``tf.``; catch ``Exception``."""


# the builtin classes TF's AutoGraph re-raises as themselves; other builtins become StagingError
_REBUILT = (AssertionError, AttributeError, NameError, NotImplementedError, RuntimeError,
            StopIteration, TypeError, UnboundLocalError, ValueError, KeyError)


def _kept_class(cls) -> bool:
    if cls.__module__.startswith("tfgraph_edu") or issubclass(cls, PyCTError):
        return True  # our classes stand for TF's own, which TF rebuilds
    if cls.__module__ == "builtins":
        return cls in _REBUILT
    return cls.__init__ is Exception.__init__  # a user's class TF can rebuild from a message


def user_frames(tb) -> list[tuple[str, int, str, bool]]:
    """(file, line, function, converted) for each user frame of a traceback."""
    out = []
    while tb is not None:
        code = tb.tb_frame.f_code
        mapped = GENERATED_SOURCES.get(code.co_filename)
        if mapped is not None:
            origin = mapped.get(tb.tb_lineno)
            if origin is not None:
                out.append((origin[0], origin[1], origin[2], True))
        elif _is_user_file(code.co_filename):
            out.append((code.co_filename, tb.tb_lineno, code.co_name, False))
        tb = tb.tb_next
    return out


def _is_user_file(filename: str) -> bool:
    """Not ours, and real source: a file, or a cell or string whose lines linecache holds
    (IPython's ``<ipython-input-...>``), never ``<frozen ...>`` internals."""
    if filename.startswith(_PACKAGE):
        return False
    if filename.startswith("<"):
        return not filename.startswith("<frozen") and bool(linecache.getlines(filename))
    return True


def location(filename: str, lineno: int) -> str:
    """Where a frame is, as IPython names it: ``Cell In[3], line 8`` for a notebook cell,
    else ``File "path", line 8`` (the cell's temporary file path says nothing to a learner)."""
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    name_of = getattr(getattr(shell, "compile", None), "format_code_name", None)
    if name_of is not None:
        try:
            named = name_of(filename)
        except Exception:  # noqa: BLE001 - an older IPython: the plain form below
            named = None
        if named is not None:
            label, name = named
            return f"{label} {name}, line {lineno}"
    return f'File "{filename}", line {lineno}'


def in_user_code(exc: BaseException, skip_frames: int = 0):
    """A copy of ``exc`` whose message starts with TF's "in user code:" block, or None."""
    if getattr(exc, "ag_error_metadata", None) is not None:
        return None
    frames = user_frames(exc.__traceback__)[skip_frames:]
    if not frames:
        return None
    lines = ["in user code:", ""]
    for filename, lineno, func, converted in frames:
        lines.append(f'    {location(filename, lineno)}, in {func}{"  *" if converted else ""}')
        text = linecache.getline(filename, lineno).strip()
        if text:
            lines.append(f"        {text}")
        lines.append("")
    original = exc.message if isinstance(exc, OpError) else str(exc)
    lines.append(f"    {type(exc).__name__}: {original}")
    message = "\n".join(lines)
    try:
        if isinstance(exc, OpError):
            new = type(exc)(exc.node_def, exc.op, message)
        elif not _kept_class(type(exc)):
            new = StagingError(message)
        elif isinstance(exc, KeyError):
            new = _plain_text_class(type(exc))(message)
        else:
            new = type(exc)(message)
    except Exception:  # noqa: BLE001 - an exception type we cannot rebuild keeps its message
        return None
    new.ag_error_metadata = frames
    return new


_PLAIN_TEXT: dict = {}


def _plain_text_class(cls):
    """A subclass of ``cls`` printed as its message (a ``KeyError`` prints the repr of its
    argument, which would quote the whole "in user code" block); TF does the same."""
    plain = _PLAIN_TEXT.get(cls)
    if plain is None:
        plain = _PLAIN_TEXT[cls] = type(cls.__name__, (cls,), {
            "__str__": lambda self: str(self.args[0]) if self.args else "",
            "__module__": cls.__module__, "__qualname__": cls.__qualname__})
    return plain
