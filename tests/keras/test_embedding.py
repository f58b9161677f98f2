"""tf.keras.layers.Embedding against Keras 3 in TF 2.21 (values printed by TF 2.21 for the
same code), its gradient against central differences."""

from __future__ import annotations

import numpy as np
import pytest

import tfgraph_edu as tf

X = [[0, 2], [4, 1]]
TABLE_ROWS = [[[0.0, 1.0, 2.0], [6.0, 7.0, 8.0]], [[12.0, 13.0, 14.0], [3.0, 4.0, 5.0]]]


def _layer():
    e = tf.keras.layers.Embedding(5, 3, embeddings_initializer="ones")
    e(tf.constant(X))
    e.embeddings.assign(tf.reshape(tf.range(15, dtype=tf.float32), [5, 3]))
    return e


def test_embedding_lookup_eager_and_function():
    e = tf.keras.layers.Embedding(5, 3, embeddings_initializer="ones")
    y = e(tf.constant(X))
    assert y.shape == (2, 2, 3) and y.dtype == tf.float32 and e.name == "embedding"
    assert [(w.path, w.shape.as_list()) for w in e.weights] == [("embedding/embeddings", [5, 3])]
    e.embeddings.assign(tf.reshape(tf.range(15, dtype=tf.float32), [5, 3]))
    assert e(tf.constant(X)).numpy().tolist() == TABLE_ROWS
    assert tf.function(lambda x: e(x))(tf.constant(X)).numpy().tolist() == TABLE_ROWS


def test_embedding_default_initializer_is_uniform_005():
    e = tf.keras.layers.Embedding(50, 4)
    e(tf.constant([0]))
    w = e.embeddings.numpy()
    assert w.min() >= -0.05 and w.max() <= 0.05 and w.std() > 0.01


def test_embedding_gradient():
    # TF: rows 0, 1, 2, 4 get [1, 2, 3] each, row 3 (not looked up) zeros
    e = _layer()
    with tf.GradientTape() as t:
        loss = tf.reduce_sum(e(tf.constant(X)) * tf.constant([1.0, 2.0, 3.0]))
    g = tf.convert_to_tensor(t.gradient(loss, e.embeddings)).numpy()
    assert g.tolist() == [[1.0, 2.0, 3.0]] * 3 + [[0.0, 0.0, 0.0], [1.0, 2.0, 3.0]]
    base = e.embeddings.numpy().astype(np.float64)
    eps, numeric = 0.5, np.zeros_like(base)  # float32 forward passes: a wide step
    for i in np.ndindex(*base.shape):
        for sign in (1, -1):
            table = base.copy()
            table[i] += sign * eps
            e.embeddings.assign(table.astype(np.float32))  # the layer's own forward pass
            value = float(tf.reduce_sum(e(tf.constant(X)) * tf.constant([1.0, 2.0, 3.0])))
            numeric[i] += sign * value / (2 * eps)
    np.testing.assert_allclose(g, numeric, rtol=1e-3, atol=1e-3)


def test_embedding_in_sequential_and_unsupported_options():
    m = tf.keras.Sequential([tf.keras.Input((4,), dtype="int32"),
                             tf.keras.layers.Embedding(10, 2), tf.keras.layers.Flatten(),
                             tf.keras.layers.Dense(1)])
    assert [w.shape.as_list() for w in m.weights] == [[10, 2], [8, 1], [1]]  # as TF
    assert m(tf.constant([[1, 2, 3, 4]])).shape == (1, 1)
    with pytest.raises(NotImplementedError, match=r"Embedding\(lora_rank=...\)"):
        tf.keras.layers.Embedding(5, 2, lora_rank=2)
