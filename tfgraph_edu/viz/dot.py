"""Graphs as Graphviz DOT text (layer 8).

Node shape and colour say what an op is (input, captured value, variable,
constant, math, state, control flow, io); data edges carry dtype and shape,
control edges are dashed; name scopes become clusters (collapsible: a collapsed
scope is one box), and the branches of If and the cond/body of While are drawn
as nested clusters.  All user text is escaped; output is deterministic.
"""

from __future__ import annotations

COLLAPSE_ABOVE = 200  # graphs with more ops start with their top-level scopes collapsed

_STATE = {"ReadVariableOp", "AssignVariableOp", "AssignAddVariableOp", "AssignSubVariableOp"}
_FLOW = {"If", "StatelessIf", "While", "StatelessWhile"}
_IO = {"PrintV2", "StringFormat"}
STYLES = {
    "input": 'shape=ellipse style=filled fillcolor="#d6eaff"',
    "captured": 'shape=house style=filled fillcolor="#ffe9c6"',
    "variable": 'shape=cylinder style=filled fillcolor="#fff3b0"',
    "constant": 'shape=box style="rounded,filled" fillcolor="#eeeeee"',
    "state": 'shape=box style=filled fillcolor="#ffd9d9"',
    "control_flow": 'shape=hexagon style=filled fillcolor="#e5d4ff"',
    "io": 'shape=box style=filled fillcolor="#d4f5d4"',
    "op": 'shape=box style=filled fillcolor="#ffffff"',
    "scope": 'shape=folder style=filled fillcolor="#f0f0f0"',
}
HIGHLIGHT = {"removed": "#d73a49", "replaced": "#28a745", "added": "#28a745",
             "folded": "#0366d6", "hoisted": "#8a63d2"}


def quote(text: str) -> str:
    """A DOT string literal for any text."""
    text = str(text).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{text}"'


def kind(op, captured: set, variables: set) -> str:
    t = op.type
    if t == "Placeholder":
        if id(op) in variables:
            return "variable"
        return "captured" if id(op) in captured else "input"
    if t == "Const":
        return "constant"
    if t in _STATE:
        return "state"
    if t in _FLOW:
        return "control_flow"
    if t in _IO:
        return "io"
    return "op"


def scope_of(name: str, op_names: set) -> str:
    """The name scope an op is drawn in ('' for none): ``layer/dense/MatMul`` -> ``layer/dense``.
    ``add/y`` (the constant of op ``add``) stays beside its op, not in a cluster."""
    parts = name.split("/")[:-1]
    while parts and "/".join(parts) in op_names:
        parts.pop()
    return "/".join(parts)


def block_size(graph) -> int:
    """Ops per synthetic block when a big graph is summarised (0: no blocks)."""
    n = len(graph.operations)
    return 0 if n <= COLLAPSE_ABOVE else max(50, -(-n // 100))


def block_of(index: int, size: int) -> str:
    start = index - index % size
    return f"ops[{start}:{start + size}]"


def top_scopes(graph) -> set:
    """What a big graph starts with collapsed: its top-level name scopes, and blocks of
    consecutive ops outside any scope (so even a flat 10,000-op graph draws in seconds)."""
    names = {op.name for op in graph.operations}
    out = {s.split("/")[0] for s in (scope_of(op.name, names) for op in graph.operations) if s}
    size = block_size(graph)
    if size:
        for i, op in enumerate(graph.operations):
            if not scope_of(op.name, names):
                out.add(block_of(i, size))
    return out


def graph_to_dot(graph, *, highlight=None, collapse=None, title=None) -> str:
    """The DOT text for ``graph``; ``collapse``: scopes drawn as one box; ``highlight``: node
    name -> change kind (removed, added, replaced, folded, hoisted)."""
    if collapse is None:
        collapse = top_scopes(graph) if len(graph.operations) > COLLAPSE_ABOVE else set()
    collapse = set(collapse)
    highlight = highlight or {}
    lines = ["digraph G {", "  rankdir=TB;", '  node [fontname="Helvetica" fontsize=10];',
             '  edge [fontname="Helvetica" fontsize=8 color="#555555"];']
    if title:
        lines.append(f"  label={quote(title)}; labelloc=t;")
    _emit_graph(graph, "", lines, highlight, collapse, "  ")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _collapsed_scope(scope: str, collapse: set) -> str | None:
    parts = scope.split("/") if scope else []
    for i in range(1, len(parts) + 1):
        prefix = "/".join(parts[:i])
        if prefix in collapse:
            return prefix
    return None


def _emit_graph(graph, prefix, lines, highlight, collapse, indent):
    names = {op.name for op in graph.operations}
    captured = {id(inner.op) for _, inner in graph.captures}
    variables = {id(inner.op) for _, inner in graph.captures if inner.dtype.name == "resource"}
    node_of: dict[int, str] = {}  # id(op) -> DOT node id (an op, or its collapsed scope)
    tree: dict = {}  # scope path -> list of node lines
    scope_counts: dict[str, int] = {}
    size = block_size(graph) if not prefix else 0
    for index, op in enumerate(graph.operations):
        scope = scope_of(op.name, names)
        box = _collapsed_scope(scope, collapse)
        if box is None and size and not scope and block_of(index, size) in collapse:
            box = block_of(index, size)
        if box is not None:
            node_of[id(op)] = prefix + box
            scope_counts[box] = scope_counts.get(box, 0) + 1
            continue
        node_id = prefix + op.name
        node_of[id(op)] = node_id
        k = kind(op, captured, variables)
        label = f"{op.name}\\n{op.type}" if op.type not in ("Placeholder",) else op.name
        if k == "captured":
            label = f"{op.name}\\ncaptured"
        elif k == "variable":
            label = f"{op.name}\\nvariable"
        extra = ""
        change = highlight.get(op.name)
        if change in HIGHLIGHT:
            extra = f' color="{HIGHLIGHT[change]}" penwidth=3'
        text = label.replace("\\n", "\n")
        lines_for = tree.setdefault(scope, [])
        lines_for.append(f"{quote(node_id)} [label={quote(text)} {STYLES[k]}{extra}];")
        if op.type in _FLOW and not prefix.count("/") > 8:
            lines_for.extend(_subgraph_clusters(op, node_id, highlight, collapse))
    for box, n in sorted(scope_counts.items()):
        parent = box.rsplit("/", 1)[0] if "/" in box else ""
        tree.setdefault(parent, []).append(
            f"{quote(prefix + box)} [label={quote(f'{box} ({n} ops)')} {STYLES['scope']}];")
    _emit_tree(tree, prefix, lines, indent)
    seen_edges = set()
    for op in graph.operations:
        dst = node_of[id(op)]
        for t in op.inputs:
            src = node_of[id(t.op)]
            if src == dst:
                continue
            label = f"{t.dtype.name} {t.shape}"
            key = (src, dst, label, "data")
            if key in seen_edges:
                continue
            seen_edges.add(key)
            lines.append(f"{indent}{quote(src)} -> {quote(dst)} [label={quote(label)}];")
        for c in op.control_inputs:
            src = node_of[id(c)]
            key = (src, dst, "", "control")
            if src == dst or key in seen_edges:
                continue
            seen_edges.add(key)
            lines.append(f"{indent}{quote(src)} -> {quote(dst)} [style=dashed color=\"#999999\"];")


def _emit_tree(tree, prefix, lines, indent):
    scopes = sorted(s for s in tree if s)
    for line in tree.get("", []):
        if line.startswith("subgraph") or line == "}":
            lines.append(indent + line)
        else:
            lines.append(indent + line)
    # nested clusters: emit each scope inside its parent by walking paths in order
    emitted = set()

    def emit(scope, depth):
        if scope in emitted:
            return
        emitted.add(scope)
        pad = indent + "  " * depth
        lines.append(f"{pad}subgraph {quote('cluster_' + prefix + scope)} {{")
        lines.append(f"{pad}  label={quote(scope.rsplit('/', 1)[-1])}; style=rounded; "
                     'color="#aaaaaa";')
        for line in tree.get(scope, []):
            lines.append(pad + "  " + line)
        for child in scopes:
            if child.startswith(scope + "/") and "/" not in child[len(scope) + 1:]:
                emit(child, depth + 1)
        lines.append(f"{pad}}}")
    for scope in scopes:
        parent = scope.rsplit("/", 1)[0] if "/" in scope else ""
        if parent == "" or parent not in tree:
            # make sure intermediate scopes without ops of their own still nest
            emit(scope, 0)


def _subgraph_clusters(op, node_id, highlight, collapse) -> list[str]:
    """The branches of an If / the cond and body of a While, as clusters next to the op."""
    fields = (("then_branch", "then"), ("else_branch", "else")) if "If" in op.type else \
        (("cond", "cond"), ("body", "body"))
    out = []
    for attr, label in fields:
        fn = op.attrs.get(attr)
        if fn is None or not hasattr(fn, "graph"):
            continue
        body_id = f"{node_id}/{label}"
        if body_id in collapse:  # drawn as one box; expanding it shows the subgraph
            n = len(fn.graph.operations)
            out.append(f"{quote(body_id)} [label={quote(f'{label}: {fn.name} ({n} ops)')} "
                       f"{STYLES['scope']}];")
            out.append(f"{quote(node_id)} -> {quote(body_id)} [style=dotted arrowhead=none];")
            continue
        inner: list[str] = []
        _emit_graph(fn.graph, f"{node_id}/{label}/", inner, {}, set(), "")
        out.append(f"subgraph {quote('cluster_' + node_id + '/' + label)} {{")
        out.append(f"  label={quote(f'{label}: {fn.name}')}; style=dashed; "
                   'color="#8a63d2";')
        out.extend("  " + line for line in inner)
        out.append("}")
    return out


def node_ids(graph, collapse=None) -> dict:
    """SVG node title -> op name (identity here: op names are the DOT node ids)."""
    return {op.name: op.name for op in graph.operations}


def cluster_ids(graph) -> dict:
    """SVG cluster title -> scope name (or ``op/then``-style body name), for expanding and
    collapsing scopes and the branches and bodies of control flow."""
    names = {op.name for op in graph.operations}
    bodies = {f"cluster_{op.name}/{label}": f"{op.name}/{label}"
              for op in graph.operations if op.type in _FLOW
              for label in (("then", "else") if "If" in op.type else ("cond", "body"))}
    scopes = {scope_of(op.name, names) for op in graph.operations} - {""}
    out = {}
    for s in scopes:
        parts = s.split("/")
        for i in range(1, len(parts) + 1):
            p = "/".join(parts[:i])
            out["cluster_" + p] = p
    out.update(bodies)
    return out
