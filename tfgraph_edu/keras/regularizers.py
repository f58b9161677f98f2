"""``tf.keras.regularizers``: L1, L2 and L1L2 penalties on a weight (layer 10, models).

A layer keeps each weight's regularizer; ``layer.losses`` (and ``model.losses``) are the
penalties of its trainable weights computed now, and ``fit``/``evaluate`` add their sum to
the loss, as Keras 3 does.
"""

from __future__ import annotations

from ..ops import math_ops, reduction_ops


class Regularizer:
    """The base: ``regularizer(weight)`` is a scalar penalty."""

    def __call__(self, x):
        return 0.0

    def get_config(self):
        return {}


def _checked(name, value):
    value = 0.0 if value is None else value
    if not isinstance(value, (int, float)) or value < 0:
        raise ValueError(f"Invalid value for argument {name}: expected a non-negative "
                         f"float.Received: {name}={value}")  # sic: Keras 3's spacing
    return float(value)


class L1(Regularizer):
    """``l1 * sum(abs(x))``."""

    def __init__(self, l1=0.01):
        self.l1 = _checked("l1", l1)

    def __call__(self, x):
        return self.l1 * reduction_ops.reduce_sum(math_ops.abs(x))

    def get_config(self):
        return {"l1": self.l1}


class L2(Regularizer):
    """``l2 * sum(square(x))``."""

    def __init__(self, l2=0.01):
        self.l2 = _checked("l2", l2)

    def __call__(self, x):
        return self.l2 * reduction_ops.reduce_sum(math_ops.square(x))

    def get_config(self):
        return {"l2": self.l2}


class L1L2(Regularizer):
    """``l1 * sum(abs(x)) + l2 * sum(square(x))`` (both 0 by default)."""

    def __init__(self, l1=0.0, l2=0.0):
        self.l1, self.l2 = _checked("l1", l1), _checked("l2", l2)

    def __call__(self, x):
        penalty = 0.0
        if self.l1:
            penalty = penalty + self.l1 * reduction_ops.reduce_sum(math_ops.abs(x))
        if self.l2:
            penalty = penalty + self.l2 * reduction_ops.reduce_sum(math_ops.square(x))
        return penalty

    def get_config(self):
        return {"l1": self.l1, "l2": self.l2}


l1, l2, l1_l2 = L1, L2, L1L2

_BY_NAME = {"l1": L1, "l2": L2, "l1l2": L1L2, "L1": L1, "L2": L2, "L1L2": L1L2}  # as Keras 3


def get(identifier):
    """A regularizer from a name (``"l2"``), a config dict, or itself; None stays None."""
    if identifier is None or isinstance(identifier, Regularizer):
        return identifier
    if isinstance(identifier, dict) and identifier.get("class_name") in _BY_NAME:
        return _BY_NAME[identifier["class_name"]](**identifier.get("config", {}))
    if isinstance(identifier, str) and identifier in _BY_NAME:
        return _BY_NAME[identifier]()
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret regularizer identifier: {identifier}")


def __getattr__(name):
    from .tf_api_names import missing
    raise missing("regularizers", name)
