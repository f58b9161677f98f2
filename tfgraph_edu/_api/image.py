"""``tf.image`` (re-exports)."""

from ..ops.image_ops import adjust_contrast  # noqa: F401
