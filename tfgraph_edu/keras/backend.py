"""``tf.keras.backend``: clear_session resets the layer-name counters; the legacy math
helpers course notebooks call (``K.square``, ``K.mean``...: TF's ops under other names,
as TF 2.21's ``tf.keras.backend`` keeps them), ``epsilon`` and ``floatx`` (layer 10)."""

from __future__ import annotations


def clear_session():
    """Forget the names handed out so far: the next Dense is ``dense`` again."""
    from . import functional, variables
    from .layers import Layer
    Layer._counts.clear()
    functional._COUNTS.clear()
    variables._AUTO_NAMES.clear()


def square(x):
    from ..ops import math_ops
    return math_ops.square(x)


def sqrt(x):
    from ..ops import math_ops
    return math_ops.sqrt(x)


def exp(x):
    from ..ops import math_ops
    return math_ops.exp(x)


def abs(x):  # noqa: A001 - Keras's name
    from ..ops import math_ops
    return math_ops.abs(x)


def transpose(x):
    from ..ops import shape_ops
    return shape_ops.transpose(x)


def dot(x, y):
    """The matrix product of two matrices (Keras's ``dot`` of higher ranks, which reshapes
    as ``np.dot`` does, is not implemented)."""
    from ..ops import math_ops
    from ..ops.convert import to_tensor
    x, y = to_tensor(x), to_tensor(y)
    if x.shape.rank != 2 or y.shape.rank != 2:
        raise NotImplementedError("tfgraph_edu's tf.keras.backend.dot takes two matrices only "
                                  "(rank 2); use tf.tensordot or tf.matmul for other ranks.")
    return math_ops.matmul(x, y)


def mean(x, axis=None, keepdims=False):
    from ..ops import reduction_ops
    return reduction_ops.reduce_mean(x, axis=axis, keepdims=keepdims)


def sum(x, axis=None, keepdims=False):  # noqa: A001 - Keras's name
    from ..ops import reduction_ops
    return reduction_ops.reduce_sum(x, axis=axis, keepdims=keepdims)


def max(x, axis=None, keepdims=False):  # noqa: A001 - Keras's name
    from ..ops import reduction_ops
    return reduction_ops.reduce_max(x, axis=axis, keepdims=keepdims)


def min(x, axis=None, keepdims=False):  # noqa: A001 - Keras's name
    from ..ops import reduction_ops
    return reduction_ops.reduce_min(x, axis=axis, keepdims=keepdims)


def epsilon():
    """Keras's fuzz factor, 1e-07."""
    return 1e-07


def floatx():
    return "float32"


def __getattr__(name):
    from .tf_api_names import missing
    raise missing("backend", name)
