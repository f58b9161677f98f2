"""``tf.keras.Model`` and ``Sequential`` with compile / fit / predict / evaluate (layer 10).

``fit`` traces its train step with ``tf.function`` (``reduce_retracing=True``, as
Keras does) unless ``compile(run_eagerly=True)``; the Function is kept on the model
(``model.train_function``) so the trace explorer can show it.
"""

from __future__ import annotations

import sys
import time

import numpy as np

from ..eager.tape import GradientTape
from ..function.polymorphic import Function
from ..ops import convert
from . import losses as losses_mod
from . import optimizers as optimizers_mod
from .layers import Layer


class History:
    def __init__(self):
        self.history: dict[str, list[float]] = {"loss": []}


class Model(Layer):
    """Subclass and define ``call``; or use :class:`Sequential`."""

    def __init__(self, *args, **kwargs):
        super().__init__(**kwargs)
        self.optimizer = None
        self.loss = None
        self.run_eagerly = False
        self.train_function = None
        self.predict_function = None

    def build(self, input_shape):
        self.built = True

    def compile(self, optimizer="sgd", loss=None, metrics=None, run_eagerly=False):
        self.optimizer = optimizers_mod.get(optimizer)
        self.loss = losses_mod.get(loss)
        self.run_eagerly = bool(run_eagerly)
        self.train_function = None
        self.predict_function = None

    def train_step(self, x, y):
        with GradientTape() as tape:
            pred = self(x, training=True)
            loss = self.loss(y, pred)
        variables = list(self.trainable_variables)
        grads = tape.gradient(loss, variables)
        self.optimizer.apply_gradients(zip(grads, variables))
        return loss

    def _make_train_function(self):
        if self.train_function is None:
            step = self.train_step
            self.train_function = step if self.run_eagerly else Function(
                step, name="train_function", reduce_retracing=True)
        return self.train_function

    def fit(self, x, y, epochs=1, batch_size=32, verbose=1, shuffle=True):
        if self.optimizer is None or self.loss is None:
            raise RuntimeError("You must call `compile()` before calling `fit()`, with a "
                               "loss and an optimizer.")
        x, y = np.asarray(_numpy(x)), np.asarray(_numpy(y))
        n = len(x)
        steps = max(1, -(-n // batch_size))
        step_fn = self._make_train_function()
        history = History()
        rng = np.random.default_rng(0)
        for epoch in range(epochs):
            order = rng.permutation(n) if shuffle else np.arange(n)
            start = time.perf_counter()
            total = 0.0
            for s in range(steps):
                idx = order[s * batch_size:(s + 1) * batch_size]
                loss = step_fn(convert.constant(x[idx]), convert.constant(y[idx]))
                total += float(loss) * len(idx)
            epoch_loss = total / n
            history.history["loss"].append(epoch_loss)
            if verbose:
                ms = (time.perf_counter() - start) * 1e3 / steps
                print(f"Epoch {epoch + 1}/{epochs}", file=sys.stdout)
                print(f"{steps}/{steps} - {ms:.0f}ms/step - loss: {epoch_loss:.4f}",
                      file=sys.stdout)
        return history

    def predict(self, x, batch_size=32, verbose=0):
        x = np.asarray(_numpy(x))
        if self.predict_function is None:
            def step(v):
                return self(v, training=False)
            self.predict_function = step if self.run_eagerly else Function(
                step, name="predict_function", reduce_retracing=True)
        outs = [self.predict_function(convert.constant(x[i:i + batch_size])).numpy()
                for i in range(0, len(x), batch_size)]
        return np.concatenate(outs) if outs else np.zeros((0,))

    def evaluate(self, x, y, batch_size=32, verbose=0):
        pred = self.predict(x, batch_size)
        return float(self.loss(convert.constant(np.asarray(_numpy(y))), convert.constant(pred)))


class Sequential(Model):
    """A stack of layers applied in order."""

    def __init__(self, layers=None, name=None):
        super().__init__(name=name)
        self.layers = list(layers or [])

    def add(self, layer):
        self.layers.append(layer)

    def call(self, inputs, training=None):
        x = inputs
        for layer in self.layers:
            x = layer(x, training=training)
        return x


def _numpy(v):
    return v.numpy() if hasattr(v, "numpy") else v
