"""Common-subexpression elimination: the same op on the same inputs is computed once."""

from __future__ import annotations

import numpy as np

from .rewrite import Rewriter


def _freeze(v):
    if isinstance(v, np.ndarray):
        return ("array", v.dtype.str, v.shape, v.tobytes()) if v.dtype != object else id(v)
    if isinstance(v, np.generic):
        return ("scalar", v.dtype.str, v.item())
    if isinstance(v, (list, tuple)):
        return tuple(_freeze(x) for x in v)
    if isinstance(v, dict):
        return tuple(sorted((k, _freeze(x)) for k, x in v.items()))
    try:
        hash(v)
        return v
    except TypeError:
        return id(v)


def eliminate_common_subexpressions(graph, inputs, outputs, report):
    rw = Rewriter(graph, inputs, outputs)
    seen: dict = {}
    copy, tensors, forward, add = rw.copy, rw.tensors, rw.forward, report.add
    for op in graph.operations:
        opdef = op.opdef
        op_type = opdef.name
        if opdef.stateful or op_type in ("Placeholder", "NoOp") or op.control_inputs:
            copy(op)
            continue
        attrs = op.attrs
        if op_type == "Const":
            value = attrs["value"]
            if type(value) is np.ndarray:
                if value.nbytes > 1 << 16:
                    copy(op)
                    continue
                if len(attrs) == 2 and value.dtype != object and "dtype" in attrs:
                    # what _freeze(attrs) tells apart, directly
                    key = (op_type, value.dtype, value.shape, value.tobytes(), attrs["dtype"])
                else:
                    key = (op_type, (), _freeze(attrs))
            elif np.asarray(value).nbytes > 1 << 16:
                copy(op)
                continue
            else:
                key = (op_type, (), _freeze(attrs))
            first = seen.get(key)
            if first is None:
                seen[key] = copy(op)
                continue
        else:
            ins = tensors(op.inputs)
            key = (op_type, *map(id, ins), _freeze(attrs) if attrs else ())
            first = seen.get(key)
            if first is None:
                seen[key] = copy(op, ins)  # rewired once
                continue
        forward(op, first.outputs)
        name = first.name
        add(op.name, "removed", f"same {op_type} as {name}", name)
    return rw.finish()
