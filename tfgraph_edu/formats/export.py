"""A tfgraph_edu graph written as a TensorFlow GraphDef, binary ``.pb`` or text ``.pbtxt``
(layer 2a), for TensorFlow, TensorBoard or Netron to open.

Nodes and the function library are written as ``graph.as_graph_def()`` shows them
(``graph/function_defs.py``: the op's attrs, ``T``, TF's control-flow attrs; every
``If``/``While`` body and any other function-valued attr as a ``FunctionDef`` whose node
inputs use TF's ``op:out_arg:index`` names, with TF's ``arg_attr``\\ s).  An attr TF's op
does not declare is kept under
``_tfgraph_edu_<name>``: TF accepts attrs starting with ``_`` on any node, and nothing is
dropped in silence.  An op TF does not register is a
ValueError naming it.
"""

from __future__ import annotations

import os

import numpy as np

from .. import dtypes as _dt
from .._files import write_file_atomic
from ..graph import tf_ops
from ..graph.function_defs import MIN_CONSUMER, PRODUCER, function_def, tf_attrs
from ..graph.printers import input_ref, node_attrs
from ..shapes import TensorShape
from ._protos import protos

__all__ = ["to_graph_def", "save_graph_def", "save_graph_event", "PRODUCER"]

_TYPE_ENUM: dict = {}


def _enum(dtype) -> int:
    if not _TYPE_ENUM:
        types = protos().types_pb2
        for d in _dt.ALL + (_dt.resource, _dt.variant):
            _TYPE_ENUM[d.name] = types.DataType.Value(d.enum_name)
    try:
        return _TYPE_ENUM[dtype.name]
    except KeyError:
        raise ValueError(f"{dtype!r} has no GraphDef type") from None


def _shape(proto, shape: TensorShape) -> None:
    proto.SetInParent()  # a scalar's shape has no dims, and is still set
    if shape.rank is None:
        proto.unknown_rank = True
        return
    for d in shape.dims:
        proto.dim.add(size=-1 if d is None else d)


def _tensor(proto, value) -> None:
    a = np.asarray(value)
    if a.dtype == object or a.dtype.kind in "SU":
        proto.dtype = _enum(_dt.string)
        proto.string_val.extend(v if isinstance(v, bytes) else str(v).encode()
                                for v in a.ravel())
    else:
        dtype = _dt.NP_TO_DTYPE.get(a.dtype)
        if dtype is None:
            raise ValueError(f"a constant of numpy dtype {a.dtype} has no GraphDef type")
        proto.dtype = _enum(dtype)
        proto.tensor_content = np.ascontiguousarray(a).astype(a.dtype.newbyteorder("<"),
                                                               copy=False).tobytes()
    _shape(proto.tensor_shape, TensorShape(a.shape))


class _Writer:
    def __init__(self):
        self.p = protos()
        self.library = {}  # function name -> FunctionDef (written once)

    def attr(self, proto, value, caller=None) -> None:
        if isinstance(value, (_dt.DType,)) or type(value).__name__ == "ReadDType":
            proto.type = _enum(value)
        elif isinstance(value, TensorShape):
            _shape(proto.shape, value)
        elif isinstance(value, (np.ndarray, np.generic)):
            _tensor(proto.tensor, value)
        elif isinstance(value, bool):
            proto.b = value
        elif isinstance(value, int):
            proto.i = value
        elif isinstance(value, float):
            proto.f = value
        elif isinstance(value, str):
            proto.s = value.encode("utf-8", "surrogateescape")
        elif isinstance(value, bytes):
            proto.s = value
        elif hasattr(value, "function_name") and hasattr(value, "graph"):
            proto.func.name = self.function(value, caller)
        elif isinstance(value, (list, tuple)):
            self.list_attr(proto, value, caller)
        else:
            raise ValueError(f"an attr value of type {type(value).__name__} has no GraphDef form")

    def list_attr(self, proto, values, caller=None) -> None:
        lst = proto.list
        lst.SetInParent()  # an empty list is still a list
        for v in values:
            if isinstance(v, _dt.DType):
                lst.type.append(_enum(v))
            elif isinstance(v, TensorShape):
                _shape(lst.shape.add(), v)
            elif isinstance(v, bool):
                lst.b.append(v)
            elif isinstance(v, int):
                lst.i.append(v)
            elif isinstance(v, float):
                lst.f.append(v)
            elif isinstance(v, (str, bytes)):
                lst.s.append(v.encode() if isinstance(v, str) else v)
            elif isinstance(v, (np.ndarray, np.generic)):
                _tensor(lst.tensor.add(), v)
            elif hasattr(v, "function_name") and hasattr(v, "graph"):
                lst.func.add().name = self.function(v, caller)
            else:
                raise ValueError(f"a list attr item of type {type(v).__name__} has no "
                                 "GraphDef form")

    def node(self, proto, op, refs) -> None:
        proto.name = op.name
        proto.op = op.type
        proto.input.extend(refs)
        known = tf_ops.op_def(op.type)
        if known is None and op.type not in self.library:
            raise ValueError(f"TensorFlow has no op {op.type!r} (node {op.name!r}): this graph "
                             "cannot be written as a GraphDef TF would load.")
        for key, value in {**node_attrs(op), **tf_attrs(op)}.items():
            if value is None:
                continue
            if known is not None and key not in known.attrs and not key.startswith("_"):
                key = f"_tfgraph_edu_{key}"
            self.attr(proto.attr[key], value, op)

    def function(self, fn, caller=None) -> str:
        """Write ``fn`` (a GraphFunction) into the library once (as ``as_graph_def()`` shows
        it: ``function_defs.function_def``); its name."""
        name = fn.function_name
        if name in self.library:
            return name
        fdef = self.p.function_pb2.FunctionDef()
        self.library[name] = fdef  # before the body: a body naming itself is not followed
        view = function_def(fn, caller)
        fdef.signature.name = name
        for arg, dtype in view.input_args:
            fdef.signature.input_arg.add(name=arg, type=_enum(dtype))
        for arg, dtype in view.output_args:
            fdef.signature.output_arg.add(name=arg, type=_enum(dtype))
        if view.is_stateful:
            fdef.signature.is_stateful = True
        for op, refs in view.nodes:
            self.node(fdef.node_def.add(), op, refs)
        for key, ref in view.ret.items():
            fdef.ret[key] = ref
        for key, value in view.attrs.items():
            self.attr(fdef.attr[key], value)
        for i, attrs in view.arg_attrs.items():
            for key, value in attrs.items():
                self.attr(fdef.arg_attr[i].attr[key], value)
        return name


def to_graph_def(graph):
    """The GraphDef message of ``graph`` (a Graph, or anything with ``.graph``), with the
    function library of its control-flow bodies."""
    graph = getattr(graph, "graph", graph)
    writer = _Writer()
    gd = writer.p.graph_pb2.GraphDef()
    for op in graph.operations:
        writer.node(gd.node.add(), op, [input_ref(t) for t in op.inputs]
                    + [f"^{c.name}" for c in op.control_inputs])
    gd.library.function.extend(writer.library[k] for k in sorted(writer.library))
    gd.versions.producer = PRODUCER
    if writer.library:
        gd.versions.min_consumer = MIN_CONSUMER
    return gd


def save_graph_def(graph, path, as_text: bool | None = None) -> str:
    """Write ``graph`` (a Graph, ConcreteFunction or GraphFunction) to ``path`` as a GraphDef:
    text when ``as_text`` (default: when the name ends with ``.pbtxt``), else binary.  The
    file is written whole or not at all.  Returns the path."""
    path = os.fspath(path)
    gd = to_graph_def(graph)
    if as_text is None:
        as_text = path.endswith((".pbtxt", ".pbtext"))
    data = (protos().text_format.MessageToString(gd).encode("utf-8") if as_text
            else gd.SerializeToString())
    write_file_atomic(path, data)
    return path


def save_graph_event(graph, logdir) -> str:
    """Write ``graph`` into a new TensorBoard event file in ``logdir`` (TensorBoard's Graphs
    tab shows it); returns the file's path."""
    import socket
    import struct
    import time

    from .events import masked_crc32c
    p = protos()
    now = time.time()
    events = [p.event_pb2.Event(wall_time=now, file_version="brain.Event:2"),
              p.event_pb2.Event(wall_time=now, step=0,
                                graph_def=to_graph_def(graph).SerializeToString())]
    out = bytearray()
    for e in events:
        body = e.SerializeToString()
        header = struct.pack("<Q", len(body))
        out += header + struct.pack("<I", masked_crc32c(header)) + body
        out += struct.pack("<I", masked_crc32c(body))
    os.makedirs(logdir, exist_ok=True)
    path = os.path.join(os.fspath(logdir), f"events.out.tfevents.{int(now)}."
                        f"{socket.gethostname()}.{os.getpid()}.tfgraph_edu.v2")
    write_file_atomic(path, bytes(out))
    return path
