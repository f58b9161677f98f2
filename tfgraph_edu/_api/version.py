"""``tf.version``: the TensorFlow version whose API tfgraph_edu follows (see the README)."""

from .._missing import TF_VERSION
from .._missing import module_getattr as _module_getattr

VERSION = TF_VERSION

__getattr__ = _module_getattr("version", __name__)
