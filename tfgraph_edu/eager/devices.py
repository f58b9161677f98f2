"""Devices: there is one, the CPU.  ``tf.device`` is accepted and changes nothing (layer 4).

``tf.config.list_physical_devices('GPU')`` is empty, so the guides' "is TensorFlow using
the GPU?" cells take their CPU branch, as on a machine without one.
"""

from __future__ import annotations

from collections import namedtuple
from contextlib import contextmanager

PhysicalDevice = namedtuple("PhysicalDevice", ["name", "device_type"])
LogicalDevice = namedtuple("LogicalDevice", ["name", "device_type"])

_PHYSICAL = (PhysicalDevice(name="/physical_device:CPU:0", device_type="CPU"),)
_LOGICAL = (LogicalDevice(name="/device:CPU:0", device_type="CPU"),)
_KNOWN_TYPES = ("CPU", "GPU", "TPU")


def _check_type(device_type):
    if device_type is not None and device_type.upper() not in _KNOWN_TYPES + ("XLA_CPU",):
        return False
    return True


def list_physical_devices(device_type=None):
    """The machine's devices of ``device_type`` ('CPU', 'GPU', ...): only the CPU here."""
    if not _check_type(device_type):
        return []
    return [d for d in _PHYSICAL if device_type is None or d.device_type == device_type.upper()]


def list_logical_devices(device_type=None):
    """The logical devices of ``device_type``: only the CPU here."""
    if not _check_type(device_type):
        return []
    return [d for d in _LOGICAL if device_type is None or d.device_type == device_type.upper()]


@contextmanager
def device(device_name):
    """``tf.device``: places ops on a device in TensorFlow; here every op runs on the CPU.

    Deliberate departure: a GPU name is accepted and the ops still run on the CPU (as
    TensorFlow's soft placement does when no GPU is present)."""
    if device_name is not None and not isinstance(device_name, str) and not callable(device_name):
        raise ValueError(f"Invalid device specification: {device_name!r}")
    yield


_LOG_PLACEMENT = [False]


def set_log_device_placement(enabled):
    """Recorded only: TensorFlow logs each op's device to the C++ log, which the notebook
    does not show; every op here runs on /device:CPU:0."""
    _LOG_PLACEMENT[0] = bool(enabled)
