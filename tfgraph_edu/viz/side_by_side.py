"""Our graph beside TensorFlow's, with their differences (layer 8).

``side_by_side(ours, theirs)``: ``ours`` a tf.function (its latest trace), ConcreteFunction
or Graph of tfgraph_edu; ``theirs`` a file opened by ``open_graph``, one of its functions, or a
live TF object (``tf.function``, ``ConcreteFunction``, ``tf.Graph``, ``GraphDef``).  The
result shows both pictures in a row, and below them, per function (the graph, then each
body), the ops only one side has, and the attrs that differ on nodes both have.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..formats.compare import GraphDiff, graph_diff
from .displays import GraphPicture, show_graph
from .html import STYLE, escape
from .real_graphs import graph_of

__all__ = ["side_by_side", "SideBySide"]


@dataclass
class SideBySide:
    ours: GraphPicture
    theirs: GraphPicture
    diff: GraphDiff
    labels: tuple = ("tfgraph_edu", "TensorFlow")

    def text(self) -> str:
        a, b, common = self.diff.totals
        lines = [f"{self.labels[0]}: {a} ops, {self.labels[1]}: {b} ops, {common} in common"]
        for where, x, y, only_a, only_b in self.diff.rows():
            lines.append(f"  {where}: {x} | {y}; only {self.labels[0]}: {only_a}; "
                         f"only {self.labels[1]}: {only_b}")
        for node, key, x, y in self.diff.attrs:
            lines.append(f"  {node}.{key}: {x} | {y}")
        return "\n".join(lines)

    def html(self) -> str:
        a, b, common = self.diff.totals
        l0, l1 = (escape(x) for x in self.labels)
        rows = "".join(
            f"<tr><td><code>{escape(w)}</code></td><td>{x}</td><td>{y}</td>"
            f"<td>{escape(oa)}</td><td>{escape(ob)}</td></tr>"
            for w, x, y, oa, ob in self.diff.rows())
        attrs = "".join(f"<tr><td><code>{escape(n)}</code></td><td><code>{escape(k)}</code>"
                        f"</td><td>{escape(x)}</td><td>{escape(y)}</td></tr>"
                        for n, k, x, y in self.diff.attrs)
        attr_table = (f'<table class="tfg-table"><tr><th>node</th><th>attr</th><th>{l0}</th>'
                      f"<th>{l1}</th></tr>{attrs}</table>") if attrs else ""
        return (
            f'{STYLE}<div class="tfg-side-by-side" style="display:flex;gap:12px;'
            'align-items:flex-start">'
            f'<div style="flex:1;min-width:0"><p class="tfg-caption"><b>{l0}</b></p>'
            f"{self.ours.html()}</div>"
            f'<div style="flex:1;min-width:0"><p class="tfg-caption"><b>{l1}</b></p>'
            f"{self.theirs.html()}</div></div>"
            f'<p class="tfg-caption">{l0}: {a} ops, {l1}: {b} ops, {common} in common '
            "(per function, bodies included)</p>"
            f'<table class="tfg-table"><tr><th>function</th><th>{l0} ops</th><th>{l1} ops</th>'
            f"<th>only {l0}</th><th>only {l1}</th></tr>{rows}</table>{attr_table}")

    def _repr_mimebundle_(self, include=None, exclude=None):
        return {"text/plain": self.text(), "text/html": self.html()}


def side_by_side(ours, theirs, *, labels=("tfgraph_edu", "TensorFlow")) -> SideBySide:
    """Our graph and TF's (or any read graph) drawn side by side with their differences."""
    other = graph_of(theirs)
    if other is None:
        raise TypeError(f"side_by_side compares with a graph from open_graph or a live "
                        f"TensorFlow object, got {type(theirs).__name__}.")
    mine = show_graph(ours)
    return SideBySide(mine, GraphPicture(other), graph_diff(mine.graph, other), tuple(labels))
