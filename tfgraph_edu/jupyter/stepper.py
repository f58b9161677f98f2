"""Stepping through a run for the graph viewer: every op in order, into the branch an ``If``
takes and through each iteration of a ``While`` (layer 9).

The same step-by-step execution as the runtime's interpreter (each op's kernel on its input
values, non-strict scheduling), except that control flow is opened up: a branch's or a
loop body's ops are steps of their own, named like the viewer's nodes (``while/body/add``)
and tagged with where they ran (``while: 2 (i = 2, total = 3)``: iterations counted from 0,
as a loop variable counts them, with the loop variables' values as the iteration starts).
Only real ops are steps: the placeholders fed with the arguments and a body's inputs and
outputs (drawn as ports on its frame) are not.
Stepping runs the function once more, side effects included, like a call: the graph viewer
runs it apart (:func:`~tfgraph_edu.function.isolation.run_apart`), so that nothing changes in
the learner's world.
"""

from __future__ import annotations

import numpy as np

from ..ops.list_ops import TensorListValue
from ..runtime.errors import graph_execution_error, kernel_message
from ..runtime.schedule import schedule
from ..viz.dot import drawn_names

__all__ = ["Step", "step_through", "summary", "MAX_STEPS"]

MAX_STEPS = 20_000  # beyond this the recording stops (the run itself goes on)

_IF = frozenset({"If", "StatelessIf"})
_WHILE = frozenset({"While", "StatelessWhile"})


class Step:
    """One executed op: its node id, where it ran, and its output values."""

    __slots__ = ("node", "where", "outputs")

    def __init__(self, node: str, where: str, outputs: dict):
        self.node, self.where, self.outputs = node, where, outputs


def summary(value) -> dict:
    """What the details pane shows of a value: small tensors in full; big ones by shape, dtype,
    min, max and mean, with a few of the first values; a tensor list (a TensorArray's flow)
    with its first items as they are at this step (``-`` where nothing was written)."""
    if type(value) is TensorListValue:
        shown = ["-" if it is None else np.array2string(np.asarray(it), threshold=6, edgeitems=2)
                 for it in value.items[:16]]
        more = ", ..." if len(value.items) > 16 else ""
        return {"text": _clip(f"{value!r}: [{', '.join(shown)}{more}]")}
    try:
        a = np.asarray(value)
    except Exception:  # noqa: BLE001 - a resource handle, a list: its repr
        return {"text": _clip(repr(value))}
    out = {"dtype": str(a.dtype), "shape": list(a.shape)}
    if a.size <= 16 or a.dtype.kind not in "biuf":
        out["text"] = _clip(np.array2string(a, threshold=16, edgeitems=3))
        return out
    out["text"] = _clip(np.array2string(a, threshold=6, edgeitems=2))
    out.update(min=float(a.min()), max=float(a.max()), mean=float(a.mean()))
    if a.ndim >= 1:  # a tiny heatmap: up to 16 x 16 cells of the leading 2-D slice
        grid = a.reshape(a.shape[0], -1) if a.ndim > 1 else a.reshape(1, -1)
        grid = grid[:16, :16].astype(float)
        lo, hi = float(grid.min()), float(grid.max())
        scale = (grid - lo) / (hi - lo) if hi > lo else np.zeros_like(grid)
        out["heat"] = np.round(scale, 2).tolist()
    return out


def _clip(text: str, limit: int = 600) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"


def step_through(graph, inputs, feeds, outputs) -> tuple[list, list[Step]]:
    """Run ``graph`` feeding ``feeds`` to ``inputs``; return (output values, steps)."""
    steps: list[Step] = []
    values = _run(graph, inputs, feeds, outputs, "", "", steps)
    return values, steps


def _run(graph, inputs, feeds, outputs, prefix: str, where: str, steps: list) -> list:
    env: dict[int, object] = {}
    names = drawn_names(graph)  # node ids as the viewer draws them ("while/body/add")
    for t, v in zip(inputs, feeds):  # fed placeholders: not steps
        env[id(t)] = v
    # a body's outputs are ports on its frame: they run, but are not steps
    ports = {id(t.op) for t in outputs if t.op.type == "Identity"} if prefix else ()
    for op in schedule(graph, outputs):
        if op.outputs and id(op.outputs[0]) in env:
            continue  # a fed placeholder
        vals = [env[id(t)] for t in op.inputs]
        node = prefix + names[id(op)]
        if op.type in _IF:
            label, fn = (("then", op.attrs["then_branch"]) if bool(np.asarray(vals[0]))
                         else ("else", op.attrs["else_branch"]))
            results = _run(fn.graph, fn.inputs, vals[1:], fn.outputs, f"{node}/{label}/",
                           where, steps)
        elif op.type in _WHILE:
            results = _loop(op, vals, node, where, steps)
        else:
            try:
                out = op.opdef.kernel(*vals, **op.attrs)
            except Exception as exc:  # noqa: BLE001 - reported as TF's graph error
                cls, message = kernel_message(op, vals, exc)
                raise graph_execution_error(op, cls, message, None) from None
            n = len(op.outputs)
            results = [out] if n == 1 else list(out) if n else []
        for t, v in zip(op.outputs, results):
            env[id(t)] = v
        if id(op) not in ports:
            _record(steps, node, where, op.outputs, results)
    return [env[id(t)] for t in outputs]


def _loop(op, vals, node: str, where: str, steps: list) -> list:
    cond, body = op.attrs["cond"], op.attrs["body"]
    limit = op.attrs.get("maximum_iterations", -1)
    names = getattr(body, "loop_var_names", ()) or ()
    values, i = list(vals), 0
    while limit < 0 or i < limit:
        # iterations counted as a loop variable counts them (0 first), with the loop
        # variables' values as the iteration starts
        shown = _loop_values(names, values)
        shown = f" ({shown})" if shown else ""
        here = f"{where}{' · ' if where else ''}{node}: {i}{shown}"
        keep = _run(cond.graph, cond.inputs, values, cond.outputs, f"{node}/cond/", here, steps)
        if not bool(np.asarray(keep[0])):
            break
        values = _run(body.graph, body.inputs, values, body.outputs, f"{node}/body/", here,
                      steps)
        i += 1
    return values


def _loop_values(names, values) -> str:
    shown = []
    for name, value in zip(names, values):
        if name.startswith("<"):  # AutoGraph's own loop counter: the iteration number says it
            continue
        if type(value) is TensorListValue:
            text = f"TensorArray of {len(value.items)}"
        else:
            a = np.asarray(value)
            text = (np.array2string(a, threshold=4, edgeitems=1) if a.dtype.kind != "O"
                    else repr(a.tolist()))
        shown.append(f"{name} = {_clip(' '.join(text.split()), 40)}")
    return _clip(", ".join(shown), 160).replace("(", "[").replace(")", "]")


def _record(steps: list, node: str, where: str, tensors, values) -> None:
    if len(steps) < MAX_STEPS:
        steps.append(Step(node, where, {t.name: summary(v) for t, v in zip(tensors, values)}))
