"""Drawing big graphs: what one interaction of the viewer costs, DOT and Graphviz.

Prints, for each case, the time to make the DOT text and the SVG (through Graphviz's `dot`), the
nodes drawn and the SVG's size:

- a flat 10,000-op chain ``x * 1.0001 + 1.0`` (2,500 times): summarised, one block open;
- a 5,000-op series ``x * 1.0001`` (``mul, mul_[1-4999]``): folded, opened (its first and last
  ops and "… 4,990 more"), and the next page opened;
- a 3,000-addition function (``3000 × AddV2``): the box opened;
- a repeated chain ``[mul → add] × 5000``: folded and opened.

Before the folds were paged (issue #24), opening the 5,000-op series laid out all its 10,000
nodes: 226 s in the notebook, 68 s of it Graphviz, an 11.9 MB SVG; opening the 3,000-addition
box had not finished after 2 minutes.  ``--unpaged`` times that old drawing of the series
(minutes).
"""

from __future__ import annotations

import sys
import time

import tfgraph_edu as tf
from tfgraph_edu import viz
from tfgraph_edu.viz import render
from tfgraph_edu.viz.dot import default_collapse, graph_to_dot


def _graph(fn):
    return tf.function(fn, autograph=False).get_concrete_function(tf.constant(0.0)).graph


def chain(x):
    for _ in range(2500):
        x = x * 1.0001 + 1.0
    return x


def series(x):
    for _ in range(5000):
        x = x * 1.0001
    return x


def additions(x):
    for _ in range(3000):
        x = x + 1.0
    return x


def long_chain(x):
    for _ in range(5000):
        x = x * 1.0001 + 1.0
    return x


def measure(label: str, graph, collapse, **kwargs) -> float:
    start = time.perf_counter()
    dot = graph_to_dot(graph, collapse=collapse, **kwargs)
    mid = time.perf_counter()
    svg = viz.to_svg(dot, limit=None) if kwargs.get("paged") is False else viz.to_svg(dot)
    end = time.perf_counter()
    size = f"{len(svg) / 1e3:,.0f} kB" if svg else "dot missing"
    print(f"  {label}: {render.node_count(dot):,} nodes, DOT {mid - start:.2f} s, SVG "
          f"{end - mid:.2f} s, total {end - start:.2f} s, {size}")
    return end - start


def main() -> None:
    graph = _graph(chain)
    print(f"flat chain, {len(graph.operations):,} ops")
    folded = default_collapse(graph)
    measure("summarised", graph, folded)
    measure("the repeat open (first and last repetitions)", graph, set())

    graph = _graph(series)
    name = "mul, mul_[1-4999]"
    print(f"series, {len(graph.operations):,} ops")
    measure("folded", graph, default_collapse(graph))
    opened = measure(f"'{name}' opened", graph, set())
    measure("the next page opened", graph, {f"{name}/more[5:4995]"})
    if "--unpaged" in sys.argv:
        measure("opened, every op (before paging)", graph, set(), paged=False)

    graph = _graph(additions)
    print(f"3,000 additions, {len(graph.operations):,} ops")
    measure("folded", graph, default_collapse(graph))
    added = measure("'3000 × AddV2' opened", graph, set())

    graph = _graph(long_chain)
    print(f"repeated chain, {len(graph.operations):,} ops")
    measure("folded: x -> [mul → add] × 5000 -> Identity", graph, default_collapse(graph))
    measure("opened", graph, set())
    print(f"opening the 5,000-op series: {opened:.2f} s (goal <= 2 s; before: 226 s); "
          f"opening 3000 × AddV2: {added:.2f} s (before: not done after 120 s)")


if __name__ == "__main__":
    main()
