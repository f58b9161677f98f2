"""Live TensorFlow objects -> :class:`OpenedGraph`, without importing TensorFlow (layer 2a).

A real ``tf.function``, ``ConcreteFunction``, ``tf.Graph`` or ``GraphDef`` is recognised by
its class's module (only when ``tensorflow`` is already in ``sys.modules``), asked for its
GraphDef's bytes (``as_graph_def()``, the function library included) and read by the
GraphDef reader, as a file would be.
"""

from __future__ import annotations

import sys

from .budget import Budget, GraphFileError
from .model import OpenedGraph, ReadFunction

__all__ = ["is_tf_object", "from_tf", "viewable"]


def is_tf_object(obj) -> bool:
    if "tensorflow" not in sys.modules or isinstance(obj, type):
        return False
    module = type(obj).__module__ or ""
    if module.startswith(("tensorflow.", "keras.")):
        return True
    descriptor = getattr(obj, "DESCRIPTOR", None)  # a protobuf message of TF's
    return getattr(descriptor, "full_name", "") == "tensorflow.GraphDef"


def _graph_def_bytes(obj) -> bytes:
    if getattr(getattr(obj, "DESCRIPTOR", None), "full_name", "") == "tensorflow.GraphDef":
        return obj.SerializeToString()
    return obj.as_graph_def().SerializeToString()


def from_tf(obj, budget: Budget | None = None) -> OpenedGraph:
    """The graphs of a live TF object: each traced concrete function of a ``tf.function``,
    the graph of a ``ConcreteFunction``, a ``tf.Graph`` or a ``GraphDef``."""
    from .graphdef import read_graph_def
    budget = budget or Budget()
    name = type(obj).__name__
    if hasattr(obj, "python_function") and hasattr(obj, "get_concrete_function"):
        concretes = list(_traced(obj))
        if not concretes:
            raise ValueError(f"{getattr(obj, '__name__', name)} has not been traced yet: call "
                             "it (or get_concrete_function) first.")
        functions, library = [], {}
        for cf in concretes:
            opened = _one(cf, budget)
            functions += opened.functions
            library.update(opened.library)
        return OpenedGraph(f"tf.function {getattr(obj, '__name__', '')}", "live", functions,
                           library, {}, {"concrete_functions": len(concretes)})
    if hasattr(obj, "graph") and hasattr(obj, "structured_input_signature"):
        return _one(obj, budget)
    if hasattr(obj, "as_graph_def") or getattr(getattr(obj, "DESCRIPTOR", None), "full_name",
                                                "") == "tensorflow.GraphDef":
        opened = read_graph_def(f"<{name}>", _graph_def_bytes(obj), False, budget)
        opened.format = "live"
        return opened
    raise TypeError(f"Cannot show a {name}: a tf.function, ConcreteFunction, tf.Graph or "
                    "GraphDef is needed.")


def _traced(fn):
    try:
        return fn._list_all_concrete_functions()
    except AttributeError:
        raise GraphFileError("This TensorFlow version does not list a tf.function's traces: "
                             "pass fn.get_concrete_function(...) instead.") from None


def _one(cf, budget) -> OpenedGraph:
    from .graphdef import read_graph_def
    opened = read_graph_def(f"<{cf.name}>", cf.graph.as_graph_def().SerializeToString(), False,
                            budget)
    (fn,) = opened.functions
    try:
        sig = str(cf.pretty_printed_signature(verbose=False))
    except Exception:  # noqa: BLE001 - an older TF without it: the name alone
        sig = ""
    name = cf.name.decode() if isinstance(cf.name, bytes) else str(cf.name)
    opened.functions = [ReadFunction(name, fn.graph, sig.replace("\n", " ") or name,
                                     "concrete")]
    opened.format = "live"
    return opened


def viewable(obj):
    """``obj`` as the viewer shows it: a live TF object read into an OpenedGraph; any other
    object unchanged."""
    return from_tf(obj) if is_tf_object(obj) else obj
