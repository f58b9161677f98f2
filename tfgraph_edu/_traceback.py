"""Traceback filtering: errors raised through the public API hide tfgraph_edu's own frames,
as TensorFlow hides its own, so a learner sees their line and the error, not our internals.

``tf.debugging.disable_traceback_filtering()`` shows every frame again (for debugging the
library itself); ``enable_traceback_filtering()`` and ``is_traceback_filtering_enabled()``
are TF's other two names.  As in TF, one frame of the filter itself stays at the top.
"""

from __future__ import annotations

import functools
import os
import types

_PACKAGE = os.path.dirname(os.path.abspath(__file__)) + os.sep
_ENABLED = [True]


def enable_traceback_filtering() -> None:
    _ENABLED[0] = True


def disable_traceback_filtering() -> None:
    _ENABLED[0] = False


def is_traceback_filtering_enabled() -> bool:
    return _ENABLED[0]


def _internal(frame) -> bool:
    name = frame.f_code.co_filename
    return name.startswith((_PACKAGE, "<tfgraph_edu ", "<autograph "))


def filtered(tb):
    """``tb`` without the frames of tfgraph_edu's own modules and generated code."""
    kept = []
    while tb is not None:
        if not _internal(tb.tb_frame):
            kept.append(tb)
        tb = tb.tb_next
    out = None
    for t in reversed(kept):
        out = types.TracebackType(out, t.tb_frame, t.tb_lasti, t.tb_lineno)
    return out


def filter_traceback(fn):
    """Decorate a public entry point: its errors carry filtered tracebacks."""
    @functools.wraps(fn)
    def error_handler(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except Exception as exc:
            if not _ENABLED[0]:
                raise
            # as TF: the filtered error alone, without the chain of internal ones behind it
            raise exc.with_traceback(filtered(exc.__traceback__)) from None
    return error_handler
