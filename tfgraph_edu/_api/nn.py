"""``tf.nn``: activations, softmax, cross-entropies, convolution and pooling (re-exports)."""

from .._missing import module_getattr as _module_getattr
from ..ops.math_extra_ops import l2_loss  # noqa: F401
from ..ops.math_ops import log_softmax, relu, sigmoid, softmax, tanh  # noqa: F401
from ..ops.nn_ops import (  # noqa: F401
    bias_add,
    conv2d,
    elu,
    embedding_lookup,
    max_pool,
    max_pool2d,
    sigmoid_cross_entropy_with_logits,
    softmax_cross_entropy_with_logits,
    softplus,
    sparse_softmax_cross_entropy_with_logits,
)
from ..ops.sort_ops import top_k  # noqa: F401

__getattr__ = _module_getattr("nn", __name__)
