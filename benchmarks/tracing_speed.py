"""Tracing and optimising large unrolled functions: speed and linearity.

Traces ``x = x * 1.0001 + 1.0`` unrolled N times (2N ops) for N = 5,000 and
50,000 (10,000 and 100,000 ops), then runs the optimisation pipeline and
compiles.  Prints ops per second and the 10x-size time ratios (linear: ~10).
"""

from __future__ import annotations

import time

import tfgraph_edu as tf


def make(n):
    def unrolled(x):
        for _ in range(n):
            x = x * 1.0001 + 1.0
        return x
    return tf.function(unrolled, autograph=False)


def measure(n):
    fn = make(n)
    x = tf.constant(0.0)
    start = time.perf_counter()
    cf = fn.get_concrete_function(x)
    trace = time.perf_counter() - start
    ops = len(cf.graph.get_operations())
    start = time.perf_counter()
    report = cf.optimization_report
    optimise = time.perf_counter() - start
    start = time.perf_counter()
    compiled = cf.compiled
    compile_s = time.perf_counter() - start
    assert report is not None and compiled is not None
    return ops, trace, optimise, compile_s


def best(n, repeat=2):
    """Best of ``repeat`` fresh measurements (each step separately)."""
    runs = [measure(n) for _ in range(repeat)]
    return (runs[0][0],) + tuple(min(r[i] for r in runs) for i in (1, 2, 3))


def main() -> None:
    measure(500)  # warm up imports and caches
    small, large = best(2_500, 3), best(25_000, 2)
    for ops, trace, optimise, compile_s in (small, large):
        print(f"{ops:>7} ops: trace {trace:6.2f} s ({ops / trace:9,.0f} ops/s), "
              f"optimise {optimise:6.2f} s, compile {compile_s:6.2f} s")
    print(f"10x the ops: tracing took {large[1] / small[1]:.1f}x, optimising "
          f"{large[2] / small[2]:.1f}x, compiling {large[3] / small[3]:.1f}x (linear: about 10x)")


if __name__ == "__main__":
    main()
