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
from ..shapes import TensorShape, TensorSpec
from . import callbacks as callbacks_mod
from . import functional
from . import losses as losses_mod
from . import metrics as metrics_mod
from . import optimizers as optimizers_mod
from . import summary as summary_mod
from .layers import Layer


class Model(Layer):
    """Subclass and define ``call``; or ``Model(inputs, outputs)`` from ``tf.keras.Input``
    (the functional API); or use :class:`Sequential`."""

    def __init__(self, *args, **kwargs):
        inputs = kwargs.pop("inputs", args[0] if args else None)
        outputs = kwargs.pop("outputs", args[1] if len(args) > 1 else None)
        if inputs is not None and kwargs.get("name") is None:
            kwargs["name"] = functional._unique("functional")
        super().__init__(**kwargs)
        self.optimizer = None
        self.loss = None
        self.compiled_metrics = []
        self.run_eagerly = False
        self.train_function = None
        self.predict_function = None
        self._func_inputs = None
        if inputs is not None:
            if outputs is None:
                raise ValueError("A functional Model needs both `inputs` and `outputs`.")
            self._init_graph(inputs, outputs)

    def _init_graph(self, inputs, outputs):
        self._func_inputs, self._func_outputs = inputs, outputs
        self._func_nodes = functional.nodes_between(inputs, outputs)
        inputs_layers = [t._node[0] for t in functional._flatten(inputs)]
        others = [layer for layer, _, _ in self._func_nodes if layer not in inputs_layers]
        self._graph_layers = inputs_layers + others
        self.built = True
        out = functional._flatten(outputs)
        self._output_shape = out[0].shape if len(out) == 1 else None

    def _input_dtypes(self, count):
        """A functional model casts float inputs to its ``Input``s' dtypes, as Keras 3 does."""
        if self._func_inputs is not None:
            flat = functional._flatten(self._func_inputs)
            if len(flat) == count:
                return [t.dtype for t in flat]
        return super()._input_dtypes(count)

    @property
    def layers(self):
        if self._func_inputs is not None:
            return list(self._graph_layers)
        return [v for v in vars(self).values() if isinstance(v, Layer)]

    @property
    def inputs(self):
        return self._func_inputs

    @property
    def outputs(self):
        return getattr(self, "_func_outputs", None)

    def build(self, input_shape=None):
        self.built = True

    def call(self, inputs, training=None):
        if self._func_inputs is None:
            raise NotImplementedError(f"Model {self.name} has no call(): subclass Model and "
                                      "define call, or build it with Model(inputs, outputs).")
        return functional.run_graph(self, inputs, training=training)

    def _summary_layers(self):
        return self.layers

    def summary(self, line_length=None, positions=None, print_fn=None, **kwargs):
        """Prints Keras's table of layers, output shapes and parameter counts."""
        text = summary_mod.summary_text(self)
        (print_fn or print)(text)

    def compile(self, optimizer="sgd", loss=None, metrics=None, run_eagerly=False, **kwargs):
        self.optimizer = optimizers_mod.get(optimizer)
        self.loss = losses_mod.get(loss)
        self.compiled_metrics = [metrics_mod.get(m) for m in (metrics or [])]
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
        return loss, pred

    def _make_train_function(self, xb=None, yb=None):
        """The train step as a Function.  Keras 3 traces it with the batch dimension unknown
        (``(None, ...)``: its data pipeline's last batch may be smaller), once for every batch
        size: given a first batch of plain tensors, the signature says so."""
        if self.train_function is None:
            step = self.train_step
            signature = None
            if all(hasattr(t, "shape") and hasattr(t, "dtype") and t.shape.rank
                   for t in (xb, yb)):
                signature = [TensorSpec([None, *t.shape.as_list()[1:]], t.dtype)
                             for t in (xb, yb)]
            self.train_function = step if self.run_eagerly else Function(
                step, name="train_function", reduce_retracing=True, input_signature=signature)
        return self.train_function

    def _batches(self, x, y, batch_size, shuffle, rng):
        if hasattr(x, "_flat_iter"):  # a tf.data.Dataset of (x, y) batches
            for batch in x:
                yield batch[0], batch[1]
            return
        x, y = np.asarray(_numpy(x)), np.asarray(_numpy(y))
        n = len(x)
        order = rng.permutation(n) if shuffle else np.arange(n)
        for s in range(max(1, -(-n // batch_size))):
            idx = order[s * batch_size:(s + 1) * batch_size]
            yield convert.constant(x[idx]), convert.constant(y[idx])

    def fit(self, x=None, y=None, batch_size=None, epochs=1, verbose=1, callbacks=None,
            shuffle=True, **kwargs):
        if self.optimizer is None or self.loss is None:
            raise RuntimeError("You must call `compile()` before calling `fit()`, with a "
                               "loss and an optimizer.")
        batch_size = 32 if batch_size is None else int(batch_size)
        step_fn = None
        history = callbacks_mod.History()
        cbs = [history] + list(callbacks or [])
        steps_hint = (len(x) if hasattr(x, "_flat_iter") else
                      max(1, -(-len(_numpy(x)) // batch_size)))
        for cb in cbs:
            cb.set_model(self)
            cb.set_params({"verbose": verbose, "epochs": epochs, "steps": steps_hint})
            cb.on_train_begin()
        rng = np.random.default_rng(0)
        for epoch in range(epochs):
            for cb in cbs:
                cb.on_epoch_begin(epoch)
            for m in self.compiled_metrics:
                m.reset_state()
            start = time.perf_counter()
            total, seen, steps = 0.0, 0, 0
            for xb, yb in self._batches(x, y, batch_size, shuffle, rng):
                step_fn = step_fn or self._make_train_function(xb, yb)
                loss, pred = step_fn(xb, yb)
                n = int(xb.shape[0])
                total += float(loss) * n
                seen += n
                steps += 1
                for m in self.compiled_metrics:
                    m.update_state(yb, pred)
            logs = {"loss": total / max(seen, 1)}
            for m in self.compiled_metrics:
                logs[m.name] = float(m.result())
            if verbose:
                elapsed = time.perf_counter() - start
                ms = elapsed * 1e3 / max(steps, 1)
                shown = " - ".join(f"{k}: {v:.4f}" for k, v in logs.items())
                print(f"Epoch {epoch + 1}/{epochs}", file=sys.stdout)
                if verbose == 2:  # Keras 3's one line per epoch
                    print(f"{steps}/{steps} - {elapsed:.0f}s - {ms:.0f}ms/step - {shown}",
                          file=sys.stdout)
                else:  # the progress bar as it ends
                    print(f"{steps}/{steps} {'━' * 20} {elapsed:.0f}s {ms:.0f}ms/step - "
                          f"{shown}", file=sys.stdout)
            for cb in cbs:
                cb.on_epoch_end(epoch, logs)
        for cb in cbs:
            cb.on_train_end()
        return history

    def save(self, filepath, overwrite=True, **kwargs):
        """Keras 3 saves whole models to ``.keras`` files (see ``keras/saving.py`` for what
        this one writes and how it differs)."""
        filepath = str(filepath)
        if not filepath.endswith((".keras", ".h5")):
            raise ValueError(
                "Invalid filepath extension for saving. Please add either a `.keras` extension "
                "for the native Keras format (recommended) or a `.h5` extension. Use "
                "`model.export(filepath)` if you want to export a SavedModel for use with "
                f"TFLite/TFServing/etc. Received: filepath={filepath}.")
        if filepath.endswith(".h5"):
            raise NotImplementedError("tfgraph_edu does not write legacy HDF5 models: save to "
                                      "a `.keras` file.")
        from .saving import save_model
        save_model(self, filepath)

    def save_weights(self, filepath, overwrite=True):
        """Saves the weights as data (JSON + .npy arrays in one zip archive).

        Keras 3's rule on names holds: ``filepath`` must end in ``.weights.h5``.
        Deliberate departure: the file is not HDF5 (it is read by ``load_weights`` here)."""
        from ..train import weights_file
        filepath = str(filepath)
        if not filepath.endswith(".weights.h5"):
            raise ValueError(f"The filename must end in `.weights.h5`. Received: "
                             f"filepath={filepath}")
        weights_file.save(filepath, self.variables)

    def load_weights(self, filepath, skip_mismatch=False, **kwargs):
        """Restores what ``save_weights`` wrote, in the same order of variables."""
        from ..train import weights_file
        weights_file.load(str(filepath), self.variables)

    def predict(self, x, batch_size=32, verbose=0):
        if self.predict_function is None:
            def step(v):
                return self(v, training=False)
            self.predict_function = step if self.run_eagerly else Function(
                step, name="predict_function", reduce_retracing=True)
        if hasattr(x, "_flat_iter"):
            batches = [b[0] if isinstance(b, tuple) else b for b in x]
        else:
            arr = np.asarray(_numpy(x))
            batches = [convert.constant(arr[i:i + batch_size])
                       for i in range(0, len(arr), batch_size)]
        outs = [self.predict_function(b).numpy() for b in batches]
        return np.concatenate(outs) if outs else np.zeros((0,))

    def evaluate(self, x, y=None, batch_size=32, verbose=0, return_dict=False):
        if hasattr(x, "_flat_iter"):
            pairs = list(x)
            xs = np.concatenate([p[0].numpy() for p in pairs])
            y = np.concatenate([p[1].numpy() for p in pairs])
            x = xs
        pred = self.predict(x, batch_size)
        yt, pt = convert.constant(np.asarray(_numpy(y))), convert.constant(pred)
        results = {"loss": float(self.loss(yt, pt))}
        for m in self.compiled_metrics:
            m.reset_state()
            m.update_state(yt, pt)
            results[m.name] = float(m.result())
        if return_dict:
            return results
        return results["loss"] if len(results) == 1 else list(results.values())


class Sequential(Model):
    """A stack of layers applied in order; an ``Input`` first (or ``input_shape=`` on the
    first layer) builds it at once, as Keras does."""

    def __init__(self, layers=None, name=None):
        super().__init__(name=name)
        self._layers = []
        self._input = None
        for layer in layers or []:
            self.add(layer)

    @property
    def layers(self):
        return list(self._layers)

    def add(self, layer):
        from .functional import Input, KerasTensor
        if isinstance(layer, KerasTensor):
            self._input = layer
            return
        if not self._layers and self._input is None and layer._input_shape_arg is not None:
            self._input = Input(shape=layer._input_shape_arg)
        self._layers.append(layer)
        if self._input is not None:
            x = getattr(self, "_last_output", None) or self._input
            self._last_output = layer(x)
            self.built = True
            self._output_shape = self._last_output.shape

    def build(self, input_shape=None):
        """Creates every layer's weights for inputs of ``input_shape`` (batch dimension
        first), as Keras's ``Sequential.build`` does: the model is then built before any call."""
        if input_shape is not None and self._input is None and self._layers:
            from .functional import Input
            self._input = Input(shape=TensorShape(input_shape).as_list()[1:])
            x = self._input
            for layer in self._layers:
                x = layer(x)
            self._last_output = x
            self._output_shape = x.shape
        self.built = True

    def _call_eager_or_traced(self, inputs, kwargs):
        # Keras 3 builds a Sequential model on its first call by calling its layers once
        # symbolically, batch dimension None (a layer's ``call`` runs then, and again for the
        # real call), when the input is one tensor of known rank
        if not self.built and self._input is None and self._layers:
            shape = getattr(inputs, "shape", None)
            if isinstance(shape, tuple):  # a NumPy array
                shape = TensorShape(list(shape))
            if isinstance(shape, TensorShape) and shape.rank:
                self.build([None, *shape.as_list()[1:]])
        self.built = True  # otherwise each layer is built as the call reaches it
        return super()._call_eager_or_traced(inputs, kwargs)

    def call(self, inputs, training=None):
        x = inputs
        for layer in self._layers:
            x = layer(x, training=training)
        return x


def _numpy(v):
    return v.numpy() if hasattr(v, "numpy") else v


def load_model(filepath, custom_objects=None, compile=True, safe_mode=True):  # noqa: A002
    """``tf.keras.models.load_model``: Keras 3 reads ``.keras`` and ``.h5`` files only."""
    filepath = str(filepath)
    if not filepath.endswith((".keras", ".h5")):
        raise ValueError(
            f"File format not supported: filepath={filepath}. Keras 3 only supports V3 "
            "`.keras` files and legacy H5 format files (`.h5` extension). Note that the legacy "
            "SavedModel format is not supported by `load_model()` in Keras 3. In order to "
            "reload a TensorFlow SavedModel as an inference-only layer in Keras 3, use "
            "`keras.layers.TFSMLayer(filepath, call_endpoint='serving_default')` (note that "
            "your `call_endpoint` might have a different name).")
    if filepath.endswith(".h5"):
        raise NotImplementedError("tfgraph_edu does not read legacy HDF5 models.")
    from .saving import load_model as _load
    return _load(filepath)
