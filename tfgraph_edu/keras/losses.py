"""``tf.keras.losses``: MeanSquaredError, SparseCategoricalCrossentropy,
CategoricalCrossentropy and BinaryCrossentropy (layer 10)."""

from __future__ import annotations

from .. import dtypes as _dt
from ..eager.context import name_scope
from ..ops import creation_ops, math_extra_ops, math_ops, reduction_ops, shape_ops
from ..ops.convert import to_tensor


def _match_rank(y_true, y_pred):
    """Keras's squeeze_or_expand_to_same_rank: labels of shape (n,) against predictions
    of shape (n, 1) are expanded, so the difference does not broadcast to (n, n)."""
    y_pred = to_tensor(y_pred)
    y_true = math_ops.cast(to_tensor(y_true), y_pred.dtype)
    rt, rp = y_true.shape.rank, y_pred.shape.rank
    if rt is not None and rp is not None:
        if rp == rt + 1 and y_pred.shape.dims[-1] == 1:
            y_true = shape_ops.expand_dims(y_true, -1)
        elif rt == rp + 1 and y_true.shape.dims[-1] == 1:
            y_true = shape_ops.squeeze(y_true, axis=[-1])
    return y_true, y_pred


class Loss:
    name = "loss"

    def __call__(self, y_true, y_pred):
        # Keras 3 converts both to the loss's dtype (float32) first: NumPy float64 in gives
        # a float32 loss; in a graph, the loss's ops sit in a scope of its name
        with name_scope(self.name):
            return self.call(_as_float32(y_true), _as_float32(y_pred))


def _as_float32(x):
    x = to_tensor(x)
    return x if x.dtype is _dt.float32 else math_ops.cast(x, _dt.float32)


class MeanSquaredError(Loss):
    name = "mean_squared_error"

    def call(self, y_true, y_pred):
        y_true, y_pred = _match_rank(y_true, y_pred)
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
        labels = shape_ops.reshape(math_ops.cast(to_tensor(y_true), "int32"), [-1])
        depth = y_pred.shape.dims[-1]
        picked = reduction_ops.reduce_sum(
            creation_ops.one_hot(labels, depth, dtype=y_pred.dtype) * log_probs, axis=-1)
        return -reduction_ops.reduce_mean(picked)


class CategoricalCrossentropy(Loss):
    """One-hot (or soft) labels against logits (``from_logits=True``) or probabilities
    (rescaled to sum to 1 and clipped to [1e-7, 1 - 1e-7], as Keras 3 does); mean over the
    batch."""

    name = "categorical_crossentropy"

    def __init__(self, from_logits=False, label_smoothing=0.0, axis=-1, **kwargs):
        if kwargs or axis != -1:
            raise NotImplementedError("tfgraph_edu's CategoricalCrossentropy takes from_logits "
                                      "and label_smoothing only (axis=-1) yet.")
        self.from_logits, self.label_smoothing = from_logits, float(label_smoothing)

    def call(self, y_true, y_pred):
        y_pred = to_tensor(y_pred)
        y_true = math_ops.cast(to_tensor(y_true), y_pred.dtype)
        if self.label_smoothing:
            n = math_ops.cast(shape_ops.shape(y_true)[-1], y_pred.dtype)
            y_true = y_true * (1.0 - self.label_smoothing) + self.label_smoothing / n
        if self.from_logits:
            log_probs = math_ops.log_softmax(y_pred)
        else:
            probs = y_pred / reduction_ops.reduce_sum(y_pred, axis=-1, keepdims=True)
            log_probs = math_ops.log(math_ops.clip_by_value(probs, 1e-7, 1.0 - 1e-7))
        return -reduction_ops.reduce_mean(reduction_ops.reduce_sum(y_true * log_probs,
                                                                   axis=-1))


class BinaryCrossentropy(Loss):
    """0/1 (or soft) labels against probabilities (clipped to [1e-7, 1 - 1e-7], as Keras 3
    does) or logits (``from_logits=True``); mean over the last axis, then over the batch.
    As Keras 3 in a graph, probabilities made by a ``Sigmoid`` op are read as its logits
    (Keras 3 does so eagerly too; eagerly here the clipped probabilities are used, which
    differs only where a probability is within 1e-7 of 0 or 1)."""

    name = "binary_crossentropy"

    def __init__(self, from_logits=False, label_smoothing=0.0, axis=-1, **kwargs):
        if kwargs or axis != -1:
            raise NotImplementedError("tfgraph_edu's BinaryCrossentropy takes from_logits "
                                      "and label_smoothing only (axis=-1) yet.")
        self.from_logits, self.label_smoothing = from_logits, float(label_smoothing)

    def call(self, y_true, y_pred):
        y_true, y_pred = _match_rank(y_true, y_pred)
        if self.label_smoothing:
            y_true = y_true * (1.0 - self.label_smoothing) + 0.5 * self.label_smoothing
        logits = None
        if self.from_logits:
            logits = y_pred
        elif getattr(getattr(y_pred, "op", None), "type", None) == "Sigmoid":
            logits = y_pred.op.inputs[0]
        if logits is not None:  # TF's sigmoid_cross_entropy_with_logits, in its stable form
            per = (math_ops.maximum(logits, 0.0) - logits * y_true
                   + math_extra_ops.log1p(math_ops.exp(-math_ops.abs(logits))))
        else:
            p = math_ops.clip_by_value(y_pred, 1e-7, 1.0 - 1e-7)
            per = -(y_true * math_ops.log(p) + (1.0 - y_true) * math_ops.log(1.0 - p))
        return reduction_ops.reduce_mean(reduction_ops.reduce_mean(per, axis=-1))


_BY_NAME = {"mse": MeanSquaredError, "mean_squared_error": MeanSquaredError,
            "mae": lambda: _FunctionLoss(_mean_absolute_error),
            "mean_absolute_error": lambda: _FunctionLoss(_mean_absolute_error),
            "sparse_categorical_crossentropy": SparseCategoricalCrossentropy,
            "categorical_crossentropy": CategoricalCrossentropy,
            "binary_crossentropy": BinaryCrossentropy}


def _mean_squared_error(y_true, y_pred):
    """Per-example mean of squared differences over the last axis (Keras's ``MSE``)."""
    y_true, y_pred = _match_rank(y_true, y_pred)
    return reduction_ops.reduce_mean(math_ops.square(y_pred - y_true), axis=-1)


_mean_squared_error.__name__ = "mean_squared_error"  # as Keras 3 names tf.keras.losses.mse
MSE = mse = _mean_squared_error


def _mean_absolute_error(y_true, y_pred):
    y_true, y_pred = _match_rank(y_true, y_pred)
    return reduction_ops.reduce_mean(math_ops.abs(y_pred - y_true), axis=-1)


_mean_absolute_error.__name__ = "mean_absolute_error"
MAE = mae = _mean_absolute_error

# Keras 2 names that TF 2.21's Keras 3 no longer has (``hasattr`` is False there too)
_REMOVED = {"mean_squared_error": "tf.keras.losses.mse or tf.keras.losses.MeanSquaredError()",
            "mean_absolute_error": "tf.keras.losses.mae"}


def __getattr__(name):
    if name in _REMOVED:
        raise AttributeError(f"module 'tf.keras.losses' has no attribute '{name}': Keras 3 (TF "
                             f"2.21) removed it; use {_REMOVED[name]}.")
    from .tf_api_names import missing
    raise missing("losses", name)


def sparse_categorical_crossentropy(y_true, y_pred, from_logits=False):
    y_pred = to_tensor(y_pred)
    labels = math_ops.cast(to_tensor(y_true), "int32")
    if from_logits:
        log_probs = math_ops.log_softmax(y_pred)
    else:
        log_probs = math_ops.log(math_ops.clip_by_value(y_pred, 1e-7, 1.0))
    depth = y_pred.shape.dims[-1]
    return -reduction_ops.reduce_sum(creation_ops.one_hot(labels, depth, dtype=y_pred.dtype)
                                     * log_probs, axis=-1)


class _FunctionLoss(Loss):
    """A per-example loss function, averaged over the batch as Keras does in compile."""

    def __init__(self, fn):
        self.fn = fn
        self.name = getattr(fn, "__name__", "loss")

    def call(self, y_true, y_pred):
        return reduction_ops.reduce_mean(self.fn(y_true, y_pred))


def get(loss):
    if isinstance(loss, str):
        try:
            return _BY_NAME[loss]()
        except KeyError:
            raise ValueError(f"Unknown loss {loss!r}") from None
    if isinstance(loss, Loss) or loss is None:
        return loss
    return _FunctionLoss(loss)
