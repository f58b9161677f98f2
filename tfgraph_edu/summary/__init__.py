"""``tf.summary``: TensorBoard event files (scalars and traced graphs), written as data.

``create_file_writer(logdir)`` opens ``events.out.tfevents.*.v2`` in ``logdir``;
``scalar`` writes ``Summary`` values eagerly; ``trace_on(graph=True)`` records the graph of
every tf.function traced or called until ``trace_export``, which writes them as one
``GraphDef``.  Deliberate limits, each raising rather than dropping data: summaries are
written eagerly only (not from inside a traced graph), and only scalars.
"""

from __future__ import annotations

import contextlib
import os
import socket
import time

import numpy as np

from ..function import events as _events
from ..tf_logging import get_logger
from . import records

__all__ = ["create_file_writer", "scalar", "trace_on", "trace_off", "trace_export",
           "SummaryWriter", "experimental"]

_state = {"writer": None, "step": None}
_files = [0]


class SummaryWriter:
    """Writes events to one file in ``logdir`` (TF's ``tf.summary.SummaryWriter``)."""

    def __init__(self, logdir, filename_suffix=None):
        self.logdir = os.fspath(logdir)
        os.makedirs(self.logdir, exist_ok=True)
        _files[0] += 1
        name = (f"events.out.tfevents.{int(time.time())}.{socket.gethostname()}."
                f"{os.getpid()}.{_files[0]}.v2{filename_suffix or ''}")
        self.path = os.path.join(self.logdir, name)
        self._file = open(self.path, "wb")
        self._write(records.event(time.time(), file_version="brain.Event:2"))

    def _write(self, event: bytes) -> None:
        if self._file is None:
            raise RuntimeError("This SummaryWriter is closed.")
        self._file.write(records.record(event))

    @contextlib.contextmanager
    def as_default(self, step=None):
        """Make this the writer summaries go to inside the ``with`` block."""
        saved = dict(_state)
        _state["writer"] = self
        if step is not None:
            _state["step"] = step
        try:
            yield self
        finally:
            self.flush()
            _state.update(saved)

    def set_as_default(self, step=None):
        _state["writer"] = self
        if step is not None:
            _state["step"] = step

    def init(self):
        return None

    def flush(self):
        if self._file is not None:
            self._file.flush()

    def close(self):
        if self._file is not None:
            self._file.close()
            self._file = None


def create_file_writer(logdir, max_queue=None, flush_millis=None, filename_suffix=None,
                       name=None, experimental_trackable=False, experimental_mesh=None):
    return SummaryWriter(logdir, filename_suffix)


def _step(step):
    if step is None:
        step = _state["step"]
    if step is None:
        raise ValueError("No step set. Please specify one either through the `step` argument "
                         "or through tf.summary.experimental.set_step()")
    return int(np.asarray(getattr(step, "numpy", lambda: step)()))


def _eager_only(what: str) -> None:
    from ..eager.dispatch import executing_eagerly
    if not executing_eagerly():
        raise NotImplementedError(f"tfgraph_edu writes {what} eagerly only, not from inside a "
                                  "tf.function: return the value and write it after the call.")


def scalar(name, data, step=None, description=None):
    """Write one scalar to the default writer; False (nothing written) if there is none."""
    _eager_only("tf.summary.scalar")
    writer = _state["writer"]
    if writer is None:
        return False
    value = np.asarray(getattr(data, "numpy", lambda: data)())
    if value.size != 1:
        raise ValueError(f"tf.summary.scalar needs a scalar; got shape {value.shape}")
    writer._write(records.event(time.time(), _step(step),
                                summary=records.scalar_summary(str(name), float(value))))
    return True


# -- tracing graphs ------------------------------------------------------------------------------
_trace = {"on": False, "graphs": []}


def _record(log, event) -> None:
    owner = log.owner() if log.owner is not None else None
    if event.kind == "trace":
        cf = event.concrete
    elif owner is not None and event.concrete_index:
        cf = owner._concretes[event.concrete_index - 1]
    else:
        return
    if cf is not None and all(g is not cf.graph for _, g in _trace["graphs"]):
        _trace["graphs"].append((cf.name, cf.graph))


def trace_on(graph=True, profiler=False, profiler_outdir=None):
    """Start recording the graphs of the tf.functions traced or called from now on."""
    if profiler:
        raise NotImplementedError("tfgraph_edu has no op profiler: use trace_on(graph=True) "
                                  "for the graphs and %%trace for eager vs graph timings.")
    if _trace["on"]:
        get_logger().warning("Trace already enabled")
        return
    _trace["on"], _trace["graphs"] = True, []
    if graph and _record not in _events.RECORDERS:
        _events.RECORDERS.append(_record)


def trace_off():
    """Stop recording and forget what was recorded."""
    _trace["on"], _trace["graphs"] = False, []
    if _record in _events.RECORDERS:
        _events.RECORDERS.remove(_record)


def trace_export(name, step=None, profiler_outdir=None):
    """Write the recorded graphs to the default writer (nothing without one, as in TF),
    then stop tracing."""
    from ..eager.dispatch import executing_eagerly
    if not executing_eagerly():
        get_logger().warning("Cannot export trace inside a tf.function.")
        return
    if not _trace["on"]:
        raise ValueError("Must enable trace before export through tf.summary.trace_on.")
    writer = _state["writer"]
    if writer is None:
        trace_off()
        return
    step = _step(step)
    graphs = list(_trace["graphs"])
    trace_off()
    if graphs:
        writer._write(records.event(time.time(), step, graph_def=records.graph_def(graphs)))


class experimental:  # noqa: N801 - the namespace tf.summary.experimental
    """``tf.summary.experimental``: the default step."""

    @staticmethod
    def set_step(step):
        _state["step"] = step

    @staticmethod
    def get_step():
        return _state["step"]

from .._missing import module_getattr as _module_getattr  # noqa: E402

__getattr__ = _module_getattr("summary", __name__)
