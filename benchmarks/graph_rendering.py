"""Drawing big graphs: a flat 10,000-op graph starts summarised in blocks and renders fast.

Prints the time to make the DOT text and the SVG (through Graphviz's `dot`), for
the summarised drawing the viewer starts with, and for one block expanded.
"""

from __future__ import annotations

import time

import tfgraph_edu as tf
from tfgraph_edu import viz
from tfgraph_edu.viz.dot import top_scopes


def main() -> None:
    def unrolled(x):
        for _ in range(2500):
            x = x * 1.0001 + 1.0
        return x

    graph = tf.function(unrolled, autograph=False).get_concrete_function(
        tf.constant(0.0)).graph
    collapsed = top_scopes(graph)
    for label, collapse in (("summarised", collapsed),
                            ("one block expanded", collapsed - {sorted(collapsed)[0]})):
        start = time.perf_counter()
        dot = viz.graph_to_dot(graph, collapse=collapse)
        mid = time.perf_counter()
        svg = viz.to_svg(dot)
        end = time.perf_counter()
        print(f"{len(graph.operations)} ops, {label}: DOT {mid - start:.2f} s, SVG "
              f"{end - mid:.2f} s ({'ok' if svg else 'dot missing'})")


if __name__ == "__main__":
    main()
