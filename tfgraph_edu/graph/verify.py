"""``Graph.verify``: the checks every graph (and every optimiser pass) must pass (layer 2)."""

from __future__ import annotations

from .naming import is_valid_node_name


def verify(graph) -> None:
    """Raise ValueError for the first defect: dangling or forward inputs, bad names, bad specs."""
    seen: set[int] = set()
    names: set[str] = set()
    for op in graph.operations:
        if op.graph is not graph:
            raise ValueError(f"Operation {op.name!r} belongs to another graph.")
        if not is_valid_node_name(op.name):
            shown = ascii(op.name)
            raise ValueError(f"Node name {shown if len(shown) < 100 else shown[:80] + '...'} is "
                             "not a valid node name: it must start with a letter, digit or '.' "
                             "and contain only letters, digits and _ . - / > \\.")
        if op.name in names:
            raise ValueError(f"Duplicate node name {op.name!r}.")
        names.add(op.name)
        for i, t in enumerate(op.inputs):
            producer = t.op
            if id(producer) not in seen:
                if producer.graph is not graph:
                    raise ValueError(f"Input {i} of {op.name!r} ({t.name}) is from another "
                                     "graph.")
                raise ValueError(f"Input {i} of {op.name!r} ({t.name}) is not defined before "
                                 "use.")
        for c in op.control_inputs:
            if id(c) not in seen:
                raise ValueError(f"Control input ^{c.name} of {op.name!r} is not defined "
                                 "before use.")
        opdef = op.opdef
        n = opdef.num_outputs if opdef.num_outputs.__class__ is int else opdef.output_count(
            op.attrs)
        outputs = op.outputs
        if len(outputs) != n:
            raise ValueError(f"{op.name!r} has {len(outputs)} outputs, its op {op.type} "
                             f"makes {n}.")
        for k, t in enumerate(outputs):
            if t.op is not op or t.value_index != k:
                raise ValueError(f"Output {k} of {op.name!r} is not wired back to it.")
        T = opdef.T
        if len(T) > 1 and op.inputs:
            d0 = op.inputs[T[0]].dtype
            for i in T[1:]:
                if op.inputs[i].dtype is not d0:
                    raise ValueError(f"{op.name!r}: input {i} has dtype "
                                     f"{op.inputs[i].dtype.name}, expected {d0.name}.")
        seen.add(id(op))
    for t in list(graph.inputs) + list(graph.outputs):
        if t.op.graph is not graph or id(t.op) not in seen:
            raise ValueError(f"Graph input/output {t.name} is not an operation of this graph.")
