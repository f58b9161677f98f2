"""Writing a SavedModel (layer 10)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import numpy as np

from .. import _files
from ..dtypes import DType
from ..eager.variables import Variable
from ..function.polymorphic import Function
from ..ops.control_flow_ops import GraphFunction
from ..ops.extension_type import ExtensionType, ExtensionTypeSpec, registered_name
from ..shapes import TensorShape, TensorSpec
from ..tf_logging import get_logger
from .files import FINGERPRINT, write_fingerprint

FORMAT = "tfgraph_edu.saved_model/1"
# what save writes in a SavedModel folder; anything else already there is kept
_OURS = {"saved_model.json", FINGERPRINT, "arrays", "assets", "variables"}


class _Writer:
    def __init__(self, folder: Path):
        self.folder = folder
        (folder / "arrays").mkdir(parents=True, exist_ok=True)
        self.arrays = 0
        self.graphs: dict[str, dict] = {}

    def array(self, value) -> str:
        value = np.asarray(value)
        if value.dtype == object:
            value = value.astype(bytes)
        name = f"arrays/{self.arrays}.npy"
        self.arrays += 1
        np.save(self.folder / name, value, allow_pickle=False)
        return name

    def attr(self, v):
        from .. import dtypes as _dt
        if isinstance(v, _dt.DType):
            return {"dtype": v.name}
        if isinstance(v, TensorShape):
            return {"shape": v.dims}
        if isinstance(v, np.ndarray) or isinstance(v, np.generic):
            return {"tensor": self.array(v)}
        if isinstance(v, GraphFunction):
            return {"func": self.graph(v)}
        if isinstance(v, (list, tuple)):
            return {"list": [self.attr(x) for x in v]}
        if v is None or isinstance(v, (bool, int, float, str)):
            return {"value": v}
        raise ValueError(f"Cannot save an attribute of type {type(v).__name__}")

    def graph(self, fn) -> str:
        """Save a graph (with its inputs and outputs); returns its key."""
        key = fn.name
        if key in self.graphs:
            return key
        self.graphs[key] = {}  # reserve (nested functions may refer back)
        nodes = []
        for op in fn.graph.operations:
            nodes.append({
                "name": op.name, "op": op.type,
                "inputs": [f"{t.op.name}:{t.value_index}" for t in op.inputs],
                "control_inputs": [c.name for c in op.control_inputs],
                "attrs": {k: self.attr(v) for k, v in op.attrs.items()},
                "outputs": [{"shape": t.shape.dims, "dtype": t.dtype.name}
                            for t in op.outputs],
                "handle": ({"shape": op.outputs[0].handle_shape.dims,
                            "dtype": op.outputs[0].handle_dtype.name}
                           if op.outputs and op.outputs[0].handle_shape is not None else None),
            })
        self.graphs[key] = {"nodes": nodes, "inputs": [t.name for t in fn.inputs],
                            "outputs": [t.name for t in fn.outputs]}
        return key


class NotEncodableError(Exception):
    """TF's error for a value SavedModel cannot describe (an unregistered extension type)."""


def _ext_json(spec) -> dict:
    """An extension type's spec as JSON: its registered name and its fields (tensor fields
    as specs, the others as plain values). A class without a registered name is refused as
    TF refuses it."""
    name = registered_name(type(spec))
    if name is None:
        raise NotEncodableError(
            f"No encoder for object {spec!r} of type {type(spec)}.\nA SavedModel names an "
            "extension type by its registered name: give the class one, e.g. "
            f"`__name__ = 'my_project.{spec.value_type.__qualname__}'` in its body.")
    return {"name": name, "fields": {k: _field_json(v)
                                     for k, v in spec._fields_dict().items()}}


def _field_json(v) -> dict:
    if isinstance(v, TensorSpec):
        return {"spec": {"shape": v.shape.dims, "dtype": v.dtype.name}}
    if isinstance(v, ExtensionTypeSpec):
        return {"extension": _ext_json(v)}
    if isinstance(v, DType):
        return {"dtype": v.name}
    if isinstance(v, TensorShape):
        return {"shape": v.dims}
    if isinstance(v, tuple):
        return {"tuple": [_field_json(x) for x in v]}
    if isinstance(v, dict) or hasattr(v, "keys"):
        if all(isinstance(k, str) for k in v.keys()):
            return {"dict": {k: _field_json(v[k]) for k in v.keys()}}
    if v is None or isinstance(v, (bool, int, float, str)):
        return {"value": v}
    raise NotImplementedError(f"tfgraph_edu's tf.saved_model.save cannot save an extension "
                              f"type field holding a {type(v).__name__} yet.")


def _structure(value, tensors):
    """JSON for an output structure; tensors become {"output": index}."""
    if isinstance(value, (list, tuple)):
        return {"list" if isinstance(value, list) else "tuple":
                [_structure(v, tensors) for v in value]}
    if isinstance(value, dict):
        return {"dict": {str(k): _structure(v, tensors) for k, v in value.items()}}
    if hasattr(value, "op") and hasattr(value, "value_index"):
        # by identity: ``==`` on tensors is TF's element-wise comparison, not a lookup
        return {"output": next(i for i, t in enumerate(tensors) if t is value)}
    if value is None or isinstance(value, (bool, int, float, str)):
        return {"value": value}
    if type(value).__name__ == "RaggedTensor":  # its components: flat values, then splits
        return {"ragged": [_structure(c, tensors) for c in value._ag_components()]}
    if isinstance(value, ExtensionType):
        return {"extension": {"spec": _ext_json(value._type_spec),  # an extension type
                              "components": [_structure(c, tensors)
                                             for c in value._ag_components()]}}
    if hasattr(value, "_type_spec"):
        raise NotImplementedError(
            f"tfgraph_edu's tf.saved_model.save does not save a function returning a "
            f"{type(value).__name__} (a composite value such as a tf.experimental.ExtensionType)"
            " yet; return its tensors instead.")
    raise ValueError(f"Cannot save an output of type {type(value).__name__}")


def _spec(value):
    """A parameter's JSON: ``{"spec"}``, ``{"variable"}`` or ``{"value"}`` for a plain
    constant.  A list, tuple or dict argument becomes ``{"value": {"list"|"tuple"|"dict":
    ...}}`` with one such entry per item (its TensorSpecs fed in flattening order): a
    structured value that loaders knowing only scalar values reject rather than misread."""
    if isinstance(value, TensorSpec):
        return {"spec": {"shape": value.shape.dims, "dtype": value.dtype.name}}
    if isinstance(value, Variable):
        return {"variable": {"shape": value.shape.dims, "dtype": value.dtype.name}}
    if type(value).__name__ == "RaggedTensorSpec":  # fed as its component tensors
        return {"ragged": {"shape": value.shape.dims, "dtype": value.dtype.name,
                           "ragged_rank": value.ragged_rank}}
    if value is None or isinstance(value, (bool, int, float, str)):
        return {"value": value}
    if isinstance(value, (list, tuple)):
        kind = "list" if isinstance(value, list) else "tuple"
        return {"value": {kind: [_spec(v) for v in value]}}
    if isinstance(value, dict) and all(isinstance(k, str) for k in value):
        return {"value": {"dict": {k: _spec(v) for k, v in value.items()}}}
    if isinstance(value, ExtensionTypeSpec):
        return {"extension": _ext_json(value)}  # fed as its component tensors
    if hasattr(value, "_component_specs"):  # a composite's spec (sparse...)
        raise NotImplementedError(
            f"tfgraph_edu's tf.saved_model.save does not save a function taking a "
            f"{type(value).__qualname__} (a composite value such as a "
            "tf.experimental.ExtensionType) yet; pass its tensors instead.")
    raise ValueError(f"Cannot save an argument of type {type(value).__name__}: only tensors, "
                     "variables, plain Python constants and lists, tuples and dicts of them")


def _functions(obj) -> dict[str, Function]:
    """The tf.functions of ``obj`` to save: those traced, and (as TF does on save) those
    with an input_signature, traced while saving if they never were."""
    out = {}
    candidates = []
    for name in dir(type(obj)):
        if name.startswith("_") and name != "__call__":
            continue
        if isinstance(getattr(type(obj), name, None), Function):
            candidates.append((name, getattr(obj, name)))
    for name, value in vars(obj).items():
        if isinstance(value, Function) and not name.startswith("_"):
            candidates.append((name, value))
    for name, fn in candidates:
        if fn._traced or fn.input_signature is not None:
            out[name] = fn
    return out


class SaveOptions:
    """``tf.saved_model.SaveOptions``: the options TF's ``save`` takes.  Here only
    ``experimental_custom_gradients`` matters (True, TF's default: custom gradients are
    saved with the graph); the others are accepted and have no effect on our format."""

    __slots__ = ("namespace_whitelist", "save_debug_info", "function_aliases",
                 "experimental_io_device", "experimental_variable_policy",
                 "experimental_custom_gradients", "experimental_image_format",
                 "experimental_skip_saver", "experimental_sharding_callback",
                 "extra_tags")

    def __init__(self, namespace_whitelist=None, save_debug_info=False, function_aliases=None,
                 experimental_debug_stripper=False, experimental_io_device=None,
                 experimental_variable_policy=None, experimental_custom_gradients=True,
                 experimental_image_format=False, experimental_skip_saver=False,
                 experimental_sharding_callback=None, extra_tags=None):
        self.namespace_whitelist = namespace_whitelist
        self.save_debug_info = save_debug_info
        self.function_aliases = function_aliases
        self.experimental_io_device = experimental_io_device
        self.experimental_variable_policy = experimental_variable_policy
        self.experimental_custom_gradients = experimental_custom_gradients
        self.experimental_image_format = experimental_image_format
        self.experimental_skip_saver = experimental_skip_saver
        self.experimental_sharding_callback = experimental_sharding_callback
        self.extra_tags = extra_tags


def save(obj, export_dir, signatures=None, options=None) -> None:
    """Save ``obj``'s variables and the traced graphs of its tf.functions.

    The folder is built beside ``export_dir`` (a hidden sibling folder), flushed to disk and
    swapped in whole, so a save that is interrupted leaves the old model or the new one,
    never a mix; files the user keeps in an old model's folder are carried over."""
    from ..keras.module import AutoTrackable
    if options is not None and not isinstance(options, SaveOptions):
        raise TypeError(f"options must be a tf.saved_model.SaveOptions, got {options!r}")
    if options is not None and not options.experimental_custom_gradients:
        raise NotImplementedError(
            "tfgraph_edu always saves custom gradients with the graph; "
            "SaveOptions(experimental_custom_gradients=False) is not supported. "
            "Leave it at its default (True).")
    if not isinstance(obj, AutoTrackable):  # a tf.Module or a Keras layer
        raise ValueError(f"Expected a tf.Module to save, got {type(obj).__name__}")
    target = os.path.realpath(os.fspath(export_dir))
    if os.path.exists(target) and not os.path.isdir(target):
        raise FileExistsError(f"Cannot save a SavedModel to {export_dir}: it is a file, not a "
                              "folder.")
    # built aside (a sibling folder) and swapped in whole: a save killed at any point leaves
    # the old model or the new one, never a mix of their files
    staged = _files.staging_folder(target)
    try:
        _save_into(obj, Path(staged), _signatures(signatures))
        if os.path.isdir(target):  # keep what the user put beside an old model
            for name in sorted(set(os.listdir(target)) - _OURS):
                _files.link_or_copy_tree(os.path.join(target, name), os.path.join(staged, name))
        write_fingerprint(staged)
        _files.fsync_tree(staged)
        _files.replace_folder(staged, target)
    except BaseException:
        shutil.rmtree(staged, ignore_errors=True)
        raise
    get_logger().info(f"Assets written to: {export_dir}/assets")


def _signatures(signatures) -> dict:
    """``save``'s ``signatures``: a concrete function, a tf.function with an
    input_signature, or a dict of them by name; as a dict (TF's default name
    ``serving_default``), every input a tensor."""
    from ..function.concrete import ConcreteFunction
    if signatures is None:
        return {}
    if not isinstance(signatures, dict):
        signatures = {"serving_default": signatures}
    out = {}
    for name, fn in signatures.items():
        if isinstance(fn, Function) and fn.input_signature is not None:
            fn = fn.get_concrete_function()
        if not isinstance(fn, ConcreteFunction):
            raise ValueError(
                "Expected a TensorFlow function for which to generate a signature, but got "
                f"{fn!r}. Only `tf.functions` with an input signature or concrete functions "
                "can be used as a signature.")
        for pname, _, spec in fn._params:
            if not isinstance(spec, TensorSpec):
                raise NotImplementedError(
                    f"tfgraph_edu saves signatures whose inputs are all tensors; the "
                    f"signature {name!r} has the argument {pname!r} = {spec!r}.")
        out[str(name)] = fn
    return out


def _signature_outputs(cf, name) -> dict:
    """A signature returns a dict, as TF's: a dict's own keys, else ``output_<i>``."""
    result = cf.structured_outputs
    if isinstance(result, dict):
        items = list(result.items())
    elif isinstance(result, (list, tuple)):
        items = [(f"output_{i}", v) for i, v in enumerate(result)]
    else:
        items = [("output_0", result)]
    tensors = list(cf.outputs)
    out = {}
    for key, value in items:
        if not (hasattr(value, "op") and hasattr(value, "value_index")):
            raise ValueError(
                f"Got a non-Tensor value {value!r} for key {key!r} in the output of the "
                f"function {name} used to generate the SavedModel signature. Outputs for "
                "functions used as signatures must be a single Tensor, a sequence of Tensors, "
                "or a dictionary from string to Tensor.")
        out[str(key)] = {"output": tensors.index(value)}
    return {"dict": out}


def _concrete_entry(writer, cf, var_index, outputs) -> dict:
    captures = []
    for outer, _ in cf.graph.captures:
        if id(outer) in var_index:
            captures.append({"variable": var_index[id(outer)]})
        elif getattr(getattr(outer, "_value", None), "var_dtype", None) is not None:
            raise AssertionError(  # TF's class and gist: a variable the module does not track
                f"Tried to export a function which references an 'untracked' resource. "
                f"The function {cf.name} captures a tf.Variable that is not an attribute "
                "of the object saved (or of one it tracks): assign it to an attribute.")
        else:
            captures.append({"constant": writer.array(outer.numpy())})
    writer.graph(_as_graph_function(cf))
    return {
        "graph": cf.name,
        "params": [{"name": n, "kind": k, **_spec(v)} for n, k, v in cf._params],
        "n_args": len(cf._arg_placeholders),
        "captures": captures,
        "outputs": outputs,
    }


def _save_into(obj, folder: Path, signatures=None) -> None:
    from ..train.checkpoint import _walk_vars
    writer = _Writer(folder)
    variables = list(obj.variables)
    # a tf.Module's ``variables`` stop at Keras layers (not tf.Modules, as in TF 2.21); the
    # layers' weights are still saved, as TF saves every trackable child's
    known = {id(v) for v in variables}
    variables += [v for v in _walk_vars(obj) if id(v) not in known]
    var_index = {id(v._handle): i for i, v in enumerate(variables)}
    functions = {}
    for name, fn in sorted(_functions(obj).items()):
        concretes = [_concrete_entry(writer, cf, var_index,
                                     _structure(cf.structured_outputs, list(cf.outputs)))
                     for cf in fn._saving_traces()]  # traced again, as TF does
        functions[name] = concretes
    saved_signatures = {name: _concrete_entry(writer, cf, var_index,
                                              _signature_outputs(cf, name))
                        for name, cf in (signatures or {}).items()}
    if not functions and not saved_signatures:
        raise ValueError("Nothing to save: the module has no traced tf.functions. Call them "
                         "(or get_concrete_function) before saving.")
    manifest = {
        "format": FORMAT,
        "variables": [{"name": v.name, "dtype": v.dtype.name, "shape": v.shape.dims,
                       "trainable": v.trainable, "value": writer.array(v.numpy())}
                      for v in variables],
        "functions": functions,
        "signatures": saved_signatures,
        # the module's own tf.Variable attributes, restored as attributes by load (as TF's)
        "attributes": {name: var_index[id(value._handle)] for name, value in vars(obj).items()
                       if isinstance(value, Variable) and id(value._handle) in var_index
                       and name.isidentifier() and not name.startswith("_")},
        "graphs": writer.graphs,
    }
    (folder / "saved_model.json").write_text(json.dumps(manifest, indent=1))
    _write_tf_layout(obj, folder, variables)


def _write_tf_layout(obj, folder: Path, variables) -> None:
    """The folders TensorFlow's SavedModel has: ``assets/`` (empty: we save no asset
    files) and ``variables/variables.{index,data-00000-of-00001}``, a checkpoint of the
    module's variables (``tf.train.list_variables`` and ``load_variable`` read it, as
    they read TF's, with the checkpoint's own checksums).  Loading uses
    ``saved_model.json`` and ``arrays/``: they also hold the constants and string variables
    a checkpoint cannot."""
    from ..train.checkpoint import Checkpoint
    (folder / "assets").mkdir(exist_ok=True)
    if all(v.dtype.name != "string" for v in variables):
        Checkpoint(root=obj).write(str(folder / "variables" / "variables"))


def _as_graph_function(cf):
    return GraphFunction(cf.graph, cf.inputs, cf.outputs, cf.name)
