"""Reader: a TensorFlow GraphDef, binary ``.pb`` or text ``.pbtxt`` (layer 2a)."""

from __future__ import annotations

from google.protobuf.message import DecodeError

from ._protos import protos
from .budget import Budget, GraphFileError
from .model import OpenedGraph, ReadFunction
from .tf_graph import GraphReader

__all__ = ["read_graph_def", "parse_graph_def", "graph_def_to_opened"]


def parse_graph_def(data: bytes, text: bool, what: str):
    """The GraphDef message in ``data``; GraphFileError for anything malformed."""
    p = protos()
    msg = p.graph_pb2.GraphDef()
    try:
        if text:
            p.text_format.Parse(data.decode("utf-8"), msg, allow_unknown_field=False)
        else:
            msg.ParseFromString(data)
    except (DecodeError, UnicodeDecodeError, RecursionError) as exc:
        raise GraphFileError(f"Malformed {what}: {str(exc)[:200] or type(exc).__name__}") \
            from None
    except p.text_format.ParseError as exc:
        raise GraphFileError(f"Malformed {what}: {str(exc)[:200]}") from None
    return msg


def graph_def_to_opened(msg, path: str, fmt: str, budget: Budget, what: str,
                        name: str = "graph") -> OpenedGraph:
    reader = GraphReader(msg.library, budget, what=what)
    graph = reader.graph_def(msg, name)
    facts = {"producer": msg.versions.producer, "nodes": len(msg.node),
             "library_functions": len(msg.library.function)}
    return OpenedGraph(path, fmt, [ReadFunction(name, graph, f"{name} ({len(msg.node)} nodes)")],
                       reader.functions, {}, facts)


def read_graph_def(path: str, data: bytes, text: bool, budget: Budget) -> OpenedGraph:
    what = f"GraphDef {path!r}"
    msg = parse_graph_def(data, text, what)
    return graph_def_to_opened(msg, path, "graphdef-text" if text else "graphdef", budget, what)
