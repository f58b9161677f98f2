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
    for op in graph.operations:
        if op.opdef.stateful or op.type in ("Placeholder", "NoOp") or op.control_inputs:
            rw.copy(op)
            continue
        if op.type == "Const" and np.asarray(op.attrs["value"]).nbytes > 1 << 16:
            rw.copy(op)
            continue
        key = (op.type, tuple(id(rw.tensor(t)) for t in op.inputs), _freeze(op.attrs))
        first = seen.get(key)
        if first is None:
            seen[key] = rw.copy(op)
            continue
        rw.forward(op, list(first.outputs))
        report.add(op.name, "removed", f"same {op.type} as {first.name}", by=first.name)
    return rw.finish()
