"""Dependency optimisation: drop Identity/StopGradient forwarding and idle NoOps (layer 6).

The Identity nodes that name a function's outputs stay (they are the outputs);
control edges that an op already has through its data inputs are removed.
"""

from __future__ import annotations

from .rewrite import Rewriter


def _ancestors(t, limit=64) -> set:
    seen, todo = set(), [t.op]
    while todo and len(seen) < limit:
        op = todo.pop()
        if id(op) in seen:
            continue
        seen.add(id(op))
        todo.extend(x.op for x in op.inputs)
    return seen


_LOOKED_AT = frozenset({"Identity", "StopGradient", "NoOp"})


def optimize_dependencies(graph, inputs, outputs, report):
    output_ops = {id(t.op) for t in outputs}
    for op in graph.operations:
        if op.control_inputs or (op.opdef.name in _LOOKED_AT and (
                op.opdef.name == "NoOp" or id(op) not in output_ops)):
            break
    else:  # no control edge, and only the outputs' Identity nodes: nothing to do
        return graph, inputs, outputs
    rw = Rewriter(graph, inputs, outputs)
    consumed = {id(c) for op in graph.operations for c in op.control_inputs}
    for op in graph.operations:
        op_type = op.opdef.name
        if not op.control_inputs and op_type not in _LOOKED_AT:  # most nodes: kept as they are
            rw.copy(op)
            continue
        if op_type in ("Identity", "StopGradient") and id(op) not in output_ops \
                and not op.control_inputs and id(op) not in consumed:
            src = rw.tensor(op.inputs[0])
            rw.forward(op, [src])
            report.add(op.name, "removed", f"{op.type} only forwards {src.op.name}",
                       by=src.op.name)
            continue
        if op_type == "NoOp" and id(op) not in consumed:
            rw.drop(op)
            report.add(op.name, "removed", "a NoOp nothing waits for")
            continue
        new_ctrl = rw.control(op)
        if new_ctrl and op.inputs:
            data = set()
            for t in op.inputs:
                data |= _ancestors(rw.tensor(t))
            kept = [c for c in new_ctrl if id(c) not in data]
            if len(kept) < len(new_ctrl):
                report.add(op.name, "replaced", "control edge already implied by a data input")
            rw.copy(op, control=kept)
            continue
        rw.copy(op)
    return rw.finish()
