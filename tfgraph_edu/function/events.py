"""The life of a tf.function as data: every trace and every call, with reasons (layer 7).

Notebooks and the trace explorer draw this log; each retrace says in words why
it happened ("argument x: shape (3,) was not seen before").
"""

from __future__ import annotations

import contextlib
import threading
import weakref
from dataclasses import dataclass, field


@dataclass
class TraceEvent:
    """A new graph was traced."""

    index: int  # the how-many-th trace of this Function (1-based)
    key: tuple
    reason: str
    signature: str
    seconds: float
    concrete: object = field(repr=False, default=None)
    kind: str = "trace"


@dataclass(slots=True)
class CallEvent:
    """The Function was called; ``traced`` says whether this call traced."""

    index: int  # the how-many-th call (1-based)
    concrete_index: int | None  # which trace served it (None: ran eagerly)
    traced: bool
    kind: str = "call"
    timing: bool = False  # made by a timing run (``%%trace``), not by the learner's code


_TIMING = threading.local()


@contextlib.contextmanager
def timing_runs():
    """Calls made inside are timing runs: logged with ``timing=True`` and left out of
    ``EventLog.calls`` and of the call numbers, so a learner's counts stay their own."""
    depth = getattr(_TIMING, "depth", 0)
    _TIMING.depth = depth + 1
    try:
        yield
    finally:
        _TIMING.depth = depth
        if depth == 0:
            finished_timing()


def finished_timing() -> None:
    """Tell the observers of :data:`AFTER_TIMING` that a block of timing runs ended."""
    for done in list(AFTER_TIMING):
        done()


AFTER_TIMING: list = []  # called when the outermost timing_runs block ends (the trace
# explorer updates its count of timing runs once then, not once per run being timed)


RECORDERS: list = []  # called as f(log, event) for every event of every Function
# (tf.summary.trace_on adds one; empty otherwise, so calls pay one truth test)


class EventLog(list):
    """The events in order; ``traces`` and ``calls`` filter them.  Observers (such as the
    trace explorer widget) are called with each new event; ``owner`` is a weak reference
    to the Function whose log this is (None when unowned)."""

    def __init__(self, *args, owner=None):
        super().__init__(*args)
        self.observers: list = []
        self.owner = None if owner is None else weakref.ref(owner)

    MAX_EVENTS = 20_000  # beyond this, the oldest half of the call events is dropped

    timing_count = 0  # timing runs logged so far (their call numbers are not the learner's)
    timing_apart = 0  # timing runs made in a copy of the process (function/isolation.py)

    @property
    def timing_runs(self) -> int:
        """How many calls instruments made for timing, here or apart: none is the learner's."""
        return self.timing_count + self.timing_apart

    def append(self, event) -> None:
        if event.kind == "call":
            if getattr(_TIMING, "depth", 0):
                event.timing = True
                self.timing_count += 1
            else:
                event.index -= self.timing_count
        super().append(event)
        if len(self) > self.MAX_EVENTS:
            calls = [i for i, e in enumerate(self) if e.kind == "call"]
            drop = set(calls[:len(calls) // 2])
            self[:] = [e for i, e in enumerate(self) if i not in drop]
        if self.observers:
            for observer in list(self.observers):
                observer(event)
        if RECORDERS:
            for recorder in list(RECORDERS):
                recorder(self, event)

    @property
    def traces(self) -> list:
        return [e for e in self if e.kind == "trace"]

    @property
    def calls(self) -> list:
        """The learner's calls (timing runs left out: see :func:`timing_runs`)."""
        return [e for e in self if e.kind == "call" and not e.timing]

    @property
    def timing_calls(self) -> list:
        return [e for e in self if e.kind == "call" and e.timing]
