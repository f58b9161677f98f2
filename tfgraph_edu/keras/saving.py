"""Whole-model files: ``model.save("name.keras")`` and ``tf.keras.models.load_model``.

A ``.keras`` file here is a zip holding ``config.json`` (the model's class and each
layer's class and settings) and ``model.weights.npz`` (the variables as .npy arrays).
Loading reads JSON and numbers only (``allow_pickle=False``) and rebuilds layers from a
fixed table of built-in classes: no code from the file ever runs.

Deliberate departures: the weights are not HDF5, so real Keras cannot read these files;
subclassed models and ``Lambda`` layers are saved but cannot be loaded (Keras 3 refuses
Python lambdas in its safe mode too).
"""

from __future__ import annotations

import io
import json
import zipfile

import numpy as np

from ..errors import DataLossError
from ..shapes import TensorShape

FORMAT = "tfgraph_edu-keras"


def _activation_name(fn):
    from .layers import ACTIVATIONS
    for name, f in ACTIVATIONS.items():
        if f is fn and name is not None:
            return name
    from ..ops import math_ops
    for name in ("relu", "sigmoid", "tanh"):
        if fn is getattr(math_ops, name):
            return name
    if getattr(fn, "__name__", "") == "<lambda>" and fn is ACTIVATIONS[None]:
        return "linear"
    raise ValueError(f"Cannot save the activation {fn!r}: only built-in activation names "
                     "(relu, sigmoid, tanh, softmax, linear) are saved.")


def layer_config(layer) -> dict:
    """A layer's class name and the settings that rebuild it."""
    from . import core_layers, layers, rnn_layers
    cfg = {"name": layer.name, "trainable": layer.trainable}
    if isinstance(layer, layers.Dense):
        cfg.update(units=layer.units, activation=_activation_name(layer.activation),
                   use_bias=layer.use_bias)
    elif isinstance(layer, layers.Dropout):
        cfg.update(rate=layer.rate, seed=layer.seed)
    elif isinstance(layer, core_layers.Reshape):
        cfg.update(target_shape=list(layer.target_shape))
    elif isinstance(layer, core_layers.Activation):
        cfg.update(activation=_activation_name(layer.activation))
    elif isinstance(layer, core_layers.Conv2D):
        cfg.update(filters=layer.filters, kernel_size=list(layer.kernel_size),
                   strides=list(layer.strides), padding=layer.padding.lower(),
                   activation=_activation_name(layer.activation), use_bias=layer.use_bias)
    elif isinstance(layer, core_layers.MaxPooling2D):
        cfg.update(pool_size=list(layer.pool_size), strides=list(layer.strides),
                   padding=layer.padding.lower())
    elif isinstance(layer, core_layers.BatchNormalization):
        cfg.update(axis=layer.axis, momentum=layer.momentum, epsilon=layer.epsilon,
                   center=layer.center, scale=layer.scale)
    elif isinstance(layer, core_layers.Lambda):
        cfg.update(function="<python function: not saved>")
    elif isinstance(layer, core_layers.InputLayer):
        cfg = {"name": layer.name, "batch_shape": list(layer.batch_shape)}
    elif isinstance(layer, (layers.Flatten, rnn_layers.RNN, rnn_layers.LSTMCell)):
        pass
    return {"class_name": type(layer).__name__, "config": cfg}


def _model_config(model) -> dict:
    from .models import Sequential
    if isinstance(model, Sequential):
        inp = model._input
        return {"class_name": "Sequential", "config": {
            "name": model.name,
            "input_shape": None if inp is None else [d for d in inp.shape.dims],
            "layers": [layer_config(layer) for layer in model.layers]}}
    if model._func_inputs is not None:
        return {"class_name": "Functional", "config": {"name": model.name}}
    return {"class_name": type(model).__name__, "config": {"name": model.name}}


def save_model(model, filepath):
    buf = io.BytesIO()
    np.savez(buf, **{f"w{i}": np.asarray(v.numpy()) for i, v in enumerate(model.variables)})
    with zipfile.ZipFile(filepath, "w") as zf:
        zf.writestr("metadata.json", json.dumps({"format": FORMAT, "version": 1}))
        zf.writestr("config.json", json.dumps(_model_config(model), indent=1))
        zf.writestr("model.weights.npz", buf.getvalue())


def _built_in(class_name):
    from . import core_layers, layers
    table = {"Dense": layers.Dense, "Dropout": layers.Dropout, "Flatten": layers.Flatten,
             "Reshape": core_layers.Reshape, "Activation": core_layers.Activation,
             "Conv2D": core_layers.Conv2D, "MaxPooling2D": core_layers.MaxPooling2D,
             "BatchNormalization": core_layers.BatchNormalization}
    return table.get(class_name)


def load_model(filepath):
    from .functional import Input
    from .models import Sequential
    try:
        with zipfile.ZipFile(filepath) as zf:
            meta = json.loads(zf.read("metadata.json"))
            config = json.loads(zf.read("config.json"))
            with np.load(io.BytesIO(zf.read("model.weights.npz")), allow_pickle=False) as w:
                weights = [w[f"w{i}"] for i in range(len(w.files))]
    except (OSError, KeyError, ValueError, zipfile.BadZipFile) as e:
        raise DataLossError(None, None, f"Unable to read {filepath}: {e}") from None
    if meta.get("format") != FORMAT:
        raise ValueError(f"{filepath} was not written by tfgraph_edu's model.save.")
    if config.get("class_name") != "Sequential":
        raise TypeError(f"Could not locate class '{config.get('class_name')}'. tfgraph_edu "
                        "rebuilds Sequential models of built-in layers only; rebuild this model "
                        "in Python and call load_weights.")
    cfg = config["config"]
    layers = []
    for entry in cfg["layers"]:
        if entry["class_name"] == "Lambda":
            raise ValueError("Requested the deserialization of a `Lambda` layer whose "
                             "`function` is a Python function. Loading it would run code from "
                             "the file, which tfgraph_edu never does: rebuild the model in "
                             "Python and call load_weights.")
        cls = _built_in(entry["class_name"])
        if cls is None:
            raise TypeError(f"Could not locate class '{entry['class_name']}'.")
        layers.append(cls(**entry["config"]))
    model = Sequential(name=cfg["name"])
    if cfg.get("input_shape") is not None:
        model.add(Input(batch_shape=tuple(cfg["input_shape"])))
    for layer in layers:
        model.add(layer)
    variables = model.variables
    if len(variables) != len(weights):
        raise ValueError(f"The file holds {len(weights)} weights; the rebuilt model has "
                         f"{len(variables)} (was it built when saved?).")
    for v, arr in zip(variables, weights):
        if TensorShape(list(arr.shape)) != v.shape:
            raise ValueError(f"Shape mismatch for {v.name}: {arr.shape} vs {v.shape}")
        v.assign(arr)
    return model
