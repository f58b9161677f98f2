"""``tf.keras.metrics``: Mean and SparseCategoricalAccuracy (layer 10).

A metric keeps running sums in variables: ``update_state`` adds to them, ``result``
reads them, ``reset_state`` zeroes them; calling the metric does the first two.
"""

from __future__ import annotations

from .. import dtypes as _dt
from ..eager.context import init_scope
from ..ops import creation_ops, indexing_ops, math_ops, reduction_ops, shape_ops
from ..ops.convert import to_tensor
from .module import _snake
from .variables import Variable


class Metric:
    def __init__(self, name=None, dtype=None):
        self.name = name or _snake(type(self).__name__)
        self.dtype = _dt.as_dtype(dtype or _dt.float32)
        with init_scope():
            # Keras 3 variables, named and printed as Keras 3's (path mean/total)
            self.total = Variable(0.0, dtype=self.dtype, trainable=False, name="total",
                                  path=f"{self.name}/total")
            self.count = Variable(0.0, dtype=self.dtype, trainable=False, name="count",
                                  path=f"{self.name}/count")

    @property
    def variables(self):
        return [self.total, self.count]

    def result(self):
        return _safe_div(self.total, self.count)

    def reset_state(self):
        for v in self.variables:
            v.assign(creation_ops.zeros_like(v))

    reset_states = reset_state

    def __call__(self, *args, **kwargs):
        self.update_state(*args, **kwargs)
        return self.result()

    def __repr__(self):
        return f"<{type(self).__name__} name={self.name}>"


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


class Mean(Metric):
    """The (weighted) mean of every value given to ``update_state``."""

    def update_state(self, values, sample_weight=None):
        _add_values(self, values, sample_weight)


class SparseCategoricalAccuracy(Metric):
    """How often ``argmax(y_pred)`` equals the integer label ``y_true``."""

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_pred = to_tensor(y_pred)
        y_true = to_tensor(y_true)
        if y_true.shape.rank is not None and y_true.shape.rank == y_pred.shape.rank:
            y_true = shape_ops.squeeze(y_true, axis=[-1])
        predicted = reduction_ops.argmax(y_pred, axis=-1)
        hits = math_ops.equal(math_ops.cast(y_true, predicted.dtype), predicted)
        _add_values(self, math_ops.cast(hits, self.dtype), sample_weight)


_BY_NAME = {"accuracy": SparseCategoricalAccuracy, "acc": SparseCategoricalAccuracy,
            "sparse_categorical_accuracy": SparseCategoricalAccuracy}


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
