"""``tf.version``: the TensorFlow version whose API tfgraph_edu follows (see the README)."""

from .._missing import TF_VERSION
from .._missing import module_getattr as _module_getattr
from ..graph.function_defs import PRODUCER as _PRODUCER

VERSION = TF_VERSION
# The other constants of TF 2.21.0's own build, as real TensorFlow prints them (a notebook
# may print them; tfgraph_edu has no build of TensorFlow behind them).
GIT_VERSION = "v2.21.0-rc1-5-ga481b10260d"
COMPILER_VERSION = "Clang 18.1.8"
GRAPH_DEF_VERSION = _PRODUCER
GRAPH_DEF_VERSION_MIN_CONSUMER = 0
GRAPH_DEF_VERSION_MIN_PRODUCER = 0

__getattr__ = _module_getattr("version", __name__)
