"""Printing function signatures the way TensorFlow 2.21 prints them (layer 7).

``pretty_printed_signature`` gives the "Input Parameters / Output Type /
Captures" block.  Deliberate difference: a capture is listed under the name of
its placeholder instead of a Python object id, so printouts are reproducible.
"""

from __future__ import annotations

from ..eager.variables import Variable
from ..ops.convert import is_tensor
from ..shapes import TensorSpec


def type_text(value) -> str:
    """The type TensorFlow shows for an argument or output value."""
    if isinstance(value, TensorSpec):
        return repr(value)
    if isinstance(value, Variable):
        return (f"VariableSpec(shape={tuple(value.shape.as_list())}, dtype={value.dtype!r}, "
                f"trainable={value.trainable}, alias_id=None)")
    if is_tensor(value):
        return repr(TensorSpec(value.shape, value.dtype))
    if isinstance(value, list):
        return "List[" + ", ".join(type_text(v) for v in value) + "]"
    if isinstance(value, tuple):
        return "Tuple[" + ", ".join(type_text(v) for v in value) + "]"
    if isinstance(value, dict):
        return "Dict[" + ", ".join(f"[{k!r}, {type_text(v)}]" for k, v in value.items()) + "]"
    if value is None:
        return "NoneType"
    if isinstance(value, (bool, int, float, str, bytes)):
        return f"Literal[{value!r}]"
    return f"{type(value).__name__}"


def pretty_signature(params, outputs, captures) -> str:
    """``params``: (name, kind, value) triples; ``captures``: (name, TensorSpec) pairs."""
    lines = ["Input Parameters:"]
    if params:
        lines += [f"  {name} ({kind}): {type_text(value)}" for name, kind, value in params]
    else:
        lines.append("  None")
    lines += ["Output Type:", f"  {type_text(outputs)}", "Captures:"]
    if captures:
        lines += [f"  {name}: {spec!r}" for name, spec in captures]
    else:
        lines.append("  None")
    return "\n".join(lines)


def short_signature(params, outputs) -> str:
    """``(x: TensorSpec(...)) -> TensorSpec(...)``: the one-line form used in reprs."""
    args = ", ".join(f"{name}: {type_text(value)}" for name, _, value in params)
    return f"({args}) -> {type_text(outputs)}"
