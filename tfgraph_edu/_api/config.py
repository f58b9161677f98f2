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


# -- tf.config's device calls on a machine whose one device is the CPU (as TF 2.21 answers them
# on a CPU-only machine: memory growth is a GPU setting, logical devices are fixed once the
# runtime has started, which here it always has)
def _physical_name(device) -> str:
    return device.name if hasattr(device, "name") else str(device)


def set_memory_growth(device, enable):
    del enable
    if "GPU" not in _physical_name(device).upper():
        raise ValueError("Cannot set memory growth on non-GPU and non-Pluggable devices")
    raise ValueError(f"Unrecognized device: {device!r}")


def get_memory_growth(device):
    raise KeyError(device)  # as TF: no memory-growth setting is recorded for a CPU


def get_memory_info(device):
    if "CPU" not in str(device).upper():
        raise ValueError(f"No matching devices found for '{device}'")
    return {"current": 0, "peak": 0}


def reset_memory_stats(device):
    get_memory_info(device)


def get_device_details(device):
    del device
    return {}


def get_visible_devices(device_type=None):
    return list_physical_devices(device_type)


def set_visible_devices(devices, device_type=None):
    """Accepted when the CPU stays visible (hiding GPUs changes nothing here)."""
    if not isinstance(devices, (list, tuple)):
        devices = [devices]
    if (device_type is None or str(device_type).upper() == "CPU") and not any(
            "CPU" in _physical_name(d).upper() for d in devices):
        raise NotImplementedError("tf.config.set_visible_devices without the CPU: tfgraph_edu "
                                  "runs everything on the CPU, which cannot be hidden.")


class LogicalDeviceConfiguration:
    """A logical device to carve out of a physical one (``memory_limit`` in MB)."""

    def __init__(self, memory_limit=None, experimental_priority=None,
                 experimental_device_ordinal=None):
        self.memory_limit = memory_limit
        self.experimental_priority = experimental_priority
        self.experimental_device_ordinal = experimental_device_ordinal

    def __repr__(self):
        return (f"LogicalDeviceConfiguration(memory_limit={self.memory_limit}, "
                f"experimental_priority={self.experimental_priority}, "
                f"experimental_device_ordinal={self.experimental_device_ordinal})")


def set_logical_device_configuration(device, logical_devices):
    del device, logical_devices
    raise RuntimeError("Virtual devices cannot be modified after being initialized")


def get_logical_device_configuration(device):
    del device
    return None


_TF32 = [True]


def enable_tensor_float_32_execution(enabled):
    """Recorded only: TensorFloat-32 is a GPU matmul mode; the CPU computes in float32."""
    _TF32[0] = bool(enabled)


def tensor_float_32_execution_enabled():
    return _TF32[0]


experimental = _Namespace(
    "config.experimental",
    enable_tensor_float_32_execution=enable_tensor_float_32_execution,
    tensor_float_32_execution_enabled=tensor_float_32_execution_enabled,
    set_memory_growth=set_memory_growth, get_memory_growth=get_memory_growth,
    get_memory_info=get_memory_info, reset_memory_stats=reset_memory_stats,
    get_device_details=get_device_details, get_visible_devices=get_visible_devices,
    set_visible_devices=set_visible_devices, list_physical_devices=list_physical_devices,
    list_logical_devices=list_logical_devices,
    VirtualDeviceConfiguration=LogicalDeviceConfiguration,
    set_virtual_device_configuration=set_logical_device_configuration,
    get_virtual_device_configuration=get_logical_device_configuration)


__getattr__ = _module_getattr("config", __name__)
