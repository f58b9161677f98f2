"""``tf.keras.Model`` and ``Sequential`` with compile / fit / predict / evaluate (layer 10).

``fit`` traces its train step with ``tf.function`` (``reduce_retracing=True``, as
Keras does) unless ``compile(run_eagerly=True)``; the Function is kept on the model
(``model.train_function``) so the trace explorer can show it.
"""

from __future__ import annotations

import sys
import time
import warnings
from types import SimpleNamespace

import numpy as np

from .. import dtypes as _dt
from ..eager.tape import GradientTape
from ..function.polymorphic import Function
from ..ops import convert, shape_ops, sparse_ops
from ..ops.sparse_ops import SparseTensor
from ..shapes import TensorShape, TensorSpec
from . import backend, functional
from . import callbacks as callbacks_mod
from . import losses as losses_mod
from . import metrics as metrics_mod
from . import optimizers as optimizers_mod
from . import summary as summary_mod
from .call_context import check_input_spec
from .layers import Layer
from .module import AutoTrackable
from .variables import keras_scope


def _batch_dim(x, batch_size):
    """The batch dimension Keras 3's data adapters give: fixed when the arrays split into
    batches of one size, None for a Dataset or a smaller last batch (recorded from TF 2.21)."""
    if hasattr(x, "_flat_iter"):
        return None
    n = len(_numpy(x))
    return batch_size if n and n % batch_size == 0 else None


def _refuse_masked_output(pred):
    """A model output carrying a mask: Keras 3 leaves its masked steps out of the loss and
    the metrics, which tfgraph_edu does not do yet, so it says so rather than differ."""
    if pred is None or getattr(pred, "_keras_mask", None) is not None:
        raise NotImplementedError(
            "tfgraph_edu's fit/evaluate does not weight the loss and metrics by a model "
            "output's mask yet (Keras 3 leaves masked steps out): end the model with a layer "
            "that uses the mask up, such as GlobalAveragePooling1D or an LSTM without "
            "return_sequences.")


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
        self.stop_training = False
        self.loss = None
        self.compiled_metrics = []
        self.compiled = False
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
        nodes = functional.nodes_between(inputs, outputs)
        inputs_layers = [t._node[0] for t in functional._flatten(inputs)]
        others = [layer for layer, _, _ in nodes if layer not in inputs_layers]
        # kept out of the checkpoints' walk (a namespace is not walked): checkpoints name
        # the layers by their place in ``_operations``, as TF 2.21's Keras 3 does
        self._graph = SimpleNamespace(nodes=nodes, layers=inputs_layers + others)
        self._operations = list(self._graph.layers)
        self.built = True
        out = functional._flatten(outputs)
        self._output_shape = out[0].shape if len(out) == 1 else None

    def _input_dtypes(self, count):
        """A functional model casts float inputs to its ``Input``s' dtypes, as Keras 3 does."""
        if self._func_inputs is not None:
            flat = functional._flatten(self._func_inputs)
            if len(flat) == count:
                return [t._dtype for t in flat]
        return super()._input_dtypes(count)

    @property
    def layers(self):
        if self._func_inputs is not None:
            return list(self._graph.layers)
        return [v for v in vars(self).values() if isinstance(v, Layer)]

    @property
    def inputs(self):
        if self._func_inputs is None:
            raise AttributeError(f"'{type(self).__name__}' object has no attribute 'inputs'")
        return functional._flatten(self._func_inputs)

    @property
    def outputs(self):
        if self._func_inputs is None:
            raise AttributeError(f"'{type(self).__name__}' object has no attribute 'outputs'")
        return functional._flatten(self._func_outputs)

    @property
    def input_shape(self):
        return _shapes_of(self.inputs)

    @property
    def output_shape(self):
        return _shapes_of(self.outputs)

    def get_layer(self, name=None, index=None):
        """A layer of the model by name or by index (Keras 3's errors)."""
        if index is not None and name is not None:
            raise ValueError("Provide only a layer name or a layer index. Received: "
                             f"index={index}, name={name}.")
        if index is not None:
            if len(self.layers) <= index:
                raise ValueError(f"Was asked to retrieve layer at index {index} but model "
                                 f"only has {len(self.layers)} layers.")
            return self.layers[index]
        if name is not None:
            for layer in self.layers:
                if layer.name == name:
                    return layer
            raise ValueError(f"No such layer: {name}. Existing layers are: "
                             f"{[layer.name for layer in self.layers]}.")
        raise ValueError("Provide either a layer name or layer index at `get_layer`.")

    def build(self, input_shape=None):
        self.built = True

    def call(self, inputs, training=None):
        if self._func_inputs is None:
            raise NotImplementedError(f"Model {self.name} has no call(): subclass Model and "
                                      "define call, or build it with Model(inputs, outputs).")
        return functional.run_graph(self, inputs, training=training)

    def _call_eager_or_traced(self, inputs, kwargs, symbolic=None):
        if self._func_inputs is not None:
            self._check_functional_inputs(inputs)
        return super()._call_eager_or_traced(inputs, kwargs, symbolic)

    def _check_functional_inputs(self, inputs):
        """Keras 3 refuses inputs that do not match a functional model's ``Input``s (a list
        of two for a one-input model would otherwise use only the first)."""
        expected = functional._flatten(self._func_inputs)
        received = functional._flatten(inputs)
        if len(received) == len(expected):
            return
        if len(expected) == 1:
            key = expected[0]._node[0].name
            raise ValueError(f'Layer "{self.name}" expects 1 named input(s) with keys '
                             f"['{key}'], but it received {len(received)} input tensors. Pass "
                             f"inputs as a dict, e.g. `layer({{'{key}': ...}})`.")
        raise ValueError(f'Layer "{self.name}" expects {len(expected)} input(s), but it '
                         f"received {len(received)} input tensors. Inputs received: {inputs}")

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
        self.compiled = True
        self.train_function = None
        self.predict_function = None

    def _assert_compiled(self):
        """Keras 3's errors for ``fit``/``evaluate`` on a model not compiled (or compiled
        without a loss)."""
        if not getattr(self, "compiled", False):
            raise ValueError("You must call `compile()` before using the model.")
        if self.loss is None:
            raise ValueError("No loss to compute. Provide a `loss` argument in `compile()`.")

    def train_step(self, x, y):
        with GradientTape() as tape:
            pred = self(x, training=True)
            _refuse_masked_output(pred)
            loss = self._with_penalties(self.loss(y, pred))
        variables = list(self.trainable_variables)
        if not variables:  # Keras 3's warning (raw tf.Variables are not a model's weights)
            warnings.warn("The model does not have any trainable weights.", stacklevel=2)
            return loss, pred  # and no update
        grads = tape.gradient(loss, variables)
        self.optimizer.apply_gradients(zip(grads, variables))
        return loss, pred

    def _make_train_function(self, xb=None, yb=None, batch_dim=None):
        """The train step as a Function.  Keras 3 traces it once for every batch size, with
        the batch dimension its data pipeline gives: the batch size when every batch has it,
        else unknown (``(None, ...)``: the last batch is smaller, or the data is a Dataset)."""
        dtypes = tuple(getattr(t, "dtype", None) for t in (xb, yb))
        if self.train_function is not None and xb is not None and \
                dtypes != getattr(self, "_train_dtypes", dtypes):
            # data of other dtypes (a float64 Dataset, then a float32 one): Keras 3's
            # train function traces again for them; here a new one is made
            self.train_function = None
        if self.train_function is None:
            self._train_dtypes = dtypes
            step = self.train_step
            signature = None
            if all(hasattr(t, "shape") and hasattr(t, "dtype") and t.shape.rank
                   for t in (xb, yb)):
                signature = [TensorSpec([batch_dim, *t.shape.as_list()[1:]], t.dtype)
                             for t in (xb, yb)]
            self.train_function = step if self.run_eagerly else Function(
                step, name="train_function", reduce_retracing=True, input_signature=signature)
        return self.train_function

    def _batches(self, x, y, batch_size, shuffle, rng):
        if hasattr(x, "_flat_iter"):  # a tf.data.Dataset of (x, y) batches
            for batch in x:
                yield batch[0], batch[1]
            return
        x, y = _floatx_array(x), _floatx_array(y)
        n = len(x)
        order = rng.permutation(n) if shuffle else np.arange(n)
        for s in range(max(1, -(-n // batch_size))):
            idx = order[s * batch_size:(s + 1) * batch_size]
            yield convert.constant(x[idx]), convert.constant(y[idx])

    def fit(self, x=None, y=None, batch_size=None, epochs=1, verbose=1, callbacks=None,
            validation_split=0.0, validation_data=None, shuffle=True, class_weight=None,
            sample_weight=None, initial_epoch=0, steps_per_epoch=None, validation_steps=None,
            validation_batch_size=None, validation_freq=1):
        """Keras 3's training loop: per epoch the mean loss and the compiled metrics, sorted
        by name, then (with ``validation_data``) the same on the validation data as
        ``val_<name>``.  Options tfgraph_edu lacks are refused when given."""
        for option, value, default in (
                ("validation_split", validation_split, 0.0), ("class_weight", class_weight, None),
                ("sample_weight", sample_weight, None), ("initial_epoch", initial_epoch, 0),
                ("steps_per_epoch", steps_per_epoch, None),
                ("validation_steps", validation_steps, None),
                ("validation_freq", validation_freq, 1)):
            if (value is not None) if default is None else value != default:
                raise NotImplementedError(f"tfgraph_edu's Model.fit does not implement "
                                          f"{option}= yet.")
        self._assert_compiled()
        validation = _validation_pair(validation_data)
        x, y = _data(x, y)
        batch_size = 32 if batch_size is None else int(batch_size)
        step_fn = None
        history = callbacks_mod.History()
        # Keras 3's order: the learner's callbacks, then History, then the progress bar (so
        # what a callback adds to the logs, as LearningRateScheduler's learning_rate, is
        # recorded and shown)
        cbs = list(callbacks or []) + [history]
        steps_hint = (len(x) if hasattr(x, "_flat_iter") else
                      max(1, -(-len(_numpy(x)) // batch_size)))
        self.stop_training = False  # a callback (EarlyStopping) sets it to end the fit
        if validation is not None:
            for cb in cbs:
                hooks = [h for h in callbacks_mod.UNCALLED_IN_FIT
                         if getattr(type(cb), h, None) is not None]
                if hooks:
                    raise NotImplementedError(
                        f"{type(cb).__name__} overrides {', '.join(hooks)}: Keras 3 calls "
                        "them for fit's validation pass; tfgraph_edu's fit does not yet. Drop "
                        "validation_data, or move that work to on_epoch_end.")
        for cb in cbs:
            cb.set_model(self)
            cb.set_params({"verbose": verbose, "epochs": epochs, "steps": steps_hint})
            cb.on_train_begin()
        base = callbacks_mod.Callback
        batch_hooks = any(getattr(type(cb), h) is not getattr(base, h)
                          for cb in cbs for h in ("on_train_batch_end", "on_batch_end"))
        rng = np.random.default_rng(0)
        for epoch in range(epochs):
            for cb in cbs:
                cb.on_epoch_begin(epoch)
            if verbose and epochs > 1:  # Keras 3 names the epoch only when there are several
                print(f"Epoch {epoch + 1}/{epochs}", file=sys.stdout)
            for m in self.compiled_metrics:
                m.reset_state()
            start = time.perf_counter()
            total, seen, steps = 0.0, 0, 0
            for xb, yb in self._batches(x, y, batch_size, shuffle, rng):
                if step_fn is None:
                    step_fn = self._make_train_function(xb, yb, _batch_dim(x, batch_size))
                for cb in cbs:
                    cb.on_train_batch_begin(steps, {})
                loss, pred = step_fn(xb, yb)
                n = int(xb.shape[0])
                total += float(loss) * n
                seen += n
                for m in self.compiled_metrics:
                    m.update_state(yb, pred)
                if batch_hooks:  # Keras 3's logs so far: the running loss and metrics
                    batch_logs = _sorted_logs({"loss": total / seen, **{
                        m.name: float(m.result()) for m in self.compiled_metrics}})
                    for cb in cbs:
                        cb.on_train_batch_end(steps, batch_logs)
                steps += 1
            logs = {"loss": total / max(seen, 1)}
            for m in self.compiled_metrics:
                logs[m.name] = float(m.result())
            logs = _sorted_logs(logs)
            if validation is not None:
                val_x, val_y = validation
                val_pred, _ = self._predict(val_x, validation_batch_size or batch_size)
                yt, pt = convert.constant(_floatx_array(val_y)), convert.constant(val_pred)
                val = self._results(self._with_penalties(self.loss(yt, pt)), yt, pt, True)
                logs.update({f"val_{k}": v for k, v in val.items()})
            elapsed = time.perf_counter() - start
            for cb in cbs:
                cb.on_epoch_end(epoch, logs)
            if verbose:
                print(_progress_line(steps, elapsed, logs, verbose), file=sys.stdout)
            if self.stop_training:
                break
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

    def predict(self, x, batch_size=None, verbose="auto", steps=None, callbacks=None):
        """The outputs as one NumPy array; like Keras 3, it prints its progress bar unless
        ``verbose=0`` (``"auto"`` is 1)."""
        start = time.perf_counter()
        x = _data(x)
        out, n = self._predict(x, 32 if batch_size is None else int(batch_size))
        _progress(verbose, n, start)
        return out

    def _predict(self, x, batch_size):
        """(outputs, number of batches): ``predict`` without its progress bar."""
        if self.predict_function is None:
            def step(v):
                out = self(v, training=False)
                self._output_masked = getattr(out, "_keras_mask", None) is not None
                return out
            self.predict_function = step if self.run_eagerly else Function(
                step, name="predict_function", reduce_retracing=True)
        if hasattr(x, "_flat_iter"):
            batches = [b[0] if isinstance(b, tuple) else b for b in x]
        elif isinstance(x, SparseTensor):  # row slices of it, as Keras 3 batches one
            shape = [int(d) for d in x.dense_shape.numpy()]
            batches = [sparse_ops.slice_(x, [i] + [0] * (len(shape) - 1),
                                         [batch_size] + shape[1:])
                       for i in range(0, shape[0], batch_size)]
        else:
            arr = _floatx_array(x)
            batches = [convert.constant(arr[i:i + batch_size])
                       for i in range(0, len(arr), batch_size)]
        outs = [self.predict_function(b).numpy() for b in batches]
        return (np.concatenate(outs) if outs else np.zeros((0,))), len(batches)

    def train_on_batch(self, x, y=None, sample_weight=None, class_weight=None,
                       return_dict=False):
        """One training step on one batch, as Keras 3: the loss (and metrics) after it."""
        self._assert_compiled()
        if sample_weight is not None or class_weight is not None:
            raise NotImplementedError("tfgraph_edu's train_on_batch does not implement "
                                      "sample_weight or class_weight yet.")
        xb, yb = convert.constant(_floatx_array(x)), convert.constant(_floatx_array(y))
        loss, pred = self._make_train_function()(xb, yb)
        return self._results(loss, yb, pred, return_dict)

    def test_on_batch(self, x, y=None, sample_weight=None, return_dict=False):
        """The loss (and metrics) on one batch, as Keras 3."""
        self._assert_compiled()
        if sample_weight is not None:
            raise NotImplementedError("tfgraph_edu's test_on_batch does not implement "
                                      "sample_weight yet.")
        return self.evaluate(x, y, batch_size=len(_numpy(x)), verbose=0,
                             return_dict=return_dict)

    def predict_on_batch(self, x):
        """The model's outputs on one batch, as NumPy (Keras 3)."""
        return self._predict(x, len(_numpy(x)))[0]

    def evaluate(self, x=None, y=None, batch_size=None, verbose="auto", return_dict=False,
                 **kwargs):
        """The loss (and metrics); like Keras 3, it prints its progress bar unless
        ``verbose=0``."""
        self._assert_compiled()
        start = time.perf_counter()
        batch_size = 32 if batch_size is None else int(batch_size)
        x, y = _data(x, y)
        if hasattr(x, "_flat_iter"):
            pairs = list(x)
            xs = np.concatenate([p[0].numpy() for p in pairs])
            y = np.concatenate([p[1].numpy() for p in pairs])
            x = xs
        pred, n = self._predict(x, batch_size)
        if getattr(self, "_output_masked", False):
            _refuse_masked_output(None)
        yt, pt = convert.constant(_floatx_array(y)), convert.constant(pred)
        results = self._results(self._with_penalties(self.loss(yt, pt)), yt, pt, True)
        _progress(verbose, n, start, results)
        if return_dict:
            return results
        return results["loss"] if len(results) == 1 else [results["loss"]] + [
            results[m.name] for m in self.compiled_metrics]

    def _with_penalties(self, loss):
        """The loss plus the weights' regularization penalties, as Keras 3 adds them."""
        for penalty in self.losses:
            loss = loss + penalty
        return loss

    def _results(self, loss, y, pred, return_dict):
        """The loss and the compiled metrics on (y, pred), as Keras 3 returns them: a dict, or
        the loss alone, or a list with the metrics after it."""
        results = {"loss": float(loss)}
        for m in self.compiled_metrics:
            m.reset_state()
            m.update_state(y, pred)
            results[m.name] = float(m.result())
        if return_dict:
            return _sorted_logs(results)
        return results["loss"] if len(results) == 1 else list(results.values())


def _progress(verbose, steps, start, logs=None):
    """The last state of Keras 3's progress bar of ``predict``/``evaluate`` (``verbose`` 1 or
    ``"auto"``), or its one line (``verbose=2``); nothing for 0."""
    if not verbose:
        return
    print(_progress_line(steps, time.perf_counter() - start, logs or {}, verbose),
          file=sys.stdout)


def _progress_line(steps, elapsed, logs, verbose) -> str:
    """Keras 3's progress bar as it ends (``verbose=1``/``"auto"``), or its one line
    (``verbose=2``): steps, time, time per step (s, ms or us), then each logged value
    (under 1e-3 in e-notation)."""
    per = elapsed / max(steps, 1)
    unit = (f"{per:.0f}s/step" if per >= 1 else f"{per * 1e3:.0f}ms/step" if per >= 1e-3
            else f"{per * 1e6:.0f}us/step")
    shown = "".join(f" - {k}: " + (f"{v:.4f}" if abs(v) > 1e-3 else f"{v:.4e}")
                    for k, v in logs.items())
    if verbose == 2:
        return f"{steps}/{steps} - {elapsed:.0f}s - {unit}{shown}"
    return f"{steps}/{steps} {'━' * 20} {elapsed:.0f}s {unit}{shown}"


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

    @property
    def inputs(self):
        if self._input is None:
            raise AttributeError(f"Sequential model '{self.name}' has no defined inputs yet.")
        return [self._input]

    @property
    def outputs(self):
        if self._input is None:
            raise AttributeError(f"Sequential model '{self.name}' has no defined outputs yet.")
        return [self._last_output]

    @property
    def input_shape(self):
        if self._input is None:
            raise AttributeError(f"Sequential model '{self.name}' has no defined input shape "
                                 "yet.")
        return _shapes_of(self.inputs)

    @property
    def output_shape(self):
        if self._input is None:
            raise AttributeError(f"Sequential model '{self.name}' has no defined output shape "
                                 "yet.")
        return _shapes_of(self.outputs)

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
            with keras_scope(self.name, self):  # its layers' weights are under its path
                self._last_output = layer(x)
            self._built_graph()

    def _built_graph(self):
        if not getattr(self, "_graph_counted", False):  # Keras 3 names its inner graph
            functional._unique("functional")  # as a functional model: the next is _1
            self._graph_counted = True
        self.built = True
        self._output_shape = self._last_output.shape
        # what checkpoints walk first, as TF 2.21: model/_functional/_operations/1/_kernel
        self._functional = _SequentialGraph([self._input._node[0]] + list(self._layers))

    def build(self, input_shape=None, dtype=None):
        """Creates every layer's weights for inputs of ``input_shape`` (batch dimension
        first), as Keras's ``Sequential.build`` does: the model is then built before any
        call, its layers called on an ``Input`` of that whole shape."""
        if input_shape is not None and self._input is None and self._layers:
            from .functional import Input
            self._input = Input(batch_shape=TensorShape(input_shape).as_list(), dtype=dtype)
            x = self._input
            with keras_scope(self.name, self):
                for layer in self._layers:
                    x = layer(x)
            self._last_output = x
            self._built_graph()
        self.built = True

    def _call_eager_or_traced(self, inputs, kwargs, symbolic=None):
        if not self.built and self._input is None and self._layers and symbolic is None:
            # Keras 3 builds a Sequential on its first call from the input's whole shape
            x = inputs[0] if isinstance(inputs, (list, tuple)) and inputs else inputs
            shape = getattr(x, "shape", None)
            if shape is None and hasattr(x, "__array__"):
                shape = np.shape(x)
            if shape is not None and not isinstance(inputs, (list, tuple, dict)):
                dtype = _input_dtype(x)
                self.build(tuple(TensorShape(shape).as_list()), dtype=dtype)
        self.built = True  # a first call builds each layer as it reaches it
        return super()._call_eager_or_traced(inputs, kwargs, symbolic)

    def call(self, inputs, training=None, mask=None, **kwargs):  # Keras 3's signature
        x = self._adjust_rank(inputs) if self._input is not None else inputs
        for layer in self._layers:
            x = layer(x, training=training)
        return x


    def _adjust_rank(self, x):
        """Keras 3's input rank adjustment of a built model: an input with one more axis of
        size 1 than the model's ``Input`` loses it, one with one axis fewer gains it when the
        ``Input`` ends in 1 (a model fit on ``(n, 1)`` predicts on ``(n,)``); any other rank
        is refused (after the first layer's own check, as Keras checks it first)."""
        shape = getattr(x, "shape", None)
        ref = self._input.shape
        if shape is None or isinstance(x, (list, tuple, dict)) or shape.rank is None or \
                ref.rank is None or shape.rank == ref.rank:
            return x
        if shape.rank == ref.rank + 1 and shape.dims[-1] == 1:
            return shape_ops.squeeze(x, axis=[-1])
        if shape.rank == ref.rank - 1 and ref.dims[-1] == 1:
            return shape_ops.expand_dims(x, -1)
        if self._layers:
            check_input_spec(self._layers[0], x)
        shown = x.numpy() if hasattr(x, "numpy") else x
        raise ValueError(f"Invalid input shape for input {shown} with name "
                         f"'{getattr(self._input, 'name', 'keras_tensor')}' and path ''. "
                         f"Expected shape {tuple(ref.as_list())}, but input has incompatible "
                         f"shape {tuple(shape.as_list())}")


class _SequentialGraph(AutoTrackable):
    """The functional graph Keras 3 builds inside a Sequential: its ``_operations`` (the
    InputLayer, then the layers) are what a checkpoint of the Sequential names."""

    def __init__(self, operations):
        self._operations = operations


def _shapes_of(tensors):
    shapes = [tuple(t.shape.as_list()) for t in tensors]
    return shapes[0] if len(shapes) == 1 else shapes


def _input_dtype(x):
    """The dtype of a Sequential's first input for its symbolic build: None (float32, as
    Keras casts float inputs) unless the input is not a float (integer ids, strings)."""
    dtype = getattr(x, "dtype", None)
    try:
        dtype = _dt.as_dtype(getattr(dtype, "name", dtype)) if dtype is not None else None
    except (TypeError, ValueError, KeyError):
        return None
    return None if dtype is None or dtype.is_floating else dtype


def _numpy(v):
    return v.numpy() if hasattr(v, "numpy") else v


def _array_like(v) -> bool:
    """An array, a tensor (sparse, ragged and other composites too), a variable or a dataset."""
    return isinstance(v, (np.ndarray, SparseTensor)) or convert.is_tensor(v) or \
        hasattr(v, "_as_tensor") or hasattr(v, "_flat_iter") or hasattr(v, "_type_spec")


def _floatx_array(v) -> np.ndarray:
    """An array or tensor as the NumPy array Keras 3 batches: floats not of ``floatx()``
    (float64 NumPy data) cast to it, as its array adapter does."""
    a = np.asarray(_numpy(v))
    if a.dtype.kind == "f" and a.dtype != np.dtype(backend.floatx()):
        a = a.astype(backend.floatx())
    return a


def _sorted_logs(logs: dict) -> dict:
    """Keras 3 hands its logs (history, callbacks, the progress bar, ``return_dict``) over
    sorted by name: ``accuracy`` before ``loss``."""
    return {k: logs[k] for k in sorted(logs)}


def _validation_pair(data):
    """``fit(validation_data=...)``: None, an ``(x, y)`` pair or a Dataset of such batches,
    as (x, y) arrays; a third item (sample weights) is refused."""
    if data is None:
        return None
    if hasattr(data, "_flat_iter"):
        pairs = list(data)
        return (np.concatenate([p[0].numpy() for p in pairs]),
                np.concatenate([p[1].numpy() for p in pairs]))
    if isinstance(data, (list, tuple)) and len(data) == 2:
        return tuple(_data(*data))
    raise NotImplementedError("tfgraph_edu's Model.fit takes validation_data as (x, y) or a "
                              "Dataset of (x, y) batches only yet.")


def _data(x, *others):
    """Keras 3's data check: every leaf of ``x`` and ``y`` is an array or a tensor (a Python
    list of numbers is its ValueError, naming ``x``); a list holding one array is that array
    (the model's one input)."""
    def leaves(v):
        if isinstance(v, (list, tuple)):
            return [leaf for item in v for leaf in leaves(item)]
        if isinstance(v, dict):
            return [leaf for item in v.values() for leaf in leaves(item)]
        return [v]
    for v in (x, *others):
        if v is not None and not all(_array_like(leaf) for leaf in leaves(v)):
            raise ValueError(f"Unrecognized data type: x={x} (of type {type(x)})")
    unwrap = [v[0] if isinstance(v, (list, tuple)) and len(v) == 1 else v for v in (x, *others)]
    return unwrap if others else unwrap[0]


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
    return _load(filepath, custom_objects)
