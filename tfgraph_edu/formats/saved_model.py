"""Reader: a TensorFlow SavedModel folder's ``saved_model.pb`` (layer 2a).

The outer ``SavedModel`` message (field 1: schema version, field 2: meta graphs) is read
here with a few lines of wire-format code, since tensorboard's protos carry
``MetaGraphDef`` but not that wrapper.  The meta graph is listed first, then each signature
as the graph of the function its outputs come from (the viewer opens on the last one, as on
a tf.function's latest trace).  Variables are not read.  When the folder holds TF's debug
info (``debug/saved_model_debug_info.pb``), each node gets its source line (the innermost
frame in a Python file outside installed packages), shown in the viewer's details pane.
"""

from __future__ import annotations

import os

from google.protobuf.message import DecodeError

from ._protos import protos
from .budget import Budget, GraphFileError, read_bytes
from .model import OpenedGraph, ReadFunction
from .tf_graph import GraphReader, dtype_of, shape_of

__all__ = ["read_saved_model", "split_saved_model"]


def _varint(data: bytes, pos: int, what: str) -> tuple[int, int]:
    value, shift = 0, 0
    while True:
        if pos >= len(data) or shift > 63:
            raise GraphFileError(f"Malformed {what}: a length runs past the end of the file.")
        b = data[pos]
        pos += 1
        value |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return value, pos


def split_saved_model(data: bytes, what: str) -> tuple[int, list[bytes]]:
    """(schema version, [serialized MetaGraphDef]) of a ``saved_model.pb``."""
    pos, version, metas = 0, 0, []
    while pos < len(data):
        key, pos = _varint(data, pos, what)
        field, wire = key >> 3, key & 7
        if wire == 0:
            value, pos = _varint(data, pos, what)
            if field == 1:
                version = value
        elif wire == 2:
            n, pos = _varint(data, pos, what)
            if n > len(data) - pos:
                raise GraphFileError(f"Malformed {what}: a field declares {n} bytes, more "
                                     "than the file holds.")
            if field == 2:
                metas.append(data[pos:pos + n])
            pos += n
        elif wire == 1:
            pos += 8
        elif wire == 5:
            pos += 4
        else:
            raise GraphFileError(f"Malformed {what}: wire type {wire} is not a SavedModel's.")
    if pos != len(data):
        raise GraphFileError(f"Malformed {what}: the last field runs past the end of the file.")
    if not metas:
        raise GraphFileError(f"Malformed {what}: it holds no meta graph.")
    return version, metas


def _tensor_info(info) -> str:
    dtype = dtype_of(info.dtype).name
    return f"{dtype}{shape_of(info.tensor_shape)}"


def _frame(info, trace) -> tuple | None:
    """The innermost frame of ``trace`` outside installed packages, as (file, line, function);
    only Python files (the details pane shows that line of the file)."""
    frames = [info.frames_by_id[i] for i in trace.frame_id if i in info.frames_by_id]
    frames += list(trace.file_line_cols)
    for fr in reversed(frames):
        if not 0 <= fr.file_index < len(info.files):
            continue
        name = info.files[fr.file_index]
        if ("/site-packages/" in name or "/dist-packages/" in name
                or not name.endswith(".py")):
            continue
        return (name, fr.line, fr.func or "")
    return None


def add_debug_info(data: bytes, graph, library: dict, what: str) -> int:
    """Give the nodes of ``graph`` and of the library's functions the source lines TF saved
    (``debug/saved_model_debug_info.pb``, written with ``SaveOptions(save_debug_info=True)``:
    traces by ``node`` or ``node@function``); returns how many nodes got one."""
    info = protos().graph_debug_info_pb2.GraphDebugInfo()
    try:
        info.ParseFromString(data)
    except (DecodeError, RecursionError) as exc:
        raise GraphFileError(f"Malformed debug info of {what}: {str(exc)[:200]}") from None
    traces = {k: info.traces_by_id[v] for k, v in info.name_to_trace_id.items()
              if v in info.traces_by_id}
    traces.update(info.traces)
    found = 0
    for where, g in [("", graph)] + [(f"@{k}", fn.graph) for k, fn in library.items()]:
        for op in g.operations:
            trace = traces.get(op.name + where)
            if trace is not None and op.source is None:
                op.source = _frame(info, trace)
                found += op.source is not None
    return found


def read_saved_model(path: str, data: bytes, budget: Budget) -> OpenedGraph:
    what = f"SavedModel {path!r}"
    p = protos()
    version, metas = split_saved_model(data, what)
    meta = p.meta_graph_pb2.MetaGraphDef()
    try:
        meta.ParseFromString(metas[0])
    except (DecodeError, RecursionError) as exc:
        raise GraphFileError(f"Malformed {what}: {str(exc)[:200]}") from None
    op_list = {op.name: op for op in meta.meta_info_def.stripped_op_list.op}
    reader = GraphReader(meta.graph_def.library, budget, op_list, what=what)
    graph = reader.graph_def(meta.graph_def, "saved_model")
    functions, signatures = [], {}
    for key in sorted(meta.signature_def):
        sig = meta.signature_def[key]
        ins = {k: (v.name, _tensor_info(v)) for k, v in sorted(sig.inputs.items())}
        outs = {k: (v.name, _tensor_info(v)) for k, v in sorted(sig.outputs.items())}
        fname = None
        for tensor, _ in outs.values():
            node = graph._by_name.get(tensor.split(":")[0])
            fn = node.attrs.get("f") if node is not None else None
            if fn is not None and hasattr(fn, "graph"):
                fname = fn.name
                break
        signatures[key] = {"function": fname, "method": sig.method_name,
                           "inputs": {k: v[1] for k, v in ins.items()},
                           "outputs": {k: v[1] for k, v in outs.items()}}
        text = (f"{key}({', '.join(f'{k}: {v[1]}' for k, v in ins.items())}) -> "
                f"{', '.join(f'{k}: {v[1]}' for k, v in outs.items())}")
        if fname is not None:
            functions.append(ReadFunction(key, reader.functions[fname].graph, text, "signature"))
    tags = list(meta.meta_info_def.tags)
    functions.insert(0, ReadFunction("saved_model", graph,
                                     f"meta graph [{', '.join(tags)}] "
                                     f"({len(graph.operations)} nodes)", "graph"))
    facts = {"schema_version": version, "tags": tags, "meta_graphs": len(metas),
             "tensorflow_version": meta.meta_info_def.tensorflow_version,
             "producer": meta.graph_def.versions.producer,
             "library_functions": len(meta.graph_def.library.function)}
    debug = os.path.join(os.path.dirname(path), "debug", "saved_model_debug_info.pb")
    if os.path.isfile(debug):
        facts["source_lines"] = add_debug_info(read_bytes(debug, budget, "debug info file"),
                                               graph, reader.functions, what)
    return OpenedGraph(path, "saved_model", functions, reader.functions, signatures, facts)
