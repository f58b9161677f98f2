"""Reader: an ONNX model (``.onnx``), with the ``onnx`` package's messages (layer 2a).

Initializers become ``Const`` nodes, graph inputs ``Placeholder`` nodes, each node an op of
its ``op_type`` (``domain.op_type`` outside the default domain); graph-valued attributes
(``If``'s ``then_branch``/``else_branch``, ``Loop``'s and ``Scan``'s ``body``) become bodies
drawn in place, and a name a body reads from the graph around it becomes a captured input
of the body.  Tensors stored outside the file (external data) are never read.
"""

from __future__ import annotations

import math

from google.protobuf.message import DecodeError

from ..graph.graph import Graph, Operation
from ..ops.control_flow_ops import GraphFunction
from ..shapes import TensorShape
from .budget import Budget, GraphFileError
from .model import UNKNOWN_DTYPE, OpenedGraph, ReadFunction, ReadOpDef, ReadTensor, known_dtype

__all__ = ["read_onnx"]

# TensorProto.DataType -> TF's name for the same type
_ONNX_DTYPES = {1: "float32", 2: "uint8", 3: "int8", 4: "uint16", 5: "int16", 6: "int32",
                7: "int64", 8: "string", 9: "bool", 10: "float16", 11: "float64",
                12: "uint32", 13: "uint64", 14: "complex64", 15: "complex128",
                16: "bfloat16"}


def _s(text) -> str:
    """A name from the file as text (ONNX's proto2 strings arrive as bytes when they are not
    UTF-8)."""
    return text.decode("utf-8", "backslashreplace") if isinstance(text, bytes) else text


def _dtype(elem_type: int):
    name = _ONNX_DTYPES.get(elem_type)
    return known_dtype(name) if name else UNKNOWN_DTYPE


def _type_info(type_proto):
    t = type_proto.tensor_type
    if not type_proto.HasField("tensor_type"):
        return TensorShape(None), UNKNOWN_DTYPE
    if not t.HasField("shape"):
        return TensorShape(None), _dtype(t.elem_type)
    dims = [d.dim_value if d.HasField("dim_value") and d.dim_value >= 0 else None
            for d in t.shape.dim]
    return TensorShape(dims), _dtype(t.elem_type)


class _Reader:
    def __init__(self, budget: Budget, what: str):
        self.budget, self.what, self.count, self.bodies = budget, what, 0, 0

    def fail(self, message):
        raise GraphFileError(f"Malformed {self.what}: {message}")

    def tensor(self, t):
        from onnx import numpy_helper
        dims = list(t.dims)
        if any(d < 0 for d in dims):
            self.fail(f"tensor {t.name!r} has a negative dimension")
        count = math.prod(dims)
        dtype = _dtype(t.data_type)
        if (t.data_location == 1 or count > self.budget.max_constant_elements
                or dtype.name in ("bfloat16", "unknown")):
            return f"<{dtype.name} tensor of shape {tuple(dims)}, not decoded>"
        try:
            return numpy_helper.to_array(t)
        except (ValueError, TypeError) as exc:
            self.fail(f"tensor {t.name!r}: {str(exc)[:200]}")

    def attr(self, a, env, depth):
        from onnx import AttributeProto as A
        kind = a.type
        if kind == A.FLOAT:
            return a.f
        if kind == A.INT:
            return a.i
        if kind == A.STRING:
            return a.s.decode("utf-8", "backslashreplace")
        if kind == A.TENSOR:
            return self.tensor(a.t)
        if kind == A.GRAPH:
            return self.graph(a.g, env, depth + 1, _s(a.name))
        if kind == A.FLOATS:
            return list(a.floats)
        if kind == A.INTS:
            return list(a.ints)
        if kind == A.STRINGS:
            return [s.decode("utf-8", "backslashreplace") for s in a.strings]
        if kind == A.TENSORS:
            return [self.tensor(t) for t in a.tensors]
        if kind == A.GRAPHS:
            return [self.graph(g, env, depth + 1, _s(a.name)) for g in a.graphs]
        return f"<{A.AttributeType.Name(kind) if kind in A.AttributeType.values() else kind}>"

    def add(self, graph, name, op_type, attrs, specs):
        self.count += 1
        if self.count > self.budget.nodes:
            self.fail(f"more than {self.budget.nodes} nodes (the node budget)")
        base, i = name, 1
        while name in graph._by_name:  # ONNX does not require unique node names
            name, i = f"{base}_{i}", i + 1
        op = Operation(graph, name, ReadOpDef(op_type), [], attrs)
        op.outputs = [ReadTensor(op, k, s, d) for k, (s, d) in enumerate(specs)]
        op._id = len(graph.operations)
        graph.operations.append(op)
        graph._by_name[name] = op
        return op

    def graph(self, g, outer_env, depth, label="graph"):
        if depth > self.budget.max_depth:
            self.fail(f"subgraphs nest more than {self.budget.max_depth} deep")
        graph = Graph(_s(g.name) or label)
        graph.node_limit = self.budget.nodes
        env: dict[str, object] = {}  # tensor name -> tensor of this graph
        infos = {_s(v.name): _type_info(v.type) for v in list(g.value_info) + list(g.output)}
        for t in g.initializer:
            value = self.tensor(t)
            name = _s(t.name)
            op = self.add(graph, name or "initializer", "Const", {"value": value},
                          [(TensorShape(list(t.dims)), _dtype(t.data_type))])
            op.outputs[0].ref = name
            env[name] = op.outputs[0]
        inputs = []
        for v in g.input:
            name = _s(v.name)
            if name in env:  # an input with a default (an initializer of the same name)
                continue
            shape, dtype = _type_info(v.type)
            op = self.add(graph, name or "input", "Placeholder", {"dtype": dtype},
                          [(shape, dtype)])
            op.outputs[0].ref = name
            env[name] = op.outputs[0]
            inputs.append(op.outputs[0])

        def lookup(name):
            t = env.get(name)
            if t is not None:
                return t
            outer = outer_env.get(name) if outer_env is not None else None
            if outer is None:
                self.fail(f"node input {name!r} is not made by any node of {graph.name!r}")
            op = self.add(graph, name, "Placeholder", {"dtype": outer.dtype},
                          [(outer.shape, outer.dtype)])
            op.outputs[0].ref = name
            env[name] = op.outputs[0]
            graph._captures[id(outer)] = (outer, op.outputs[0])
            return op.outputs[0]

        scope = {**(outer_env or {}), **env}
        for i, node in enumerate(g.node):
            domain, kind = _s(node.domain), _s(node.op_type)
            op_type = f"{domain}.{kind}" if domain not in ("", "ai.onnx") else kind
            attrs = {_s(a.name): self.attr(a, scope, depth) for a in node.attribute}
            outs = [_s(o) for o in node.output]
            specs = [infos.get(o, (TensorShape(None), UNKNOWN_DTYPE)) for o in outs]
            op = self.add(graph, _s(node.name) or f"{kind}_{i}", op_type, attrs, specs)
            op.inputs = [lookup(_s(n)) for n in node.input if n]
            for k, name in enumerate(outs):
                if name:
                    op.outputs[k].ref = name
                    env[name] = scope[name] = op.outputs[k]
        graph.inputs = inputs
        graph.outputs = [lookup(_s(v.name)) for v in g.output]
        return GraphFunction(graph, inputs, graph.outputs, graph.name)


def read_onnx(path: str, data: bytes, budget: Budget) -> OpenedGraph:
    what = f"ONNX model {path!r}"
    try:
        import onnx
    except ImportError:
        raise ImportError("Reading ONNX models needs the onnx package: "
                          "pip install 'tfgraph_edu[tf-files]'.") from None
    model = onnx.ModelProto()
    try:
        model.ParseFromString(data)
    except (DecodeError, RecursionError) as exc:
        raise GraphFileError(f"Malformed {what}: {str(exc)[:200]}") from None
    if not model.HasField("graph"):
        raise GraphFileError(f"Malformed {what}: it holds no graph.")
    fn = _Reader(budget, what).graph(model.graph, None, 0)
    name = _s(model.graph.name) or "onnx"
    ins = ", ".join(f"{t.name}: {t.dtype.name}{t.shape}" for t in fn.inputs)
    facts = {"ir_version": model.ir_version, "producer": model.producer_name,
             "opsets": {_s(o.domain) or "ai.onnx": o.version for o in model.opset_import}}
    return OpenedGraph(path, "onnx", [ReadFunction(name, fn.graph, f"{name}({ins})")], {}, {},
                       facts)
