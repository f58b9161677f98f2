"""Constant folding: run at optimisation time what only depends on constants (layer 6).

Whole constant subgraphs fold, one op after another (``tf.eye(10)``,
``tf.constant(2) * 3``), and ``Shape``/``Size``/``Rank``/``OnesLike``/``ZerosLike``
of tensors whose shape is known become constants too (as Grappler's do; the
gradient's seed ``ones_like(loss)`` is one).  Stateful ops, ops with control inputs,
control flow and tensor lists are never folded; neither are results larger
than 10 MB (as Grappler).
"""

from __future__ import annotations

import numpy as np

from .rewrite import Rewriter

MAX_BYTES = 10 * 1024 * 1024
_NEVER = {"Placeholder", "Const", "If", "StatelessIf", "While", "StatelessWhile", "NoOp"}


_SHAPE_ONLY = ("Shape", "Size", "Rank", "OnesLike", "ZerosLike")  # need the shape, not values


def _foldable(op) -> bool:
    if op.opdef.stateful or op.opdef.name in _NEVER or op.control_inputs or not op.outputs:
        return False
    for t in op.outputs:
        if t._dtype.name in ("resource", "variant"):
            return False
    return True


def _static_shape_value(op, new_inputs):
    x = new_inputs[0] if new_inputs else None
    if x is None or not x.shape.is_fully_defined():
        return None
    dims = x.shape.as_list()
    if op.type == "Shape":
        return np.array(dims, dtype=op.attrs["out_type"].np_dtype)
    if op.type == "Size":
        return op.attrs["out_type"].np_dtype.type(int(np.prod(dims)) if dims else 1)
    if op.type == "Rank":
        return np.int32(len(dims))
    if op.type in ("OnesLike", "ZerosLike"):
        np_dtype = op.outputs[0].dtype.np_dtype
        if getattr(np_dtype, "kind", "O") not in "biuf" or \
                int(np.prod(dims)) * np_dtype.itemsize > MAX_BYTES:
            return None
        fill = np.ones if op.type == "OnesLike" else np.zeros
        return fill(dims, dtype=np_dtype)
    return None


def fold_constants(graph, inputs, outputs, report):
    rw = Rewriter(graph, inputs, outputs)
    copy, tensors = rw.copy, rw.tensors
    for op in graph.operations:
        if op.opdef.name in _NEVER:
            copy(op)
            continue
        new_inputs = tensors(op.inputs)
        if op.opdef.name in _SHAPE_ONLY:
            if not _foldable(op):
                copy(op)
                continue
            value = _static_shape_value(op, new_inputs)
            if value is not None:
                rw.constant(op, [value])
                report.add(op.name, "folded", f"the shape of {op.inputs[0].op.name} is known: "
                           f"{value.tolist() if hasattr(value, 'tolist') else value}")
                continue
        for t in new_inputs:
            if t.op.opdef.name != "Const":
                break
        else:  # every input is a constant (or there is none)
            if _foldable(op) and _fold(op, new_inputs, rw, report):
                continue
        copy(op)
    return rw.finish()


def _fold(op, new_inputs, rw, report) -> bool:
    """Run ``op`` on its constant inputs and put the result in its place, unless the
    kernel fails or the result is too big."""
    try:
        out = op.opdef.kernel(*[t.op.attrs["value"] for t in new_inputs], **op.attrs)
    except Exception:  # noqa: BLE001 - an op that fails stays, and fails when run (as TF)
        return False
    values = [out] if len(op.outputs) == 1 else list(out)
    if sum(np.asarray(v).nbytes for v in values) > MAX_BYTES:
        return False
    values = [np.asarray(v) if not isinstance(v, np.generic) else v for v in values]
    rw.constant(op, values)
    report.add(op.name, "folded", f"{op.type} of constants computed once")
    return True
