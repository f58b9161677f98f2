"""``tf.sparse`` (re-exports)."""

from .._missing import module_getattr as _module_getattr
from ..ops.ragged_ops import SparseTensor, to_dense  # noqa: F401

__getattr__ = _module_getattr("sparse", __name__)
