"""Pruning: drop nodes that neither feed the outputs nor have side effects (layer 6)."""

from __future__ import annotations

from ..runtime.schedule import schedule
from .rewrite import Rewriter


def needed(graph, inputs, outputs) -> bytearray:
    """By position in ``graph.operations``: 1 for each op the outputs or a side effect need
    (``schedule``'s set, and the inputs' ops), else 0.

    One backward sweep: the graph's order is topological, so an op's consumers all come
    after it.  If the graph breaks that (or a node's ``_id`` is not its position), the
    set comes from ``schedule`` instead."""
    ops = graph.operations
    need = bytearray(len(ops))
    try:
        for t in outputs:
            k = t.op._id
            if ops[k] is not t.op:
                raise LookupError
            need[k] = 1
        for k in range(len(ops) - 1, -1, -1):
            op = ops[k]
            if need[k] or op.opdef.stateful:
                if op._id != k:
                    raise LookupError
                need[k] = 1
                for t in op.inputs:
                    j = t.op._id
                    if j >= k or ops[j] is not t.op:
                        raise LookupError
                    need[j] = 1
                for c in op.control_inputs:
                    j = c._id
                    if j >= k or ops[j] is not c:
                        raise LookupError
                    need[j] = 1
        for t in inputs:
            k = t.op._id
            if ops[k] is not t.op:
                raise LookupError
            need[k] = 1
    except (LookupError, TypeError):  # not in order, or a node of another graph
        keep = {id(op) for op in schedule(graph, outputs)} | {id(t.op) for t in inputs}
        need = bytearray(id(op) in keep for op in ops)
    return need


def prune(graph, inputs, outputs, report):
    need = needed(graph, inputs, outputs)
    if need.count(0) == 0:  # nothing to remove: no rewrite
        return graph, inputs, outputs
    rw = Rewriter(graph, inputs, outputs, changes=True)
    for keep, op in zip(need, graph.operations):
        if keep:
            rw.copy(op)
        else:
            rw.drop(op)
            report.add(op.name, "removed", "no output or side effect needs it")
    return rw.finish()
