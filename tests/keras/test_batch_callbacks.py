"""fit calls a callback's batch hooks as Keras 3 does (on_batch_* are the aliases of
on_train_batch_*): the hooks' arguments and a learning rate changed per batch, against what
TF 2.21 printed for the same program (recorded once)."""

from __future__ import annotations

import numpy as np
import pytest

import tfgraph_edu as tf


def _data():
    x = np.arange(12, dtype="float32").reshape(6, 2) / 10
    return x, 2 * x.sum(1, keepdims=True) + 1


def test_batch_hooks_and_a_learning_rate_set_per_batch():
    seen = []

    class PerBatch(tf.keras.callbacks.Callback):
        def on_batch_begin(self, batch, logs=None):
            seen.append(("begin", batch, logs,
                         round(float(self.model.optimizer.learning_rate.numpy()), 6)))
            self.model.optimizer.learning_rate = 0.1 * (batch + 1)

        def on_batch_end(self, batch, logs=None):
            seen.append(("end", batch, {k: round(v, 4) for k, v in logs.items()}))

    class Keys(tf.keras.callbacks.Callback):
        def on_train_batch_end(self, batch, logs=None):
            seen.append(("keys", batch, sorted(logs)))

    x, y = _data()
    m = tf.keras.Sequential([tf.keras.Input((2,)),
                             tf.keras.layers.Dense(1, kernel_initializer="ones")])
    m.compile("sgd", "mse", metrics=["mae"])
    m.fit(x, y, batch_size=2, epochs=2, verbose=0, callbacks=[PerBatch(), Keys()],
          shuffle=False)
    # recorded from TF 2.21
    ends = [(1.73, 1.3), (2.4879, 1.5457), (2.0468, 1.3883),
            (0.4198, 0.6478), (0.3593, 0.5972), (0.2455, 0.4423)]
    rates = [0.01, 0.1, 0.2, 0.3, 0.1, 0.2]
    want = []
    for i, ((loss, mae), lr) in enumerate(zip(ends, rates)):
        want += [("begin", i % 3, {}, lr), ("end", i % 3, {"loss": loss, "mae": mae}),
                 ("keys", i % 3, ["loss", "mae"])]
    assert seen == want
    np.testing.assert_allclose(m.layers[0].kernel.numpy().ravel(),
                               [1.7887235879898071, 1.9080140590667725], rtol=1e-5)


def test_a_validation_hook_fit_does_not_call_is_refused():
    class OnTest(tf.keras.callbacks.Callback):
        def on_test_batch_end(self, batch, logs=None):
            pass

    x, y = _data()
    m = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1)])
    m.compile("sgd", "mse")
    with pytest.raises(NotImplementedError, match="on_test_batch_end"):
        m.fit(x, y, validation_data=(x, y), verbose=0, callbacks=[OnTest()])
    m.fit(x, y, verbose=0, callbacks=[OnTest()])  # without validation Keras 3 calls none
