"""``tf.keras.constraints``: MaxNorm, MinMaxNorm, NonNeg and UnitNorm (layer 10, models).

A constraint maps a weight to its projection (``constraint(w)``), as Keras 3 computes it:
norms over ``axis`` with 1e-7 added below the division.  Layers do not take them yet
(``Dense(kernel_constraint=...)`` is refused), so they are called by hand.
"""

from __future__ import annotations

from ..ops import math_ops, reduction_ops
from ..ops.convert import to_tensor

_EPSILON = 1e-7  # Keras's backend.epsilon()


def _norms(w, axis):
    return math_ops.sqrt(reduction_ops.reduce_sum(math_ops.square(w), axis=axis,
                                                  keepdims=True))


class Constraint:
    """The base: ``constraint(w)`` returns ``w`` itself."""

    def __call__(self, w):
        return w

    def get_config(self):
        return {}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class MaxNorm(Constraint):
    """Rescales each slice along ``axis`` whose norm passes ``max_value`` down to it."""

    def __init__(self, max_value=2, axis=0):
        self.max_value, self.axis = max_value, axis

    def __call__(self, w):
        w = to_tensor(w)
        norms = _norms(w, self.axis)
        desired = math_ops.clip_by_value(norms, 0.0, float(self.max_value))
        return w * (desired / (_EPSILON + norms))

    def get_config(self):
        return {"max_value": self.max_value, "axis": self.axis}


class MinMaxNorm(Constraint):
    """Moves each slice's norm toward [min_value, max_value] by ``rate`` (1: all the way)."""

    def __init__(self, min_value=0.0, max_value=1.0, rate=1.0, axis=0):
        self.min_value, self.max_value, self.rate, self.axis = min_value, max_value, rate, axis

    def __call__(self, w):
        w = to_tensor(w)
        norms = _norms(w, self.axis)
        desired = (self.rate * math_ops.clip_by_value(norms, float(self.min_value),
                                                      float(self.max_value))
                   + (1.0 - self.rate) * norms)
        return w * (desired / (_EPSILON + norms))

    def get_config(self):
        return {"min_value": self.min_value, "max_value": self.max_value, "rate": self.rate,
                "axis": self.axis}


class NonNeg(Constraint):
    """Zeroes the negative values."""

    def __call__(self, w):
        w = to_tensor(w)
        return math_ops.maximum(w, math_ops.cast(0.0, w.dtype))


class UnitNorm(Constraint):
    """Divides each slice along ``axis`` by its norm."""

    def __init__(self, axis=0):
        self.axis = axis

    def __call__(self, w):
        w = to_tensor(w)
        return w / (_EPSILON + _norms(w, self.axis))

    def get_config(self):
        return {"axis": self.axis}


# Keras 3's lower-case names are the classes themselves
max_norm, min_max_norm, non_neg, unit_norm = MaxNorm, MinMaxNorm, NonNeg, UnitNorm
_BY_NAME = {"max_norm": MaxNorm, "min_max_norm": MinMaxNorm, "non_neg": NonNeg,
            "unit_norm": UnitNorm, "MaxNorm": MaxNorm, "MinMaxNorm": MinMaxNorm,
            "NonNeg": NonNeg, "UnitNorm": UnitNorm, "Constraint": Constraint}


def serialize(constraint):
    return {"module": "keras.constraints", "class_name": type(constraint).__name__,
            "config": constraint.get_config(), "registered_name": None}


def deserialize(config, custom_objects=None):
    name = config["class_name"]
    cls = (custom_objects or {}).get(name) or _BY_NAME.get(name)
    if cls is None:
        raise ValueError(f"Could not interpret constraint identifier: {config}")
    return cls.from_config(config.get("config", {}))


def get(identifier):
    """None, a constraint, a callable, a name (``"non_neg"``) or a serialized dict."""
    if identifier is None or isinstance(identifier, Constraint):
        return identifier
    if isinstance(identifier, dict):
        return deserialize(identifier)
    if isinstance(identifier, str) and identifier in _BY_NAME:
        return _BY_NAME[identifier]()
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret constraint identifier: {identifier}")




def __getattr__(name):
    from .tf_api_names import missing
    raise missing("constraints", name)
