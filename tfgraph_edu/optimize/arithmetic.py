"""Arithmetic simplification: algebra that makes ops disappear (layer 6).

``x * 1``, ``x + 0``, ``x - 0`` become ``x`` when that does not change the
result's shape; ``-(-x)`` becomes ``x``; ``x - x`` becomes zeros for integers
(not for floats: ``inf - inf`` is nan); ``x ** 2`` becomes ``Square(x)`` and
``x ** 3`` ``x * Square(x)``, ``x ** 1`` becomes ``x``, ``x ** 0.5`` ``Sqrt(x)``;
two transposes become one (or none); a ``Reshape`` or ``BroadcastTo`` to the shape its
input already has is that input.
"""

from __future__ import annotations

import numpy as np

from ..ops import creation_ops, math_ops, shape_ops
from ..ops.convert import Const
from .rewrite import Rewriter


def _const(t):
    op = t.op
    return op.attrs["value"] if op.opdef.name == "Const" else None


def _all_equal(value, x) -> bool:
    if value is None:
        return False
    if type(value) is np.ndarray and value.ndim == 0 and value.dtype.kind in "biufc":
        return value.item() == x  # a Python number: no numpy comparison per node
    if not isinstance(value, np.ndarray) or value.ndim == 0:
        return bool(value == x)
    return value.size > 0 and bool(np.all(value == x))


def _same_shape(out, x) -> bool:
    return out.shape.is_fully_defined() and x.shape.is_fully_defined() and out.shape == x.shape


def _holds(t, x) -> bool:
    """``t`` is a constant whose every element is ``x`` (``_all_equal(_const(t), x)``)."""
    op = t.op
    if op.opdef.name != "Const":
        return False
    value = op.attrs["value"]
    if type(value) is np.ndarray and value.ndim == 0 and value.dtype.kind in "biufc":
        return value.item() == x
    return _all_equal(value, x)


_NEUTRAL = {"Mul": 1, "AddV2": 0, "Sub": 0}
_SYMBOL = {"Mul": "* 1", "AddV2": "+ 0", "Sub": "- 0"}


def simplify_arithmetic(graph, inputs, outputs, report):
    rw = Rewriter(graph, inputs, outputs)
    copy, tensors = rw.copy, rw.tensors
    for op in graph.operations:
        t = op.opdef.name
        if t not in _REWRITTEN or op.control_inputs or not op.inputs:
            copy(op)
            continue
        ins = tensors(op.inputs)
        out = op.outputs[0] if op.outputs else None
        if t in _NEUTRAL:
            done = _neutral_operand(op, t, ins, out, rw, report)
        else:
            done = _rewrite(op, ins, out, rw, report)
        if not done:
            copy(op)
    return rw.finish()


_REWRITTEN = frozenset({"Mul", "AddV2", "Sub", "Neg", "Pow", "Transpose", "Reshape",
                        "BroadcastTo"})  # what _neutral_operand and _rewrite do


def _neutral_operand(op, t, ins, out, rw, report) -> bool:
    """``x * 1``, ``1 * x``, ``x + 0``, ``0 + x``, ``x - 0`` are ``x``; ``x - x`` is 0
    for integers."""
    x, y = ins
    neutral = _NEUTRAL[t]
    keep = None
    if t == "Sub" and x is y:
        pass  # x - x: not "x - 0" even when x is 0 (below)
    elif _holds(y, neutral) and _same_shape(out, x):
        keep = x
    elif t != "Sub" and _holds(x, neutral) and _same_shape(out, y):
        keep = y
    if keep is not None:
        rw.forward(op, [keep])
        report.add(op.name, "removed", f"x {_SYMBOL[t]} is x", by=keep.op.name)
        return True
    if t == "Sub" and x is y and out.dtype.is_integer:
        new = rw.add(op, op.name + "/zeros", creation_ops.ZerosLike, [x], {},
                     [(out.shape, out.dtype)])
        rw.forward(op, new)
        report.add(op.name, "replaced", "x - x is 0 (integers)", by=new[0].op.name)
        return True
    return False


def _rewrite(op, ins, out, rw, report) -> bool:
    t = op.type
    if t in ("Reshape", "BroadcastTo") and _same_shape(out, ins[0]):
        x = ins[0]
        rw.forward(op, [x])
        report.add(op.name, "removed", f"{t} to the shape x already has is x", by=x.op.name)
        return True
    if t == "Neg" and ins[0].op.type == "Neg":
        inner = ins[0].op.inputs[0]
        rw.forward(op, [inner])
        report.add(op.name, "removed", "-(-x) is x", by=inner.op.name)
        return True
    if t == "Pow":
        x, y = ins
        e = _const(y)
        if e is None or np.ndim(e) != 0 or not _same_shape(out, x):
            return False
        e = float(e)
        spec = [(out.shape, out.dtype)]
        if e == 1:
            rw.forward(op, [x])
            report.add(op.name, "removed", "x ** 1 is x", by=x.op.name)
            return True
        if e == 2:
            new = rw.add(op, op.name + "/Square", math_ops.Square, [x], {}, spec)
        elif e == 3:
            sq = rw.add(op, op.name + "/Square", math_ops.Square, [x], {}, spec)
            new = rw.add(op, op.name + "/Mul", math_ops.Mul, [x, sq[0]], {}, spec)
        elif e == 0.5 and out.dtype.is_floating:
            new = rw.add(op, op.name + "/Sqrt", math_ops.Sqrt, [x], {}, spec)
        else:
            return False
        rw.forward(op, new)
        report.add(op.name, "replaced", f"x ** {e:g} as multiplication", by=new[0].op.name)
        return True
    if t == "Transpose" and ins[0].op.type == "Transpose":
        inner = ins[0].op
        p_out, p_in = _const(ins[1]), _const(inner.inputs[1])
        if p_out is None or p_in is None:
            return False
        composed = [int(np.ravel(p_in)[i]) for i in np.ravel(p_out)]
        x = inner.inputs[0]
        if composed == list(range(len(composed))):
            rw.forward(op, [x])
            report.add(op.name, "removed", "two transposes that cancel", by=x.op.name)
            return True
        perm = np.array(composed, np.int32)
        from .. import dtypes as _dt
        from ..shapes import TensorShape
        c = rw.add(op, op.name + "/perm", Const, [], {"dtype": _dt.int32, "value": perm},
                   [(TensorShape([len(composed)]), _dt.int32)])
        new = rw.add(op, op.name, shape_ops.Transpose, [x, c[0]], {}, [(out.shape, out.dtype)])
        rw.forward(op, new)
        report.add(op.name, "replaced", "two transposes as one", by=new[0].op.name)
        return True
    return False
