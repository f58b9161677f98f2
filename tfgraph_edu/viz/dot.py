"""Graphs as Graphviz DOT text (layer 8).

What the picture says, and where each part is made:

- a node's shape and colour say what kind of op it is (``KINDS``, chosen by :func:`kind_of`):
  an input of the function, a value captured from outside, a variable, a constant, math or
  array work, variable state, control flow, printing;
- a data edge is labelled with the tensor's dtype and shape; a control edge is dashed;
- name scopes (op names containing ``/``) become nested ``cluster_<scope>`` subgraphs;
- the branches of ``If`` and the ``cond``/``body`` of ``While`` are drawn as nested clusters
  inside a frame around the op, each with the nodes of its own graph;
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

import html
import re

import numpy as np

__all__ = ["graph_to_dot", "COLLAPSE_ABOVE", "KINDS", "HIGHLIGHTS", "kind_of", "kinds_in",
           "scope_of", "top_scopes", "default_collapse", "highlight_from_report", "node_ids",
           "cluster_ids", "quote", "visible", "svg_title"]

COLLAPSE_ABOVE = 200  # graphs with more ops start with their top-level scopes collapsed

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


def quote(text) -> str:
    """A DOT quoted string whose value is exactly ``visible(text)``: backslashes and quotes are
    escaped, so nothing in ``text`` can end the string or start a Graphviz escape."""
    return '"' + visible(text).replace("\\", "\\\\").replace('"', '\\"') + '"'


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


def _node_lines(op, kind: str, outer) -> list[str]:
    """The label of an op's node, line by line: name, type and what it holds."""
    lines = [op.name, op.type]
    if kind == "constant":
        value = _preview(op.attrs.get("value"))
        if value is not None:
            lines.append(value)
    elif kind in ("captured", "variable"):
        if outer is not None:
            lines.append(_outer_text(outer, kind))
        else:
            lines.append("variable (argument)" if kind == "variable" else "captured")
    elif op.type == "StringFormat" and "template" in op.attrs:
        lines.append(_short(repr(op.attrs["template"])))
    return lines


def _node_attrs(kind: str, change: str | None) -> str:
    shape, fill, extra, _ = KINDS[kind]
    styles = ["filled"] + ([extra] if extra else [])
    out = ""
    if change is not None:
        colour = HIGHLIGHTS.get(change, (_OTHER_HIGHLIGHT,))[0]
        if change == "removed" and "dashed" not in styles:
            styles.append("dashed")
        out = f' color="{colour}" penwidth=3'
    return f'shape={shape} style="{",".join(styles)}" fillcolor="{fill}"{out}'


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
    return op.type in _FLOW_TYPES or any(_is_function(v) for v in op.attrs.values())


# -- scopes, blocks and collapsing ----------------------------------------------------------------
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


def block_size(graph, scopes=None) -> int:
    """Ops per block when a big graph's ops outside any scope are summarised: 0 (no blocks)
    unless the graph has more than ``COLLAPSE_ABOVE`` ops and more than that many are outside
    every scope.  ``scopes``: the scope of each op, if already known."""
    ops = graph.operations
    n = len(ops)
    if n <= COLLAPSE_ABOVE:
        return 0
    if scopes is None:
        names = {op.name for op in ops}
        scopes = [scope_of(op.name, names) for op in ops]
    unscoped = scopes.count("")
    return 0 if unscoped <= COLLAPSE_ABOVE else max(50, -(-n // 100))


def block_of(index: int, size: int) -> str:
    """The name of the block of op number ``index``: ``ops[0:101]``."""
    start = index - index % size
    return f"ops[{start}:{start + size}]"


def top_scopes(graph) -> set:
    """What a big graph starts with collapsed: its top-level name scopes, and, when many ops
    are outside any scope, blocks of consecutive such ops (so even a flat 10,000-op graph
    draws in seconds)."""
    names = {op.name for op in graph.operations}
    scopes = [scope_of(op.name, names) for op in graph.operations]
    size = block_size(graph, scopes)
    out = set()
    for i, scope in enumerate(scopes):
        if scope:
            out.add(scope.split("/", 1)[0])
        elif size:
            out.add(block_of(i, size))
    return out


def default_collapse(graph) -> set:
    """The ``collapse`` used when none is given: for a graph of more than ``COLLAPSE_ABOVE``
    ops, :func:`top_scopes`; otherwise the control-flow bodies that are that big."""
    if len(graph.operations) > COLLAPSE_ABOVE:
        return top_scopes(graph)
    return {f"{op.name}/{label}" for op in graph.operations if _has_bodies(op)
            for label, fn in _bodies(op) if len(fn.graph.operations) > COLLAPSE_ABOVE}


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
def graph_to_dot(graph, *, highlight=None, collapse=None, title=None) -> str:
    """The DOT text for ``graph``.

    ``collapse``: names drawn as one box each - scopes (``"layer"``, ``"layer/dense"``), blocks
    of a big flat graph (``"ops[0:101]"``) and control-flow bodies (``"cond/then"``); a scope
    inside a body is named after the body (``"while/body/inner"``).  ``None`` (the default)
    collapses the top-level scopes of graphs with more than ``COLLAPSE_ABOVE`` ops (see
    :func:`default_collapse`); pass ``set()`` to draw every op.
    ``highlight``: node name -> ``"removed"``, ``"added"``, ``"replaced"``, ``"folded"`` or
    ``"hoisted"`` (see :func:`highlight_from_report`).  ``title``: a caption on top.
    """
    if collapse is None:
        collapse = default_collapse(graph)
    drawer = _Drawer(dict(highlight or {}), frozenset(collapse))
    lines = ["digraph G {",
             "  rankdir=TB; compound=true;",
             '  node [fontname="Helvetica" fontsize=10];',
             '  edge [fontname="Helvetica" fontsize=8 color="#555555"];']
    body: list[str] = []
    drawer.draw(graph, "", body)
    lines.extend("  " + line for line in body)
    lines.extend("  " + edge for edge in drawer.edges)
    if title is not None:
        lines.append(f"  label={quote(title)}; labelloc=t; fontname=\"Helvetica\";")
    lines.append("}")
    return "\n".join(lines) + "\n"


class _Drawer:
    """One drawing: node and cluster lines go into nested lists, edges into ``edges``."""

    def __init__(self, highlight: dict, collapse: frozenset):
        self.highlight = highlight
        self.collapse = collapse
        self.edges: list[str] = []

    def draw(self, graph, prefix: str, out: list[str]) -> list[str]:
        """Append the lines of ``graph`` (node ids prefixed with ``prefix``) to ``out``; return
        the nodes nothing flows into (the ends of the edges into the cluster it is drawn in)."""
        ops = graph.operations
        names = {op.name for op in ops}
        captures = {id(inner.op): outer for outer, inner in graph.captures}
        collapse, highlight = self.collapse, self.highlight
        scopes = [scope_of(op.name, names) for op in ops]
        size = block_size(graph, scopes)
        node_of: dict[int, str] = {}  # id(op) -> its node: itself or the box it is in
        boxes: dict[str, list] = {}  # box (relative name) -> [parent, ops, changed ops, change]
        tree: dict[str, list[str]] = {"": []}  # scope -> its node lines
        children: dict[str, list[str]] = {"": []}
        box_of_scope: dict[str, str | None] = {"": None}
        for index, op in enumerate(ops):
            scope = scopes[index]
            box = box_of_scope.get(scope, _UNKNOWN)
            if box is _UNKNOWN:
                box = box_of_scope[scope] = self._collapsed(prefix, scope)
            if box is None and size and not scope and prefix + block_of(index, size) in collapse:
                box = block_of(index, size)
            if box is not None:
                node_of[id(op)] = prefix + box
                entry = boxes.get(box)
                if entry is None:  # a block sits at the top, a scope's box in its parent scope
                    parent = box.rsplit("/", 1)[0] if scope and "/" in box else ""
                    entry = boxes[box] = [parent, 0, 0, None]
                entry[1] += 1
                change = highlight.get(prefix + op.name)
                if change is not None:
                    entry[2] += 1
                    entry[3] = entry[3] or change
                continue
            node_id = prefix + op.name
            node_of[id(op)] = node_id
            kind = kind_of(op, captures)
            lines = _ensure(tree, children, scope)
            label = _label(*_node_lines(op, kind, captures.get(id(op))))
            lines.append(f"{quote(node_id)} [label={label} "
                         f"{_node_attrs(kind, highlight.get(node_id))}];")
            if _has_bodies(op):
                self._bodies(op, node_id, lines)
        for box, (parent, count, changed, change) in boxes.items():
            text = [f"{box} ({count} ops)"]
            attrs = BOX
            if changed:
                text.append(f"{changed} changed")
                attrs += f' color="{HIGHLIGHTS.get(change, (_OTHER_HIGHLIGHT,))[0]}" penwidth=3'
            _ensure(tree, children, parent).append(
                f"{quote(prefix + box)} [label={_label(*text)} {attrs}];")
        _emit(tree, children, prefix, out)
        self._edges(ops, node_of, set(boxes) and {prefix + b for b in boxes})
        roots = dict.fromkeys(node_of[id(op)] for op in ops
                              if not op.inputs and not op.control_inputs)
        return list(roots) or [node_of[id(op)] for op in ops[:1]]

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

    def _edges(self, ops, node_of: dict, boxes) -> None:
        edges = self.edges
        seen: set = set()  # edges into or out of a box are drawn once per dtype and shape
        labels: dict[int, str] = {}
        for op in ops:
            dst = node_of[id(op)]
            q_dst = None
            for t in op.inputs:
                src = node_of.get(id(t.op))
                if src is None or src == dst:
                    continue
                label = labels.get(id(t))
                if label is None:
                    label = f"{t.dtype.name} {t.shape}"
                    if len(t.op.outputs) > 1:
                        label = f":{t.value_index} {label}"
                    label = labels[id(t)] = _label(label)
                if boxes and (src in boxes or dst in boxes):
                    key = (src, dst, label)
                    if key in seen:
                        continue
                    seen.add(key)
                q_dst = q_dst or quote(dst)
                edges.append(f"{quote(src)} -> {q_dst} [label={label}];")
            for c in op.control_inputs:
                src = node_of.get(id(c))
                key = (src, dst, None)
                if src is None or src == dst or key in seen:
                    continue
                seen.add(key)
                edges.append(f'{quote(src)} -> {quote(dst)} [style=dashed color="#999999" '
                             "arrowhead=odot];")

    def _bodies(self, op, node_id: str, out: list[str]) -> None:
        """Frame the op's node with the clusters of the graphs it runs (then/else, cond/body):
        the op's node line (last in ``out``) moves inside the frame."""
        bodies = _bodies(op)
        if not bodies:
            return
        node_line = out.pop()
        out.append(f"subgraph {quote('cluster_' + node_id + ':frame')} {{")
        out.append('  label=""; style="rounded,dashed"; color="#c9b3f5";')
        out.append("  " + node_line)
        for label, fn in bodies:
            body_id = f"{node_id}/{label}"
            n = len(fn.graph.operations)
            if body_id in self.collapse:  # one box; expanding it shows the body's graph
                out.append(f"  {quote(body_id)} [label={_label(f'{label}: {fn.name} ({n} ops)')} "
                           f"{BOX}];")
                self.edges.append(f"{quote(node_id)} -> {quote(body_id)} "
                                  '[style=dotted arrowhead=none color="#8a63d2"];')
                continue
            cluster = "cluster_" + body_id
            out.append(f"  subgraph {quote(cluster)} {{")
            out.append(f"    label={_label(f'{label}: {fn.name}')}; style=\"rounded,filled\"; "
                       'fillcolor="#f7f2ff"; color="#8a63d2"; fontname="Helvetica"; fontsize=10;')
            inner: list[str] = []
            roots = self.draw(fn.graph, body_id + "/", inner)
            if not roots:  # an empty graph: a cluster needs a node to be drawn
                roots = [body_id + "/(empty)"]
                inner.append(f'{quote(roots[0])} [label="(no ops)" shape=plaintext];')
            out.extend("    " + line for line in inner)
            out.append("  }")
            # one dotted line from the op to the cluster; invisible edges keep the body's
            # first nodes below the op
            q_node = quote(node_id)
            self.edges.append(f"{q_node} -> {quote(roots[0])} [lhead={quote(cluster)} "
                              'style=dotted arrowhead=none color="#8a63d2"];')
            self.edges.extend(f"{q_node} -> {quote(r)} [style=invis];" for r in roots[1:])
        out.append("}")


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
        out.append(f"{pad}  label={_label(scope.rsplit('/', 1)[-1])}; style=rounded; "
                   'color="#aaaaaa"; fontname="Helvetica"; fontsize=10;')
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
    text = visible(node_id).replace("\\", "\\\\")
    return _ENTITY.sub(lambda m: html.unescape(m.group(0)), text) if "&" in text else text


def node_ids(graph, collapse=None, prefix: str = "") -> dict:
    """SVG node title -> node id: the op name for every op of ``graph``, the box name for every
    name a collapsed box can have (scopes, blocks of a big graph, control-flow bodies), and
    the ``cond/then/mul``-style id of every node in a body.  (``collapse`` is accepted for
    compatibility: every possible box is mapped anyway.)"""
    names = {op.name for op in graph.operations}
    out = {svg_title(prefix + op.name): prefix + op.name for op in graph.operations}
    for path in _scope_paths(graph, names):
        out.setdefault(svg_title(prefix + path), prefix + path)
    size = block_size(graph)
    if size:
        for start in range(0, len(graph.operations), size):
            name = prefix + block_of(start, size)
            out.setdefault(svg_title(name), name)
    for op in graph.operations:
        if _has_bodies(op):
            for label, fn in _bodies(op):
                body = f"{prefix}{op.name}/{label}"
                out.setdefault(svg_title(body), body)
                for title, node in node_ids(fn.graph, prefix=body + "/").items():
                    out.setdefault(title, node)
    return out


def cluster_ids(graph, prefix: str = "") -> dict:
    """SVG cluster title -> scope name (or ``cond/then``-style body name), for expanding and
    collapsing scopes and the branches and bodies of control flow, at every depth."""
    names = {op.name for op in graph.operations}
    out = {svg_title("cluster_" + prefix + p): prefix + p for p in _scope_paths(graph, names)}
    for op in graph.operations:
        if _has_bodies(op):
            for label, fn in _bodies(op):
                body = f"{prefix}{op.name}/{label}"
                out[svg_title("cluster_" + body)] = body
                out.update(cluster_ids(fn.graph, body + "/"))
    return out


def _scope_paths(graph, names) -> list[str]:
    """Every scope path of the graph's ops (with their parents), in first-seen order."""
    seen: dict[str, None] = {}
    for op in graph.operations:
        scope = scope_of(op.name, names)
        while scope and scope not in seen:
            seen[scope] = None
            scope = scope.rsplit("/", 1)[0] if "/" in scope else ""
    return list(seen)
