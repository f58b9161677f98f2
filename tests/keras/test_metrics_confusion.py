"""A custom tf.keras.metrics.Metric with add_weight, Precision and Recall, against Keras 3 in
TF 2.21: every value and printed form below came from TF 2.21's run of the same code."""

from __future__ import annotations

import numpy as np

import tfgraph_edu as tf


class TP(tf.keras.metrics.Metric):
    def __init__(self, name="tp_count", **kw):
        super().__init__(name=name, **kw)
        self.tp = self.add_weight(name="tp", initializer="zeros")
        self.hist = self.add_weight(shape=(3,), name="hist", initializer="ones", dtype="int32")

    def update_state(self, y_true, y_pred, sample_weight=None):
        hit = tf.logical_and(tf.cast(y_true, tf.bool), tf.convert_to_tensor(y_pred) > 0.5)
        self.tp.assign_add(tf.reduce_sum(tf.cast(hit, self.dtype)))

    def result(self):
        return self.tp


def test_custom_metric_add_weight():
    m = TP()
    assert m.name == "tp_count" and str(m.dtype) == "float32"
    assert [(v.name, v.path, v.shape.as_list(), v.dtype, v.trainable) for v in m.variables] \
        == [("tp", "tp_count/tp", [], "float32", False),
            ("hist", "tp_count/hist", [3], "int32", False)]
    assert repr(m.tp) == "<Variable path=tp_count/tp, shape=(), dtype=float32, value=0.0>"
    assert repr(m.hist) == "<Variable path=tp_count/hist, shape=(3,), dtype=int32, value=[1 1 1]>"
    m.update_state([1, 0, 1], [0.7, 0.9, 0.2])
    assert repr(m.result()) == "<Variable path=tp_count/tp, shape=(), dtype=float32, value=1.0>"
    assert float(m([1, 1], [0.6, 0.6])) == 3.0
    m.reset_state()  # every weight to zeros, the ones-initialised too (as Keras 3)
    assert float(m.result()) == 0.0 and m.hist.numpy().tolist() == [0, 0, 0]

    @tf.function
    def step(a, b):
        m.update_state(a, b)
        return m.result()
    assert float(step(tf.constant([1, 1]), tf.constant([0.9, 0.1]))) == 1.0


YT, YP = [0, 1, 1, 1, 0], [0.6, 0.2, 0.8, 0.51, 0.3]


def test_precision_recall_defaults():
    p, r = tf.keras.metrics.Precision(), tf.keras.metrics.Recall()
    assert (p.name, r.name) == ("precision", "recall")
    assert [(v.name, v.shape.as_list()) for v in p.variables] == [
        ("true_positives", [1]), ("false_positives", [1])]
    assert [(v.name, v.shape.as_list()) for v in r.variables] == [
        ("true_positives", [1]), ("false_negatives", [1])]
    p.update_state(YT, YP)
    r.update_state(YT, YP)
    assert p.result().shape == () and abs(float(p.result()) - 0.6666666865348816) < 1e-7
    assert abs(float(r.result()) - 0.6666666865348816) < 1e-7
    assert p.get_config() == {"name": "precision", "dtype": "float32", "thresholds": None,
                              "top_k": None, "class_id": None}


def test_precision_recall_options():
    p2 = tf.keras.metrics.Precision(thresholds=[0.3, 0.7])
    p2.update_state(YT, YP)
    np.testing.assert_allclose(p2.result().numpy(), [0.6666667, 1.0], rtol=1e-6)
    r2 = tf.keras.metrics.Recall(thresholds=0.7)
    r2.update_state(YT, YP, sample_weight=[1, 2, 3, 4, 5])
    assert abs(float(r2.result()) - 0.3333333432674408) < 1e-7
    assert float(tf.keras.metrics.Precision()([[0, 1]], [[0.2, 0.4]])) == 0.0
    p3 = tf.keras.metrics.Precision(top_k=1)
    p3.update_state([[0, 1, 0]], [[0.1, 0.7, 0.2]])
    assert float(p3.result()) == 1.0
    p4 = tf.keras.metrics.Precision(class_id=1)
    p4.update_state([[0, 1], [1, 0]], [[0.2, 0.9], [0.1, 0.8]])
    assert float(p4.result()) == 0.5
    # a label counts as positive when it is not zero
    assert float(tf.keras.metrics.Recall()(tf.constant([0.0, 0.7, 1.0]),
                                           tf.constant([0.9, 0.9, 0.9]))) == 1.0


def test_precision_in_function():
    pf = tf.keras.metrics.Precision()

    @tf.function
    def st(a, b):
        pf.update_state(a, b)
        return pf.result()
    assert float(st(tf.constant([1., 0.]), tf.constant([0.9, 0.8]))) == 0.5
