"""Honest timing of eager vs graph execution for the same call (layer 9).

Same inputs, one warm-up run each, ``number`` repeats, the median and the spread
(fastest, slowest), in the style of ``%timeit``.  Eager runs the Python function
itself; graph runs the tf.function (already traced by the warm-up), inside
:func:`~tfgraph_edu.function.events.timing_runs`, so those calls are not counted as the
learner's.
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass

from ..function.events import timing_runs


@dataclass
class Timing:
    label: str
    runs: list[float]

    @property
    def median(self) -> float:
        return statistics.median(self.runs)

    @property
    def fastest(self) -> float:
        return min(self.runs)

    @property
    def slowest(self) -> float:
        return max(self.runs)

    @property
    def spread(self) -> float:
        """The interquartile range of the runs (half the full range for fewer than 4); the
        quartiles lie between the runs, so one slow outlier among a few runs cannot widen it."""
        if len(self.runs) < 4:
            return (self.slowest - self.fastest) / 2
        q = statistics.quantiles(self.runs, n=4, method="inclusive")
        return q[2] - q[0]


def within_noise(a: Timing, b: Timing) -> bool:
    """Whether two medians differ by less than the spread of either timing's runs."""
    return abs(a.median - b.median) <= max(a.spread, b.spread)


def format_seconds(s: float) -> str:
    for unit, scale in (("s", 1), ("ms", 1e3), ("µs", 1e6), ("ns", 1e9)):
        if s * scale >= 1:
            return f"{s * scale:.3g} {unit}"
    return f"{s * 1e9:.3g} ns"


def measure(fn, args, kwargs, number: int, label: str, progress=None) -> Timing:
    fn(*args, **kwargs)  # warm-up (and trace, for a tf.function)
    runs = []
    for i in range(number):
        start = time.perf_counter()
        fn(*args, **kwargs)
        runs.append(time.perf_counter() - start)
        if progress is not None:
            progress(label, i + 1, number)
    return Timing(label, runs)


def compare(function, number: int = 20, progress=None, raw: bool = False):
    """(eager Timing, graph Timing) for the Function's last call, or None if never called;
    with ``raw``, a third Timing: the graph as traced, without the optimisation passes."""
    if function.last_call is None:
        return None
    args, kwargs = function.last_call
    eager = measure(function.python_function, args, kwargs, number, "eager", progress)
    with timing_runs():  # not the learner's calls: kept out of their counts
        graph = measure(function, args, kwargs, number, "graph", progress)
    if not raw:
        return eager, graph
    cf = function.get_concrete_function(*args, **kwargs)
    # the same call of the tf.function, running the graph as traced: only the passes differ
    with cf.running_unoptimised(), timing_runs():
        raw_t = measure(function, args, kwargs, number, "graph (raw)", progress)
    return eager, graph, raw_t
