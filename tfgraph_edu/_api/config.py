"""``tf.config``: run_functions_eagerly, devices, and ``tf.config.optimizer`` (re-exports)."""

from .._missing import Namespace as _Namespace
from .._missing import module_getattr as _module_getattr
from ..eager.context import (  # noqa: F401
                            experimental_run_functions_eagerly,  # noqa: F401
                            functions_run_eagerly,
                            run_functions_eagerly,
)
from ..eager.devices import list_logical_devices, list_physical_devices  # noqa: F401
from ..optimize.options import get_experimental_options, set_experimental_options

optimizer = _Namespace("config.optimizer", set_experimental_options=set_experimental_options,
                       get_experimental_options=get_experimental_options)


__getattr__ = _module_getattr("config", __name__)
