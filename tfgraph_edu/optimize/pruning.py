"""Pruning: drop nodes that neither feed the outputs nor have side effects (layer 6)."""

from __future__ import annotations

from ..runtime.schedule import schedule
from .rewrite import Rewriter


def prune(graph, inputs, outputs, report):
    needed = schedule(graph, outputs)
    keep = {id(op) for op in needed}
    for t in inputs:
        keep.add(id(t.op))
    if all(id(op) in keep for op in graph.operations):  # nothing to remove: no rewrite
        return graph, inputs, outputs
    rw = Rewriter(graph, inputs, outputs)
    for op in graph.operations:
        if id(op) in keep:
            rw.copy(op)
        else:
            rw.drop(op)
            report.add(op.name, "removed", "no output or side effect needs it")
    return rw.finish()
