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
    replace = rw._replace
    for op in graph.operations:
        opdef = op.opdef
        op_type = opdef.name
        if opdef.stateful or op_type in ("Placeholder", "NoOp") or op.control_inputs:
            rw.copy(op)
            continue
        attrs = op.attrs
        if op_type == "Const":
            value = attrs["value"]
            if (value.nbytes if type(value) is np.ndarray else np.asarray(value).nbytes) \
                    > 1 << 16:
                rw.copy(op)
                continue
            if type(value) is np.ndarray and len(attrs) == 2 and "dtype" in attrs \
                    and value.dtype != object:  # what _freeze(attrs) tells apart, directly
                key = (op_type, value.dtype, value.shape, value.tobytes(), attrs["dtype"])
            else:
                key = (op_type, (), _freeze(attrs))
        else:
            ins = rw.tensors(op.inputs) if replace else op.inputs
            key = (op_type, tuple(map(id, ins)), _freeze(attrs) if attrs else ())
            first = seen.get(key)
            if first is None:
                seen[key] = rw.copy(op, inputs=ins if replace else None)  # rewired once
                continue
            rw.forward(op, list(first.outputs))
            report.add(op.name, "removed", f"same {op_type} as {first.name}", by=first.name)
            continue
        first = seen.get(key)
        if first is None:
            seen[key] = rw.copy(op)
            continue
        rw.forward(op, list(first.outputs))
        report.add(op.name, "removed", f"same {op_type} as {first.name}", by=first.name)
    return rw.finish()
