"""``tf.sparse`` (re-exports)."""

from ..ops.ragged_ops import SparseTensor, to_dense  # noqa: F401
