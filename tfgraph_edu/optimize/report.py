"""What each optimisation pass changed, as data the viewer can highlight (layer 6)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(slots=True)  # a big unrolled graph's report holds hundreds of thousands
class Change:
    node: str  # the node's name in the graph before the pass
    action: str  # "removed", "replaced", "added", "folded", "hoisted"
    why: str
    by: str | None = None  # the node that now does its work, if any


@dataclass
class PassReport:
    name: str
    changes: list[Change] = field(default_factory=list)
    seconds: float = 0.0
    nodes_before: int = 0
    nodes_after: int = 0

    def add(self, node, action, why, by=None):
        self.changes.append(Change(node, action, why, by))

    def __str__(self):
        head = (f"{self.name}: {self.nodes_before} -> {self.nodes_after} nodes, "
                f"{len(self.changes)} change{'s' if len(self.changes) != 1 else ''}")
        lines = [head] + [f"  {c.action:8} {c.node}: {c.why}" + (f" (-> {c.by})" if c.by else "")
                          for c in self.changes]
        return "\n".join(lines)


@dataclass
class OptimizationReport:
    passes: list[PassReport] = field(default_factory=list)

    @property
    def changes(self) -> list[Change]:
        return [c for p in self.passes for c in p.changes]

    def __str__(self):
        return "\n".join(str(p) for p in self.passes)

    def _repr_pretty_(self, printer, cycle):
        printer.text(str(self))
