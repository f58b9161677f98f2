"""``tf.nn``: activations and softmax (re-exports)."""

from ..ops.math_ops import log_softmax, relu, sigmoid, softmax, tanh  # noqa: F401
