"""``tf.image`` (re-exports)."""

from .._missing import module_getattr as _module_getattr
from ..ops.image_ops import adjust_contrast  # noqa: F401

__getattr__ = _module_getattr("image", __name__)
