"""``tf.bitwise``: bit operations on integer tensors (re-exports)."""

from .._missing import module_getattr as _module_getattr
from ..ops.bitwise_ops import (  # noqa: F401
    bitwise_and,
    bitwise_or,
    bitwise_xor,
    invert,
    left_shift,
    right_shift,
)

__getattr__ = _module_getattr("bitwise", __name__)
