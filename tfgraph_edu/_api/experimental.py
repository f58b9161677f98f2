"""``tf.experimental``: the ragged shapes (``ops/ragged_shape.py``)."""

from .._missing import module_getattr as _module_getattr
from ..ops.ragged_shape import DynamicRaggedShape, RowPartition  # noqa: F401

__getattr__ = _module_getattr("experimental", __name__)
