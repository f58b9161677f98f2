"""What observing costs: a cell under ``%%trace`` against the same cell run plainly, and the
timing runs made apart (a forked copy of the kernel) against the same runs made in place
(state snapshotted and restored).

Wall-clock time (the forked copy's work is not this process's CPU time), median over
interleaved rounds in one process, in a real IPython shell.  The cell defines a tf.function
that updates a variable and prints with tf.print, and calls it twice.
"""

from __future__ import annotations

import contextlib
import io
import os
import statistics
import time

import _measure  # noqa: F401 - one BLAS thread, as in the other benchmarks
from IPython.core.interactiveshell import InteractiveShell

CELL = """\
@tf.function
def step(x):
    v.assign_add(tf.reduce_sum(x * w))
    tf.print("v =", v)
    return v * 2.0
step(tf.constant([1.0, 2.0, 3.0]))
step(tf.constant([4.0, 5.0, 6.0]))
"""
SETUP = "v = tf.Variable(0.0)\nw = tf.constant([0.5, 0.25, 0.125])"


def _timed(ip, cell: str, isolation: str) -> float:
    os.environ["TFGRAPH_EDU_ISOLATION"] = isolation
    ip.run_cell(SETUP, store_history=False)
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        start = time.perf_counter()
        ip.run_cell(cell, store_history=False, silent=True)
        return time.perf_counter() - start


def main() -> None:
    ip = InteractiveShell.instance()
    ip.run_line_magic("load_ext", "tfgraph_edu")
    ip.run_cell("import tfgraph_edu as tf", store_history=False)
    variants = {
        "plain cell": (CELL, "apart"),
        "%%trace -n 20 (all panels), apart": ("%%trace -n 20\n" + CELL, "apart"),
        "%%trace -n 20 (all panels), in place": ("%%trace -n 20\n" + CELL, "inplace"),
        "%%trace -n 20 -p timing, apart": ("%%trace -n 20 -p timing\n" + CELL, "apart"),
        "%%trace -n 20 -p timing, in place": ("%%trace -n 20 -p timing\n" + CELL, "inplace"),
    }
    times: dict[str, list[float]] = {k: [] for k in variants}
    for cell, how in variants.values():  # warm-up: imports, Graphviz
        _timed(ip, cell, how)
    for _ in range(9):
        for name, (cell, how) in variants.items():
            times[name].append(_timed(ip, cell, how))
    plain = statistics.median(times["plain cell"])
    for name, runs in times.items():
        med = statistics.median(runs)
        print(f"{name:40s} {med * 1e3:8.1f} ms  ({med / plain:6.1f}x the plain cell)")
    for panels in ("all panels", "-p timing"):
        key = "(all panels)" if panels == "all panels" else "-p timing"
        apart = [t for n, r in times.items() if key in n and "apart" in n for t in r]
        inplace = [t for n, r in times.items() if key in n and "in place" in n for t in r]
        ratios = [a / b for a, b in zip(apart, inplace)]
        print(f"apart / in place, {panels}: {statistics.median(ratios):.2f}x "
              f"({min(ratios):.2f}-{max(ratios):.2f})")


if __name__ == "__main__":
    main()
