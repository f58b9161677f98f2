"""Reader: the graphs in a TensorBoard event file (layer 2a).

An event file is a TFRecord file: records of ``length (8 bytes LE) | masked CRC-32C of the
length | data | masked CRC-32C of the data``, each data an ``Event``.  A graph is in an
event's ``graph_def`` (a serialized GraphDef, what ``tf.summary.graph`` writes), its
``meta_graph_def``, or its ``tagged_run_metadata`` (what ``tf.summary.trace_export``
writes: the traced functions' graphs before optimisation).  Every length is checked
against what is left of the file and every CRC before the record is parsed.
"""

from __future__ import annotations

import struct

from google.protobuf.message import DecodeError

from ._protos import protos
from .budget import Budget, GraphFileError
from .graphdef import parse_graph_def
from .model import OpenedGraph, ReadFunction
from .tf_graph import GraphReader

__all__ = ["read_events", "records", "masked_crc32c"]


def _table() -> list[int]:
    out = []
    for n in range(256):
        c = n
        for _ in range(8):
            c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
        out.append(c)
    return out


_CRC_TABLE = _table()


def crc32c(data: bytes) -> int:
    crc, table = 0xFFFFFFFF, _CRC_TABLE
    for b in data:
        crc = table[(crc ^ b) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def masked_crc32c(data: bytes) -> int:
    crc = crc32c(data)
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def records(data: bytes, what: str):
    """Each record's bytes, checked (length within the file, both CRCs)."""
    pos = 0
    while pos < len(data):
        if len(data) - pos < 12:
            raise GraphFileError(f"Malformed {what}: it ends inside a record header.")
        header = data[pos:pos + 8]
        (length,), (crc,) = struct.unpack("<Q", header), struct.unpack("<I", data[pos + 8:pos + 12])
        if masked_crc32c(header) != crc:
            raise GraphFileError(f"Malformed {what}: the length of the record at byte {pos} "
                                 "fails its CRC.")
        start = pos + 12
        if length > len(data) - start - 4:
            raise GraphFileError(f"Malformed {what}: the record at byte {pos} declares {length} "
                                 "bytes, more than the file holds.")
        body = data[start:start + length]
        (crc,) = struct.unpack("<I", data[start + length:start + length + 4])
        if masked_crc32c(body) != crc:
            raise GraphFileError(f"Malformed {what}: the record at byte {pos} fails its CRC.")
        yield body
        pos = start + length + 4


_RUN_METADATA_PLUGINS = ("graph_run_metadata_graph", "graph_run_metadata")


def _run_metadata(data: bytes, tag: str, what: str) -> list:
    run = protos().config_pb2.RunMetadata()
    try:
        run.ParseFromString(data)
    except (DecodeError, RecursionError) as exc:
        raise GraphFileError(f"Malformed {what}: {str(exc)[:200]}") from None
    out = []
    for i, fg in enumerate(run.function_graphs):
        if fg.HasField("pre_optimization_graph"):
            out.append((f"{tag} #{i}" if len(run.function_graphs) > 1 else tag,
                        fg.pre_optimization_graph))
    return out


def read_events(path: str, data: bytes, budget: Budget) -> OpenedGraph:
    what = f"event file {path!r}"
    p = protos()
    found = []  # (name, GraphDef message)
    for body in records(data, what):
        event = p.event_pb2.Event()
        try:
            event.ParseFromString(body)
        except (DecodeError, RecursionError) as exc:
            raise GraphFileError(f"Malformed {what}: {str(exc)[:200]}") from None
        kind = event.WhichOneof("what")
        if kind == "graph_def":
            found.append((f"graph (step {event.step})",
                          parse_graph_def(event.graph_def, False, what)))
        elif kind == "meta_graph_def":
            meta = p.meta_graph_pb2.MetaGraphDef()
            try:
                meta.ParseFromString(event.meta_graph_def)
            except (DecodeError, RecursionError) as exc:
                raise GraphFileError(f"Malformed {what}: {str(exc)[:200]}") from None
            found.append((f"meta graph (step {event.step})", meta.graph_def))
        elif kind == "tagged_run_metadata":
            found += _run_metadata(event.tagged_run_metadata.run_metadata,
                                   event.tagged_run_metadata.tag, what)
        elif kind == "summary":
            for value in event.summary.value:
                plugin = value.metadata.plugin_data.plugin_name
                if plugin in _RUN_METADATA_PLUGINS and len(value.tensor.string_val) == 1:
                    found += _run_metadata(value.tensor.string_val[0], value.tag, what)
    if not found:
        raise GraphFileError(f"The {what} holds no graph (write one with tf.summary.graph or "
                             "tf.summary.trace_on(graph=True) and trace_export).")
    functions, library, nodes = [], {}, 0
    for name, graph_def in found:
        nodes += len(graph_def.node)
        if nodes > budget.nodes:
            raise GraphFileError(f"Malformed {what}: its graphs hold more than {budget.nodes} "
                                 "nodes (the node budget).")
        reader = GraphReader(graph_def.library, budget, what=what)
        graph = reader.graph_def(graph_def, name)
        functions.append(ReadFunction(name, graph, f"{name} ({len(graph_def.node)} nodes)"))
        library.update(reader.functions)
    return OpenedGraph(path, "events", functions, library, {},
                       {"graphs": len(found), "producer": found[0][1].versions.producer})
