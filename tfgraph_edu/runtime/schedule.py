"""Non-strict execution: which operations a run must execute, in which order (layer 3).

A graph run executes only what its outputs need, plus every stateful operation
(variable writes, tf.print, random ops) and what those need, so side effects
happen even when nothing consumes them, while an unused pure computation - such
as a ``tf.gather`` with a bad index - never runs.
"""

from __future__ import annotations

from itertools import compress
from operator import attrgetter

_opdef = attrgetter("opdef")
_op_of = attrgetter("op")


def schedule(graph, outputs, extra_roots=(), include_stateful: bool = True) -> list:
    """The operations to run, in graph (program) order."""
    operations = graph.operations
    stack = [t.op for t in outputs]
    stack.extend(extra_roots)
    if include_stateful:
        # the few distinct OpDefs first: the per-node passes below then run in C
        stateful = {d for d in set(map(_opdef, operations)) if d.stateful}
        if stateful:
            stack.extend(compress(operations, map(stateful.__contains__,
                                                  map(_opdef, operations))))
    needed: set = set()  # the operations themselves: they hash by identity
    add = needed.add
    pop, extend = stack.pop, stack.extend
    while stack:
        op = pop()
        if op in needed:
            continue
        add(op)
        extend(map(_op_of, op.inputs))
        if op.control_inputs:
            extend(op.control_inputs)
    return list(filter(needed.__contains__, operations))
