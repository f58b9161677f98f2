"""``tf.keras.losses``: MeanSquaredError and SparseCategoricalCrossentropy (layer 10)."""

from __future__ import annotations

from ..ops import array_ops, math_ops, reduction_ops
from ..ops.convert import to_tensor


class Loss:
    name = "loss"

    def __call__(self, y_true, y_pred):
        return self.call(y_true, y_pred)


class MeanSquaredError(Loss):
    name = "mean_squared_error"

    def call(self, y_true, y_pred):
        y_pred = to_tensor(y_pred)
        y_true = math_ops.cast(to_tensor(y_true), y_pred.dtype)
        return reduction_ops.reduce_mean(math_ops.square(y_pred - y_true))


class SparseCategoricalCrossentropy(Loss):
    """Integer labels against logits (``from_logits=True``) or probabilities."""

    name = "sparse_categorical_crossentropy"

    def __init__(self, from_logits=False):
        self.from_logits = from_logits

    def call(self, y_true, y_pred):
        y_pred = to_tensor(y_pred)
        if self.from_logits:
            log_probs = math_ops.log_softmax(y_pred)
        else:
            log_probs = math_ops.log(math_ops.clip_by_value(y_pred, 1e-7, 1.0))
        labels = array_ops.reshape(math_ops.cast(to_tensor(y_true), "int32"), [-1])
        depth = y_pred.shape.dims[-1]
        picked = reduction_ops.reduce_sum(
            array_ops.one_hot(labels, depth, dtype=y_pred.dtype) * log_probs, axis=-1)
        return -reduction_ops.reduce_mean(picked)


_BY_NAME = {"mse": MeanSquaredError, "mean_squared_error": MeanSquaredError,
            "sparse_categorical_crossentropy": SparseCategoricalCrossentropy}


def get(loss):
    if isinstance(loss, str):
        try:
            return _BY_NAME[loss]()
        except KeyError:
            raise ValueError(f"Unknown loss {loss!r}") from None
    return loss
