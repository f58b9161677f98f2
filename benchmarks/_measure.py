"""Shared timing for the benchmarks: one process, interleaved repeats, ratios with spread.

BLAS and OpenMP are held to one thread before numpy loads, so thread contention on a
shared machine does not swing the numpy floor; times are the process's CPU time
(``time.process_time``), which other processes' load does not inflate.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
             "BLIS_NUM_THREADS", "VECLIB_MAXIMUM_THREADS"):
    os.environ.setdefault(_var, "1")

import statistics  # noqa: E402
import time  # noqa: E402

CLOCK = time.process_time


def per_call(fn, number: int) -> float:
    start = CLOCK()
    for _ in range(number):
        fn()
    return (CLOCK() - start) / number


def measure(fns: dict, number: int, repeats: int = 9) -> dict:
    """Per-call seconds of each function, ``repeats`` rounds interleaved (after a warm-up)."""
    for fn in fns.values():
        fn()
    times: dict = {k: [] for k in fns}
    for _ in range(repeats):
        for k, fn in fns.items():
            times[k].append(per_call(fn, number))
    return times


def ratio(times: dict, a: str, b: str) -> str:
    """``a / b`` per round: the median and the spread (min-max) over the rounds."""
    r = [x / y for x, y in zip(times[a], times[b])]
    return f"{statistics.median(r):6.2f}x ({min(r):.2f}-{max(r):.2f})"


def best_us(times: dict, k: str) -> str:
    return f"{min(times[k]) * 1e6:9.2f}"
