"""``tf.io`` (re-exports)."""

from ..ops.string_ops import decode_raw  # noqa: F401
