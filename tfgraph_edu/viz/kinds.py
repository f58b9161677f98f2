"""What an op is in the picture: its kind (shape and colour), its label, the graphs it runs
(layer 8).

A node's shape and colour say what kind of op it is (``KINDS``, chosen by :func:`kind_of`): an
input of the function, a value captured from outside, a variable, a constant, math or array
work, variable state, control flow, printing.  ``HIGHLIGHTS`` are the outlines of the
optimiser's report.  :func:`bodies` lists the graphs an ``If``/``While`` (or any op with
function-valued attrs) runs.
"""

from __future__ import annotations

import re

import numpy as np

from .. import labels
from ..dtypes import DType
from .escaping import short as _short

__all__ = ["KINDS", "HIGHLIGHTS", "BOX", "NAME_LIMIT", "FONT", "kind_of", "kinds_in",
           "node_lines", "node_attrs", "bodies", "has_bodies", "classes_of", "MINOR_TYPES"]

NAME_LIMIT = 40  # names longer than this are shortened in labels (the SVG title keeps all)
FONT = "Helvetica,Arial,sans-serif"

# kind -> (Graphviz shape, fill colour, extra styles, what it means); one line per kind
KINDS: dict[str, tuple[str, str, str, str]] = {
    "input": ("ellipse", "#d6eaff", "", "an argument of the function (Placeholder)"),
    "captured": ("invhouse", "#ffe9c6", "dashed", "a value captured from outside the graph"),
    "variable": ("cylinder", "#fff3b0", "dashed", "a variable's resource handle, from outside"),
    "constant": ("box", "#eeeeee", "rounded", "a constant (Const)"),
    "op": ("box", "#ffffff", "", "math and array ops"),
    "state": ("box", "#ffd9d9", "", "reads and writes of variables"),
    "control_flow": ("hexagon", "#e5d4ff", "", "control flow (If, While)"),
    "io": ("note", "#d4f5d4", "", "printing (StringFormat, PrintV2)"),
}
BOX = 'shape=folder style=filled fillcolor="#f0f0f0"'  # a collapsed scope, body or block

# highlight kind -> (outline colour, what it means); for the optimiser's report
HIGHLIGHTS: dict[str, tuple[str, str]] = {
    "removed": ("#d73a49", "removed by the optimiser"),
    "added": ("#28a745", "made by the optimiser"),
    "replaced": ("#e36209", "rewritten, or now does the work of a removed node"),
    "folded": ("#0366d6", "computed once at optimisation time (constant folding)"),
    "hoisted": ("#8a63d2", "moved out of a loop body"),
}
_OTHER_HIGHLIGHT = "#444444"

_STATE_TYPES = frozenset({"ReadVariableOp", "AssignVariableOp", "AssignAddVariableOp",
                          "AssignSubVariableOp", "VarHandleOp"})
_IO_TYPES = frozenset({"PrintV2", "StringFormat"})
# op type -> (attr, cluster label) of the graphs it runs, in drawing order
_BODIES = {
    "If": (("then_branch", "then"), ("else_branch", "else")),
    "StatelessIf": (("then_branch", "then"), ("else_branch", "else")),
    "While": (("cond", "cond"), ("body", "body")),
    "StatelessWhile": (("cond", "cond"), ("body", "body")),
}
_FLOW_TYPES = frozenset(_BODIES)

def kind_of(op, captured=frozenset()) -> str:
    """The kind of ``op`` (a key of ``KINDS``); ``captured``: ids of the graph's capture
    placeholder ops."""
    t = op.type
    if t == "Placeholder":
        if op.outputs and op.outputs[0].dtype.name == "resource":
            return "variable"
        return "captured" if id(op) in captured else "input"
    if t == "Const":
        return "constant"
    if t in _STATE_TYPES:
        return "state"
    if t in _FLOW_TYPES:
        return "control_flow"
    if t in _IO_TYPES:
        return "io"
    return "op"


def kinds_in(graph, body: bool = False) -> set[str]:
    """The kinds of the ops of ``graph`` and of the graphs its control flow runs (a body's
    inputs, captured ones too, are drawn as its input ports: kind "input")."""
    captured = set() if body else {id(inner.op) for _, inner in graph.captures}
    out = set()
    for op in graph.operations:
        out.add(kind_of(op, captured))
        if has_bodies(op):
            for _, fn in bodies(op):
                out |= kinds_in(fn.graph, body=True)
    return out


def preview(value) -> str | None:
    """A short text for a small constant value, or None."""
    try:
        a = np.asarray(value)
        if a.size > 4:
            return None
        return _short(" ".join(str(a).split("\n")))
    except Exception:  # noqa: BLE001 - a value we cannot print is simply not previewed
        return None


def _outer_text(outer, kind: str) -> str:
    """Where a captured placeholder's value comes from, in a few words."""
    if getattr(outer, "op", None) is not None and hasattr(outer, "value_index"):
        # a tensor of the enclosing graph
        return f"{'variable' if kind == 'variable' else 'captured'}: {outer.name}"
    handle = getattr(outer, "_value", None)
    if hasattr(handle, "var_dtype"):  # a variable's resource handle
        return f"variable {getattr(handle, 'name', '')}".rstrip()
    dtype = getattr(getattr(outer, "dtype", None), "name", "")
    shape = getattr(outer, "shape", "")
    text = f"captured {dtype} {shape}".strip()
    value = preview(handle) if isinstance(handle, np.ndarray) else None
    return f"{text} = {value}" if value is not None else text


def variable_name(outer) -> str:
    """The name of the variable whose handle ``outer`` is (``dense/kernel``), or ''."""
    handle = getattr(outer, "_value", None)
    if not hasattr(handle, "var_dtype"):
        return ""
    name = str(getattr(handle, "name", "") or "")
    return name[:-2] if name.endswith(":0") else name


_SUFFIX = re.compile(r"_\d+$")
_VERSION = re.compile(r"v\d+$")


def _same_word(name: str, type_: str) -> bool:
    """Whether an op's name already says its type (``mul_3`` of ``Mul``, ``add`` of
    ``AddV2``), so the label need not repeat it."""
    base = _SUFFIX.sub("", name.rsplit("/", 1)[-1]).lower()
    t = type_.lower()
    return base in (t, _VERSION.sub("", t))


def node_lines(op, kind: str, outer, shown: str | None = None, lang: str = "en") -> list[str]:
    """The label of an op's node, line by line: its name (``shown``: the part of the name its
    cluster does not already say), its type when the name does not say it, what it holds."""
    name = _short(op.name if shown is None else shown, NAME_LIMIT)
    if kind == "constant":
        value = preview(op.attrs.get("value"))
        return [value] if value is not None else [name]
    lines = [name] if _same_word(op.name, op.type) else [name, op.type]
    if kind == "input":  # the shape says it is a placeholder
        lines = [name]
    elif kind in ("captured", "variable"):
        if getattr(outer, "op", None) is not None and hasattr(outer, "value_index"):
            lines = [name]  # a tensor of the enclosing graph: an edge comes from it
        elif kind == "variable" and variable_name(outer):  # under its own name
            lines = [_short(variable_name(outer), NAME_LIMIT), labels.label("kind_variable", lang)]
        elif outer is not None:
            lines = [name, _short(_outer_text(outer, kind), NAME_LIMIT)]
        else:
            lines = [name, labels.label("svg_variable_argument" if kind == "variable"
                                        else "svg_captured", lang)]
    elif op.type == "StringFormat" and "template" in op.attrs:
        lines.append(_short(repr(op.attrs["template"])))
    return lines


def node_attrs(kind: str, change: str | None) -> str:
    shape, fill, extra, _ = KINDS[kind]
    styles = ["filled"] + ([extra] if extra else [])
    out = _SMALL if kind == "constant" else ""
    if change is not None:
        colour = HIGHLIGHTS.get(change, (_OTHER_HIGHLIGHT,))[0]
        if change == "removed" and "dashed" not in styles:
            styles.append("dashed")
        out += f' color="{colour}" penwidth=3'
    return f'shape={shape} style="{",".join(styles)}" fillcolor="{fill}"{out}'


_SMALL = " fontsize=8 height=0.2 width=0.3 margin=\"0.04,0.02\""  # constants: small boxes


def bodies(op) -> list[tuple[str, object]]:
    """(label, GraphFunction) for the graphs an op runs: If branches, While cond and body;
    any other op's function-valued attrs, by attr name."""
    fields = _BODIES.get(op.type)
    if fields is None:
        fields = tuple((k, k) for k in sorted(op.attrs) if _is_function(op.attrs[k]))
        if not fields:
            return []
    return [(label, op.attrs[attr]) for attr, label in fields if _is_function(op.attrs.get(attr))]


def _is_function(value) -> bool:
    return hasattr(getattr(value, "graph", None), "operations")


def has_bodies(op) -> bool:
    """Whether ``op`` runs graphs of its own (control flow, function-valued attrs)."""
    if op.type in _FLOW_TYPES:
        return True
    for v in op.attrs.values():  # asked for every op, often: plain values skipped by type
        if type(v) not in _PLAIN and _is_function(v):
            return True
    return False


_PLAIN = frozenset({str, int, float, bool, tuple, list, np.ndarray, type(None), DType})


def _fed_inputs(op) -> int:
    """How many leading inputs of a control-flow op are not fed to its bodies (the
    condition of an ``If``)."""
    return 1 if op.type in ("If", "StatelessIf") else 0




# ops the viewer may hide until zoomed in: constants, shape arithmetic, plumbing
MINOR_TYPES = frozenset({"Const", "Shape", "ShapeN", "Size", "Rank", "Identity", "IdentityN",
                         "NoOp", "StopGradient", "Cast"})


def classes_of(op, kind: str) -> str:
    """The SVG classes of an op's node (for the viewer): ``tfg-op tfg-kind-<kind>``;
    ``tfg-input`` for an argument of the function; ``tfg-minor`` for the ops of
    ``MINOR_TYPES``; ``tfg-grad`` for an op of a gradient (named under ``gradient_tape/``)."""
    out = f"tfg-op tfg-kind-{kind}"
    if kind == "input":
        out += " tfg-input"
    elif op.type in MINOR_TYPES:
        out += " tfg-minor"
    name = op.name
    if name.startswith("gradient_tape/") or "/gradient_tape/" in name:
        out += " tfg-grad"
    return out
