"""Two graphs compared as a learner would: which ops one has that the other has not, per
function (the graph, then each body in order of first appearance), and the attrs that
differ on nodes both have (layer 2a).  Used by ``viz.side_by_side`` and by
``benchmarks/against_tf/graph_files.py``'s parity table."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from ..graph.printers import node_attrs

__all__ = ["GraphDiff", "FunctionDiff", "graph_diff", "functions_of"]


def _is_body(v) -> bool:
    return hasattr(v, "graph") and hasattr(v, "function_name")


def functions_of(graph) -> list[tuple[str, object, Counter]]:
    """(where, graph, op types) for ``graph`` and each body it runs, depth first in op order
    (``where``: ``graph`` or ``While.body``...); a body's input placeholders are not counted
    (in TF's FunctionDef they are arguments, not nodes)."""
    out = [("graph", graph, Counter(op.type for op in graph.operations))]
    seen: set = set()

    def visit(g):
        for op in g.operations:
            for k in sorted(op.attrs):
                v = op.attrs[k]
                if _is_body(v) and v.function_name not in seen:
                    seen.add(v.function_name)
                    inputs = {id(t.op) for t in v.inputs}
                    out.append((f"{op.type}.{k}", v.graph,
                                Counter(o.type for o in v.graph.operations
                                        if id(o) not in inputs)))
                    visit(v.graph)
    visit(graph)
    return out


@dataclass
class FunctionDiff:
    where: str
    left: Counter
    right: Counter

    @property
    def only_left(self) -> Counter:
        return self.left - self.right

    @property
    def only_right(self) -> Counter:
        return self.right - self.left

    @property
    def common(self) -> int:
        return sum((self.left & self.right).values())


@dataclass
class GraphDiff:
    """``functions``: per function, the op types of each side; ``attrs``: (node, attr, left
    value, right value) for nodes of the same name and type in the top-level graphs."""

    functions: list = field(default_factory=list)
    attrs: list = field(default_factory=list)

    @property
    def totals(self) -> tuple[int, int, int]:
        return (sum(sum(f.left.values()) for f in self.functions),
                sum(sum(f.right.values()) for f in self.functions),
                sum(f.common for f in self.functions))

    def rows(self) -> list[tuple[str, int, int, str, str]]:
        """(function, left ops, right ops, only on the left, only on the right) as text."""
        def text(c):
            return ", ".join(f"{n}×{t}" if n > 1 else t for t, n in sorted(c.items())) or "-"
        return [(f.where, sum(f.left.values()), sum(f.right.values()), text(f.only_left),
                 text(f.only_right)) for f in self.functions]


def _show(v) -> str:
    if _is_body(v):
        return "<body>"  # function names differ by their counters; bodies are compared apart
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_show(x) for x in v) + "]"
    name = getattr(v, "name", None)
    return str(name if isinstance(name, str) and not isinstance(v, str) else v)


def graph_diff(left, right) -> GraphDiff:
    """Compare graph ``left`` with graph ``right`` (each a Graph; bodies matched in order
    of first appearance of the op type and attr that runs them)."""
    a, b = functions_of(left), functions_of(right)
    by_where_b: dict = {}
    for where, _, types in b:
        by_where_b.setdefault(where, []).append(types)
    out = GraphDiff()
    used: Counter = Counter()
    for where, _, types in a:
        k = used[where]
        used[where] += 1
        others = by_where_b.get(where, [])
        out.functions.append(FunctionDiff(where, types, others[k] if k < len(others)
                                          else Counter()))
    for where, types_list in by_where_b.items():
        for types in types_list[used[where]:]:
            out.functions.append(FunctionDiff(where, Counter(), types))
    right_ops = {op.name: op for op in right.operations}
    for op in left.operations:
        other = right_ops.get(op.name)
        if other is None or other.type != op.type:
            continue
        mine, theirs = node_attrs(op), node_attrs(other)  # with T, as a NodeDef shows them
        for key in sorted(set(mine) | set(theirs)):
            if key.startswith("_"):
                continue
            sx = _show(mine[key]) if key in mine else "(none)"
            sy = _show(theirs[key]) if key in theirs else "(none)"
            if sx != sy:
                out.attrs.append((op.name, key, sx[:80], sy[:80]))
    return out
