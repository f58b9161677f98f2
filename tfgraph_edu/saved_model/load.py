"""Reading a SavedModel: data only, checked, no code run (layer 10).

Everything read is checked before it is used, and anything malformed - bad or too deeply
nested JSON, unknown keys, names that are not identifiers, forged array headers, wrong
dtypes or shapes, missing files, files that are not regular files inside the folder - is
a :class:`SavedModelError` (a ValueError).  Damage is told apart from malformed content:
``fingerprint.json`` holds the sha256 of the manifest and of every array file, checked
before each is parsed, and a file that does not match (a flipped byte, a truncation) is a
``tf.errors.DataLossError`` naming it.  Node names, attribute keys and values stay data:
the compiled fast path never pastes them into source.

The size budget (arguments of :func:`load`): ``max_manifest_bytes`` for
``saved_model.json`` (default 32 MiB), ``max_array_bytes`` for all arrays together
(default 512 MiB) and ``max_nodes`` for the nodes of all graphs together (default the
graph node limit, ``tfgraph_edu.graph.limits.MAX_NODES``, 200,000).
"""

from __future__ import annotations

import collections.abc
import json
import re

import numpy as np

from .. import dtypes as _dt
from .._traceback import filter_traceback
from ..eager import tape as _tape
from ..eager.tensor import EagerTensor
from ..eager.variables import Variable
from ..function.gradients import call_recorded
from ..graph import limits
from ..graph.graph import FuncGraph
from ..graph.naming import is_valid_node_name
from ..ops import REGISTRY
from ..ops.control_flow_ops import GraphFunction
from ..ops.convert import is_tensor, to_tensor
from ..runtime.compiled import CompiledGraph
from ..shapes import TensorShape, TensorSpec
from .files import SavedModelError, model_folder, read_fingerprint, read_npy, read_text
from .save import FORMAT

__all__ = ["load", "SavedModelError", "MAX_MANIFEST_BYTES", "MAX_ARRAY_BYTES"]

MAX_MANIFEST_BYTES = 32 * 2 ** 20
MAX_ARRAY_BYTES = 512 * 2 ** 20
MAX_DEPTH = 64  # JSON nesting; the format itself needs about 10 levels
MAX_GRAPH_DEPTH = 16  # branches inside loops inside branches...
_ARRAY = re.compile(r"arrays/[0-9]{1,9}\.npy")
_ATTR_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,99}")  # TF: OpDef attrs, and "_"-internal ones
_KINDS = {"POSITIONAL_ONLY", "POSITIONAL_OR_KEYWORD", "KEYWORD_ONLY"}
_RESERVED = {"variables", "trainable_variables", "signatures"}
_NAME_ATTR = frozenset({"_user_specified_name"})  # TF's name of a function's argument


@filter_traceback
def load(export_dir, tags=None, options=None, *, max_manifest_bytes: int = MAX_MANIFEST_BYTES,
         max_array_bytes: int = MAX_ARRAY_BYTES, max_nodes: int | None = None):
    """Load what :func:`save` wrote; the result calls the saved graphs.

    ``tags`` and ``options`` are accepted for TensorFlow's signature and ignored.  The
    budget arguments bound what a model folder may make this process read and hold: raise
    them only for a model you trust.  Every problem with the folder is a SavedModelError.
    """
    folder = model_folder(export_dir)
    sums = read_fingerprint(folder, max_manifest_bytes)
    text = read_text(folder, "saved_model.json", max_manifest_bytes, "The manifest", sums)
    try:
        manifest = json.loads(text)
    except RecursionError:
        raise SavedModelError(f"Malformed SavedModel in {export_dir}: the manifest's JSON is "
                              "nested too deeply.") from None
    except ValueError as exc:
        raise SavedModelError(f"Malformed SavedModel in {export_dir}: {exc}") from None
    _check_depth(manifest)
    try:
        return _Loader(folder, manifest, sums, max_array_bytes,
                       limits.MAX_NODES if max_nodes is None else max_nodes).build()
    except SavedModelError:
        raise
    except (KeyError, TypeError, IndexError, ValueError, AttributeError, OSError,
            RecursionError, OverflowError) as exc:
        raise SavedModelError(f"Malformed SavedModel in {export_dir}: {type(exc).__name__}: "
                              f"{str(exc)[:300]}") from None


def _check(cond, message):
    if not cond:
        raise SavedModelError(message)


def _short(x) -> str:
    text = ascii(x)
    return text if len(text) <= 80 else text[:70] + "..."


def _check_depth(value) -> None:
    """Refuse JSON nested deeper than MAX_DEPTH (checked without recursion)."""
    stack = [(value, 1)]
    while stack:
        v, depth = stack.pop()
        if isinstance(v, (list, dict)):
            _check(depth <= MAX_DEPTH, f"The manifest is nested deeper than {MAX_DEPTH} levels.")
            stack.extend((x, depth + 1) for x in (v.values() if isinstance(v, dict) else v))


def _dict(x, what, keys=None) -> dict:
    _check(isinstance(x, dict), f"{what} must be a JSON object, not {type(x).__name__}.")
    if keys is not None:
        missing = [k for k in keys if k not in x]
        _check(not missing, f"{what} lacks {', '.join(missing)}.")
    return x


def _list(x, what) -> list:
    _check(isinstance(x, list), f"{what} must be a JSON list, not {type(x).__name__}.")
    return x


def _index(x, n, what) -> int:
    _check(type(x) is int and 0 <= x < n, f"{what} {_short(x)} is not an index below {n}.")
    return x


class _Loader:
    def __init__(self, folder, manifest, sums, max_array_bytes, max_nodes):
        _check(isinstance(manifest, dict) and manifest.get("format") == FORMAT,
               f"Not a tfgraph_edu SavedModel (format {_short(manifest.get('format'))})"
               if isinstance(manifest, dict) else "Not a tfgraph_edu SavedModel")
        _dict(manifest, "The manifest", ("variables", "functions", "graphs"))
        _dict(manifest["graphs"], "graphs")
        _dict(manifest["functions"], "functions")
        _list(manifest["variables"], "variables")
        self.folder = folder
        self.sums = sums
        self.m = manifest
        self.graphs: dict[str, GraphFunction] = {}
        self.building: list[str] = []
        self.budget = [max_array_bytes]
        self.nodes_left = max_nodes
        self.max_nodes = max_nodes

    def array(self, name):
        _check(isinstance(name, str) and _ARRAY.fullmatch(name),
               f"Bad array reference {_short(name)}")
        value = read_npy(self.folder, name, self.budget, self.sums)
        if value.dtype.kind == "S":
            value = value.astype(object)
        return value

    def dtype(self, name):
        _check(isinstance(name, str), f"Bad dtype {_short(name)}")
        try:
            return _dt.as_dtype(name)
        except TypeError:
            raise SavedModelError(f"Unknown dtype {_short(name)}") from None

    def shape(self, dims):
        _check(dims is None or (isinstance(dims, list) and len(dims) <= 32 and all(
            d is None or (type(d) is int and 0 <= d < 2 ** 62) for d in dims)),
            f"Bad shape {_short(dims)}")
        return TensorShape(dims)

    def attr(self, v, depth=0):
        _check(isinstance(v, dict) and len(v) == 1, f"Bad attribute {_short(v)}")
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
            _check(isinstance(x, list) and depth < 4, "Bad list attribute")
            return tuple(self.attr(i, depth + 1) for i in x)
        if kind == "value":
            _check(x is None or isinstance(x, (bool, int, float, str)), "Bad attribute value")
            return x
        raise SavedModelError(f"Unknown attribute kind {_short(kind)}")

    def value_tree(self, v, depth=0):
        """A list/tuple/dict parameter as a tree of ("value", x), ("spec", shape, dtype),
        ("variable",), ("list"|"tuple", [trees]) and ("dict", [(key, tree)] in key order)."""
        _check(depth < 32, "Parameter values are nested too deeply")
        _check(isinstance(v, dict) and len(v) == 1, f"Bad parameter value {_short(v)}")
        (kind, x), = v.items()
        if kind in ("list", "tuple"):
            _check(isinstance(x, list), "Bad parameter list")
            return (kind, [self.value_tree(i, depth + 1) for i in x])
        if kind == "dict":
            _check(isinstance(x, dict) and all(isinstance(k, str) for k in x),
                   "Bad parameter dict")
            return ("dict", [(k, self.value_tree(x[k], depth + 1)) for k in sorted(x)])
        if kind == "value":
            if isinstance(x, dict):
                return self.value_tree(x, depth + 1)
            _check(x is None or isinstance(x, (bool, int, float, str)), "Bad parameter value")
            return ("value", x)
        if kind == "spec":
            spec = _dict(x, "A parameter spec", ("shape", "dtype"))
            return ("spec", self.shape(spec["shape"]), self.dtype(spec["dtype"]))
        if kind == "variable":
            return ("variable",)
        raise SavedModelError(f"Bad parameter value {_short(kind)}")

    def ext_spec(self, x, depth=0):
        """An extension type's spec from its registered name and fields; the class must be
        registered in this process (as TF looks it up), with the same fields."""
        from ..ops.extension_type import fields_of, lookup_registered, make_spec
        _check(depth < 32, "Extension types are nested too deeply")
        x = _dict(x, "An extension type", ("name", "fields"))
        _check(isinstance(x["name"], str), "Bad extension type name")
        spec_class = lookup_registered(x["name"])
        if spec_class is None:
            raise ValueError(f"The SavedModel uses the extension type registered as "
                             f"{x['name']!r}, and no class has that name here: define (or "
                             "import) the class, with its `__name__`, before loading.")
        fields = _dict(x["fields"], "Extension type fields")
        names = [f.name for f in fields_of(spec_class.value_type)]
        _check(sorted(fields) == sorted(names),
               f"The fields saved for {_short(x['name'])} are not those of its class")
        return make_spec(spec_class, {k: self.field(fields[k], depth + 1) for k in names})

    def field(self, v, depth):
        from ..ops.extension_type import ImmutableDict
        _check(depth < 32 and isinstance(v, dict) and len(v) == 1, f"Bad field {_short(v)}")
        (kind, x), = v.items()
        if kind == "spec":
            spec = _dict(x, "A field spec", ("shape", "dtype"))
            return TensorSpec(self.shape(spec["shape"]), self.dtype(spec["dtype"]))
        if kind == "extension":
            return self.ext_spec(x, depth + 1)
        if kind == "dtype":
            return self.dtype(x)
        if kind == "shape":
            return self.shape(x)
        if kind == "tuple":
            _check(isinstance(x, list), "Bad tuple field")
            return tuple(self.field(i, depth + 1) for i in x)
        if kind == "dict":
            _check(isinstance(x, dict), "Bad dict field")
            return ImmutableDict((k, self.field(i, depth + 1)) for k, i in x.items())
        if kind == "value":
            _check(x is None or isinstance(x, (bool, int, float, str)), "Bad field value")
            return x
        raise SavedModelError(f"Bad field kind {_short(kind)}")

    def outputs(self, s, depth=0):
        """The output structure with each extension type's spec read (its class found)."""
        (kind, x), = s.items()
        if kind == "extension":
            spec = self.ext_spec(_dict(x, "An extension output", ("spec", "components"))["spec"])
            comps = _list(x["components"], "Extension components")
            _check(len(comps) == len(spec._component_specs()),
                   "Extension type components do not match its spec")
            return {"extension": (spec, comps)}
        if kind in ("list", "tuple"):
            return {kind: [self.outputs(i, depth + 1) for i in x]}
        if kind == "dict":
            return {kind: {k: self.outputs(i, depth + 1) for k, i in x.items()}}
        return s

    def graph(self, key) -> GraphFunction:
        _check(isinstance(key, str) and key.isidentifier() and key in self.m["graphs"],
               f"Unknown graph {_short(key)}")
        if key in self.graphs:
            return self.graphs[key]
        _check(key not in self.building, f"Graph {_short(key)} refers to itself")
        _check(len(self.building) < MAX_GRAPH_DEPTH,
               f"Graphs are nested deeper than {MAX_GRAPH_DEPTH} levels.")
        self.building.append(key)
        spec = _dict(self.m["graphs"][key], f"Graph {_short(key)}", ("nodes", "inputs", "outputs"))
        nodes = _list(spec["nodes"], "nodes")
        self.nodes_left -= len(nodes)
        _check(self.nodes_left >= 0, f"The model has more than {self.max_nodes} nodes; raise "
               "max_nodes in tf.saved_model.load(...) if you trust this model.")
        g = FuncGraph(key)
        g.node_limit = self.max_nodes
        tensors: dict[str, object] = {}
        for node in nodes:
            self.node(g, _dict(node, "A node", ("name", "op", "inputs", "control_inputs",
                                               "attrs", "outputs")), tensors)
        ins = [tensors[_str_ref(n)] for n in _list(spec["inputs"], "inputs")]
        outs = [tensors[_str_ref(n)] for n in _list(spec["outputs"], "outputs")]
        _check(all(t.op.type == "Placeholder" for t in ins), "Graph inputs must be placeholders.")
        g.inputs, g.outputs = ins, outs
        g.verify()
        fn = GraphFunction(g, ins, outs, key)
        self.graphs[key] = fn
        self.building.pop()
        return fn

    def node(self, g, node, tensors):
        name, op_type = node["name"], node["op"]
        _check(is_valid_node_name(name), f"Bad node name {_short(name)}")
        _check(name not in g._by_name, f"Duplicate node name {_short(name)}")
        _check(isinstance(op_type, str) and op_type in REGISTRY,
               f"Unknown op {_short(op_type)} in node {_short(name)}")
        opdef = REGISTRY[op_type]
        inputs = []
        for ref in _list(node["inputs"], "inputs"):
            _check(isinstance(ref, str) and ref in tensors,
                   f"Node {_short(name)} uses {_short(ref)} before it is defined")
            inputs.append(tensors[ref])
        control = []
        for c in _list(node["control_inputs"], "control_inputs"):
            _check(isinstance(c, str) and c in g._by_name,
                   f"Node {_short(name)} waits for unknown {_short(c)}")
            control.append(g._by_name[c])
        attrs = {}
        for k, v in _dict(node["attrs"], "attrs").items():
            _check(_ATTR_KEY.fullmatch(k) is not None,
                   f"Attribute key {_short(k)} of node {_short(name)} is not an identifier")
            attrs[k] = self.attr(v)
        # the op's declared names, no introspection; and TF's argument name on a placeholder
        unknown = sorted(set(attrs) - opdef.attrs - _NAME_ATTR)
        _check(all(isinstance(attrs[k], str) for k in _NAME_ATTR & set(attrs)),
               f"Node {_short(name)}: _user_specified_name must be a string")
        _check(not unknown,
               f"Node {_short(name)}: op {op_type} has no attribute {_short(unknown[0])} (its "
               f"attributes: {', '.join(sorted(opdef.attrs)) or 'none'})" if unknown else "")
        fixed = len(opdef.inputs) - (bool(opdef.inputs) and opdef.inputs[-1].endswith("*"))
        _check(len(inputs) == fixed or (fixed < len(opdef.inputs) and len(inputs) > fixed),
               f"Node {_short(name)}: op {op_type} takes {len(opdef.inputs)} inputs "
               f"({', '.join(opdef.inputs)}), not {len(inputs)}")
        specs = [(self.shape(o["shape"]), self.dtype(o["dtype"]))
                 for o in (_dict(o, "output", ("shape", "dtype"))
                           for o in _list(node["outputs"], "outputs"))]
        specs = self.checked_specs(g, name, opdef, inputs, attrs, specs)
        op = g.add_op(name, opdef, inputs, attrs, specs, control, None)
        handle = node.get("handle")
        if handle:
            _dict(handle, "handle", ("shape", "dtype"))
            _check(op.outputs and op.outputs[0].dtype is _dt.resource,
                   f"Node {_short(name)} has a handle but makes no resource")
            op.outputs[0].handle_shape = self.shape(handle["shape"])
            op.outputs[0].handle_dtype = self.dtype(handle["dtype"])
        for t in op.outputs:
            tensors[t.name] = t

    def checked_specs(self, g, name, opdef, inputs, attrs, saved):
        """The saved output specs, checked against what the op's own shape rule says."""
        if opdef.name == "Placeholder":
            return saved
        if opdef.name == "Const":
            value = attrs.get("value")
            _check(isinstance(value, np.ndarray), f"Const {_short(name)} holds no array")
            dtype = attrs.get("dtype")
            _check(isinstance(dtype, _dt.DType) and (
                value.dtype == dtype.np_dtype or (dtype is _dt.string and value.dtype == object)),
                f"Const {_short(name)}: its array is {value.dtype}, its dtype attribute "
                f"{_short(dtype)}")
        try:
            inferred = opdef.shape(*inputs, **attrs)
        except Exception as exc:  # noqa: BLE001 - any failure of the rule means a bad node
            raise SavedModelError(f"Node {_short(name)} ({opdef.name}) does not fit its "
                                  f"inputs and attributes: {str(exc)[:200]}") from None
        if isinstance(inferred, tuple):
            inferred = [inferred]
        _check(len(inferred) == len(saved),
               f"Node {_short(name)} declares {len(saved)} outputs, its op makes "
               f"{len(inferred)}")
        out = []
        for (s_shape, s_dtype), (i_shape, i_dtype) in zip(saved, inferred):
            _check(s_dtype is i_dtype, f"Node {_short(name)} declares dtype {s_dtype.name}, "
                   f"its op makes {_short(getattr(i_dtype, 'name', i_dtype))}")
            try:
                out.append((s_shape.merge_with(i_shape), s_dtype))
            except ValueError:
                raise SavedModelError(f"Node {_short(name)} declares shape {s_shape}, its op "
                                      f"makes {i_shape}") from None
        return out

    def build(self):
        variables = []
        for v in self.m["variables"]:
            _dict(v, "A variable", ("value", "dtype", "trainable", "name"))
            value = self.array(v["value"])
            _check(self.dtype(v["dtype"]).np_dtype == value.dtype, "Variable dtype mismatch")
            _check(v.get("shape") == list(value.shape), "Variable shape mismatch")
            _check(isinstance(v["name"], str) and len(v["name"]) < 1000, "Bad variable name")
            _check(isinstance(v["trainable"], bool), "Bad variable trainable flag")
            variables.append(Variable(value, trainable=v["trainable"],
                                      name=v["name"].removesuffix(":0")))
        loaded = Loaded(variables)
        for name, concretes in self.m["functions"].items():
            _check(name.isidentifier() and (name == "__call__" or not name.startswith("__"))
                   and name not in _RESERVED, f"Bad function name {_short(name)}")
            fns = [self.concrete(_dict(c, "A concrete function", (
                "graph", "captures", "params", "n_args", "outputs")), variables)
                for c in _list(concretes, "concrete functions")]
            setattr(loaded, name, LoadedFunction(name, fns))
        signatures = {}
        for name, c in _dict(self.m.get("signatures", {}), "Signatures").items():
            _check(isinstance(name, str) and 0 < len(name) < 1000, "Bad signature name")
            cf = self.concrete(_dict(c, "A signature", (
                "graph", "captures", "params", "n_args", "outputs")), variables)
            _check(all(kind == "spec" for _, kind, _ in cf._params)
                   and next(iter(c["outputs"])) == "dict", "Bad signature")
            signatures[name] = LoadedSignature(cf)
        loaded.signatures = _SignatureMap(signatures)
        for name, i in _dict(self.m.get("attributes", {}), "Attributes").items():
            _check(isinstance(name, str) and name.isidentifier() and not name.startswith("_")
                   and name not in _RESERVED and not hasattr(loaded, name),
                   f"Bad attribute name {_short(name)}")
            setattr(loaded, name, variables[_index(i, len(variables), "Variable")])
        return loaded

    def concrete(self, c, variables):
        fn = self.graph(c["graph"])
        captures, captured = [], []
        for cap in _list(c["captures"], "captures"):
            _dict(cap, "A capture")
            if "variable" in cap:
                variable = variables[_index(cap["variable"], len(variables), "Variable")]
                captures.append(variable._handle._value)
                captured.append(variable._handle)
                fn.graph.variables.append(variable)
            else:
                captures.append(self.array(cap["constant"]))
                captured.append(EagerTensor(captures[-1]))
        params = []
        for p in _list(c["params"], "params"):
            _dict(p, "A parameter", ("name", "kind"))
            _check(isinstance(p["name"], str) and p["name"].isidentifier(),
                   f"Bad parameter name {_short(p['name'])}")
            _check(p["kind"] in _KINDS, "Bad parameter kind")
            if "spec" in p:
                spec = _dict(p["spec"], "A parameter spec", ("shape", "dtype"))
                params.append((p["name"], "spec", (self.shape(spec["shape"]),
                                                   self.dtype(spec["dtype"]))))
            elif "variable" in p:
                params.append((p["name"], "variable", None))
            elif "extension" in p:
                params.append((p["name"], "extension", self.ext_spec(p["extension"])))
            elif "ragged" in p:
                spec = _dict(p["ragged"], "A ragged parameter spec",
                             ("shape", "dtype", "ragged_rank"))
                rank = spec["ragged_rank"]
                _check(type(rank) is int and rank >= 1, "Bad ragged_rank")
                params.append((p["name"], "ragged", (self.shape(spec["shape"]),
                                                     self.dtype(spec["dtype"]), rank)))
            else:
                value = p.get("value")
                if isinstance(value, dict):  # a list, tuple or dict argument
                    params.append((p["name"], "struct", self.value_tree(value)))
                    continue
                _check(value is None or isinstance(value, (bool, int, float, str)),
                       "Bad parameter value")
                params.append((p["name"], "value", value))
        n_args = c["n_args"]
        _check(type(n_args) is int and len(fn.inputs) == n_args + len(captures),
               "Inputs do not match")
        for ph, value in zip(fn.inputs[n_args:], captures):
            if ph.dtype is _dt.resource:
                _check(getattr(value, "var_dtype", None) is ph.handle_dtype and
                       ph.handle_shape is not None and
                       ph.handle_shape.is_compatible_with(value.var_shape),
                       "A captured variable does not fit the graph's resource input")
            else:
                _check(isinstance(value, np.ndarray) and value.dtype == ph.dtype.np_dtype and
                       ph.shape.is_compatible_with(TensorShape(list(value.shape))),
                       "A captured constant does not fit the graph's input")
        _check_structure(c["outputs"], len(fn.outputs))
        return LoadedConcreteFunction(fn, params, captures, self.outputs(c["outputs"]),
                                      captured)


def _str_ref(ref) -> str:
    _check(isinstance(ref, str), f"Bad tensor reference {_short(ref)}")
    return ref


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
            tree = info if kind == "struct" else ("variable",) if kind == "variable" else (
                "ragged", *info) if kind == "ragged" else ("extension", info) if (
                kind == "extension") else ("spec", *info)
            if not _match(tree, a, feeds, leaves):
                return None
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

    def param_descriptions(self) -> list[str]:
        out = []
        for name, kind, info in self._params:
            if kind == "spec":
                out.append(f"TensorSpec(shape={info[0]}, dtype=tf.{info[1].name}, "
                           f"name={name!r})")
            elif kind == "struct":
                out.append(_describe(info))
            elif kind == "variable":
                out.append("tf.Variable")
            elif kind == "extension":
                out.append(repr(info))
            elif kind == "ragged":
                out.append(f"RaggedTensorSpec({info[0]!r}, tf.{info[1].name}, {info[2]}, "
                           "tf.int64)")
            else:
                out.append(repr(info))
        return out


def _feed(shape, dtype, a, feeds, leaves) -> bool:
    try:
        t = a if is_tensor(a) else to_tensor(a, dtype)
    except (TypeError, ValueError):
        return False
    if t.dtype is not dtype or not shape.is_compatible_with(t.shape):
        return False
    feeds.append(t._value if isinstance(t, EagerTensor) else np.asarray(t))
    leaves.append(t)
    return True


def _match(tree, a, feeds, leaves) -> bool:
    """Whether argument ``a`` fits a saved list/tuple/dict parameter: the same structure, the
    same Python constants, tensors that fit the saved specs (fed in flattening order)."""
    kind = tree[0]
    if kind == "value":
        return (a is None or isinstance(a, (bool, int, float, str))) and a == tree[1]
    if kind == "ragged":  # a RaggedTensor of that dtype and ragged rank: its components
        _, shape, dtype, rank = tree
        if (type(a).__name__ != "RaggedTensor" or a.dtype is not dtype
                or a.ragged_rank != rank or not shape.is_compatible_with(a.shape)):
            return False
        comps = a._ag_components()
        return all(_feed(TensorShape(None), c.dtype, c, feeds, leaves) for c in comps)
    if kind == "spec":
        return _feed(tree[1], tree[2], a, feeds, leaves)
    if kind == "extension":  # a value of the class, fitting the spec: its components
        spec = tree[1]
        if not isinstance(a, spec.value_type) or not spec.is_compatible_with(a._type_spec):
            return False
        return all(_feed(c.shape, c.dtype, t, feeds, leaves)
                   for c, t in zip(spec._component_specs(), a._ag_components()))
    if kind == "variable":
        if not isinstance(a, Variable):
            return False
        feeds.append(a._handle._value)
        leaves.append(a)
        return True
    if kind in ("list", "tuple"):
        items = tree[1]
        return (type(a) is (list if kind == "list" else tuple) and len(a) == len(items)
                and all(_match(t, x, feeds, leaves) for t, x in zip(items, a)))
    keys = [k for k, _ in tree[1]]
    return (isinstance(a, dict) and sorted(a) == keys
            and all(_match(t, a[k], feeds, leaves) for k, t in tree[1]))


def _describe(tree) -> str:
    kind = tree[0]
    if kind == "value":
        return repr(tree[1])
    if kind == "spec":
        return f"TensorSpec(shape={tree[1]}, dtype=tf.{tree[2].name})"
    if kind == "variable":
        return "tf.Variable"
    if kind == "dict":
        return "{" + ", ".join(f"{k!r}: {_describe(t)}" for k, t in tree[1]) + "}"
    inner = ", ".join(_describe(t) for t in tree[1])
    return f"[{inner}]" if kind == "list" else f"({inner}{',' if len(tree[1]) == 1 else ''})"


class _SignatureMap(collections.abc.Mapping):
    """``loaded.signatures``: the saved signatures by name (TF's class name and repr)."""

    def __init__(self, signatures):
        self._signatures = dict(signatures)

    def __getitem__(self, key):
        return self._signatures[key]

    def __iter__(self):
        return iter(self._signatures)

    def __len__(self):
        return len(self._signatures)

    def __repr__(self):
        return f"_SignatureMap({self._signatures!r})"


class LoadedSignature:
    """A saved signature: called with keyword arguments (one tensor per input), returns a
    dict of tensors by output name, as TF's signature functions do."""

    def __init__(self, cf):
        self._cf = cf
        self._names = [name for name, _, _ in cf._params]

    def _spec(self, name, info):
        from ..shapes import TensorSpec
        return TensorSpec(info[0], info[1], name=name)

    @property
    def structured_input_signature(self):
        return (), {name: self._spec(name, info) for name, _, info in self._cf._params}

    @property
    def structured_outputs(self):
        (_, outs), = self._cf._outputs.items()
        tensors = self._cf.outputs
        return {k: self._spec(k, (tensors[o["output"]].shape, tensors[o["output"]].dtype))
                for k, o in outs.items()}

    def _text(self):
        ins = ", ".join(f"{n}: {s!r}" for n, s in self.structured_input_signature[1].items())
        outs = ", ".join(f"[{k!r}, {s!r}]" for k, s in self.structured_outputs.items())
        return f"(*, {ins}) -> Dict[{outs}]"

    def __repr__(self):
        return f"<ConcreteFunction {self._text()} at 0x{id(self):X}>"

    @filter_traceback
    def __call__(self, *args, **kwargs):
        if args and (len(args) != 1 or len(self._names) != 1 or kwargs):
            raise TypeError(
                "Binding inputs to tf.function failed due to `too many positional "
                f"arguments`. Received args: {args!r} and kwargs: {kwargs!r} for signature: "
                f"{self._text()}.\nCall a signature with keyword arguments, one per input: "
                + ", ".join(f"{n}=..." for n in self._names) + ".")
        if args:
            kwargs = {self._names[0]: args[0]}
        if sorted(kwargs) != sorted(self._names):
            raise TypeError(
                f"Binding inputs to tf.function failed: the signature {self._text()} takes "
                f"the keyword arguments {self._names}, got {sorted(kwargs)}.")
        leaves: list = []
        feeds = self._cf.bind([kwargs[n] for n in self._names], leaves)
        if feeds is None:
            raise TypeError(
                f"Binding inputs to tf.function failed: the arguments {kwargs!r} do not fit "
                f"the signature {self._text()}.")
        return self._cf.run(feeds, leaves)


class LoadedFunction:
    """A saved tf.function: calls the first saved graph whose signature fits."""

    def __init__(self, name, concretes):
        self.__name__ = name
        self.concrete_functions = concretes

    @filter_traceback
    def __call__(self, *args):
        for cf in self.concrete_functions:
            leaves: list = []
            feeds = cf.bind(args, leaves)
            if feeds is not None:
                return cf.run(feeds, leaves)
        # TensorFlow's error and layout for a loaded function called with other arguments
        got = "".join(f"\n    * {_show(a)}" for a in args)
        options = "".join(
            f"\n\nOption {i}:\n  Positional arguments ({len(cf._params)} total):"
            + "".join(f"\n    * {d}" for d in cf.param_descriptions())
            + "\n  Keyword arguments: {}" for i, cf in enumerate(self.concrete_functions, 1))
        raise ValueError(
            "Could not find matching concrete function to call loaded from the SavedModel. "
            f"Got:\n  Positional arguments ({len(args)} total):{got}\n  Keyword arguments: {{}}"
            f"\n\n Expected these arguments to match one of the following "
            f"{len(self.concrete_functions)} option(s):{options}\n\nCall it with arguments "
            "of one of these signatures: only those were saved (trace the function with the "
            "others before saving).")


def _show(a) -> str:
    if is_tensor(a) and not isinstance(a, Variable):
        return f"TensorSpec(shape={a.shape}, dtype=tf.{a.dtype.name}, name=None)"
    return repr(a)


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
    elif kind == "extension":
        _check(isinstance(x, dict) and isinstance(x.get("components"), list),
               "Bad extension output")
        for item in x["components"]:
            _check(isinstance(item, dict) and set(item) == {"output"}, "Bad extension output")
            _check_structure(item, n_outputs)
    elif kind == "ragged":
        _check(isinstance(x, list) and len(x) >= 2, "Bad ragged output")
        for item in x:
            _check(isinstance(item, dict) and set(item) == {"output"}, "Bad ragged output")
            _check_structure(item, n_outputs)
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
    if kind == "extension":
        spec, comps = x
        return spec._from_components([_rebuild(c, values, wrapped) for c in comps])
    if kind == "ragged":
        from ..ops.ragged_ops import RaggedTensor
        comps = [_rebuild(s, values, wrapped) for s in x]
        return RaggedTensor.from_nested_row_splits(comps[0], comps[1:], validate=False)
    raise SavedModelError(f"Bad output structure {kind!r}")
