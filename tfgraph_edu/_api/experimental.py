"""``tf.experimental``: its NumPy API (``numpy_api.py``), extension types
(``ops/extension_type.py``) and the dispatch decorators for them (``ops/dispatch.py``), the
ragged shapes (``ops/ragged_shape.py``)."""

from .._missing import Namespace as _Namespace
from .._missing import module_getattr as _module_getattr
from ..ops.dispatch import (  # noqa: F401
    dispatch_for_api,
    dispatch_for_binary_elementwise_apis,
    dispatch_for_unary_elementwise_apis,
    unregister_dispatch_for,
)
from ..ops.extension_type import (  # noqa: F401
    BatchableExtensionType,
    BatchableExtensionTypeSpec,
    ExtensionType,
    ExtensionTypeSpec,
    as_dict,
)
from ..ops.ragged_shape import DynamicRaggedShape, RowPartition  # noqa: F401
from . import numpy_api as numpy  # noqa: F401

extension_type = _Namespace("experimental.extension_type", as_dict=as_dict)
del as_dict

__getattr__ = _module_getattr("experimental", __name__)
