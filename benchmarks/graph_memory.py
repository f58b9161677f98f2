"""Memory per graph node of an unrolled Python loop, measured with tracemalloc.

Counts what a traced function keeps: its graph, the optimised graph, the optimiser's
report and the compiled code, divided by the nodes of the traced graph.
"""

from __future__ import annotations

import gc
import sys
import time
import tracemalloc

import tfgraph_edu as tf


def main(n: int = 5000) -> None:
    def unrolled(x):
        for _ in range(n):
            x = x * 1.0001 + 0.5
        return x

    tf.function(lambda x: x * 1.0001 + 0.5)(tf.constant(1.0))  # warm up
    f = tf.function(unrolled)
    gc.collect()
    tracemalloc.start()
    start = time.perf_counter()
    f(tf.constant(1.0))
    seconds = time.perf_counter() - start
    gc.collect()
    retained, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    nodes = len(f.concrete_functions[0].graph.operations)
    print(f"{n} iterations -> {nodes} nodes: {retained / nodes:.0f} bytes/node kept, "
          f"{peak / nodes:.0f} bytes/node at the peak ({seconds:.1f} s under tracemalloc)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5000)
