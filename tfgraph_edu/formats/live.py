"""Live TensorFlow objects -> :class:`OpenedGraph`, without importing TensorFlow (layer 2a).

A real ``tf.function``, ``ConcreteFunction``, ``tf.Graph`` or ``GraphDef`` is recognised by
its class's module (only when ``tensorflow`` is already in ``sys.modules``), asked for its
GraphDef's bytes (``as_graph_def()``, the function library included) and read by the
GraphDef reader, as a file would be; then each node is given the source line of the learner's
code that made it, from the live TF op's traceback (a file has no such lines).
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
        if hasattr(obj, "get_operations"):  # a tf.Graph: its ops know their source lines
            _add_sources(opened.graph, obj, opened.library)
        return opened
    raise TypeError(f"Cannot show a {name}: a tf.function, ConcreteFunction, tf.Graph or "
                    "GraphDef is needed.")


def _traced(fn):
    try:
        return fn._list_all_concrete_functions()
    except AttributeError:
        raise GraphFileError("This TensorFlow version does not list a tf.function's traces: "
                             "pass fn.get_concrete_function(...) instead.") from None


def _user_frame(tf_op):
    """(file, line, function) of the learner's line that made ``tf_op``: the innermost
    frame of its traceback outside installed packages, or None."""
    try:
        frames = list(tf_op.traceback)
    except Exception:  # noqa: BLE001 - an op without a traceback: no source line
        return None
    for fr in reversed(frames):
        name = str(fr.filename).replace("\\", "/")
        if "/site-packages/" in name or "/dist-packages/" in name or name.startswith("<frozen"):
            continue
        return (fr.filename, fr.lineno, fr.name)
    return None


def _add_sources(graph, tf_graph, library, depth: int = 0) -> None:
    """Give each op of ``graph`` the source line of the op of the same name in the live TF
    graph (TF keeps a traceback per op), and so on into the bodies TF's graph holds."""
    if depth > 16:
        return
    try:
        tf_ops = {op.name: op for op in tf_graph.get_operations()}
    except Exception:  # noqa: BLE001 - not a graph we can walk
        return
    for op in graph.operations:
        tf_op = tf_ops.get(op.name)
        if tf_op is not None and op.source is None:
            op.source = _user_frame(tf_op)
    bodies = getattr(tf_graph, "_functions", None) or {}  # TF's own map of the graph's functions
    for name, tf_fn in list(bodies.items()):
        fn = library.get(name.decode() if isinstance(name, bytes) else name)
        tf_body = getattr(tf_fn, "graph", None)
        if fn is not None and tf_body is not None:
            _add_sources(fn.graph, tf_body, library, depth + 1)


def _one(cf, budget) -> OpenedGraph:
    from .graphdef import read_graph_def
    opened = read_graph_def(f"<{cf.name}>", cf.graph.as_graph_def().SerializeToString(), False,
                            budget)
    (fn,) = opened.functions
    _add_sources(fn.graph, cf.graph, opened.library)
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
