"""``tf.ragged`` (re-exports)."""

from .._missing import module_getattr as _module_getattr
from ..ops.ragged_functions import (  # noqa: F401
    boolean_mask,
    map_flat_values,
    range,
    row_splits_to_segment_ids,
    stack,
)
from ..ops.ragged_ops import RaggedTensor, RaggedTensorSpec, constant  # noqa: F401

__getattr__ = _module_getattr("ragged", __name__)
