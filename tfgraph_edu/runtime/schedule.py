"""Non-strict execution: which operations a run must execute, in which order (layer 3).

A graph run executes only what its outputs need, plus every stateful operation
(variable writes, tf.print, random ops) and what those need, so side effects
happen even when nothing consumes them, while an unused pure computation - such
as a ``tf.gather`` with a bad index - never runs.
"""

from __future__ import annotations


def schedule(graph, outputs, extra_roots=(), include_stateful: bool = True) -> list:
    """The operations to run, in graph (program) order."""
    roots = [t.op for t in outputs] + list(extra_roots)
    if include_stateful:
        roots += [op for op in graph.operations if op.opdef.stateful]
    needed: set[int] = set()
    add = needed.add
    stack = list(roots)
    pop, push = stack.pop, stack.append
    while stack:
        op = pop()
        key = id(op)
        if key in needed:
            continue
        add(key)
        for t in op.inputs:  # a loop, not a generator: this runs once per node
            push(t.op)
        if op.control_inputs:
            stack.extend(op.control_inputs)
    return [op for op in graph.operations if id(op) in needed]
