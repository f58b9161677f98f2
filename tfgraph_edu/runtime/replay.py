"""Replay a graph's operations through ``bind`` (layer 3).

The ops are re-bound one by one in the current interpreter: eagerly they run,
inside a trace they are copied into the graph being built.  Gradients of
control flow use this to differentiate a branch or loop body with a tape.
"""

from __future__ import annotations

from ..ops._core import bind
from ..ops.convert import constant
from .schedule import schedule


def replay(graph, inputs, values, outputs) -> list:
    """The values of ``outputs`` when ``inputs`` take ``values``, computed op by op."""
    env = {id(t): v for t, v in zip(inputs, values)}
    for op in schedule(graph, outputs):
        if op.outputs and id(op.outputs[0]) in env:
            continue
        if op.type == "Const":
            env[id(op.outputs[0])] = constant(op.attrs["value"], op.attrs["dtype"])
            continue
        result = bind(op.opdef, tuple(env[id(t)] for t in op.inputs), dict(op.attrs))
        outs = [result] if len(op.outputs) == 1 else list(result or [])
        for t, v in zip(op.outputs, outs):
            env[id(t)] = v
    return [env[id(t)] for t in outputs]
