"""Printers for graphs: GraphDef text (as TensorFlow prints it) and a table (layer 2)."""

from __future__ import annotations

import functools

import numpy as np

from .. import dtypes as _dt
from ..shapes import TensorShape
from . import tf_ops
from .function_defs import MIN_CONSUMER, PRODUCER, library, tf_attrs

GRAPH_DEF_PRODUCER = PRODUCER  # the producer version TF 2.21 writes


def input_ref(t) -> str:
    """How a NodeDef names an input tensor: ``op`` for output 0, else ``op:k``."""
    return t.op.name if t.value_index == 0 else f"{t.op.name}:{t.value_index}"


def _escape(b: bytes) -> str:
    out = []
    for c in b:
        if c == 0x22:
            out.append('\\"')
        elif c == 0x5C:
            out.append("\\\\")
        elif c == 0x0A:
            out.append("\\n")
        elif 32 <= c < 127:
            out.append(chr(c))
        else:
            out.append(f"\\{c:03o}")
    return "".join(out)


def _shape_lines(shape: TensorShape, ind: str) -> list[str]:
    if shape.rank is None:
        return [f"{ind}unknown_rank: true"]
    lines = []
    for d in shape.dims:
        lines += [f"{ind}dim {{", f"{ind}  size: {-1 if d is None else d}", f"{ind}}}"]
    return lines


def _val_field(dtype) -> str:
    if dtype.is_floating:
        return {"float16": "half_val", "float64": "double_val"}.get(dtype.name, "float_val")
    if dtype is _dt.bool:
        return "bool_val"
    if dtype is _dt.string:
        return "string_val"
    return "int64_val" if dtype is _dt.int64 else "int_val"


def _scalar_text(v, dtype) -> str:
    if dtype is _dt.string:
        return f'"{_escape(v)}"'
    if dtype is _dt.bool:
        return "true" if v else "false"
    if dtype.is_floating:
        f = float(v)
        return str(int(f)) if f.is_integer() and abs(f) < 1e16 else repr(f)
    return str(int(v))


def _tensor_lines(value: np.ndarray, ind: str) -> list[str]:
    arr = np.asarray(value)
    dtype = _dt.NP_TO_DTYPE[arr.dtype]
    lines = [f"{ind}dtype: {dtype.enum_name}", f"{ind}tensor_shape {{"]
    lines += _shape_lines(TensorShape(arr.shape), ind + "  ") + [f"{ind}}}"]
    if arr.ndim == 0:
        lines.append(f"{ind}{_val_field(dtype)}: {_scalar_text(arr[()], dtype)}")
    elif dtype is _dt.string:
        lines += [f"{ind}string_val: {_scalar_text(v, dtype)}" for v in arr.ravel()]
    else:
        lines.append(f'{ind}tensor_content: "{_escape(arr.tobytes())}"')
    return lines


def _attr_value_lines(value, ind: str) -> list[str]:
    if isinstance(value, _dt.DType):
        return [f"{ind}type: {value.enum_name}"]
    if isinstance(value, TensorShape):
        return [f"{ind}shape {{"] + _shape_lines(value, ind + "  ") + [f"{ind}}}"]
    if isinstance(value, (np.ndarray, np.generic)):  # a Const's value (a NumPy scalar too)
        return [f"{ind}tensor {{"] + _tensor_lines(value, ind + "  ") + [f"{ind}}}"]
    if isinstance(value, bool):
        return [f"{ind}b: {'true' if value else 'false'}"]
    if isinstance(value, int):
        return [f"{ind}i: {value}"]
    if isinstance(value, float):
        return [f"{ind}f: {value}"]
    if isinstance(value, (str, bytes)):
        b = value.encode() if isinstance(value, str) else value
        return [f'{ind}s: "{_escape(b)}"']
    if isinstance(value, (list, tuple)):
        if not value:
            return [f"{ind}list {{", f"{ind}}}"]
        inner = []
        for v in value:
            inner += _attr_value_lines(v, ind + "  ")
        return [f"{ind}list {{"] + inner + [f"{ind}}}"]
    if hasattr(value, "function_name"):
        return [f"{ind}func {{", f'{ind}  name: "{value.function_name}"', f"{ind}}}"]
    return [f'{ind}s: "{_escape(str(value).encode())}"']


def node_attrs(op) -> dict:
    """The attrs a NodeDef shows, sorted by key: the op's own, and those TF's NodeDef of the
    same op carries (its type attrs from the inputs' dtypes and its defaults, from TF's op
    registry: ``tf_ops.tf_node_attrs``), else T (and N) for typed ops."""
    attrs = {k: v for k, v in op.attrs.items() if not k.startswith("_internal")}
    names = getattr(op.opdef, "inputs", None)
    derived = None if names is None else tf_ops.tf_node_attrs(
        op.type, names, [t.dtype for t in op.inputs])
    if derived is not None:
        for k, v in derived.items():
            attrs.setdefault(k, v)
    elif op.opdef.T and "T" not in attrs and op.inputs:
        attrs["T"] = op.inputs[op.opdef.T[0]].dtype
    elif op.opdef.same_dtype and op.inputs and "T" not in attrs:
        attrs["T"] = op.inputs[0].dtype
        attrs.setdefault("N", len(op.inputs))
    return dict(sorted(attrs.items()))


def _map_order(a: str, b: str) -> int:
    """The order in which ``print(graph_def)`` (protobuf's upb text printer, under TF 2.21)
    lists a map's string keys: by their first differing byte, descending; a key that is a
    prefix of another first (``then_branch`` before ``else_branch``, ``T`` before ``Tout``,
    ``Tout`` before ``Tin``)."""
    for x, y in zip(a.encode(), b.encode()):
        if x != y:
            return -1 if x > y else 1
    return (len(a) > len(b)) - (len(a) < len(b))


def tf_order(keys) -> list:
    """Map keys in the order TF's printout shows them."""
    return sorted(keys, key=functools.cmp_to_key(_map_order))


def _attr_lines(attrs: dict, ind: str) -> list[str]:
    lines = []
    for key in tf_order(attrs):
        lines += [f"{ind}attr {{", f'{ind}  key: "{key}"', f"{ind}  value {{"]
        lines += _attr_value_lines(attrs[key], ind + "    ")
        lines += [f"{ind}  }}", f"{ind}}}"]
    return lines


def graph_node_attrs(op) -> dict:
    """A node's attrs as TF's GraphDef holds them: its own, ``T``, and TF's control-flow
    attrs (``tf_attrs``)."""
    attrs = node_attrs(op)
    attrs.update(tf_attrs(op))
    return attrs


def node_def_text(op, ind: str = "", inputs=None) -> str:
    lines = [f'{ind}name: "{op.name}"', f'{ind}op: "{op.type}"']
    if inputs is None:
        inputs = [input_ref(t) for t in op.inputs] + [f"^{c.name}" for c in op.control_inputs]
    lines += [f'{ind}input: "{r}"' for r in inputs]
    lines += _attr_lines(graph_node_attrs(op), ind)
    return "\n".join(lines)


def function_def_text(fdef, ind: str = "") -> str:
    """A FunctionDef (``function_defs.function_def``) in TF's text format."""
    i2 = ind + "  "
    lines = [f"{ind}signature {{", f'{i2}name: "{fdef.name}"']
    for kind, args in (("input_arg", fdef.input_args), ("output_arg", fdef.output_args)):
        for name, dtype in args:
            lines += [f"{i2}{kind} {{", f'{i2}  name: "{name}"',
                      f"{i2}  type: {dtype.enum_name}", f"{i2}}}"]
    if fdef.is_stateful:
        lines.append(f"{i2}is_stateful: true")
    lines += [f'{i2}control_output: "{name}"' for name in fdef.control_outputs]
    lines.append(f"{ind}}}")
    for op, refs in fdef.nodes:
        lines += [f"{ind}node_def {{", node_def_text(op, i2, refs), f"{ind}}}"]
    for key in tf_order(fdef.ret):
        lines += [f"{ind}ret {{", f'{i2}key: "{key}"', f'{i2}value: "{fdef.ret[key]}"',
                  f"{ind}}}"]
    lines += _attr_lines(fdef.attrs, ind)
    for key in tf_order(fdef.control_outputs):  # (field 6, between attr and arg_attr)
        lines += [f"{ind}control_ret {{", f'{i2}key: "{key}"', f'{i2}value: "{key}"',
                  f"{ind}}}"]
    for index in sorted(fdef.arg_attrs):
        lines += [f"{ind}arg_attr {{", f"{i2}key: {index}", f"{i2}value {{"]
        lines += _attr_lines(fdef.arg_attrs[index], i2 + "  ")
        lines += [f"{i2}}}", f"{ind}}}"]
    return "\n".join(lines)


class NodeDef:
    """One node of a GraphDef: ``name``, ``op``, ``input`` and ``attr``, as in TF's proto."""

    def __init__(self, op):
        self._op = op
        self.name = op.name
        self.op = op.type
        self.input = [input_ref(t) for t in op.inputs] + [f"^{c.name}" for c in op.control_inputs]
        self.attr = graph_node_attrs(op)

    def __str__(self):
        return node_def_text(self._op) + "\n"

    __repr__ = __str__


class FunctionDef:
    """One function of a GraphDef's library: ``signature`` (``name``, ``input_arg``,
    ``output_arg``), ``node_def``, ``ret``, ``attr``, ``arg_attr``, as in TF's proto."""

    def __init__(self, view):
        self._view = view
        self.signature = _Signature(view)
        self.node_def = [NodeDef(op) for op, _ in view.nodes]
        for nd, (_, refs) in zip(self.node_def, view.nodes):
            nd.input = list(refs)
        self.ret = dict(view.ret)
        self.attr = dict(view.attrs)
        self.arg_attr = {i: dict(a) for i, a in view.arg_attrs.items()}

    def __str__(self):
        return function_def_text(self._view) + "\n"

    __repr__ = __str__


class _Signature:
    """A FunctionDef's ``signature`` (TF's OpDef): printed as TF prints it."""

    def __init__(self, view):
        self._view = view
        self.name = view.name
        self.input_arg = [_Arg(n, d) for n, d in view.input_args]
        self.output_arg = [_Arg(n, d) for n, d in view.output_args]
        self.is_stateful = view.is_stateful
        self.control_output = list(view.control_outputs)

    def __str__(self):
        text = function_def_text(self._view)
        head = text[:text.index("\n}") + 1].split("\n")[1:]  # its lines, and a last ""
        return "\n".join(line[2:] for line in head)

    __repr__ = __str__


class _Arg:
    def __init__(self, name, dtype):
        self.name, self.type = name, dtype

    def __str__(self):  # TF's OpDef.ArgDef in text form, as print and repr show it
        return f'name: "{self.name}"\ntype: {self.type._enum}\n'

    __repr__ = __str__


class _Library:
    def __init__(self, functions):
        self.function = functions


class _Versions:
    def __init__(self, producer, min_consumer):
        self.producer, self.min_consumer = producer, min_consumer


class GraphDef:
    """What ``graph.as_graph_def()`` returns: ``node``, ``library.function`` (the
    FunctionDefs of the graph's ``If``/``While`` bodies and called functions) and
    ``versions``, as TF 2.21's; ``str()`` gives the text ``print(graph_def)`` shows."""

    def __init__(self, graph):
        self._graph = graph
        self.node = [NodeDef(op) for op in graph.operations]
        self._views = library(graph)
        self.library = _Library([FunctionDef(v) for v in self._views.values()])
        self.versions = _Versions(PRODUCER, MIN_CONSUMER if self._views else 0)

    def __str__(self):
        parts = ["node {\n" + node_def_text(op, "  ") + "\n}" for op in self._graph.operations]
        if self._views:
            parts.append("library {\n" + "\n".join(
                "  function {\n" + function_def_text(v, "    ") + "\n  }"
                for v in self._views.values()) + "\n}")
        versions = [f"  producer: {PRODUCER}"]
        if self._views:
            versions.append(f"  min_consumer: {MIN_CONSUMER}")
        parts.append("versions {\n" + "\n".join(versions) + "\n}")
        return "\n".join(parts) + "\n"

    __repr__ = __str__

    def __len__(self):
        return len(self.node)


def table(graph) -> str:
    """A fixed-width table: one row per op with its type, inputs and output shapes."""
    rows = [("name", "op", "inputs", "outputs")]
    for op in graph.operations:
        ins = ", ".join([input_ref(t) for t in op.inputs]
                        + [f"^{c.name}" for c in op.control_inputs])
        outs = ", ".join(f"{t.dtype.name}{t.shape}" for t in op.outputs)
        rows.append((op.name, op.type, ins, outs))
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)
