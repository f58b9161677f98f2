"""``tf.keras.losses``: MeanSquaredError, SparseCategoricalCrossentropy,
CategoricalCrossentropy and BinaryCrossentropy, and their functions (layer 10)."""

from __future__ import annotations

from .. import dtypes as _dt
from ..eager.context import name_scope
from ..ops import creation_ops, math_ops, reduction_ops, shape_ops
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


def _same_rank(a, b):
    """Keras's squeeze_or_expand_to_same_rank: when the ranks differ by one and the longer
    one ends in a size-1 axis, that axis is squeezed (or, against a rank-1 tensor, the
    rank-1 tensor is expanded)."""
    ra, rb = a.shape.rank, b.shape.rank
    if ra is None or rb is None or ra == rb:
        return a, b
    if ra == rb + 1 and a.shape.dims[-1] == 1:
        return (a, shape_ops.expand_dims(b, -1)) if rb == 1 else (
            shape_ops.squeeze(a, axis=[-1]), b)
    if rb == ra + 1 and b.shape.dims[-1] == 1:
        return (shape_ops.expand_dims(a, -1), b) if ra == 1 else (
            a, shape_ops.squeeze(b, axis=[-1]))
    return a, b


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


_EPSILON = 1e-7  # Keras's backend.epsilon()


def _same_shape(y_true, y_pred):
    """Keras 3's check before a binary crossentropy: same rank, and no two known sizes
    that differ (ValueError otherwise)."""
    a, b = y_true.shape, y_pred.shape
    if a.rank is not None and b.rank is not None:
        if a.rank != b.rank:
            raise ValueError("Arguments `target` and `output` must have the same rank (ndim). "
                             f"Received: target.shape={a}, output.shape={b}")
        for x, y in zip(a.dims, b.dims):
            if x is not None and y is not None and x != y:
                raise ValueError("Arguments `target` and `output` must have the same shape. "
                                 f"Received: target.shape={a}, output.shape={b}")


def binary_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0, axis=-1):
    """Per-example binary crossentropy, the mean over ``axis`` (Keras 3): probabilities are
    clipped to [1e-7, 1 - 1e-7]; logits go through the stable sigmoid cross entropy."""
    from ..ops import nn_ops
    y_pred = to_tensor(y_pred)
    y_true = math_ops.cast(to_tensor(y_true), y_pred.dtype)
    if label_smoothing:
        y_true = y_true * (1.0 - label_smoothing) + 0.5 * label_smoothing
    _same_shape(y_true, y_pred)
    if from_logits:
        per_value = nn_ops.sigmoid_cross_entropy_with_logits(labels=y_true, logits=y_pred)
    else:
        p = math_ops.clip_by_value(y_pred, _EPSILON, 1.0 - _EPSILON)
        per_value = -(y_true * math_ops.log(p) + (1.0 - y_true) * math_ops.log(1.0 - p))
    return reduction_ops.reduce_mean(per_value, axis=axis)


def categorical_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0,
                             axis=-1):
    """Per-example categorical crossentropy over ``axis`` (Keras 3): probabilities rescaled
    to sum to 1 and clipped to [1e-7, 1 - 1e-7], or logits through log-softmax."""
    if axis != -1:
        raise NotImplementedError("tfgraph_edu's categorical_crossentropy takes axis=-1 only "
                                  "yet.")
    y_pred = to_tensor(y_pred)
    y_true = math_ops.cast(to_tensor(y_true), y_pred.dtype)
    if label_smoothing:
        n = math_ops.cast(shape_ops.shape(y_true)[-1], y_pred.dtype)
        y_true = y_true * (1.0 - label_smoothing) + label_smoothing / n
    if from_logits:
        log_probs = math_ops.log_softmax(y_pred)
    else:
        probs = y_pred / reduction_ops.reduce_sum(y_pred, axis=-1, keepdims=True)
        log_probs = math_ops.log(math_ops.clip_by_value(probs, _EPSILON, 1.0 - _EPSILON))
    return -reduction_ops.reduce_sum(y_true * log_probs, axis=-1)


class BinaryCrossentropy(Loss):
    """0/1 (or soft) labels against probabilities (clipped to [1e-7, 1 - 1e-7], as Keras 3
    does) or logits (``from_logits=True``): the per-example mean over the last axis, then the
    mean over the batch.  As Keras 3 in a graph, probabilities made by a ``Sigmoid`` op are
    read as its logits (Keras 3 does so eagerly too; eagerly here the clipped probabilities
    are used, which differs only where a probability is within 1e-7 of 0 or 1)."""

    name = "binary_crossentropy"

    def __init__(self, from_logits=False, label_smoothing=0.0, axis=-1,
                 reduction="sum_over_batch_size", name="binary_crossentropy", dtype=None):
        if reduction != "sum_over_batch_size" or dtype is not None:
            raise NotImplementedError("tfgraph_edu's BinaryCrossentropy takes the default "
                                      "reduction and dtype only yet.")
        self.from_logits, self.label_smoothing = from_logits, float(label_smoothing)
        self.axis, self.name = axis, name

    def call(self, y_true, y_pred):
        y_true, y_pred = _match_rank(y_true, y_pred)
        from_logits = self.from_logits
        if not from_logits and getattr(getattr(y_pred, "op", None), "type", None) == "Sigmoid":
            y_pred, from_logits = y_pred.op.inputs[0], True  # Keras 3 reads the logits
        return reduction_ops.reduce_mean(binary_crossentropy(
            y_true, y_pred, from_logits, self.label_smoothing, self.axis))


_BY_NAME = {"mse": MeanSquaredError, "binary_crossentropy": BinaryCrossentropy,
            "mean_squared_error": MeanSquaredError,
            "mae": lambda: _FunctionLoss(_mean_absolute_error),
            "mean_absolute_error": lambda: _FunctionLoss(_mean_absolute_error),
            "sparse_categorical_crossentropy": SparseCategoricalCrossentropy,
            "categorical_crossentropy": CategoricalCrossentropy}


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
        # Keras 3's LossFunctionWrapper matches the ranks first: labels (n,) against
        # predictions (n, 1) are expanded
        y_true, y_pred = _same_rank(to_tensor(y_true), to_tensor(y_pred))
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
