"""Loop-invariant hoisting: work in a While body that is the same on every iteration moves
out of the loop (layer 6).

An op in the body is invariant when it is pure and all its inputs are constants,
values the loop captures from outside (passed through unchanged), or other
invariant ops.  Invariant ops that the rest of the body uses are computed once
before the loop and passed in as extra captures.
"""

from __future__ import annotations

from ..control_flow.cond_while import n_loop_vars
from ..graph.graph import Operation
from ..ops import graph_ops
from ..ops.control_flow_ops import GraphFunction
from .rewrite import Rewriter, copy_graph


def hoist_loop_invariants(graph, inputs, outputs, report):
    for op in graph.operations:
        if op.control_inputs or op.opdef.name in ("While", "StatelessWhile"):
            break
    else:  # no loop, and no control edge a sweep would tidy: nothing to do
        return graph, inputs, outputs
    rw = Rewriter(graph, inputs, outputs)
    for op in graph.operations:
        if op.type not in ("While", "StatelessWhile") or op.control_inputs:
            rw.copy(op)
            continue
        if not _hoist(op, rw, report):
            rw.copy(op)
    return rw.finish()


def _hoist(op, rw, report) -> bool:
    body, cond = op.get_attr("body"), op.get_attr("cond")
    n_loop = n_loop_vars(op)
    passthrough = {id(t) for t in body.inputs[n_loop:]}
    invariant: set[int] = set()
    for bop in body.graph.operations:
        if bop.type == "Placeholder" or bop.opdef.stateful or bop.control_inputs:
            continue
        if bop.type in ("If", "StatelessIf", "While", "StatelessWhile"):
            continue
        if all(id(t) in passthrough or id(t.op) in invariant for t in bop.inputs):
            invariant.add(id(bop))
    # hoist only what the loop-dependent part of the body (or its outputs) uses
    needed = []
    for bop in body.graph.operations:
        if id(bop) in invariant:
            continue
        for t in bop.inputs:
            if id(t.op) in invariant and t.op.type != "Const" and t not in needed:
                needed.append(t)
    for t in body.outputs[:n_loop]:  # a loop variable may itself be loop-invariant
        if id(t.op) in invariant and t.op.type != "Const" and t not in needed:
            needed.append(t)
    if not needed:
        return False
    # 1. outside: copy the invariant ops, reading the While's capture inputs
    outer_of = {id(ph): rw.tensor(x) for ph, x in zip(body.inputs[n_loop:], op.inputs[n_loop:])}
    hoisted: dict[int, object] = {}
    for bop in body.graph.operations:
        if id(bop) not in invariant:
            continue
        ins = [outer_of[id(t)] if id(t) in outer_of else hoisted[id(t)] for t in bop.inputs]
        new = rw.add(op, f"{op.name}/hoisted/{bop.name}", bop.opdef, ins, dict(bop.attrs),
                     [(t.shape, t.dtype) for t in bop.outputs])
        for t, n in zip(bop.outputs, new):
            hoisted[id(t)] = n
        report.add(f"{body.name}/{bop.name}", "hoisted",
                   f"{bop.type} gives the same value on every iteration", by=new[0].op.name)
    extra_outer = [hoisted[id(t)] for t in needed]
    # 2. the new body: the hoisted values arrive as new passthrough inputs
    new_body = _with_extra_inputs(body, needed, n_loop,
                                  keep=lambda b: id(b) not in invariant or b.type == "Const")
    new_cond = _with_extra_inputs(cond, [], n_loop, extra_unused=needed)
    attrs = dict(op.attrs)
    attrs["body"], attrs["cond"] = new_body, new_cond
    attrs["T"] = tuple(attrs["T"]) + tuple(t.dtype for t in needed)
    attrs["output_shapes"] = tuple(attrs["output_shapes"]) + tuple(t.shape for t in needed)
    ins = [rw.tensor(t) for t in op.inputs] + extra_outer
    # the While op now also carries the hoisted values through
    rw.copy(op, inputs=ins, attrs=attrs, extra_outputs=[(t.shape, t.dtype) for t in needed])
    report.add(op.name, "replaced", f"{len(needed)} loop-invariant value"
               f"{'s' if len(needed) != 1 else ''} computed before the loop")
    return True


def _with_extra_inputs(fn, extra, n_loop, keep=lambda op: True, extra_unused=()):
    """A copy of a cond/body graph function with placeholders for ``extra`` values appended
    to its inputs (and passed through its outputs, for a body)."""
    graph, inputs, outputs = copy_graph(fn.graph, fn.inputs, fn.outputs)
    originals = {id(b): c for b, c in zip(fn.graph.operations, graph.operations)}
    sub = Rewriter(graph, inputs, outputs)
    new_phs = {}
    is_body = len(fn.outputs) == len(fn.inputs)
    for t in list(extra) + list(extra_unused):
        name = graph.unique_name(f"hoisted_{t.op.name.replace('/', '_')}")
        ph_op = Operation(graph, name, graph_ops.Placeholder, [],
                          {"dtype": t.dtype, "shape": t.shape}, [], None)
        ph_op._add_outputs([(t.shape, t.dtype)])
        graph._by_name[name] = ph_op
        sub._ops.append(ph_op)
        new_phs[id(t)] = ph_op.outputs[0]
    dropped: set[int] = set()
    for bop in fn.graph.operations:
        cop = originals[id(bop)]
        if not keep(bop):
            if any(id(o) in new_phs for o in bop.outputs):
                sub.forward(cop, [new_phs[id(o)] for o in bop.outputs])
            else:
                sub.drop(cop)
                dropped.add(id(cop))
            continue
        if any(id(sub.tensor(t).op) in dropped for t in cop.inputs):
            sub.drop(cop)
            dropped.add(id(cop))
            continue
        sub.copy(cop)
    g, ins, outs = sub.finish()
    added = [new_phs[id(t)] for t in list(extra) + list(extra_unused)]
    ins = ins + added
    if is_body:
        outs = outs + added
    g.inputs, g.outputs = ins, outs
    out = GraphFunction(g, ins, outs, fn.function_name)
    out.loop_var_names = fn.loop_var_names
    return out

