"""The ``tf.debugging`` namespace (re-exports only)."""

from .._missing import module_getattr as _module_getattr
from .._traceback import (  # noqa: F401
    disable_traceback_filtering,
    enable_traceback_filtering,
    is_traceback_filtering_enabled,
)
from ..eager.devices import set_log_device_placement  # noqa: F401
from ..ops.debug_ops import disable_check_numerics, enable_check_numerics  # noqa: F401

__getattr__ = _module_getattr("debugging", __name__)
