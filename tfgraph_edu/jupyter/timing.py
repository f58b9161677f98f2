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

from ..function import isolation
from ..function.events import finished_timing, timing_runs


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
    """Whether the middle halves of the two timings' runs overlap (for fewer than 4 runs,
    their full ranges): then neither is clearly faster, whatever the ratio of the medians."""
    def middle(t: Timing) -> tuple[float, float]:
        if len(t.runs) < 4:
            return t.fastest, t.slowest
        q = statistics.quantiles(t.runs, n=4, method="inclusive")
        return q[0], q[2]
    (lo_a, hi_a), (lo_b, hi_b) = middle(a), middle(b)
    return lo_a <= hi_b and lo_b <= hi_a


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


class Timings(tuple):
    """The timings of one :func:`compare` (eager, graph[, graph raw]) and what was done to get
    them: ``extra_runs`` (calls made for timing, warm-ups included), ``isolation`` (``"apart"``:
    in a copy of the kernel; ``"inplace"``: in the kernel, state restored), ``declined`` (why
    nothing was timed: ``(kind, detail)`` of :class:`~tfgraph_edu.function.isolation.Declined`,
    or None)."""

    extra_runs: int = 0
    isolation: str = ""
    declined: str | None = None

    def __new__(cls, timings=(), extra_runs=0, isolation="", declined=None):
        self = super().__new__(cls, timings)
        self.extra_runs, self.isolation, self.declined = extra_runs, isolation, declined
        return self


def compare(function, number: int = 20, progress=None, raw: bool = False):
    """The Function's last call timed eagerly (its Python function) and as a graph, each
    with one warm-up and ``number`` runs, as :class:`Timings`; None if never called.  With
    ``raw``, a third timing: the graph as traced, without the optimisation passes.

    The runs happen where they cannot change the learner's world
    (:func:`~tfgraph_edu.function.isolation.run_apart`): variables, random state, printed
    output and files stay as the learner's cell left them."""
    if function.last_call is None:
        return None
    args, kwargs = function.last_call
    cf = function.get_concrete_function(*args, **kwargs)
    labels = ["eager", "graph"] + (["graph (raw)"] if raw else [])

    def task(report):
        runs = [measure(function.python_function, args, kwargs, number, "eager", report).runs]
        with timing_runs():  # not the learner's calls: kept out of their counts
            runs.append(measure(function, args, kwargs, number, "graph", report).runs)
            if raw:  # the same call, running the graph as traced: only the passes differ
                with cf.running_unoptimised():
                    runs.append(measure(function, args, kwargs, number, "graph (raw)",
                                        report).runs)
        return runs

    how = isolation.mode()
    try:
        runs = isolation.run_apart(task, [cf.graph], progress)
    except isolation.Declined as exc:
        return Timings((), 0, how, (exc.kind, exc.detail))
    per_timing = number + 1  # a warm-up and the timed runs
    if how == "apart":  # the calls of the tf.function (not of its eager Python), made apart
        function.events.timing_apart += (len(labels) - 1) * per_timing
        finished_timing()
    extra = len(labels) * per_timing
    return Timings([Timing(label, r) for label, r in zip(labels, runs)], extra, how)
