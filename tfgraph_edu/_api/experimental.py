"""``tf.experimental``: its NumPy API (``numpy_api.py``)."""

from .._missing import module_getattr as _module_getattr
from . import numpy_api as numpy  # noqa: F401

__getattr__ = _module_getattr("experimental", __name__)
