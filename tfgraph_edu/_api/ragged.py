"""``tf.ragged`` (re-exports)."""

from ..ops.ragged_ops import RaggedTensor, constant  # noqa: F401
