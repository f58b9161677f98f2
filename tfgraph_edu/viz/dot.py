"""Graphs as Graphviz DOT text (layer 8).

What the picture says, and where each part is made:

- a node's shape and colour say what kind of op it is (``KINDS``, chosen by :func:`kind_of`):
  an input of the function, a value captured from outside, a variable, a constant, math or
  array work, variable state, control flow, printing;
- a data edge is labelled with the tensor's dtype and shape; a control edge is dashed;
- name scopes (op names containing ``/``) become nested ``cluster_<scope>`` subgraphs;
- an ``If`` or ``While`` op is a cluster holding the clusters of its branches (or its ``cond``
  and ``body``), each with the nodes of its own graph, above the op's own node, which stands
  for its outputs; edges run from the outer tensors the op reads into the body inputs they
  feed, and from each body's outputs to the op's node - at any depth of nesting;
- a constant is a small box showing its value; like-named runs of one op type (``mul``,
  ``mul_1`` … ``mul_1249``) fold into one series box ``mul, mul_[1-1249]``;
- names longer than ``NAME_LIMIT`` characters are shortened in labels (the full name stays
  in the SVG title, which the viewer shows);
- a collapsed scope (or branch, or block of a big flat graph) is one folder-shaped box and the
  edges that crossed its border are rerouted to the box.

All user text (op, scope and function names, attr values, string constants) passes through
:func:`quote`, so no name can break out of its DOT string, and Graphviz escapes it again in the
SVG.  The output is deterministic (op order, no ids or addresses), and made in one pass over the
ops: a 10,000-op graph takes a few tens of milliseconds.

Node ids are op names (``prefix + name`` inside branch bodies, e.g. ``cond/then/mul``), so the
SVG's ``<title>`` of a node names its op; :func:`node_ids` and :func:`cluster_ids` map SVG
titles back to op and scope names for the interactive viewer.
"""

from __future__ import annotations

import hashlib
import html
import re
import weakref

import numpy as np

__all__ = ["graph_to_dot", "COLLAPSE_ABOVE", "KINDS", "HIGHLIGHTS", "kind_of", "kinds_in",
           "scope_of", "series_of", "top_scopes", "default_collapse", "highlight_from_report",
           "node_ids", "cluster_ids", "quote", "visible", "svg_title"]

COLLAPSE_ABOVE = 50  # graphs with more ops start with their top-level scopes collapsed
BLOCKS_ABOVE = 200  # more ops than this outside every scope and series: drawn in blocks
BODY_COLLAPSE_ABOVE = 80  # control-flow bodies with more ops start collapsed
SERIES_ABOVE = 1000  # graphs with more ops start with their series of like-named ops folded
SERIES_MIN = 8  # like-named ops of one type in one scope fold into a series from this many
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

# -- escaping ---------------------------------------------------------------------------------
# characters that are shown as Python-style escapes: control characters (they would break the
# layout, and most are not allowed in the SVG's XML), lone surrogates (not encodable) and the two
# XML non-characters
_INVISIBLE = re.compile("[\x00-\x1f\x7f\ud800-\udfff\ufffe\uffff]")
_NAMED = {"\n": "\\n", "\t": "\\t", "\r": "\\r"}


def _show(match: re.Match) -> str:
    c = match.group(0)
    if c in _NAMED:
        return _NAMED[c]
    return f"\\x{ord(c):02x}" if ord(c) < 0x100 else f"\\u{ord(c):04x}"


def visible(text) -> str:
    """``text`` with control characters and lone surrogates written as escapes (``\\n``)."""
    return _INVISIBLE.sub(_show, str(text))


ID_LIMIT = 1000  # Graphviz rejects quoted strings over 16 KiB: longer ids are shortened


def _ident(text) -> str:
    """``visible(text)``, shortened past ``ID_LIMIT`` characters to its start, an ellipsis and a
    hash of the whole (so two long names that share their start stay two nodes)."""
    shown = visible(text)
    if len(shown) <= ID_LIMIT:
        return shown
    digest = hashlib.sha1(str(text).encode("utf-8", "surrogatepass")).hexdigest()[:12]
    return f"{shown[:ID_LIMIT]}…#{digest}"


def quote(text) -> str:
    """A DOT quoted string whose value is ``visible(text)`` (shortened past ``ID_LIMIT``
    characters): backslashes and quotes are escaped, so nothing in ``text`` can end the
    string or start a Graphviz escape."""
    return '"' + _ident(text).replace("\\", "\\\\").replace('"', '\\"') + '"'


def _label(*lines) -> str:
    """A DOT label of several lines of user text.  ``&`` is written as ``&amp;`` because
    Graphviz passes entity-like text (``&lt;``) through to the SVG unescaped."""
    return '"' + "\\n".join(visible(line).replace("&", "&amp;").replace("\\", "\\\\")
                            .replace('"', '\\"') for line in lines) + '"'


def _short(text: str, limit: int = 32) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"


# -- what an op is ----------------------------------------------------------------------------
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


def kinds_in(graph) -> set[str]:
    """The kinds of the ops of ``graph`` and of the graphs its control flow runs."""
    captured = {id(inner.op) for _, inner in graph.captures}
    out = set()
    for op in graph.operations:
        out.add(kind_of(op, captured))
        if _has_bodies(op):
            for _, fn in _bodies(op):
                out |= kinds_in(fn.graph)
    return out


def _preview(value) -> str | None:
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
    value = _preview(handle) if isinstance(handle, np.ndarray) else None
    return f"{text} = {value}" if value is not None else text


def _variable_name(outer) -> str:
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


def _node_lines(op, kind: str, outer, shown: str | None = None) -> list[str]:
    """The label of an op's node, line by line: its name (``shown``: the part of the name its
    cluster does not already say), its type when the name does not say it, what it holds."""
    name = _short(op.name if shown is None else shown, NAME_LIMIT)
    if kind == "constant":
        value = _preview(op.attrs.get("value"))
        return [value] if value is not None else [name]
    lines = [name] if _same_word(op.name, op.type) else [name, op.type]
    if kind == "input":  # the shape says it is a placeholder
        lines = [name]
    elif kind in ("captured", "variable"):
        if getattr(outer, "op", None) is not None and hasattr(outer, "value_index"):
            lines = [name]  # a tensor of the enclosing graph: an edge comes from it
        elif kind == "variable" and _variable_name(outer):  # under its own name
            lines = [_short(_variable_name(outer), NAME_LIMIT), "variable"]
        elif outer is not None:
            lines = [name, _short(_outer_text(outer, kind), NAME_LIMIT)]
        else:
            lines = [name, "variable (argument)" if kind == "variable" else "captured"]
    elif op.type == "StringFormat" and "template" in op.attrs:
        lines.append(_short(repr(op.attrs["template"])))
    return lines


def _node_attrs(kind: str, change: str | None) -> str:
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


def _bodies(op) -> list[tuple[str, object]]:
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


def _has_bodies(op) -> bool:
    if op.type in _FLOW_TYPES:
        return True
    attrs = op.attrs
    return bool(attrs) and any(_is_function(v) for v in attrs.values()
                               if not isinstance(v, _PLAIN))


_PLAIN = (str, int, float, bool, np.ndarray, np.generic, type(None))


def _fed_inputs(op) -> int:
    """How many leading inputs of a control-flow op are not fed to its bodies (the
    condition of an ``If``)."""
    return 1 if op.type in ("If", "StatelessIf") else 0


# -- scopes, series, blocks and collapsing --------------------------------------------------------
def relative_names(graph) -> list[str]:
    """The op names as drawn: a branch's or body's nodes are named under their If/While op
    (``cond/mul``, as in TensorFlow), which the picture already shows as the cluster around
    them, so that prefix is left out (``mul``)."""
    names = [op.name for op in graph.operations]
    base = getattr(graph, "base_scope", "")
    if not base:
        return names
    lead = base + "/"
    cut = len(lead)
    rel = [n[cut:] if n.startswith(lead) else n for n in names]
    return rel if len(set(rel)) == len(rel) else names  # node ids must stay unique


def drawn_names(graph) -> dict[int, str]:
    """id(op) -> its name in node ids (``while/body/add``): see :func:`relative_names`."""
    return {id(op): n for op, n in zip(graph.operations, relative_names(graph))}


def scope_of(name: str, op_names) -> str:
    """The name scope an op is drawn in ('' for none): ``layer/dense/MatMul`` -> ``layer/dense``.
    Names made for an op (``add/y``, the constant of op ``add``; ``while/hoisted/mul``, made
    by the optimiser for op ``while``) stay beside that op, not in a cluster of their own."""
    end = name.rfind("/")
    if end < 0:
        return ""
    prev = -1  # the slash that ends the previous prefix
    while True:
        pos = name.find("/", prev + 1)
        if name[:pos] in op_names:  # the shortest prefix naming an op
            return name[:prev] if prev >= 0 else ""
        if pos == end:
            return name[:end]
        prev = pos


def series_of(ops, scopes, names=None) -> dict[int, str]:
    """Op index -> series name, for runs of ops of one type named alike in one scope
    (``mul``, ``mul_1`` … ``mul_1249``: series ``mul_[1-1249]``), as TensorBoard groups them;
    an op's own constants (``mul_7/y``) join their op's series.  Only groups of at least
    ``SERIES_MIN`` ops are series."""
    groups: dict[tuple, list[int]] = {}
    rel_names = []
    for i, op in enumerate(ops):
        scope = scopes[i]
        name = names[i] if names is not None else op.name
        rel = name[len(scope) + 1:] if scope else name
        rel_names.append(rel)
        if "/" in rel:
            continue
        m = _SUFFIX.search(rel)
        base = rel[:m.start()] if m else rel
        groups.setdefault((scope, base, op.type), []).append(i)
    out: dict[int, str] = {}
    owner: dict[tuple, str] = {}
    for (scope, base, _), members in groups.items():
        if len(members) < SERIES_MIN:
            continue
        numbers = [int(rel_names[i][len(base) + 1:]) for i in members if rel_names[i] != base]
        if not numbers:
            continue
        name = f"{base}_[{min(numbers)}-{max(numbers)}]"
        if len(numbers) < len(members):  # the first of them has no number
            name = f"{base}, {name}"
        name = f"{scope}/{name}" if scope else name
        for i in members:
            out[i] = name
            owner[(scope, rel_names[i])] = name
    if out:
        for i, rel in enumerate(rel_names):
            if "/" in rel and i not in out:
                name = owner.get((scopes[i], rel.split("/", 1)[0]))
                if name is not None:
                    out[i] = name
    return out


def block_size(graph, scopes=None, series=None) -> int:
    """Ops per block when a big graph's ops outside any scope (and series) are summarised: 0
    (no blocks) unless more than ``BLOCKS_ABOVE`` ops are outside every scope and series.
    ``scopes``, ``series``: the scope and the series of each op, if already known."""
    ops = graph.operations
    n = len(ops)
    if n <= BLOCKS_ABOVE:
        return 0
    rel = relative_names(graph)
    if scopes is None:
        names = set(rel)
        scopes = [scope_of(r, names) for r in rel]
    if series is None:
        series = series_of(ops, scopes, rel)
    folded = n > SERIES_ABOVE  # series are folded by default only in graphs this big
    loose = sum(1 for i, s in enumerate(scopes) if not s and not (folded and i in series))
    return 0 if loose <= BLOCKS_ABOVE else max(50, -(-n // 100))


def block_of(index: int, size: int) -> str:
    """The name of the block of op number ``index``: ``ops[0:101]``."""
    start = index - index % size
    return f"ops[{start}:{start + size}]"


_LAST_LAYOUT: list = [None, -1, None]  # (weak reference to a graph, its op count, layout)


def _layout(graph):
    """(scopes, series, block size) of a graph's ops; the last one is remembered, since
    drawing, collapsing and the viewer's name maps all ask for it."""
    ref, n, found = _LAST_LAYOUT
    ops = graph.operations
    if ref is not None and ref() is graph and n == len(ops):
        return found
    rel = relative_names(graph)
    names = set(rel)
    scopes = [scope_of(r, names) for r in rel]
    series = series_of(ops, scopes, rel)
    found = scopes, series, block_size(graph, scopes, series)
    try:
        _LAST_LAYOUT[:] = [weakref.ref(graph), len(ops), found]
    except TypeError:  # not weakly referable: not remembered
        pass
    return found


def top_scopes(graph) -> set:
    """What a big graph starts with collapsed: its top-level name scopes, its series of
    like-named ops (in graphs of more than ``SERIES_ABOVE`` ops), and, when many ops are
    outside any scope and series, blocks of consecutive such ops (so even a flat 10,000-op
    graph draws in seconds)."""
    scopes, series, size = _layout(graph)
    big = len(scopes) > SERIES_ABOVE
    out = set()
    for i, scope in enumerate(scopes):
        if scope:
            out.add(scope.split("/", 1)[0])
        elif big and i in series:
            out.add(series[i])
        elif size:
            out.add(block_of(i, size))
    return out


def _series_everywhere(graph, prefix: str = "") -> set:
    """The series names of ``graph`` and of the graphs its control flow runs, in each graph
    of more than ``SERIES_ABOVE`` ops (in a smaller graph, folding ops that merely share a
    name would hide more than it shows)."""
    out = set()
    if len(graph.operations) > SERIES_ABOVE:
        out = {prefix + s for s in set(_layout(graph)[1].values())}
    names = drawn_names(graph)
    for op in graph.operations:
        if _has_bodies(op):
            for label, fn in _bodies(op):
                out |= _series_everywhere(fn.graph, f"{prefix}{names[id(op)]}/{label}/")
    return out


def _big_bodies(graph, prefix: str = "") -> set:
    out = set()
    names = drawn_names(graph)
    for op in graph.operations:
        if _has_bodies(op):
            for label, fn in _bodies(op):
                body = f"{prefix}{names[id(op)]}/{label}"
                if len(fn.graph.operations) > BODY_COLLAPSE_ABOVE:
                    out.add(body)
                else:
                    out |= _big_bodies(fn.graph, body + "/")
    return out


def default_collapse(graph) -> set:
    """The ``collapse`` used when none is given: the series of like-named ops of graphs of
    more than ``SERIES_ABOVE`` ops; for a graph of more than ``COLLAPSE_ABOVE`` ops, its
    top-level scopes (see :func:`top_scopes`); the control-flow bodies of more than
    ``BODY_COLLAPSE_ABOVE`` ops."""
    out = _series_everywhere(graph) | _big_bodies(graph)
    if len(graph.operations) > COLLAPSE_ABOVE:
        out |= top_scopes(graph)
    return out


def highlight_from_report(report, graph) -> dict[str, str]:
    """Node name -> highlight kind for the nodes of ``graph`` that an optimisation report
    mentions.  A node still in ``graph`` gets its own action (so the traced graph shows what
    was ``removed``); a node gone from ``graph`` lends its action to the node that took over its
    work (``by``): a removed duplicate marks its survivor ``replaced``, a rewrite marks the new
    node ``added``, a hoisted op marks its copy outside the loop ``hoisted``."""
    names = {op.name for op in graph.operations}
    given_by = {"removed": "replaced", "replaced": "added"}
    out: dict[str, str] = {}
    direct: set[str] = set()
    for change in report.changes:
        if change.node in names:
            out[change.node] = change.action
            direct.add(change.node)
        elif change.by and change.by in names and change.by not in direct:
            out[change.by] = given_by.get(change.action, change.action)
    return out


# -- drawing ------------------------------------------------------------------------------------
def graph_to_dot(graph, *, highlight=None, collapse=None, title=None, drawn=None) -> str:
    """The DOT text for ``graph``.

    ``collapse``: names drawn as one box each - scopes (``"layer"``, ``"layer/dense"``), series
    of like-named ops (``"mul_[1-1249]"``), blocks of a big flat graph (``"ops[0:101]"``),
    control-flow bodies (``"cond/then"``) and whole control-flow ops (``"while"``); a name
    inside a body is prefixed with the body (``"while/body/inner"``).  ``None`` (the default)
    is :func:`default_collapse`; pass ``set()`` to draw every op.
    ``highlight``: node name -> ``"removed"``, ``"added"``, ``"replaced"``, ``"folded"`` or
    ``"hoisted"`` (see :func:`highlight_from_report`).  ``title``: a caption on top.
    ``drawn``: a dict to fill with node id -> the box it is folded into, for every op drawn
    inside a box (ops of collapsed bodies are not drawn at all, so not listed).
    """
    if collapse is None:
        collapse = default_collapse(graph)
    drawer = _Drawer(dict(highlight or {}), frozenset(collapse), drawn)
    lines = ["digraph G {",
             "  rankdir=TB; compound=true; newrank=true;",
             f'  graph [fontname="{FONT}" fontsize=11];',
             f'  node [fontname="{FONT}" fontsize=10];',
             f'  edge [fontname="{FONT}" fontsize=8 color="#555555"];']
    body: list[str] = []
    drawer.draw(graph, "", body)
    lines.extend("  " + line for line in body)
    lines.extend("  " + edge for edge in drawer.edges)
    if title is not None:
        lines.append(f"  label={quote(title)}; labelloc=t;")
    lines.append("}")
    return "\n".join(lines) + "\n"


class _Drawer:
    """One drawing: node and cluster lines go into nested lists, edges into ``edges``."""

    def __init__(self, highlight: dict, collapse: frozenset, drawn=None):
        self.drawn = drawn
        self.highlight = highlight
        self.collapse = collapse
        self.edges: list[str] = []

    def draw(self, graph, prefix: str, out: list[str]) -> dict:
        """Append the lines of ``graph`` (node ids prefixed with ``prefix``) to ``out``; return
        ``id(op) -> node id`` (the op's own node, or the box it is folded into)."""
        ops = graph.operations
        captures = {id(inner.op): outer for outer, inner in graph.captures}
        collapse, highlight = self.collapse, self.highlight
        scopes, series, size = _layout(graph)
        rel_names = relative_names(graph)
        node_of: dict[int, str] = {}  # id(op) -> its node: itself or the box it is in
        boxes: dict[str, list] = {}  # box (relative name) -> [parent, ops, changed ops, change]
        tree: dict[str, list[str]] = {"": []}  # scope -> its node lines
        children: dict[str, list[str]] = {"": []}
        box_of_scope: dict[str, str | None] = {"": None}
        feeds: dict[int, list] = {}  # id(op) -> per input: the body nodes it feeds
        for index, op in enumerate(ops):
            scope = scopes[index]
            box = box_of_scope.get(scope, _UNKNOWN)
            if box is _UNKNOWN:
                box = box_of_scope[scope] = self._collapsed(prefix, scope)
            if box is None:
                group = series.get(index)
                if group is not None and prefix + group in collapse:
                    box = group
                elif size and not scope and prefix + block_of(index, size) in collapse:
                    box = block_of(index, size)
            if box is not None:
                node_of[id(op)] = prefix + box
                if self.drawn is not None:
                    self.drawn[prefix + rel_names[index]] = prefix + box
                entry = boxes.get(box)
                if entry is None:  # a block sits at the top, a scope's box in its parent scope
                    parent = (scope if index in series and box == series[index]
                              else box.rsplit("/", 1)[0] if scope and "/" in box else "")
                    entry = boxes[box] = [parent, 0, 0, None, {}]
                entry[1] += 1
                entry[4][op.type] = entry[4].get(op.type, 0) + 1
                change = highlight.get(prefix + rel_names[index])
                if change is not None:
                    entry[2] += 1
                    entry[3] = entry[3] or change
                continue
            rel = rel_names[index]
            node_id = prefix + rel
            node_of[id(op)] = node_id
            kind = kind_of(op, captures)
            lines = _ensure(tree, children, scope)
            shown = rel[len(scope) + 1:] if scope else rel
            label = _label(*_node_lines(op, kind, captures.get(id(op)), shown))
            line = f"{quote(node_id)} [label={label} {_node_attrs(kind, highlight.get(node_id))}"
            if _has_bodies(op) and node_id in collapse:
                sizes = ", ".join(f"{b} {len(fn.graph.operations)} ops" for b, fn in _bodies(op))
                text = _label(_short(shown, NAME_LIMIT), op.type, sizes)
                line = (f"{quote(node_id)} [label={text} "
                        f"{_node_attrs(kind, highlight.get(node_id))} peripheries=2")
            lines.append(line + "];")
            if _has_bodies(op) and node_id not in collapse:
                feeds[id(op)] = self._bodies(op, node_id, lines)
        named = set(series.values())
        for box, (parent, count, changed, change, types) in boxes.items():
            if box in named:
                type_, most = max(types.items(), key=lambda item: (item[1], item[0] != "Const"))
                text = [_short(box.rsplit("/", 1)[-1] if parent else box, NAME_LIMIT),
                        f"{most} × {type_}" + (f" ({count} ops)" if count != most else "")]
            else:
                text = [f"{_short(box, NAME_LIMIT)} ({count} ops)"]
            attrs = BOX
            if changed:
                text.append(f"{changed} changed")
                attrs += f' color="{HIGHLIGHTS.get(change, (_OTHER_HIGHLIGHT,))[0]}" penwidth=3'
            _ensure(tree, children, parent).append(
                f"{quote(prefix + box)} [label={_label(*text)} {attrs}];")
        _emit(tree, children, prefix, out)
        self._edges(ops, node_of, set(boxes) and {prefix + b for b in boxes}, feeds)
        return node_of

    def _collapsed(self, prefix: str, scope: str) -> str | None:
        """The outermost collapsed scope containing ``scope`` (relative name), or None."""
        if not scope or not self.collapse:
            return None
        end = -1
        while True:
            end = scope.find("/", end + 1)
            head = scope if end < 0 else scope[:end]
            if prefix + head in self.collapse:
                return head
            if end < 0:
                return None

    def _edges(self, ops, node_of: dict, boxes, feeds: dict) -> None:
        edges = self.edges
        seen: set = set()  # edges into or out of a box are drawn once per dtype and shape
        labels: dict[int, str] = {}
        for op in ops:
            dst = node_of[id(op)]
            q_dst = None
            into = feeds.get(id(op))
            for i, t in enumerate(op.inputs):
                src = node_of.get(id(t.op))
                if src is None or src == dst:
                    continue
                label = labels.get(id(t))
                if label is None:
                    if t.op.type == "Const":  # a constant's value is its label already
                        label = "arrowsize=0.5"
                    else:
                        text = f"{t.dtype.name} {t.shape}"
                        if len(t.op.outputs) > 1:
                            text = f":{t.value_index} {text}"
                        label = "label=" + _label(text)
                    labels[id(t)] = label
                targets = into[i] if into is not None and i < len(into) else None
                if targets is not None:  # into the bodies of control flow, not the op node
                    for target in targets:
                        key = (src, target, label)
                        if key not in seen:
                            seen.add(key)
                            edges.append(f"{quote(src)} -> {quote(target)} [{label}];")
                    continue
                if boxes and (src in boxes or dst in boxes):
                    key = (src, dst, label)
                    if key in seen:
                        continue
                    seen.add(key)
                q_dst = q_dst or quote(dst)
                edges.append(f"{quote(src)} -> {q_dst} [{label}];")
            for c in op.control_inputs:
                src = node_of.get(id(c))
                key = (src, dst, None)
                if src is None or src == dst or key in seen:
                    continue
                seen.add(key)
                edges.append(f'{quote(src)} -> {quote(dst)} [style=dashed color="#999999" '
                             "arrowhead=odot];")

    def _bodies(self, op, node_id: str, out: list[str]) -> list:
        """Draw the op as a cluster holding the clusters of the graphs it runs (then/else,
        cond/body) above its own node, which stands for its outputs: the op's node line (last
        in ``out``) moves inside.  Edges go from each body's outputs to the op's node; the
        return value says, per input of the op, which body nodes it feeds (``None``: the op's
        node itself, as the condition of an ``If``)."""
        bodies = _bodies(op)
        node_line = out.pop()
        skip = _fed_inputs(op)
        feeds: list = [None] * skip + [[] for _ in op.inputs[skip:]]
        out.append(f"subgraph {quote('cluster_' + node_id)} {{")
        title = _short(node_id.rsplit("/", 1)[-1], NAME_LIMIT) + " · " + op.type
        out.append(f"  label={_label(title)};"
                   ' style="rounded,filled"; fillcolor="#fbf9ff"; color="#8a63d2";')
        q_node = quote(node_id)
        for label, fn in bodies:
            body_id = f"{node_id}/{label}"
            n = len(fn.graph.operations)
            if body_id in self.collapse:  # one box; expanding it shows the body's graph
                out.append(f"  {quote(body_id)} [label="
                           f"{_label(f'{label}: {_short(fn.name, NAME_LIMIT)}', f'{n} ops')} "
                           f"{BOX}];")
                for targets in feeds[skip:]:
                    targets.append(body_id)
                self.edges.append(f"{quote(body_id)} -> {q_node} "
                                  '[style=dotted color="#8a63d2"];')
                continue
            cluster = "cluster_" + body_id
            out.append(f"  subgraph {quote(cluster)} {{")
            out.append(f"    label={_label(f'{label}: {_short(fn.name, NAME_LIMIT)}')}; "
                       'style="rounded,filled"; fillcolor="#f3ecff"; color="#b79cf0";')
            inner: list[str] = []
            node_of = self.draw(fn.graph, body_id + "/", inner)
            if not node_of:  # an empty graph: a cluster needs a node to be drawn
                inner.append(f'{quote(body_id + "/(empty)")} [label="(no ops)" shape=plaintext];')
            out.extend("    " + line for line in inner)
            out.append("  }")
            for i, t in enumerate(fn.inputs):
                target = node_of.get(id(t.op))
                if target is not None and skip + i < len(feeds):
                    feeds[skip + i].append(target)
            seen = set()
            for o in fn.outputs:
                src = node_of.get(id(o.op))
                if src is None or (src, str(o.shape), o.dtype.name) in seen:
                    continue
                seen.add((src, str(o.shape), o.dtype.name))
                style = ' style=dashed color="#8a63d2"' if label == "cond" else ""
                self.edges.append(f"{quote(src)} -> {q_node} "
                                  f"[label={_label(f'{o.dtype.name} {o.shape}')}{style}];")
        out.append("  " + node_line)
        out.append("}")
        return feeds


_UNKNOWN = object()


def _ensure(tree: dict, children: dict, scope: str) -> list[str]:
    """The node lines of ``scope``, creating it and its parent scopes in the tree."""
    lines = tree.get(scope)
    if lines is not None:
        return lines
    lines = tree[scope] = []
    children[scope] = []
    child = scope
    while True:  # link to parents, creating those not seen yet (no recursion: deep names)
        parent = child.rsplit("/", 1)[0] if "/" in child else ""
        children[parent] = children.get(parent, [])
        children[parent].append(child)
        if parent in tree:
            return lines
        tree[parent] = []
        child = parent


def _emit(tree: dict, children: dict, prefix: str, out: list[str]) -> None:
    """Append the scope tree as nested clusters: each scope's nodes, then its sub-scopes."""
    out.extend(tree[""])
    stack: list[tuple[str, int]] = [(c, 0) for c in reversed(children[""])]
    depth_open: list[int] = []
    while stack:
        scope, depth = stack.pop()
        while depth_open and depth_open[-1] >= depth:  # close clusters we have left
            depth_open.pop()
            out.append("  " * len(depth_open) + "}")
        pad = "  " * depth
        out.append(f"{pad}subgraph {quote('cluster_' + prefix + scope)} {{")
        out.append(f"{pad}  label={_label(_short(scope.rsplit('/', 1)[-1], NAME_LIMIT))}; "
                   'style=rounded; color="#aaaaaa";')
        out.extend(f"{pad}  {line}" for line in tree[scope])
        depth_open.append(depth)
        stack.extend((c, depth + 1) for c in reversed(children[scope]))
    while depth_open:
        depth_open.pop()
        out.append("  " * len(depth_open) + "}")


# -- SVG titles back to names (for the interactive viewer) --------------------------------------
_ENTITY = re.compile(r"&#?[A-Za-z0-9]+;")


def svg_title(node_id: str) -> str:
    """The text of the SVG ``<title>`` Graphviz writes for a node or cluster id: the id as DOT
    parsed it (backslashes stay doubled) with entity-like text decoded by the browser."""
    text = _ident(node_id).replace("\\", "\\\\")
    return _ENTITY.sub(lambda m: html.unescape(m.group(0)), text) if "&" in text else text


def node_ids(graph, collapse=None, prefix: str = "") -> dict:
    """SVG node title -> node id: the op name for every op of ``graph``, the box name for every
    name a collapsed box can have (scopes, blocks of a big graph, control-flow bodies), and
    the ``cond/then/mul``-style id of every node in a body.  (``collapse`` is accepted for
    compatibility: every possible box is mapped anyway.)"""
    out = {svg_title(prefix + n): prefix + n for n in relative_names(graph)}
    for path in _scope_paths(graph):
        out.setdefault(svg_title(prefix + path), prefix + path)
    _, series, size = _layout(graph)
    for name in set(series.values()):
        out.setdefault(svg_title(prefix + name), prefix + name)
    if size:
        for start in range(0, len(graph.operations), size):
            name = prefix + block_of(start, size)
            out.setdefault(svg_title(name), name)
    names = drawn_names(graph)
    for op in graph.operations:
        if _has_bodies(op):
            for label, fn in _bodies(op):
                body = f"{prefix}{names[id(op)]}/{label}"
                out.setdefault(svg_title(body), body)
                for title, node in node_ids(fn.graph, prefix=body + "/").items():
                    out.setdefault(title, node)
    return out


def cluster_ids(graph, prefix: str = "") -> dict:
    """SVG cluster title -> scope name (or ``cond/then``-style body name), for expanding and
    collapsing scopes and the branches and bodies of control flow, at every depth."""
    out = {svg_title("cluster_" + prefix + p): prefix + p for p in _scope_paths(graph)}
    names = drawn_names(graph)
    for op in graph.operations:
        if _has_bodies(op):
            out[svg_title("cluster_" + prefix + names[id(op)])] = prefix + names[id(op)]
            for label, fn in _bodies(op):
                body = f"{prefix}{names[id(op)]}/{label}"
                out[svg_title("cluster_" + body)] = body
                out.update(cluster_ids(fn.graph, body + "/"))
    return out


def _scope_paths(graph) -> list[str]:
    """Every scope path of the graph's ops (with their parents), in first-seen order."""
    seen: dict[str, None] = {}
    for scope in _layout(graph)[0]:
        while scope and scope not in seen:
            seen[scope] = None
            scope = scope.rsplit("/", 1)[0] if "/" in scope else ""
    return list(seen)
