"""Real TensorFlow (and ONNX) graph files, read into the graph model the viewer draws and
written from it, without TensorFlow (layer 2a).

One reader per format, each small, all producing one :class:`OpenedGraph` of
``Graph``/``Operation``/``Tensor`` with bodies as ``GraphFunction`` attrs:

- ``saved_model.py``: a SavedModel folder's ``saved_model.pb`` (signatures, meta graph,
  function library);
- ``graphdef.py``: a ``GraphDef``, binary ``.pb`` or text ``.pbtxt``;
- ``events.py``: the graphs in a TensorBoard event file;
- ``onnx_model.py``: an ONNX model.

``tf_graph.py`` turns TF's messages into the model (shared by the first three),
``budget.py`` holds the one error class and the size budget, ``export.py`` writes a graph
as a GraphDef.  The messages come from the protos ``tensorboard`` ships and from ``onnx``
(``pip install 'tfgraph_edu[tf-files]'``).  Reading never runs code from a file.
"""

from __future__ import annotations

import os

from .budget import Budget, GraphFileError, read_bytes
from .model import OpenedGraph, ReadFunction

__all__ = ["open_graph", "open_bytes", "Budget", "GraphFileError", "OpenedGraph",
           "ReadFunction", "FORMATS"]

FORMATS = ("saved_model", "graphdef", "graphdef-text", "events", "onnx")


def _format_of(path: str) -> str:
    name = os.path.basename(path)
    if "tfevents" in name:
        return "events"
    if name.endswith(".onnx"):
        return "onnx"
    if name.endswith((".pbtxt", ".pbtext")):
        return "graphdef-text"
    if name == "saved_model.pb":
        return "saved_model"
    if name.endswith(".pb"):
        return "graphdef"
    raise GraphFileError(
        f"Cannot tell the format of {path!r} from its name: open_graph reads a SavedModel "
        "folder, a GraphDef (.pb, .pbtxt), a TensorBoard event file (*tfevents*) or an ONNX "
        "model (.onnx); pass format= to say which.")


def open_graph(path, *, format: str | None = None, budget: Budget | None = None) -> OpenedGraph:
    """Read the graph file (or SavedModel folder) at ``path``; ``format`` one of ``FORMATS``
    when its name does not say.  Every problem with the file is a :class:`GraphFileError`
    (a ValueError); ``budget`` bounds what the file may make this process read and build."""
    budget = budget or Budget()
    path = os.fspath(path)
    if format is None and os.path.isdir(path):
        if os.path.exists(os.path.join(path, "saved_model.json")) and not os.path.exists(
                os.path.join(path, "saved_model.pb")):
            raise GraphFileError(f"{path!r} is a SavedModel written by tfgraph_edu: load it "
                                 "with tf.saved_model.load and show its functions.")
        path, format = os.path.join(path, "saved_model.pb"), "saved_model"
    format = format or _format_of(path)
    if format not in FORMATS:
        raise ValueError(f"format must be one of {FORMATS}, got {format!r}")
    what = {"saved_model": "SavedModel file", "events": "event file",
            "onnx": "ONNX model"}.get(format, "GraphDef file")
    data = read_bytes(path, budget, what)
    return open_bytes(data, format, path, budget)


def open_bytes(data: bytes, format: str, path: str = "<bytes>",
               budget: Budget | None = None) -> OpenedGraph:
    """As :func:`open_graph`, for bytes already in memory (``len(data)`` within the budget)."""
    budget = budget or Budget()
    if len(data) > budget.max_file_bytes:
        raise GraphFileError(f"{path!r}: {len(data)} bytes, over the budget of "
                             f"{budget.max_file_bytes}.")
    if format == "saved_model":
        from .saved_model import read_saved_model
        return read_saved_model(path, data, budget)
    if format in ("graphdef", "graphdef-text"):
        from .graphdef import read_graph_def
        return read_graph_def(path, data, format == "graphdef-text", budget)
    if format == "events":
        from .events import read_events
        return read_events(path, data, budget)
    if format == "onnx":
        from .onnx_model import read_onnx
        return read_onnx(path, data, budget)
    raise ValueError(f"format must be one of {FORMATS}, got {format!r}")
