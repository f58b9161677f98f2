"""``optimizer.apply_gradients`` with no pairs: Keras 3's ValueError (eat_tensorflow2 3-2
trains a tf.Module holding Keras layers, whose weights the Module does not track, so its
variable list is empty).  Recorded from TF 2.21: ``len(module.trainable_variables) == 1``
(its own tf.Variable only), the Dense layer has 2, and ``Adam().apply_gradients(zip([], []))``
raises ValueError "not enough values to unpack (expected 2, got 0)"."""

from __future__ import annotations

import pytest

import tfgraph_edu as tf


class _Holder(tf.Module):
    def __init__(self):
        super().__init__()
        self.dense = tf.keras.layers.Dense(2)
        self.v = tf.Variable(1.0)


def test_a_module_does_not_track_keras_weights():
    m = _Holder()
    m.dense(tf.ones((1, 3)))
    assert len(m.trainable_variables) == 1 and len(m.dense.trainable_variables) == 2


@pytest.mark.parametrize("make", [tf.keras.optimizers.Adam, tf.keras.optimizers.SGD,
                                  tf.keras.optimizers.Nadam])
def test_no_pairs_is_a_value_error(make):
    with pytest.raises(ValueError, match=r"^not enough values to unpack \(expected 2, got 0\)"):
        make().apply_gradients(zip([], []))


def test_no_pairs_inside_a_function_too():
    opt = tf.keras.optimizers.Adam()

    @tf.function
    def step():
        opt.apply_gradients(zip([], []))
    with pytest.raises(ValueError, match="expected 2, got 0"):
        step()
