"""``Graph.verify``: the checks every graph (and every optimiser pass) must pass (layer 2)."""

from __future__ import annotations

from .naming import VALID_OP_NAME


def verify(graph) -> None:
    """Raise ValueError for the first defect: dangling or forward inputs, bad names, bad specs.

    One pass, written for big graphs: the checks of a node cost a few attribute reads."""
    seen: set[int] = set()
    add_seen = seen.add
    names: set[str] = set()
    add_name = names.add
    valid = VALID_OP_NAME.fullmatch
    for op in graph.operations:
        if op.graph is not graph:
            raise ValueError(f"Operation {op.name!r} belongs to another graph.")
        name = op.name
        if not isinstance(name, str) or valid(name) is None:
            _bad_name(op)
        if name in names:
            raise ValueError(f"Duplicate node name {op.name!r}.")
        add_name(name)
        inputs = op.inputs
        for t in inputs:
            if id(t.op) not in seen:
                _bad_input(op, seen, graph)
        for c in op.control_inputs:
            if id(c) not in seen:
                raise ValueError(f"Control input ^{c.name} of {op.name!r} is not defined "
                                 "before use.")
        opdef = op.opdef
        n = opdef.num_outputs
        if n.__class__ is not int:
            n = opdef.output_count(op.attrs)
        outputs = op.outputs
        if len(outputs) != n:
            raise ValueError(f"{op.name!r} has {len(outputs)} outputs, its op {op.type} "
                             f"makes {n}.")
        for k, t in enumerate(outputs):
            if t.op is not op or t.value_index != k:
                raise ValueError(f"Output {k} of {op.name!r} is not wired back to it.")
        T = opdef.T
        if len(T) > 1 and inputs:
            d0 = inputs[T[0]].dtype
            for i in T[1:]:
                if inputs[i].dtype is not d0:
                    raise ValueError(f"{op.name!r}: input {i} has dtype "
                                     f"{inputs[i].dtype.name}, expected {d0.name}.")
        add_seen(id(op))
    for t in list(graph.inputs) + list(graph.outputs):
        if t.op.graph is not graph or id(t.op) not in seen:
            raise ValueError(f"Graph input/output {t.name} is not an operation of this graph.")


def _bad_name(op):
    shown = ascii(op.name)
    raise ValueError(f"Node name {shown if len(shown) < 100 else shown[:80] + '...'} is "
                     "not a valid node name: it must start with a letter, digit or '.' "
                     "and contain only letters, digits and _ . - / > \\.")


def _bad_input(op, seen, graph):
    for i, t in enumerate(op.inputs):
        producer = t.op
        if id(producer) not in seen:
            if producer.graph is not graph:
                raise ValueError(f"Input {i} of {op.name!r} ({t.name}) is from another "
                                 "graph.")
            raise ValueError(f"Input {i} of {op.name!r} ({t.name}) is not defined before "
                             "use.")
