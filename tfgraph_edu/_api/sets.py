"""``tf.sets``: set operations along the last axis (re-exports)."""

from .._missing import module_getattr as _module_getattr
from ..ops.set_ops import difference, intersection, size, union  # noqa: F401

__getattr__ = _module_getattr("sets", __name__)
