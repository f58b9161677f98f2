"""Tracing, optimising and compiling big unrolled functions: time, memory per node, growth.

``x = x * 1.0001 + 1.0`` unrolled N times is 2N ops a learner wrote (the Const nodes
the tracer adds for the numbers are not counted).  Rows for 20,000 and 200,000 learner
ops: seconds per phase, then the retained memory per graph node (tracemalloc, in a
separate run so its overhead does not touch the times), then the 200k/20k ratios (10
means linear growth).  The node limit (200,000 by default) is raised for the 400,002
nodes of the big row.
"""

from __future__ import annotations

# ruff: noqa: I001 - _measure is imported first: it sets the thread counts before numpy loads

import _measure  # thread counts, and the clock: this process's CPU time
import gc
import tracemalloc

import tfgraph_edu as tf
from tfgraph_edu.graph import limits

CLOCK = _measure.CLOCK  # CPU time: other processes' load on a shared machine does not count


def make(n):
    def unrolled(x):
        for _ in range(n):
            x = x * 1.0001 + 1.0
        return x
    return tf.function(unrolled, autograph=False)


def learner_ops(graph) -> int:
    return sum(op.type not in ("Const", "Placeholder") for op in graph.get_operations())


def timed(n):
    fn = make(n)
    x = tf.constant(0.0)
    gc.collect()
    start = CLOCK()
    cf = fn.get_concrete_function(x)
    trace = CLOCK() - start
    start = CLOCK()
    report = cf.optimization_report
    optimise = CLOCK() - start
    start = CLOCK()
    compiled = cf.compiled
    compile_s = CLOCK() - start
    assert report is not None and compiled is not None
    return learner_ops(cf.graph), len(cf.graph.get_operations()), trace, optimise, compile_s


def memory(n):
    """Bytes retained per node of the traced graph (everything the trace keeps alive)."""
    fn = make(n)
    x = tf.constant(0.0)
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    cf = fn.get_concrete_function(x)
    gc.collect()
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return (after - before) / len(cf.graph.get_operations())


def main() -> None:
    limits.set_max_nodes(max(limits.max_nodes(), 500_000))  # 400,002 nodes at 200k ops
    timed(500)  # warm up imports and caches
    rows = {}
    for n in (10_000, 100_000):
        rows[n] = timed(n)
        ops, nodes, trace, optimise, compile_s = rows[n]
        print(f"{ops:>8,} learner ops ({nodes:,} nodes): trace {trace:6.2f} s "
              f"({ops / trace:8,.0f} ops/s), optimise {optimise:5.2f} s, compile "
              f"{compile_s:5.2f} s, total {trace + optimise + compile_s:6.2f} s")
    mem = {n: memory(n) for n in (10_000, 100_000)}
    for n in mem:
        print(f"{rows[n][0]:>8,} learner ops: {mem[n]:6.0f} bytes retained per node")
    a, b = rows[10_000], rows[100_000]
    print(f"200k / 20k: trace {b[2] / a[2]:.1f}x, optimise {b[3] / a[3]:.1f}x, compile "
          f"{b[4] / a[4]:.1f}x, memory per node {mem[100_000] / mem[10_000]:.2f}x "
          "(linear: 10x, 10x, 10x, 1x)")


if __name__ == "__main__":
    main()
