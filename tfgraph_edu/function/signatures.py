"""Printing function signatures the way TensorFlow 2.21 prints them (layer 7).

``pretty_printed_signature`` gives the "Input Parameters / Output Type /
Captures" block.  Deliberate difference: a capture is listed under the name of
its placeholder instead of a Python object id, so printouts are reproducible.
"""

from __future__ import annotations

import inspect

from ..eager.variables import Variable
from ..ops.composite import CompositeTensor, TypeSpec
from ..ops.convert import is_tensor
from ..shapes import TensorSpec


def type_text(value) -> str:
    """The type TensorFlow shows for an argument or output value."""
    if isinstance(value, (TensorSpec, TypeSpec)):
        return repr(value)
    if isinstance(value, CompositeTensor):
        return repr(value._type_spec)
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
    # no parameters: nothing under the heading, as TF 2.21 prints it (captures: "None")
    lines += [f"  {name} ({kind}): {type_text(value)}" for name, kind, value in params]
    lines += ["Output Type:", f"  {type_text(outputs)}", "Captures:"]
    if captures:
        lines += [f"  {name}: {spec!r}" for name, spec in captures]
    else:
        lines.append("  None")
    return "\n".join(lines)


class _Shown:
    """An annotation that prints as the given text (for ``inspect.Signature``'s format)."""

    __slots__ = ("text",)

    def __init__(self, text):
        self.text = text

    def __repr__(self):
        return self.text


_KINDS = {"POSITIONAL_ONLY": inspect.Parameter.POSITIONAL_ONLY,
          "POSITIONAL_OR_KEYWORD": inspect.Parameter.POSITIONAL_OR_KEYWORD,
          "KEYWORD_ONLY": inspect.Parameter.KEYWORD_ONLY}


def short_signature(params, outputs=inspect.Signature.empty) -> str:
    """``(x: TensorSpec(...)) -> TensorSpec(...)``: the one-line form of reprs and errors,
    written as Python writes a signature (``/`` after positional-only, ``*`` before
    keyword-only parameters), as TensorFlow's FunctionType prints."""
    ret = outputs if outputs is inspect.Signature.empty else _Shown(type_text(outputs))
    try:
        return str(inspect.Signature(
            [inspect.Parameter(name, _KINDS[kind], annotation=_Shown(type_text(value)))
             for name, kind, value in params], return_annotation=ret))
    except ValueError:  # a name that is not an identifier (from **kwargs): no markers
        args = ", ".join(f"{name}: {type_text(value)}" for name, _, value in params)
        return f"({args})" + ("" if ret is inspect.Signature.empty else f" -> {ret!r}")


def named_spec(spec, name):
    """``spec`` with TensorSpecs named after the parameter path (``x``, ``x_0``, ``x_k``)."""
    if isinstance(spec, TensorSpec):
        return spec if spec.name else TensorSpec(spec.shape, spec.dtype, name)
    if isinstance(spec, list):
        return [named_spec(s, f"{name}_{i}") for i, s in enumerate(spec)]
    if isinstance(spec, tuple):
        items = [named_spec(s, f"{name}_{i}") for i, s in enumerate(spec)]
        return type(spec)(*items) if hasattr(spec, "_fields") else tuple(items)
    if isinstance(spec, dict):
        return {k: named_spec(v, f"{name}_{k}") for k, v in spec.items()}
    return spec
