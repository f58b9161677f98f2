"""Gradient ops and the forward ops they differentiate (layer 8).

In a graph, the tape names the gradient ops of a forward op under ``gradient_tape/`` and the
forward op's name scope, as TensorFlow does (``gradient_tape/sequential/dense/MatMul/MatMul``
for ``sequential/dense/MatMul``), so the gradient frame mirrors the forward scopes.  The tape
also records which forward op each gradient op was made for (``Graph.gradient_of``);
:func:`forward_ops` gives the viewer that link (a graph read from a TensorFlow file has no
record: the names are read instead).
"""

from __future__ import annotations

from .kinds import bodies, has_bodies
from .scopes import drawn_names

__all__ = ["forward_ops", "is_gradient_scope"]


def is_gradient_scope(scope: str) -> bool:
    """Whether a name scope holds gradient ops (``gradient_tape``, ``gradient_tape_1/dense``)."""
    head = scope.split("/", 1)[0]
    return head == "gradient_tape" or (head.startswith("gradient_tape_")
                                       and head[14:].isdigit())


def _by_names(op, ops_by_name) -> str | None:
    """The forward op of a gradient op read from its name: the longest op name that the part
    after ``gradient_tape/`` starts with; else, for ``<scope>/ReluGrad``, ``<scope>/Relu``."""
    head, _, rest = op.name.partition("/")
    if not rest or not is_gradient_scope(head):
        return None
    parts = rest.split("/")
    for end in range(len(parts) - 1, 0, -1):
        name = "/".join(parts[:end])
        if name in ops_by_name:
            return name
    if op.type.endswith("Grad"):
        scope = "/".join(parts[:-1])
        name = (scope + "/" if scope else "") + op.type[:-4]
        if name in ops_by_name:
            return name
    return None


def forward_ops(graph, prefix: str = "") -> dict[str, str]:
    """Node id of each gradient op -> node id of the forward op it differentiates, for
    ``graph`` and the graphs its control flow runs (node ids as drawn: ``while/body/mul``)."""
    names = drawn_names(graph)
    by_name = {op.name: op for op in graph.operations}
    recorded = getattr(graph, "gradient_of", None) or {}
    out: dict[str, str] = {}
    for op in graph.operations:
        forward = recorded.get(op.name) or _by_names(op, by_name)
        target = by_name.get(forward) if forward else None
        if target is not None and target is not op:
            out[prefix + names[id(op)]] = prefix + names[id(target)]
        if has_bodies(op):
            for label, fn in bodies(op):
                out.update(forward_ops(fn.graph, f"{prefix}{names[id(op)]}/{label}/"))
    return out
