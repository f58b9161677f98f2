"""``tf.keras.metrics``: the ``Metric`` base (``add_weight``), Mean, the accuracies
(binary, categorical, sparse categorical; ``"accuracy"`` in ``compile`` picks one from the
shapes, as Keras 3 does), Precision and Recall (layer 10).

A metric keeps running sums in variables made with ``add_weight``: ``update_state`` adds to
them, ``result`` reads them, ``reset_state`` zeroes them; calling the metric does the first
two.
"""

from __future__ import annotations

from .. import dtypes as _dt
from ..eager.context import init_scope
from ..ops import creation_ops, indexing_ops, math_ops, reduction_ops, shape_ops, sort_ops
from ..ops.convert import to_tensor
from .losses import _same_rank
from .module import _snake
from .variables import DTypeName, Variable


class Metric:
    """Keras 3's metric base: subclasses make their state with ``add_weight`` and define
    ``update_state`` and ``result``."""

    def __init__(self, name=None, dtype=None):
        self.name = name or _snake(type(self).__name__)
        self.dtype = DTypeName(_dt.as_dtype(dtype or _dt.float32).name)
        self._metric_weights = []

    def add_weight(self, shape=(), initializer=None, dtype=None, aggregation="sum", name=None):
        """A non-trainable variable of the metric's state, at path ``<metric>/<name>``."""
        dtype = _dt.as_dtype(dtype or self.dtype)
        shape = list(shape or [])
        if callable(initializer):
            value = to_tensor(initializer(shape, dtype=dtype))
        elif initializer in ("zeros", "Zeros"):
            value = creation_ops.zeros(shape, dtype)
        elif initializer in ("ones", "Ones"):
            value = creation_ops.ones(shape, dtype)
        else:
            raise NotImplementedError(
                "tfgraph_edu's Metric.add_weight takes initializer='zeros', 'ones' or a "
                f"callable, not {initializer!r}.")
        with init_scope():
            v = Variable(value, trainable=False, name=name, path=f"{self.name}/{name}")
        self._metric_weights.append(v)
        return v

    @property
    def variables(self):
        return list(self._metric_weights)

    def result(self):
        raise NotImplementedError(f"{type(self).__name__} does not define result()")

    def reset_state(self):
        for v in self.variables:
            v.assign(creation_ops.zeros_like(v))

    @property
    def reset_states(self):
        """Keras 2's name: Keras 3 (TF 2.21) has none (``hasattr`` is False there too)."""
        raise AttributeError(f"'{type(self).__name__}' object has no attribute 'reset_states'"
                             " (Keras 3 renamed it reset_state)")

    def __call__(self, *args, **kwargs):
        self.update_state(*args, **kwargs)
        return self.result()

    def __repr__(self):
        return f"<{type(self).__name__} name={self.name}>"


class _Reduce(Metric):
    """A running total over a count (Keras's Mean family)."""

    def __init__(self, name=None, dtype=None):
        super().__init__(name=name, dtype=dtype)
        # Keras 3 variables, named and printed as Keras 3's (path mean/total)
        self.total = self.add_weight(name="total", initializer="zeros")
        self.count = self.add_weight(name="count", initializer="zeros")

    def result(self):
        return _safe_div(self.total, self.count)


def _safe_div(a, b):
    """a / b, or 0 when nothing was counted (Keras's divide_no_nan)."""
    b_safe = indexing_ops.where(math_ops.equal(b, 0), creation_ops.ones_like(b), b)
    return indexing_ops.where(math_ops.equal(b, 0), creation_ops.zeros_like(a),
                           math_ops.divide(a, b_safe))


def _add_values(metric, values, sample_weight):
    values = math_ops.cast(to_tensor(values), metric.dtype)
    if sample_weight is None:
        metric.total.assign_add(reduction_ops.reduce_sum(values))
        metric.count.assign_add(math_ops.cast(shape_ops.size(values), metric.dtype))
    else:
        w = shape_ops.broadcast_to(math_ops.cast(to_tensor(sample_weight), metric.dtype),
                                   shape_ops.shape(values))
        metric.total.assign_add(reduction_ops.reduce_sum(values * w))
        metric.count.assign_add(reduction_ops.reduce_sum(w))


class Mean(_Reduce):
    """The (weighted) mean of every value given to ``update_state``."""

    def update_state(self, values, sample_weight=None):
        _add_values(self, values, sample_weight)


class SparseCategoricalAccuracy(_Reduce):
    """How often ``argmax(y_pred)`` equals the integer label ``y_true``."""

    _direction = "up"  # what EarlyStopping's mode="auto" maximises (Keras 3)

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_pred = to_tensor(y_pred)
        y_true = to_tensor(y_true)
        if y_true.shape.rank is not None and y_true.shape.rank == y_pred.shape.rank:
            y_true = shape_ops.squeeze(y_true, axis=[-1])
        predicted = reduction_ops.argmax(y_pred, axis=-1)
        hits = math_ops.equal(math_ops.cast(y_true, predicted.dtype), predicted)
        _add_values(self, math_ops.cast(hits, self.dtype), sample_weight)


def binary_accuracy(y_true, y_pred, threshold=0.5):
    """1.0 where ``y_pred > threshold`` equals the 0/1 label, per value (not averaged)."""
    y_true, y_pred = _same_rank(to_tensor(y_true), to_tensor(y_pred))
    predicted = math_ops.cast(math_ops.greater(y_pred, math_ops.cast(threshold, y_pred.dtype)),
                              y_true.dtype)
    return math_ops.cast(math_ops.equal(y_true, predicted), _dt.float32)


def categorical_accuracy(y_true, y_pred):
    """1.0 where the argmax of the one-hot label equals the argmax of ``y_pred``."""
    y_pred = to_tensor(y_pred)
    labels = reduction_ops.argmax(to_tensor(y_true), axis=-1)
    predicted = reduction_ops.argmax(y_pred, axis=-1)
    return math_ops.cast(math_ops.equal(labels, predicted), _dt.float32)


def sparse_categorical_accuracy(y_true, y_pred):
    """1.0 where the integer label equals the argmax of ``y_pred`` (labels of shape (n, 1)
    squeezed)."""
    y_pred = to_tensor(y_pred)
    y_true = math_ops.cast(to_tensor(y_true), y_pred.dtype)
    if y_true.shape.rank is not None and y_true.shape.rank == y_pred.shape.rank and \
            y_true.shape.dims[-1] == 1:
        y_true = shape_ops.squeeze(y_true, axis=[-1])
    predicted = math_ops.cast(reduction_ops.argmax(y_pred, axis=-1), y_true.dtype)
    return math_ops.cast(math_ops.equal(y_true, predicted), _dt.float32)


class _Wrapper(_Reduce):
    """The mean of a per-example function (Keras's MeanMetricWrapper)."""

    _fn = None

    def update_state(self, y_true, y_pred, sample_weight=None):
        _add_values(self, self._values(to_tensor(y_true), to_tensor(y_pred)), sample_weight)

    def _values(self, y_true, y_pred):
        return type(self)._fn(y_true, y_pred)


class BinaryAccuracy(_Wrapper):
    """How often ``y_pred > threshold`` matches the 0/1 label."""

    _direction = "up"  # what EarlyStopping's mode="auto" maximises (Keras 3)

    def __init__(self, name="binary_accuracy", dtype=None, threshold=0.5):
        super().__init__(name=name, dtype=dtype)
        self.threshold = threshold

    def _values(self, y_true, y_pred):
        return binary_accuracy(y_true, y_pred, self.threshold)


class CategoricalAccuracy(_Wrapper):
    """How often the argmax of ``y_pred`` matches the one-hot label's."""

    _direction = "up"  # what EarlyStopping's mode="auto" maximises (Keras 3)

    _fn = staticmethod(categorical_accuracy)


class _Accuracy(_Wrapper):
    """``compile(metrics=["accuracy"])``: as Keras 3, binary accuracy when predictions end
    in a size-1 axis, sparse categorical when labels have a lower rank (or end in a size-1
    axis against several classes), categorical otherwise; decided from the shapes given."""

    _direction = "up"  # what EarlyStopping's mode="auto" maximises (Keras 3)

    def _values(self, y_true, y_pred):
        rt, rp = y_true.shape.rank, y_pred.shape.rank
        if rt is None or rp is None:
            raise NotImplementedError("tfgraph_edu picks the accuracy of compile(metrics="
                                      "['accuracy']) from known ranks only.")
        last_t = y_true.shape.dims[-1] if rt else None
        last_p = y_pred.shape.dims[-1] if rp else None
        if last_p == 1:
            return binary_accuracy(y_true, y_pred)
        if rt < rp or (last_t == 1 and last_p is not None and last_p > 1):
            return sparse_categorical_accuracy(y_true, y_pred)
        return categorical_accuracy(y_true, y_pred)


# -- Precision, Recall -----------------------------------------------------------------------
_NEG_INF = -1e10  # Keras's "no threshold" with top_k


def _thresholds(thresholds, top_k):
    """(list of thresholds, whether the result is a scalar), as Keras 3 reads them."""
    if thresholds is None:
        return [0.5 if top_k is None else _NEG_INF], True
    if isinstance(thresholds, (list, tuple)):
        return [float(t) for t in thresholds], len(thresholds) == 1
    return [float(thresholds)], True


class _Confusion(Metric):
    """Counts of true/false positives or negatives per threshold, as Keras 3 updates them:
    a label counts as positive when non-zero, a prediction when above the threshold."""

    _direction = "up"  # what EarlyStopping's mode="auto" maximises (Keras 3)

    _COUNTS: tuple = ()

    def __init__(self, thresholds=None, top_k=None, class_id=None, name=None, dtype=None):
        super().__init__(name=name, dtype=dtype)
        self.init_thresholds = thresholds
        self.top_k, self.class_id = top_k, class_id
        self.thresholds, self._scalar = _thresholds(thresholds, top_k)
        for count in self._COUNTS:
            setattr(self, count, self.add_weight(shape=(len(self.thresholds),),
                                                 initializer="zeros", name=count))

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true = math_ops.cast(to_tensor(y_true), self.dtype)
        y_pred = math_ops.cast(to_tensor(y_pred), self.dtype)
        if self.top_k is not None:
            _, idx = sort_ops.top_k(y_pred, self.top_k)
            depth = shape_ops.shape(y_pred)[-1]
            mask = reduction_ops.reduce_sum(
                creation_ops.one_hot(idx, depth, dtype=self.dtype), axis=-2)
            y_pred = y_pred * mask + _NEG_INF * (1 - mask)
        if self.class_id is not None:
            y_true = y_true[..., self.class_id]
            y_pred = y_pred[..., self.class_id]
        if sample_weight is None:
            w = creation_ops.ones_like(y_pred)
        else:
            w = shape_ops.broadcast_to(math_ops.cast(to_tensor(sample_weight), self.dtype),
                                       shape_ops.shape(y_pred))
        pred = shape_ops.reshape(y_pred, [1, -1])
        label = shape_ops.reshape(math_ops.cast(math_ops.not_equal(y_true, 0), self.dtype),
                                  [1, -1])
        w = shape_ops.reshape(w, [1, -1])
        cut = shape_ops.reshape(to_tensor(self.thresholds, dtype=self.dtype), [-1, 1])
        pred_pos = math_ops.cast(math_ops.greater(pred, cut), self.dtype)  # thresholds x N
        parts = {"true_positives": label * pred_pos, "false_positives": (1 - label) * pred_pos,
                 "false_negatives": label * (1 - pred_pos)}
        for count in self._COUNTS:
            getattr(self, count).assign_add(reduction_ops.reduce_sum(parts[count] * w, axis=1))

    def _ratio(self, a, b):
        out = _safe_div(a, a + b)
        return out[0] if self._scalar else out

    def get_config(self):
        return {"name": self.name, "dtype": str(self.dtype), "thresholds": self.init_thresholds,
                "top_k": self.top_k, "class_id": self.class_id}


class Precision(_Confusion):
    """The share of predicted positives that are positive: tp / (tp + fp)."""

    _COUNTS = ("true_positives", "false_positives")

    def result(self):
        return self._ratio(self.true_positives, self.false_positives)


class Recall(_Confusion):
    """The share of positives predicted positive: tp / (tp + fn)."""

    _COUNTS = ("true_positives", "false_negatives")

    def result(self):
        return self._ratio(self.true_positives, self.false_negatives)


_BY_NAME = {"accuracy": _Accuracy, "acc": _Accuracy,
            "sparse_categorical_accuracy": SparseCategoricalAccuracy,
            "binary_accuracy": BinaryAccuracy, "categorical_accuracy": CategoricalAccuracy,
            "precision": Precision, "recall": Recall}


def get(metric):
    if isinstance(metric, str):
        try:
            m = _BY_NAME[metric]()
        except KeyError:
            raise ValueError(f"Unknown metric function: '{metric}'.") from None
        m.name = metric if metric in ("accuracy", "acc") else m.name
        return m
    return metric


class _LossMean(Mean):
    """The (weighted) mean of a loss function's per-example values (Keras's
    ``MeanMetricWrapper``): ``y_true`` cast to ``y_pred``'s dtype and matched in rank."""

    _direction = "down"  # a loss: EarlyStopping's mode="auto" minimises it (Keras 3)

    _fn = None

    def update_state(self, y_true, y_pred, sample_weight=None):
        super().update_state(type(self)._fn(y_true, y_pred), sample_weight)


class MeanAbsoluteError(_LossMean):
    """Mean of ``|y_pred - y_true|`` over the last axis, averaged over examples."""

    @staticmethod
    def _fn(y_true, y_pred):
        from .losses import _mean_absolute_error
        return _mean_absolute_error(y_true, y_pred)


class MeanSquaredError(_LossMean):
    """Mean of ``(y_pred - y_true) ** 2`` over the last axis, averaged over examples."""

    @staticmethod
    def _fn(y_true, y_pred):
        from .losses import _mean_squared_error
        return _mean_squared_error(y_true, y_pred)


# compile(metrics=["mae"]): Keras 3 wraps the loss function, named as the string given
_BY_NAME.update({
    key: (lambda cls=cls, key=key: cls(name=key))
    for key, cls in (("mae", MeanAbsoluteError), ("mean_absolute_error", MeanAbsoluteError),
                     ("mse", MeanSquaredError), ("mean_squared_error", MeanSquaredError))})


def __getattr__(name):
    from .tf_api_names import missing
    raise missing("metrics", name)
