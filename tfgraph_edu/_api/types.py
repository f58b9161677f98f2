"""``tf.types.experimental``: the custom tracing protocol of the tf.function guide.

A class defines ``__tf_tracing_type__(self, context)`` returning a :class:`TraceType`;
tf.function compares those to decide whether to retrace.
"""

from __future__ import annotations

import abc

from .._missing import Namespace as _Namespace
from .._missing import module_getattr as _module_getattr


class TraceType(abc.ABC):
    """What tf.function keys a trace on for one argument (subclass it for your own types)."""

    @abc.abstractmethod
    def is_subtype_of(self, other) -> bool:
        """Whether every value of this type is also a value of ``other``."""

    @abc.abstractmethod
    def most_specific_common_supertype(self, others):
        """The narrowest type covering self and ``others``, or None."""

    @abc.abstractmethod
    def placeholder_value(self, placeholder_context):
        """The value the Python function sees, while it is traced, for an argument of this
        type (abstract in TensorFlow 2.21 too: a subclass without it cannot be created)."""

    @abc.abstractmethod
    def __eq__(self, other) -> bool: ...

    @abc.abstractmethod
    def __hash__(self) -> int: ...


experimental = _Namespace("types.experimental", TraceType=TraceType)


__getattr__ = _module_getattr("types", __name__)
