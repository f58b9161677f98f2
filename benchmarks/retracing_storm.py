"""A retracing storm: one tf.function called with 5,000 tensors of distinct shapes.

Every call traces a new graph.  The cost of one trace must not grow with the
number of traces before it (working out *why* a call retraces looks at sets,
not at every earlier key).  Printed, measured in this one process: the median
and the mean time of the first and the last 200 traces and their ratios, and
the total time of the storm.  The median ratio is the per-trace cost (about 1
when tracing stays linear); the mean also carries Python's full garbage
collections, which grow with everything alive but are spaced geometrically, so
their total stays proportional to the number of traces.

    python benchmarks/retracing_storm.py [N]
"""

from __future__ import annotations

import logging
import statistics
import sys
import time

import tfgraph_edu as tf

WINDOW = 200


def main(n: int = 5000) -> None:
    logging.getLogger("tensorflow").setLevel(logging.ERROR)  # the retracing warning is expected

    @tf.function
    def f(x):
        return x * 2 + 1

    inputs = [tf.zeros([k]) for k in range(1, n + 1)]
    times = []
    start = time.perf_counter()
    for x in inputs:
        t0 = time.perf_counter()
        f(x)
        times.append(time.perf_counter() - t0)
    total = time.perf_counter() - start
    assert f.experimental_get_tracing_count() == n
    window = min(WINDOW, n // 2)
    head, tail = times[:window], times[-window:]
    med = statistics.median(head), statistics.median(tail)
    mean = statistics.fmean(head), statistics.fmean(tail)
    print(f"traces: {n}")
    print(f"median of first / last {window}: {med[0] * 1e3:.3f} / {med[1] * 1e3:.3f} ms, "
          f"ratio {med[1] / med[0]:.2f}x")
    print(f"mean of first / last {window}:   {mean[0] * 1e3:.3f} / {mean[1] * 1e3:.3f} ms, "
          f"ratio {mean[1] / mean[0]:.2f}x")
    print(f"total: {total:.1f} s ({total / n * 1e3:.2f} ms per trace)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5000)
