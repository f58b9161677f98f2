"""Whole-model files: ``model.save("name.keras")`` and ``tf.keras.models.load_model``.

A ``.keras`` file here is a zip holding ``metadata.json`` (format, version and the sha256
of the two other members), ``config.json`` (the model's class and each layer's class and
settings) and ``model.weights.npz`` (the variables as .npy arrays).  The file is written
atomically (a save killed midway leaves the old file or the new one).  Loading checks the
zip's CRC-32s and the sha256s before it parses a member, so a damaged or truncated file is a
``tf.errors.DataLossError`` naming it; it reads JSON and numbers only
(``allow_pickle=False``) and rebuilds layers from a fixed table of built-in classes: no code
from the file ever runs.

Deliberate departures: the weights are not HDF5, so real Keras cannot read these files;
``Lambda`` layers are saved but cannot be loaded (Keras 3 refuses Python lambdas in its safe
mode too); a subclassed model loads only when its class is registered
(``keras.saving.register_keras_serializable``) or given in ``custom_objects``, as in Keras 3.
"""

from __future__ import annotations

import io
import json
import lzma
import struct
import zipfile
import zlib

import numpy as np

from .. import _files
from ..errors import DataLossError, NotFoundError
from ..shapes import TensorShape

FORMAT = "tfgraph_edu-keras"
VERSION = 2
# what zipfile, zlib and json raise on a damaged archive (a flipped byte can change a
# member's compression method, flags or sizes as well as its data)
_ZIP_ERRORS = (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError, ValueError,
               KeyError, NotImplementedError, RuntimeError, zlib.error, lzma.LZMAError,
               struct.error, OverflowError, UnicodeDecodeError)


def _activation_name(fn):
    from .layers import ACTIVATIONS
    for name, f in ACTIVATIONS.items():
        if f is fn and name is not None:
            return name
    from ..ops import math_ops
    for name in ("relu", "sigmoid", "tanh"):
        if fn is getattr(math_ops, name):
            return name
    raise ValueError(f"Cannot save the activation {fn!r}: only built-in activation names "
                     "(relu, sigmoid, tanh, softmax, linear) are saved.")


def layer_config(layer) -> dict:
    """A layer's class name and the settings that rebuild it."""
    from . import core_layers, embedding, layers, rnn_layers
    cfg = {"name": layer.name, "trainable": layer.trainable}
    if isinstance(layer, layers.Dense):
        if any(r is not None for r in layer._regularizers):  # not dropped in silence
            raise NotImplementedError("tfgraph_edu does not save a Dense layer's "
                                      "kernel_regularizer/bias_regularizer yet.")
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
    elif isinstance(layer, embedding.Embedding):
        init = layer.embeddings_initializer
        cfg.update(input_dim=layer.input_dim, output_dim=layer.output_dim,
                   mask_zero=layer.mask_zero,
                   **({"embeddings_initializer": init} if isinstance(init, str) else {}))
    elif isinstance(layer, rnn_layers.LSTM):
        cell = layer.cell
        cfg.update(units=cell.units, activation=_activation_name(cell.activation),
                   recurrent_activation=_activation_name(cell.recurrent_activation),
                   use_bias=cell.use_bias, unit_forget_bias=cell.unit_forget_bias,
                   return_sequences=layer.return_sequences, return_state=layer.return_state)
    elif isinstance(layer, core_layers.Masking):
        cfg.update(mask_value=layer.mask_value)
    elif isinstance(layer, core_layers.GlobalAveragePooling1D):
        cfg.update(data_format=layer.data_format, keepdims=layer.keepdims)
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
    shape = getattr(model, "_build_input_shape", None)
    return {"class_name": type(model).__name__, "config": {"name": model.name},
            "registered_name": getattr(type(model), "_registered_name", None),
            "build_input_shape": None if shape is None or shape.rank is None
            else list(shape.as_list())}


_REGISTERED: dict = {}


def register_keras_serializable(package="Custom", name=None):
    """``keras.saving.register_keras_serializable()``: a class decorator putting the class in
    the registry under ``package>name`` (the class's name by default), where ``load_model``
    finds the class a file names (the class is the program's own; no code comes from files)."""
    def decorate(cls):
        key = f"{package}>{name or cls.__name__}"
        if key in _REGISTERED and _REGISTERED[key] is not cls:
            pass  # Keras 3 replaces it too: the newest class of that name wins
        _REGISTERED[key] = cls
        cls._registered_name = key
        return cls
    return decorate


def get_registered_name(obj):
    cls = obj if isinstance(obj, type) else type(obj)
    return getattr(cls, "_registered_name", None) or cls.__name__


def get_registered_object(name, custom_objects=None, module_objects=None):
    return (custom_objects or {}).get(name) or _REGISTERED.get(name) \
        or (module_objects or {}).get(name)


def _load_subclassed(config, weights, custom_objects):
    """A subclassed model whose class is registered (or given in ``custom_objects``): made
    from its config, built by a call on zeros of the shape it was built with, then given
    its weights in the order it made them."""
    from ..ops import creation_ops
    key = config.get("registered_name")
    cls = get_registered_object(key, custom_objects) or (custom_objects or {}).get(
        config.get("class_name"))
    if cls is None:
        raise TypeError(f"Could not locate class '{config.get('class_name')}'. Make sure "
                        "custom classes and functions are decorated with "
                        "`@keras.saving.register_keras_serializable()`. Full object config: "
                        f"{config}")
    cfg = dict(config["config"])
    model = cls.from_config(cfg) if "from_config" in vars(cls) else cls(**cfg)
    shape = config.get("build_input_shape")
    if shape is not None:
        model(creation_ops.zeros([1 if d is None else d for d in shape]))
    return model


def _assign_weights(model, weights):
    variables = model.variables
    if len(variables) != len(weights):
        raise ValueError(f"The file holds {len(weights)} weights; the rebuilt model has "
                         f"{len(variables)} (was it built when saved?).")
    for v, arr in zip(variables, weights):
        if TensorShape(list(arr.shape)) != v.shape:
            raise ValueError(f"Shape mismatch for {v.name}: {arr.shape} vs {v.shape}")
        v.assign(arr)


def save_model(model, filepath):
    weights = io.BytesIO()
    np.savez(weights, **{f"w{i}": np.asarray(v.numpy()) for i, v in enumerate(model.variables)})
    members = {"config.json": json.dumps(_model_config(model), indent=1).encode("utf-8"),
               "model.weights.npz": weights.getvalue()}
    meta = {"format": FORMAT, "version": VERSION,
            "sha256": {name: _files.sha256(data) for name, data in members.items()}}
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("metadata.json", json.dumps(meta))
        for name, data in members.items():
            zf.writestr(name, data)
    _files.write_file_atomic(filepath, archive.getvalue())


def _read(filepath):
    """(metadata, config, weights) of a ``.keras`` file, every member checked."""
    data = _files.read_file(filepath, "Keras file")

    def damaged(why):
        return DataLossError(None, None, f"Unable to read {filepath}: {why}; the file is "
                                         "damaged or was written partly; save the model "
                                         "again.")
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            meta = json.loads(zf.read("metadata.json"))
            if not isinstance(meta, dict) or meta.get("format") != FORMAT:
                raise ValueError(f"{filepath} was not written by tfgraph_edu's model.save.")
            sums = meta.get("sha256")
            if meta.get("version") != VERSION or not isinstance(sums, dict):
                raise damaged(f"it is a version {meta.get('version')!r} file, this "
                              f"tfgraph_edu reads version {VERSION}")
            members = {}
            for name in ("config.json", "model.weights.npz"):
                members[name] = zf.read(name)
                if _files.sha256(members[name]) != sums.get(name):
                    raise damaged(f"the checksum of its {name} does not match")
    except DataLossError:
        raise
    except _ZIP_ERRORS as e:
        if isinstance(e, ValueError) and "was not written by" in str(e):
            raise
        raise damaged(f"{type(e).__name__}: {e}") from None
    try:
        config = json.loads(members["config.json"])
        with np.load(io.BytesIO(members["model.weights.npz"]), allow_pickle=False) as w:
            weights = [w[f"w{i}"] for i in range(len(w.files))]
    except (OSError, KeyError, ValueError, zipfile.BadZipFile) as e:  # checked bytes: ours
        raise damaged(f"{type(e).__name__}: {e}") from None
    return meta, config, weights


def _built_in(class_name):
    from . import core_layers, embedding, layers, rnn_layers
    table = {"Dense": layers.Dense, "Dropout": layers.Dropout, "Flatten": layers.Flatten,
             "Reshape": core_layers.Reshape, "Activation": core_layers.Activation,
             "Conv2D": core_layers.Conv2D, "MaxPooling2D": core_layers.MaxPooling2D,
             "BatchNormalization": core_layers.BatchNormalization,
             "Embedding": embedding.Embedding, "LSTM": rnn_layers.LSTM,
             "GlobalAveragePooling1D": core_layers.GlobalAveragePooling1D,
             "Masking": core_layers.Masking}
    return table.get(class_name)


def load_model(filepath, custom_objects=None, compile=True, safe_mode=True):  # noqa: A002
    from .functional import Input
    from .models import Sequential
    try:
        _meta, config, weights = _read(filepath)
    except NotFoundError:
        raise ValueError(f"File not found: filepath={filepath}. Please ensure the file is an "
                         "accessible `.keras` zip file.") from None
    if config.get("class_name") not in ("Sequential", "Functional") and (
            config.get("registered_name") or custom_objects):
        model = _load_subclassed(config, weights, custom_objects)
        _assign_weights(model, weights)
        return model
    if config.get("class_name") == "Functional":
        raise NotImplementedError("tfgraph_edu's load_model does not rebuild functional models "
                                  "yet: rebuild this model in Python and call load_weights.")
    if config.get("class_name") != "Sequential":
        raise TypeError(f"Could not locate class '{config.get('class_name')}'. Make sure "
                        "custom classes and functions are decorated with "
                        "`@keras.saving.register_keras_serializable()`. If they are already "
                        "decorated, make sure they are all imported so that the decorator is "
                        "run before trying to load them. Full object config: "
                        f"{config}")
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
    _assign_weights(model, weights)
    return model
