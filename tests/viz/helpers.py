"""Small helpers for reading DOT text in the viz tests."""

from __future__ import annotations

import re

from tfgraph_edu.viz.dot import quote


def node_attrs(dot: str, node_id: str) -> str:
    """The attribute text of the node statement for ``node_id`` (fails if there is none)."""
    m = re.search(rf"^\s*{re.escape(quote(node_id))} \[(.*)\];$", dot, re.M)
    assert m, f"no node {node_id!r} in:\n{dot}"
    return m.group(1)


def has_node(dot: str, node_id: str) -> bool:
    return re.search(rf"^\s*{re.escape(quote(node_id))} \[", dot, re.M) is not None


def edges(dot: str) -> list[tuple[str, str, str]]:
    """(source, target, attributes) of every edge statement, ids unquoted (simple names only)."""
    return [(a, b, attrs) for a, b, attrs in
            re.findall(r'^\s*"([^"\\]*)" -> "([^"\\]*)" \[(.*)\];$', dot, re.M)]


def cluster_block(dot: str, cluster: str) -> str:
    """The lines of ``subgraph "cluster" {`` up to its closing brace (nested ones counted)."""
    lines = dot.splitlines()
    head = f"subgraph {quote(cluster)} {{"
    start = next(i for i, line in enumerate(lines) if line.strip() == head)
    depth = 0
    for i in range(start, len(lines)):
        text = lines[i].strip()
        if text.startswith("subgraph ") and text.endswith("{"):
            depth += 1
        elif text == "}":
            depth -= 1
            if depth == 0:
                return "\n".join(lines[start:i + 1])
    raise AssertionError(f"cluster {cluster!r} not closed")


def rename_parts(graph, renames: dict[str, str], seen: set | None = None) -> None:
    """Rename every path part of every op name in ``graph`` and its body graphs.

    TF's name rules refuse hostile names where a graph is built or loaded; a graph can still
    hold them when a program renames its nodes, so the drawing tests put them in afterwards."""
    seen = set() if seen is None else seen
    if id(graph) in seen:
        return
    seen.add(id(graph))
    for op in graph.operations:
        op.name = "/".join(renames.get(part, part) for part in op.name.split("/"))
        for value in op.attrs.values():
            if hasattr(value, "function_name"):
                rename_parts(value.graph, renames, seen)


def clusters_of_nodes(dot: str) -> dict[str, str]:
    """Node id -> the innermost cluster its statement sits in ('' at the top), for every
    node statement with a simple quoted id."""
    stack: list[str] = [""]
    out: dict[str, str] = {}
    for line in dot.splitlines():
        text = line.strip()
        head = re.match(r'^subgraph "([^"\\]*)" \{$', text)
        if head:
            stack.append(head.group(1))
        elif text == "}":
            stack.pop()
        else:
            node = re.match(r'^"([^"\\]*)" \[', text)
            if node:
                out[node.group(1)] = stack[-1]
    return out
