"""Reading a SavedModel: data only, checked, no code run (layer 10)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np

from .. import dtypes as _dt
from ..eager import tape as _tape
from ..eager.tensor import EagerTensor
from ..eager.variables import Variable
from ..function.gradients import call_recorded
from ..graph.graph import Graph
from ..ops import REGISTRY
from ..ops.control_flow_ops import GraphFunction
from ..ops.convert import is_tensor, to_tensor
from ..runtime.compiled import CompiledGraph
from ..shapes import TensorShape
from .save import FORMAT

_ARRAY = re.compile(r"^arrays/\d+\.npy$")
_KINDS = {"POSITIONAL_ONLY", "POSITIONAL_OR_KEYWORD", "KEYWORD_ONLY"}


class SavedModelError(ValueError):
    """The SavedModel folder is missing, malformed or not ours."""


def load(export_dir):
    """Load what :func:`save` wrote; the result calls the saved graphs."""
    folder = Path(export_dir)
    path = folder / "saved_model.json"
    if not path.is_file():
        raise SavedModelError(f"No SavedModel in {folder}: saved_model.json is missing.")
    try:
        manifest = json.loads(path.read_text())
    except (ValueError, UnicodeDecodeError) as exc:
        raise SavedModelError(f"Malformed SavedModel in {folder}: {exc}") from None
    try:
        return _Loader(folder, manifest).build()
    except SavedModelError:
        raise
    except (KeyError, TypeError, IndexError, ValueError, AttributeError, OSError,
            RecursionError) as exc:
        raise SavedModelError(f"Malformed SavedModel in {folder}: {type(exc).__name__}: "
                              f"{exc}") from None


def _check(cond, message):
    if not cond:
        raise SavedModelError(message)


class _Loader:
    def __init__(self, folder, manifest):
        _check(isinstance(manifest, dict) and manifest.get("format") == FORMAT,
               f"Not a tfgraph_edu SavedModel (format {manifest.get('format')!r})"
               if isinstance(manifest, dict) else "Not a tfgraph_edu SavedModel")
        self.folder = folder
        self.m = manifest
        self.graphs: dict[str, GraphFunction] = {}
        self.building: set[str] = set()

    def array(self, name):
        _check(isinstance(name, str) and _ARRAY.match(name), f"Bad array reference {name!r}")
        value = np.load(self.folder / name, allow_pickle=False)
        if value.dtype.kind == "S":
            value = value.astype(object)
        return value

    def dtype(self, name):
        _check(isinstance(name, str), f"Bad dtype {name!r}")
        try:
            return _dt.as_dtype(name)
        except TypeError:
            raise SavedModelError(f"Unknown dtype {name!r}") from None

    def shape(self, dims):
        _check(dims is None or (isinstance(dims, list) and all(
            d is None or (isinstance(d, int) and d >= 0) for d in dims)), f"Bad shape {dims!r}")
        return TensorShape(dims)

    def attr(self, v):
        _check(isinstance(v, dict) and len(v) == 1, f"Bad attribute {v!r}")
        (kind, x), = v.items()
        if kind == "dtype":
            return self.dtype(x)
        if kind == "shape":
            return self.shape(x)
        if kind == "tensor":
            return self.array(x)
        if kind == "func":
            return self.graph(x)
        if kind == "list":
            _check(isinstance(x, list), "Bad list attribute")
            return tuple(self.attr(i) for i in x)
        if kind == "value":
            _check(x is None or isinstance(x, (bool, int, float, str)), "Bad attribute value")
            return x
        raise SavedModelError(f"Unknown attribute kind {kind!r}")

    def graph(self, key) -> GraphFunction:
        _check(isinstance(key, str) and key in self.m["graphs"], f"Unknown graph {key!r}")
        if key in self.graphs:
            return self.graphs[key]
        _check(key not in self.building, f"Graph {key!r} refers to itself")
        self.building.add(key)
        spec = self.m["graphs"][key]
        g = Graph(key)
        tensors: dict[str, object] = {}
        for node in spec["nodes"]:
            name, op_type = node["name"], node["op"]
            _check(isinstance(name, str) and name not in g._by_name, f"Bad node name {name!r}")
            _check(op_type in REGISTRY, f"Unknown op {op_type!r} in node {name!r}")
            inputs = []
            for ref in node["inputs"]:
                _check(ref in tensors, f"Node {name!r} uses {ref!r} before it is defined")
                inputs.append(tensors[ref])
            control = []
            for c in node["control_inputs"]:
                _check(c in g._by_name, f"Node {name!r} waits for unknown {c!r}")
                control.append(g._by_name[c])
            attrs = {k: self.attr(v) for k, v in node["attrs"].items()}
            specs = [(self.shape(o["shape"]), self.dtype(o["dtype"])) for o in node["outputs"]]
            op = g.add_op(name, REGISTRY[op_type], inputs, attrs, specs, control, None)
            if node.get("handle"):
                op.outputs[0].handle_shape = self.shape(node["handle"]["shape"])
                op.outputs[0].handle_dtype = self.dtype(node["handle"]["dtype"])
            for t in op.outputs:
                tensors[t.name] = t
        ins = [tensors[n] for n in spec["inputs"]]
        outs = [tensors[n] for n in spec["outputs"]]
        g.inputs, g.outputs = ins, outs
        g.verify()
        fn = GraphFunction(g, ins, outs, key)
        self.graphs[key] = fn
        self.building.discard(key)
        return fn

    def build(self):
        variables = []
        for v in self.m["variables"]:
            value = self.array(v["value"])
            _check(self.dtype(v["dtype"]).np_dtype == value.dtype, "Variable dtype mismatch")
            variables.append(Variable(value, trainable=bool(v["trainable"]),
                                      name=str(v["name"]).removesuffix(":0")))
        loaded = Loaded(variables)
        for name, concretes in self.m["functions"].items():
            _check(isinstance(name, str) and name.isidentifier(), f"Bad function name {name!r}")
            fns = [self.concrete(c, variables) for c in concretes]
            setattr(loaded, name, LoadedFunction(name, fns))
        return loaded

    def concrete(self, c, variables):
        fn = self.graph(c["graph"])
        captures, captured = [], []
        for cap in c["captures"]:
            if "variable" in cap:
                variable = variables[int(cap["variable"])]
                captures.append(variable._handle._value)
                captured.append(variable._handle)
                fn.graph.variables.append(variable)
            else:
                captures.append(self.array(cap["constant"]))
                captured.append(EagerTensor(captures[-1]))
        params = []
        for p in c["params"]:
            _check(p.get("kind") in _KINDS, "Bad parameter kind")
            if "spec" in p:
                params.append((p["name"], "spec", (self.shape(p["spec"]["shape"]),
                                                   self.dtype(p["spec"]["dtype"]))))
            elif "variable" in p:
                params.append((p["name"], "variable", None))
            else:
                params.append((p["name"], "value", p.get("value")))
        _check(len(fn.inputs) == int(c["n_args"]) + len(captures), "Inputs do not match")
        _check_structure(c["outputs"], len(fn.outputs))
        return LoadedConcreteFunction(fn, params, captures, c["outputs"], captured)


class Loaded:
    """What ``tf.saved_model.load`` returns: the variables and the saved functions."""

    def __init__(self, variables):
        self.variables = tuple(variables)
        self.trainable_variables = tuple(v for v in variables if v.trainable)

    def __call__(self, *args):
        fn = self.__dict__.get("__call__")
        if fn is None:
            raise TypeError("This SavedModel has no saved __call__ function.")
        return fn(*args)


class LoadedConcreteFunction:
    def __init__(self, fn, params, captures, outputs, captured=()):
        self.graph = fn.graph
        self._params = params
        self._captures = captures
        self._outputs = outputs
        self._compiled = CompiledGraph(fn.graph, fn.inputs, fn.outputs, fn.function_name)
        # what a GradientTape records the call with (function/gradients.py)
        self.name, self.inputs, self.outputs = fn.function_name, fn.inputs, fn.outputs
        self.captured_inputs, self._capture_values = list(captured), captures

    def bind(self, args, leaves=None):
        """The feed values for ``args``, or None when they do not fit this signature;
        ``leaves`` (a list) receives the tensors and variables fed."""
        feeds = []
        leaves = [] if leaves is None else leaves
        args = list(args)
        for _name, kind, info in self._params:
            if kind == "value":
                if args and not is_tensor(args[0]) and args[0] == info:
                    args.pop(0)
                continue
            if not args:
                return None
            a = args.pop(0)
            if kind == "variable":
                if not isinstance(a, Variable):
                    return None
                feeds.append(a._handle._value)
                leaves.append(a)
                continue
            shape, dtype = info
            try:
                t = a if is_tensor(a) else to_tensor(a, dtype)
            except (TypeError, ValueError):
                return None
            if t.dtype is not dtype or not shape.is_compatible_with(t.shape):
                return None
            feeds.append(t._value if isinstance(t, EagerTensor) else np.asarray(t))
            leaves.append(t)
        if args:
            return None
        return feeds

    def run(self, feeds, leaves=None):
        if leaves is not None and _tape.ACTIVE:  # one op on the tape, as a tf.function call
            flat = call_recorded(self, leaves, feeds)
            if flat is not None:
                return _rebuild(self._outputs, flat, wrapped=True)
        values = self._compiled(*feeds, *self._captures)
        return _rebuild(self._outputs, values)

    def signature(self) -> str:
        parts = []
        for name, kind, info in self._params:
            if kind == "spec":
                parts.append(f"{name}: TensorSpec(shape={info[0]}, dtype=tf.{info[1].name})")
            else:
                parts.append(f"{name}: {kind} {info!r}")
        return "(" + ", ".join(parts) + ")"


class LoadedFunction:
    """A saved tf.function: calls the first saved graph whose signature fits."""

    def __init__(self, name, concretes):
        self.__name__ = name
        self.concrete_functions = concretes

    def __call__(self, *args):
        for cf in self.concrete_functions:
            leaves: list = []
            feeds = cf.bind(args, leaves)
            if feeds is not None:
                return cf.run(feeds, leaves)
        sigs = "\n  ".join(cf.signature() for cf in self.concrete_functions)
        raise TypeError(f"The saved function {self.__name__} was not saved for these "
                        f"arguments. Saved signatures:\n  {sigs}")


def _check_structure(s, n_outputs: int) -> None:
    """An output structure must be well formed and only name outputs that exist."""
    _check(isinstance(s, dict) and len(s) == 1, f"Bad output structure {s!r}")
    (kind, x), = s.items()
    if kind == "output":
        _check(isinstance(x, int) and not isinstance(x, bool) and 0 <= x < n_outputs,
               f"Bad output index {x!r}")
    elif kind in ("list", "tuple"):
        _check(isinstance(x, list), "Bad output list")
        for item in x:
            _check_structure(item, n_outputs)
    elif kind == "dict":
        _check(isinstance(x, dict), "Bad output dict")
        for item in x.values():
            _check_structure(item, n_outputs)
    elif kind == "value":
        _check(x is None or isinstance(x, (bool, int, float, str)), "Bad output value")
    else:
        raise SavedModelError(f"Bad output structure {kind!r}")


def _rebuild(structure, values, wrapped=False):
    (kind, x), = structure.items()
    if kind == "output":
        if wrapped:
            return values[int(x)]
        t = object.__new__(EagerTensor)
        t._value = values[int(x)]
        return t
    if kind == "list":
        return [_rebuild(s, values, wrapped) for s in x]
    if kind == "tuple":
        return tuple(_rebuild(s, values, wrapped) for s in x)
    if kind == "dict":
        return {k: _rebuild(s, values, wrapped) for k, s in x.items()}
    if kind == "value":
        return x
    raise SavedModelError(f"Bad output structure {kind!r}")
