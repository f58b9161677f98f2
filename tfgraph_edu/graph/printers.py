"""Printers for graphs: GraphDef text (as TensorFlow prints it) and a table (layer 2)."""

from __future__ import annotations

import numpy as np

from .. import dtypes as _dt
from ..shapes import TensorShape

GRAPH_DEF_PRODUCER = 1882  # the producer version TF 2.21 writes


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
    lines = [f"{ind}dtype: {dtype.as_datatype_enum}", f"{ind}tensor_shape {{"]
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
        return [f"{ind}type: {value.as_datatype_enum}"]
    if isinstance(value, TensorShape):
        return [f"{ind}shape {{"] + _shape_lines(value, ind + "  ") + [f"{ind}}}"]
    if isinstance(value, np.ndarray):
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
    """The attrs a NodeDef shows: the op's attrs plus T for typed ops, sorted by key."""
    attrs = {k: v for k, v in op.attrs.items() if not k.startswith("_internal")}
    if op.opdef.T and "T" not in attrs and op.inputs:
        attrs["T"] = op.inputs[op.opdef.T[0]].dtype
    elif op.opdef.same_dtype and op.inputs and "T" not in attrs:
        attrs["T"] = op.inputs[0].dtype
        attrs.setdefault("N", len(op.inputs))
    return dict(sorted(attrs.items()))


def node_def_text(op, ind: str = "") -> str:
    lines = [f'{ind}name: "{op.name}"', f'{ind}op: "{op.type}"']
    lines += [f'{ind}input: "{input_ref(t)}"' for t in op.inputs]
    lines += [f'{ind}input: "^{c.name}"' for c in op.control_inputs]
    for key, value in node_attrs(op).items():
        lines += [f"{ind}attr {{", f'{ind}  key: "{key}"', f"{ind}  value {{"]
        lines += _attr_value_lines(value, ind + "    ")
        lines += [f"{ind}  }}", f"{ind}}}"]
    return "\n".join(lines)


class NodeDef:
    """One node of a GraphDef: ``name``, ``op``, ``input`` and ``attr``, as in TF's proto."""

    def __init__(self, op):
        self._op = op
        self.name = op.name
        self.op = op.type
        self.input = [input_ref(t) for t in op.inputs] + [f"^{c.name}" for c in op.control_inputs]
        self.attr = node_attrs(op)

    def __str__(self):
        return node_def_text(self._op) + "\n"

    __repr__ = __str__


class GraphDef:
    """What ``graph.as_graph_def()`` returns; ``str()`` gives TF's text format."""

    def __init__(self, graph):
        self.node = [NodeDef(op) for op in graph.operations]
        self._graph = graph

    def __str__(self):
        parts = []
        for op in self._graph.operations:
            parts.append("node {\n" + node_def_text(op, "  ") + "\n}")
        parts.append(f"versions {{\n  producer: {GRAPH_DEF_PRODUCER}\n}}")
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
