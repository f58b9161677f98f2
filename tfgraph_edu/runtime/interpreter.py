"""The step-by-step executor: runs a graph op by op and can report each step (layer 3).

It is the reference the compiled fast path is tested against, and what the
graph viewer uses to show values flowing: ``hook(op, input_values,
output_values)`` is called after every operation.
"""

from __future__ import annotations

from .errors import graph_execution_error, kernel_message
from .schedule import schedule


def run_graph(graph, inputs, feeds, outputs, hook=None, function_name=None,
              include_stateful: bool = True) -> list:
    """Feed ``feeds`` to the placeholders ``inputs`` and return the values of ``outputs``."""
    env: dict[int, object] = {}
    for t, v in zip(inputs, feeds):
        env[id(t)] = v
    for op in schedule(graph, outputs, include_stateful=include_stateful):
        if op.outputs and id(op.outputs[0]) in env:
            continue  # a fed placeholder
        vals = [env[id(t)] for t in op.inputs]
        try:
            out = op.opdef.kernel(*vals, **op.attrs)
        except Exception as exc:  # noqa: BLE001 - reported as TF's graph error
            cls, message = kernel_message(op, vals, exc)
            raise graph_execution_error(op, cls, message, function_name) from None
        n = len(op.outputs)
        results = [out] if n == 1 else list(out) if n else []
        for t, v in zip(op.outputs, results):
            env[id(t)] = v
        if hook is not None:
            hook(op, vals, results)
    return [env[id(t)] for t in outputs]
