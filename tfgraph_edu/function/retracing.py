"""TensorFlow's warning for frequent retracing (layer 7).

The rule, as TensorFlow applies it: per Python function (so re-creating a
tf.function in a loop counts too), keep the traces of the last ten calls; when
five of them traced, warn through the ``tensorflow`` logger (``tf.get_logger()``:
``WARNING:tensorflow:...``), at most twice per Python function.
"""

from __future__ import annotations

import weakref

from ..tf_logging import get_logger

THRESHOLD = 5
HISTORY = 10
MAX_WARNINGS = 2


class _Detector:
    def __init__(self):
        self.calls_per_trace: list[int] = []  # calls since each recent trace, oldest first
        self.calls = 0
        self.warnings = 0

    def traced(self, function_repr: str) -> None:
        self.calls += 1
        self.calls_per_trace.append(1)
        while self.calls_per_trace and self.calls - self.calls_per_trace[0] > HISTORY:
            self.calls -= self.calls_per_trace.pop(0)
        if self.warnings < MAX_WARNINGS and len(self.calls_per_trace) >= THRESHOLD:
            self.warnings += 1
            get_logger().warning(  # TensorFlow's words, so the output reads as TF's
                "%d out of the last %d calls to %s triggered tf.function retracing. Tracing is "
                "expensive and the excessive number of tracings could be due to (1) creating "
                "@tf.function repeatedly in a loop, (2) passing tensors with different shapes, "
                "(3) passing Python objects instead of tensors. For (1), please define your "
                "@tf.function outside of the loop. For (2), @tf.function has "
                "reduce_retracing=True option that can avoid unnecessary retracing. For (3), "
                "please refer to https://www.tensorflow.org/guide/function#controlling_retracing"
                " and https://www.tensorflow.org/api_docs/python/tf/function for  more details.",
                len(self.calls_per_trace), self.calls, function_repr)

    def not_traced(self) -> None:
        if not self.calls_per_trace:
            self.calls_per_trace = [0]
        self.calls_per_trace[-1] += 1
        self.calls += 1


_DETECTORS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_BY_ID: dict[int, _Detector] = {}


def detector(python_function) -> _Detector:
    try:
        d = _DETECTORS.get(python_function)
        if d is None:
            d = _DETECTORS[python_function] = _Detector()
    except TypeError:  # not weak-referenceable
        d = _BY_ID.setdefault(id(python_function), _Detector())
    return d
