"""``tf.io`` (re-exports)."""

from .._missing import module_getattr as _module_getattr
from ..ops.string_ops import decode_raw  # noqa: F401
from ..train.example import FixedLenFeature, RaggedFeature, parse_example  # noqa: F401

__getattr__ = _module_getattr("io", __name__)
