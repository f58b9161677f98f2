"""``Graph.verify``: the checks every graph (and every optimiser pass) must pass (layer 2)."""

from __future__ import annotations


def verify(graph) -> None:
    """Raise ValueError for the first defect: dangling or forward inputs, bad names, bad specs."""
    seen: set[int] = set()
    names: set[str] = set()
    for op in graph.operations:
        if op.graph is not graph:
            raise ValueError(f"Operation {op.name!r} belongs to another graph.")
        if op.name in names:
            raise ValueError(f"Duplicate node name {op.name!r}.")
        names.add(op.name)
        for i, t in enumerate(op.inputs):
            if t.graph is not graph:
                raise ValueError(f"Input {i} of {op.name!r} ({t.name}) is from another graph.")
            if id(t.op) not in seen:
                raise ValueError(f"Input {i} of {op.name!r} ({t.name}) is not defined before use.")
        for c in op.control_inputs:
            if id(c) not in seen:
                raise ValueError(f"Control input ^{c.name} of {op.name!r} is not defined "
                                 "before use.")
        n = op.opdef.output_count(op.attrs)
        if len(op.outputs) != n:
            raise ValueError(f"{op.name!r} has {len(op.outputs)} outputs, its op {op.type} "
                             f"makes {n}.")
        for k, t in enumerate(op.outputs):
            if t.op is not op or t.value_index != k:
                raise ValueError(f"Output {k} of {op.name!r} is not wired back to it.")
        if op.opdef.T and len(op.opdef.T) > 1 and op.inputs:
            d0 = op.inputs[op.opdef.T[0]].dtype
            for i in op.opdef.T[1:]:
                if op.inputs[i].dtype is not d0:
                    raise ValueError(f"{op.name!r}: input {i} has dtype {op.inputs[i].dtype.name}, "
                                     f"expected {d0.name}.")
        seen.add(id(op))
    for t in list(graph.inputs) + list(graph.outputs):
        if t.graph is not graph or id(t.op) not in seen:
            raise ValueError(f"Graph input/output {t.name} is not an operation of this graph.")
