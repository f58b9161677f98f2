"""Layer 7: tf.function, its trace keys, concrete functions and the event log."""

from .concrete import ConcreteFunction  # noqa: F401
from .polymorphic import Function, function  # noqa: F401
