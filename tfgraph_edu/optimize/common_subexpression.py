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


_BIG, _OBJECTS = object(), object()  # a constant never merged; one keyed by its attrs


def _value_key(value):
    """(dtype, shape, bytes) of a constant's array, or _BIG or _OBJECTS."""
    if value.nbytes > 1 << 16:
        return _BIG
    if value.dtype == object:
        return _OBJECTS
    return value.dtype, value.shape, value.tobytes()


def eliminate_common_subexpressions(graph, inputs, outputs, report):
    rw = Rewriter(graph, inputs, outputs)
    seen: dict = {}
    by_value: dict = {}  # id(array) -> (the array, _value_key of it)
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
                known = by_value.get(id(value))  # the tracer shares the value of a number
                if known is None:
                    known = by_value[id(value)] = (value, _value_key(value))
                value_key = known[1]
                if value_key is _BIG:
                    copy(op)
                    continue
                if value_key is not _OBJECTS and len(attrs) == 2 and "dtype" in attrs:
                    # what _freeze(attrs) tells apart, directly
                    key = (op_type, *value_key, attrs["dtype"])
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
