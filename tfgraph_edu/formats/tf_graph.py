"""TensorFlow's GraphDef and function library -> the graph model the viewer draws (layer 2a).

Shared by the SavedModel, GraphDef and event-file readers.  A ``GraphDef`` node names its
inputs ``op`` / ``op:2`` (an output index) / ``^op`` (a control input); inside a
``FunctionDef`` they are ``arg`` (a function input) or ``op:out_arg:2`` (an output argument
of the op and an index into it), which needs the op's output arguments: they come from the
file's op list (a SavedModel's ``stripped_op_list``), from the library (a call of a library
function), or from TF 2.21's op registry kept as data (``tf_ops.json``); for any other op
the tensor keeps the name the file gave it.  Function-valued attrs (``If``'s branches,
``While``'s cond and body, the ``f`` of ``PartitionedCall``) become ``GraphFunction``
attrs, built once per function, so the bodies are drawn in place.  A function that calls
itself, nesting deeper than the budget, or a graph that would draw more nodes than the
budget (bodies counted each time they are drawn) is refused with :class:`GraphFileError`.
"""

from __future__ import annotations

import math

import numpy as np

from .. import dtypes as _dt
from ..graph import tf_ops
from ..graph.graph import Graph, Operation
from ..ops.control_flow_ops import GraphFunction
from ..shapes import TensorShape
from .budget import Budget, GraphFileError
from .model import UNKNOWN_DTYPE, ReadDType, ReadOpDef, ReadTensor, known_dtype

__all__ = ["GraphReader", "DTYPE_NAMES", "dtype_of"]

# TensorFlow's DataType enum (types.proto) -> TF's Python name
DTYPE_NAMES = {
    1: "float32", 2: "float64", 3: "int32", 4: "uint8", 5: "int16", 6: "int8", 7: "string",
    8: "complex64", 9: "int64", 10: "bool", 11: "qint8", 12: "quint8", 13: "qint32",
    14: "bfloat16", 15: "qint16", 16: "quint16", 17: "uint16", 18: "complex128",
    19: "float16", 20: "resource", 21: "variant", 22: "uint32", 23: "uint64",
    24: "float8_e5m2", 25: "float8_e4m3fn", 26: "float8_e4m3fnuz", 27: "float8_e4m3b11fnuz",
    28: "float8_e5m2fnuz", 29: "int4", 30: "uint4", 31: "int2", 32: "uint2",
}
# dtype name -> (numpy dtype, the TensorProto field of its values)
_VALUES = {
    "float32": ("<f4", "float_val"), "float64": ("<f8", "double_val"),
    "int32": ("<i4", "int_val"), "uint8": ("u1", "int_val"), "int16": ("<i2", "int_val"),
    "int8": ("i1", "int_val"), "int64": ("<i8", "int64_val"), "bool": ("?", "bool_val"),
    "uint16": ("<u2", "int_val"), "float16": ("<f2", "half_val"),
    "uint32": ("<u4", "uint32_val"), "uint64": ("<u8", "uint64_val"),
    "complex64": ("<c8", "scomplex_val"), "complex128": ("<c16", "dcomplex_val"),
    "qint8": ("i1", "int_val"), "quint8": ("u1", "int_val"), "qint32": ("<i4", "int_val"),
    "qint16": ("<i2", "int_val"), "quint16": ("<u2", "int_val"),
}

# single-output ops whose output dtype is not in T/dtype/out_type
_FIXED = {"Shape": "int32", "Size": "int32", "Rank": "int32", "Less": "bool",
          "Greater": "bool", "LessEqual": "bool", "GreaterEqual": "bool", "Equal": "bool",
          "NotEqual": "bool", "LogicalAnd": "bool", "LogicalOr": "bool", "LogicalNot": "bool",
          "VarHandleOp": "resource", "StringFormat": "string", "NoOp": None, "PrintV2": None,
          "Timestamp": "float64", "AssignVariableOp": None, "AssignAddVariableOp": None,
          "AssignSubVariableOp": None}
_DTYPE_ATTRS = ("T", "dtype", "out_type", "DstT", "output_type", "Tidx", "type")


_DTYPE_CACHE: dict = {}
_SHAPE_CACHE: dict = {}  # shapes are immutable: one object per distinct shape (speed, memory)
_UNKNOWN_SHAPE = TensorShape(None)


def _is_dtype(v) -> bool:
    return isinstance(v, (_dt.DType, ReadDType))


def dtype_of(enum: int):
    found = _DTYPE_CACHE.get(enum)
    if found is not None:
        return found
    name = DTYPE_NAMES.get(enum % 100 if enum > 100 else enum)
    if name is None:
        return UNKNOWN_DTYPE
    found = _DTYPE_CACHE[enum] = known_dtype(name + ("_ref" if enum > 100 else ""))
    return found


def shape_of(proto) -> TensorShape:
    if proto.unknown_rank:
        return _UNKNOWN_SHAPE
    key = tuple([None if d.size < 0 else d.size for d in proto.dim])
    found = _SHAPE_CACHE.get(key)
    if found is None:
        found = TensorShape(key)
        if len(_SHAPE_CACHE) < 4096 and len(key) <= 8:
            _SHAPE_CACHE[key] = found
    return found


class GraphReader:
    """Converts one file's graphs; ``op_list``: OpDef protos by name (may be empty)."""

    def __init__(self, library, budget: Budget, op_list=None, what: str = "the graph"):
        self.budget = budget
        self.what = what
        self.fdefs = {f.signature.name: f for f in library.function} if library else {}
        self.op_defs = dict(op_list or {})
        for name, f in self.fdefs.items():  # a call of a library function by its name
            self.op_defs.setdefault(name, f.signature)
        self.functions: dict[str, GraphFunction] = {}
        self.building: list[str] = []
        self.sizes: dict[str, int] = {}
        self.layouts: dict[int, list | None] = {}  # id(op) -> its output layout, if known
        self.opdefs: dict[tuple, ReadOpDef] = {}

    # -- errors ----------------------------------------------------------------------------------
    def fail(self, message: str):
        raise GraphFileError(f"Malformed {self.what}: {message}")

    # -- attrs -----------------------------------------------------------------------------------
    def attr(self, value, depth: int):
        kind = value.WhichOneof("value")
        if kind == "type":  # the commonest kinds first, without a call
            return dtype_of(value.type)
        if kind == "b":
            return value.b
        if kind is None:
            return None
        if kind == "list":
            lst = value.list
            for name in ("s", "i", "f", "b", "type", "shape", "tensor", "func"):
                items = getattr(lst, name)
                if len(items):
                    return [self.scalar_attr(name, v, depth) for v in items]
            return []
        if kind == "placeholder":
            return f"${value.placeholder}"
        return self.scalar_attr(kind, getattr(value, kind), depth)

    def scalar_attr(self, kind: str, v, depth: int):
        if kind == "s":
            try:
                return v.decode("utf-8")
            except UnicodeDecodeError:
                return v
        if kind in ("i", "f", "b"):
            return v
        if kind == "type":
            return dtype_of(v)
        if kind == "shape":
            return shape_of(v)
        if kind == "tensor":
            return self.tensor(v)
        if kind == "func":
            return self.function(v.name, depth + 1)
        self.fail(f"unknown attribute kind {kind!r}")

    def tensor(self, t):
        """A constant's value as an array, or a short text past the element budget."""
        dtype = dtype_of(t.dtype)
        shape = shape_of(t.tensor_shape)
        if shape.rank is None or any(d is None for d in shape.dims):
            self.fail(f"a constant of {dtype.name} has shape {shape}, which is not fully known")
        dims = shape.as_list()
        count = math.prod(dims)
        spec = _VALUES.get(dtype.name)
        if count > self.budget.max_constant_elements or (spec is None and dtype.name != "string"):
            return f"<{dtype.name} tensor of shape {tuple(dims)}, not decoded>"
        if dtype.name == "string":
            vals = list(t.string_val)
            if len(vals) > count:
                self.fail("a string constant has more values than its shape holds")
            vals = vals + [vals[-1] if vals else b""] * (count - len(vals))
            out = np.empty(count, dtype=object)
            out[:] = vals
            return out.reshape(dims)
        np_dtype, field = spec
        if t.tensor_content:
            itemsize = np.dtype(np_dtype).itemsize
            if len(t.tensor_content) != count * itemsize:
                self.fail(f"a constant of shape {tuple(dims)} ({dtype.name}) holds "
                          f"{len(t.tensor_content)} bytes, not {count * itemsize}")
            return np.frombuffer(t.tensor_content, dtype=np_dtype).reshape(dims).copy()
        vals = getattr(t, field)
        if field == "half_val":
            arr = np.asarray(vals, dtype="<u2").view("<f2")
        elif field in ("scomplex_val", "dcomplex_val"):
            flat = np.asarray(vals, dtype="<f4" if field == "scomplex_val" else "<f8")
            if flat.size % 2:
                self.fail("a complex constant has an odd number of parts")
            arr = flat[0::2] + 1j * flat[1::2]
        else:
            if len(vals) > count:
                self.fail(f"a constant of shape {tuple(dims)} lists {len(vals)} values")
            try:  # a list first: numpy reads a protobuf repeated field slowly
                arr = np.array(list(vals), dtype=np_dtype)
            except (OverflowError, ValueError):
                self.fail(f"a {dtype.name} constant holds values out of its range")
        if arr.size > count:
            self.fail(f"a constant of shape {tuple(dims)} lists {arr.size} values")
        if arr.size < count:  # TF repeats the last value given (zeros when none)
            fill = arr[-1] if arr.size else np.zeros((), np_dtype)
            arr = np.concatenate([arr, np.full(count - arr.size, fill, dtype=np_dtype)])
        return arr.reshape(dims)

    # -- output layouts -------------------------------------------------------------------------
    def op_def(self, op_type: str):
        """The OpDef of ``op_type``: the file's op list, the library's functions, TF 2.21's
        registry (``tf_ops.json``), or None."""
        found = self.op_defs.get(op_type)
        if found is None:
            found = self.op_defs[op_type] = tf_ops.op_def(op_type) or False
        return found or None

    def output_layout(self, node, attrs: dict):
        """``[(arg name, count, [dtypes])]`` of ``node``'s op, or None when not known."""
        op_def = self.op_def(node.op)
        if op_def is not None:
            out = []
            for arg in op_def.output_arg:
                if arg.type_list_attr:
                    types = attrs.get(arg.type_list_attr) or []
                    if not isinstance(types, list) or not all(map(_is_dtype, types)):
                        self.fail(f"node {node.name!r} has a bad {arg.type_list_attr}")
                    out.append((arg.name, len(types), list(types)))
                    continue
                n = 1
                if arg.number_attr:
                    n = attrs.get(arg.number_attr)
                    if type(n) is not int or not 0 <= n <= self.budget.nodes:
                        self.fail(f"node {node.name!r} has a bad {arg.number_attr}")
                dtype = (dtype_of(arg.type) if arg.type
                         else attrs.get(arg.type_attr) or UNKNOWN_DTYPE)
                if not _is_dtype(dtype):
                    self.fail(f"node {node.name!r} has a bad {arg.type_attr}")
                out.append((arg.name, n, [dtype] * n))
            return out
        return None

    @staticmethod
    def guess_dtype(op_type: str, attrs: dict):
        if op_type in _FIXED:
            return known_dtype(_FIXED[op_type]) if _FIXED[op_type] else UNKNOWN_DTYPE
        for key in _DTYPE_ATTRS:
            v = attrs.get(key)
            if _is_dtype(v):
                return v
        return UNKNOWN_DTYPE

    # -- graphs ----------------------------------------------------------------------------------
    def function(self, name: str, depth: int) -> GraphFunction:
        done = self.functions.get(name)
        if done is not None:
            return done
        if name in self.building:
            loop = " -> ".join(self.building[self.building.index(name):] + [name])
            self.fail(f"function {name!r} calls itself ({loop}); a function library must "
                      "not be recursive")
        if depth > self.budget.max_depth:
            self.fail(f"functions nest more than {self.budget.max_depth} deep (at {name!r})")
        fdef = self.fdefs.get(name)
        if fdef is None:
            self.fail(f"an attribute names function {name!r}, which is not in the library")
        self.building.append(name)
        try:
            fn = self.function_def(fdef, depth)
        finally:
            self.building.pop()
        self.functions[name] = fn
        return fn

    def function_def(self, fdef, depth: int) -> GraphFunction:
        sig = fdef.signature
        graph = Graph(sig.name)
        graph.node_limit = self.budget.nodes
        inputs = []
        env: dict[str, object] = {}  # function input name -> its tensor
        for i, arg in enumerate(sig.input_arg):
            arg_attrs = fdef.arg_attr[i].attr if i in fdef.arg_attr else {}
            attrs = {"dtype": dtype_of(arg.type) if arg.type else UNKNOWN_DTYPE}
            for k in ("_user_specified_name", "_output_shapes"):
                if k in arg_attrs:
                    attrs[k] = self.attr(arg_attrs[k], depth)
            shapes = attrs.get("_output_shapes")
            shape = shapes[0] if isinstance(shapes, list) and shapes else TensorShape(None)
            op = self.add(graph, arg.name, "Placeholder", attrs, [(shape, attrs["dtype"])])
            self.layouts[id(op)] = [("output", 1, [attrs["dtype"]])]
            env[arg.name] = op.outputs[0]
            inputs.append(op.outputs[0])
        self.nodes(graph, fdef.node_def, depth, env)
        outputs = []
        for arg in sig.output_arg:
            ref = fdef.ret.get(arg.name)
            if ref is None:
                self.fail(f"function {sig.name!r} does not return its output {arg.name!r}")
            outputs.append(self.resolve(graph, ref, env, True))
        graph.inputs, graph.outputs = inputs, outputs
        # TF names a body's nodes under its op's scope (cond/mul): as for our own bodies, the
        # picture leaves that prefix out, the cluster around them saying it already
        heads = {op.name.split("/", 1)[0] for op in graph.operations[len(inputs):]
                 if "/" in op.name}
        if len(heads) == 1 and all("/" in op.name for op in graph.operations[len(inputs):]):
            graph.base_scope = heads.pop()
        return GraphFunction(graph, inputs, outputs, sig.name)

    def graph_def(self, graph_def, name: str) -> Graph:
        graph = Graph(name)
        graph.node_limit = self.budget.nodes
        self.nodes(graph, graph_def.node, 0, None)
        graph.inputs = [op.outputs[0] for op in graph.operations
                        if op.type == "Placeholder" and op.outputs]
        return graph

    def add(self, graph: Graph, name: str, op_type: str, attrs: dict, specs, stateful=None):
        if name in graph._by_name:
            self.fail(f"two nodes are named {name!r} in {graph.name!r}")
        if len(graph.operations) >= self.budget.nodes:
            self.fail(f"{graph.name!r} has more than {self.budget.nodes} nodes (the node budget)")
        opdef = self.opdefs.get((op_type, stateful))
        if opdef is None:  # one per op type, shared by its nodes
            opdef = self.opdefs[(op_type, stateful)] = ReadOpDef(op_type, stateful)
        op = Operation(graph, name, opdef, [], attrs)
        op.outputs = [ReadTensor(op, i, s, d) for i, (s, d) in enumerate(specs)]
        op._id = len(graph.operations)
        graph.operations.append(op)
        graph._by_name[name] = op
        return op

    def nodes(self, graph: Graph, node_defs, depth: int, env) -> None:
        """Add ``node_defs`` to ``graph`` (``env``: a function's inputs, None in a GraphDef),
        then connect their inputs (they may come in any order)."""
        if len(node_defs) > self.budget.nodes:
            self.fail(f"{graph.name!r} has {len(node_defs)} nodes, over the node budget of "
                      f"{self.budget.nodes}")
        made = []
        for node in node_defs:
            if not node.name:
                self.fail(f"a node of {graph.name!r} has no name")
            attr = self.attr
            attrs = {k: attr(v, depth) for k, v in node.attr.items()}
            layout = self.output_layout(node, attrs)
            # TF's inferred shapes, or the output_shapes control flow declares
            shapes = attrs.get("_output_shapes") or attrs.get("output_shapes")
            shapes = shapes if isinstance(shapes, list) else []
            if not shapes:  # a placeholder's declared shape, a constant's value's
                if node.op == "Placeholder" and isinstance(attrs.get("shape"), TensorShape):
                    shapes = [attrs["shape"]]
                elif node.op == "Const" and isinstance(attrs.get("value"), np.ndarray):
                    shapes = [TensorShape(attrs["value"].shape)]
            op_def = self.op_def(node.op)
            stateful = bool(op_def.is_stateful) if op_def is not None and hasattr(
                op_def, "is_stateful") else None
            specs = []
            if layout is not None:
                for _, count, dtypes in layout:
                    specs += [(None, d) for d in dtypes[:count]]
            op = self.add(graph, node.name, node.op, attrs, [], stateful)
            op.outputs = [ReadTensor(op, i, shapes[i] if i < len(shapes) else TensorShape(None),
                                     d) for i, (_, d) in enumerate(specs)]
            self.layouts[id(op)] = layout
            made.append((op, node))
        for op, node in made:
            inputs, controls = [], []
            for ref in node.input:
                if ref.startswith("^"):
                    src = graph._by_name.get(ref[1:])
                    if src is None:
                        self.fail(f"node {node.name!r} waits for {ref[1:]!r}, which is not in "
                                  f"{graph.name!r}")
                    controls.append(src)
                else:
                    inputs.append(self.resolve(graph, ref, env, False))
            op.inputs = inputs
            op.control_inputs = tuple(controls)
        self.count(graph)

    def resolve(self, graph: Graph, ref: str, env, is_return: bool):
        """The tensor ``ref`` names (``op``, ``op:1``, or in a function ``arg`` and
        ``op:out_arg:1``), creating outputs of ops whose layout the file does not say."""
        parts = ref.split(":")
        if env is not None and len(parts) == 1 and ref in env:
            return env[ref]
        op = graph._by_name.get(parts[0])
        if op is None or len(parts) > 3:
            self.fail(f"{graph.name!r} refers to {ref!r}, which is not in it")
        try:
            index = int(parts[-1]) if len(parts) > 1 else 0
        except ValueError:
            self.fail(f"bad tensor reference {ref!r} in {graph.name!r}")
        if index < 0 or index > self.budget.nodes:
            self.fail(f"bad output index in {ref!r}")
        if len(parts) == 3:  # op:out_arg:index
            layout = self.output_layout_of(op)
            if layout is not None:
                start = 0
                for arg, count, _ in layout:
                    if arg == parts[1]:
                        if index >= count:
                            self.fail(f"{ref!r}: {op.type} has {count} {arg!r} outputs")
                        return op.outputs[start + index]
                    start += count
                self.fail(f"{ref!r}: {op.type} has no output argument {parts[1]!r}")
            return self.named_output(op, ref)
        if index >= len(op.outputs):
            if self.output_layout_of(op) is not None:
                self.fail(f"{ref!r}: {op.name!r} has {len(op.outputs)} outputs")
            self.grow(op, index + 1)
        return op.outputs[index]

    def output_layout_of(self, op):
        return self.layouts.get(id(op))

    def grow(self, op, n: int) -> None:
        dtype = self.guess_dtype(op.type, op.attrs)
        shapes = op.attrs.get("_output_shapes")
        shapes = shapes if isinstance(shapes, list) else []
        while len(op.outputs) < n:
            i = len(op.outputs)
            op.outputs.append(ReadTensor(op, i, shapes[i] if i < len(shapes)
                                         else TensorShape(None), dtype))

    def named_output(self, op, ref: str):
        """An output named ``op:arg:i`` of an op of unknown layout: one tensor per name,
        named as the file names it."""
        for t in op.outputs:
            if t.ref == ref:
                return t
        t = ReadTensor(op, len(op.outputs), TensorShape(None),
                       self.guess_dtype(op.type, op.attrs), ref)
        op.outputs.append(t)
        return t

    # -- budget of what is drawn -------------------------------------------------------------------
    def count(self, graph: Graph) -> int:
        """Nodes drawn for ``graph`` with every body in place; refused past the budget."""
        total = len(graph.operations)
        for op in graph.operations:
            if not op.attrs:
                continue
            for v in op.attrs.values():
                for fn in (v if isinstance(v, list) else [v]):
                    if isinstance(fn, GraphFunction):
                        total += self.sizes.get(fn.name) or self.count(fn.graph)
        if total > self.budget.nodes:
            self.fail(f"{graph.name!r} would be drawn with {total} nodes with its function "
                      f"bodies in place, over the node budget of {self.budget.nodes}")
        self.sizes[graph.name] = total
        return total
