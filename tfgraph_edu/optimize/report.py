"""What each optimisation pass changed, as data the viewer can highlight (layer 6)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(slots=True)  # a big unrolled graph's report holds hundreds of thousands
class Change:
    node: str  # the node's name in the graph before the pass
    action: str  # "removed", "replaced", "added", "folded", "hoisted"
    why: str
    by: str | None = None  # the node that now does its work, if any


class PassReport:
    """One pass: its name, what it changed (``changes``, in sweep order), its time and
    the node counts before and after.

    ``add`` keeps a change as four strings and ``changes`` makes the Change objects on
    first use: a pass over a big graph can report hundreds of thousands of them, and
    most reports are never read one Change at a time."""

    __slots__ = ("name", "_changes", "_node", "_action", "_why", "_by", "seconds",
                 "nodes_before", "nodes_after")

    def __init__(self, name, changes=None, seconds=0.0, nodes_before=0, nodes_after=0):
        self.name = name
        self._changes: list[Change] = [] if changes is None else changes
        self._node: list = []  # changes added and not yet made Change objects, by field
        self._action: list = []
        self._why: list = []
        self._by: list = []
        self.seconds = seconds
        self.nodes_before = nodes_before
        self.nodes_after = nodes_after

    @property
    def changes(self) -> list[Change]:
        if self._node:
            self._changes.extend(map(Change, self._node, self._action, self._why, self._by))
            self._node, self._action, self._why, self._by = [], [], [], []
        return self._changes

    @changes.setter
    def changes(self, value) -> None:
        self._node, self._action, self._why, self._by = [], [], [], []
        self._changes = value

    def add(self, node, action, why, by=None):
        self._node.append(node)
        self._action.append(action)
        self._why.append(why)
        self._by.append(by)

    def __eq__(self, other):
        if not isinstance(other, PassReport):
            return NotImplemented
        return (self.name, self.changes, self.seconds, self.nodes_before, self.nodes_after) \
            == (other.name, other.changes, other.seconds, other.nodes_before, other.nodes_after)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self):
        return (f"PassReport(name={self.name!r}, changes={self.changes!r}, "
                f"seconds={self.seconds!r}, nodes_before={self.nodes_before!r}, "
                f"nodes_after={self.nodes_after!r})")

    def __str__(self):
        changes = self.changes
        head = (f"{self.name}: {self.nodes_before} -> {self.nodes_after} nodes, "
                f"{len(changes)} change{'s' if len(changes) != 1 else ''}")
        lines = [head] + [f"  {c.action:8} {c.node}: {c.why}" + (f" (-> {c.by})" if c.by else "")
                          for c in changes]
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
