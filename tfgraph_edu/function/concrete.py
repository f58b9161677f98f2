"""ConcreteFunction: one traced graph with one signature, and the way to call it (layer 7)."""

from __future__ import annotations

import contextlib

import numpy as np

from .. import dtypes as _dt
from .._traceback import filter_traceback
from ..eager import tape as _tape
from ..eager.tensor import EagerTensor
from ..eager.variables import Variable
from ..errors import InvalidArgumentError
from ..ops import debug_ops
from ..ops._core import type_name
from ..optimize import optimize
from ..runtime.compiled import CompiledGraph
from ..shapes import TensorSpec
from . import signatures
from .gradients import call_recorded

_new = object.__new__


def _wrap(value) -> EagerTensor:
    t = _new(EagerTensor)
    t._value = value
    return t


class _Slot:
    """Where output number ``index`` goes in the returned structure."""

    __slots__ = ("index",)

    def __init__(self, index):
        self.index = index


class CompositeSlot:
    """Where a composite result (a SparseTensor, ...) goes: its spec and its components'
    slots; it is rebuilt from them on the way out."""

    __slots__ = ("spec", "parts")

    def __init__(self, spec, parts):
        self.spec, self.parts = spec, parts


def _same(tensor):
    return tensor


def _pack(structure, values, wrap=_wrap):
    if type(structure) is _Slot:
        return wrap(values[structure.index])
    if type(structure) is CompositeSlot:
        return structure.spec._from_components([_pack(p, values, wrap) for p in structure.parts])
    if isinstance(structure, list):
        return [_pack(s, values, wrap) for s in structure]
    if isinstance(structure, tuple):
        items = [_pack(s, values, wrap) for s in structure]
        return type(structure)(*items) if hasattr(structure, "_fields") else tuple(items)
    if isinstance(structure, dict):
        return {k: _pack(v, values, wrap) for k, v in structure.items()}
    return structure


class ConcreteFunction:
    """A graph traced for one input signature; callable with tensors.

    ``params`` are ``(name, kind, value)`` with TensorSpecs (or variables, or
    Python values) for the arguments as traced; ``arg_placeholders`` are the
    graph inputs fed by the arguments' tensors, in flattening order.
    """

    def __init__(self, graph, name, params, arg_placeholders, arg_leaves, structured_outputs,
                 flat_outputs, output_structure, python_name):
        self.graph = graph
        self.name = name
        self._params = params
        self._arg_placeholders = arg_placeholders
        self._arg_leaves = arg_leaves  # the spec of each leaf, to check direct calls
        self.structured_outputs = structured_outputs
        self.outputs = flat_outputs
        self._output_structure = output_structure
        self._python_name = python_name
        captures = graph.captures
        self._capture_values = [outer._value for outer, _ in captures]
        self.captured_inputs = [outer for outer, _ in captures]
        self.inputs = list(arg_placeholders) + [inner for _, inner in captures]
        graph.inputs = self.inputs
        graph.outputs = flat_outputs
        self._compiled = None
        self._optimized = None
        self._report = None
        self._single = type(output_structure) is _Slot
        self.call_count = 0

    # -- execution ----------------------------------------------------------------------------
    @property
    def compiled(self) -> CompiledGraph:
        """The fast path: the optimised graph lowered to straight-line Python (built on
        first use)."""
        if self._compiled is None:
            graph, inputs, outputs = self._optimize()
            self._compiled = CompiledGraph(graph, inputs, outputs, self.name)
        return self._compiled

    @contextlib.contextmanager
    def running_unoptimised(self):
        """Inside the block, calls run the graph as traced, without the optimisation passes
        (the same call path otherwise: what the timing chart compares)."""
        optimised = self.compiled
        self._compiled = CompiledGraph(self.graph, self.inputs, self.outputs,
                                       self.name + "_unoptimised")
        try:
            yield
        finally:
            self._compiled = optimised

    def _optimize(self):
        if self._optimized is None:
            graph, inputs, outputs, report = optimize(self.graph, self.inputs, self.outputs)
            self._optimized = (graph, inputs, outputs)
            self._report = report
        return self._optimized

    @property
    def optimization_report(self):
        """What each optimisation pass changed (the pipeline runs on first use)."""
        self._optimize()
        return self._report

    @property
    def optimized_graph(self):
        """The graph after the optimisation pipeline (``graph`` stays as traced)."""
        return self._optimize()[0]

    def _run(self, leaf_values: list, leaves=None):
        """Run with the numpy values (or variable handles) of the argument leaves; ``leaves``
        are the arguments' tensors and variables, for the tapes that may record the call."""
        self.call_count += 1
        if _tape.ACTIVE and leaves is not None:
            flat = call_recorded(self, leaves, leaf_values)
            if flat is not None:
                if self._single:
                    return flat[0]
                return _pack(self._output_structure, flat, _same)
        compiled = self._compiled or self.compiled
        results = compiled(*leaf_values, *self._capture_values)
        if debug_ops.CHECKING[0]:  # the call is an eager op whose outputs TF checks too
            self._check_numerics(leaves, results)
        if self._single:
            return _wrap(results[0])
        return _pack(self._output_structure, results)

    def _check_numerics(self, leaves, results) -> None:
        inputs = [t for t in (leaves or []) if isinstance(t, EagerTensor)]
        err = debug_ops.eager_error(self.name, inputs, results)
        if err is not None:
            raise err

    @filter_traceback
    def __call__(self, *args, **kwargs):
        values, leaves = self._bind_leaves(args, kwargs)
        return self._run(values, leaves)

    def _bind(self, args, kwargs) -> list:
        """The leaf values of a direct call, checked against the traced signature."""
        return self._bind_leaves(args, kwargs)[0]

    def _bind_leaves(self, args, kwargs) -> tuple[list, list]:
        """The leaf values of a direct call and the leaves themselves (tensors, variables, Python
        values), bound to the traced parameters as TensorFlow binds them: Python arguments may
        be given and equal their traced value (leaving one out binds only through the flat
        signature, the graph's tensor inputs as eager tensors); anything else is TF's "Binding
        inputs to tf.function failed" TypeError.
        """
        from .trace_key import encode
        try:
            values = self._bind_values(args, kwargs)
        except _BindError as exc:
            structured = (
                f"Binding inputs to tf.function failed due to `{exc}`. Received args: {args} and "
                f"kwargs: {kwargs} for signature: "
                f"{signatures.short_signature(self._params, self.structured_outputs)}.")
            try:  # as TF: then the flat signature, the graph's tensor inputs in order
                leaves = self._bind_flat(args, kwargs)
            except _BindError as flat:
                raise TypeError(f"{structured}\nFallback to flat signature also failed due to: "
                                f"{flat}") from None
        else:
            leaves = []
            for v in values:
                encode(v, leaves, "argument")
        out = []
        for i, (leaf, ph) in enumerate(zip(leaves, self._arg_placeholders)):
            out.append(self._check_leaf(i, leaf, ph))
        return out, leaves

    def _bind_flat(self, args, kwargs) -> list:
        """The leaves of a call that passes the graph's tensor inputs themselves, positionally
        or by their names (TensorFlow's flat signature: ``evaluate_no_bias(x)`` after tracing
        ``evaluate(model, x)``)."""
        names = [ph.op.name for ph in self._arg_placeholders]
        summary = f"{self._python_name}({', '.join(names)})"
        if len(args) > len(names):
            raise _BindError(f"{summary} takes {len(names)} positional arguments, got "
                             f"{len(args)}.")
        args, kwargs = list(args), dict(kwargs)
        for name in names[len(args):]:
            if name not in kwargs:
                missing = sorted(set(names) - set(names[:len(args)]) - set(kwargs))
                raise _BindError(f"{summary} missing required arguments: {', '.join(missing)}.")
            args.append(kwargs.pop(name))
        if kwargs:
            raise _BindError(f"{summary} got unexpected keyword arguments: "
                             f"{', '.join(sorted(kwargs))}.")
        for i, arg in enumerate(args):
            if isinstance(arg, Variable):  # TF's flat call takes eager tensors only
                raise _BindError("provided list of inputs contains objects other than "
                                 f"'EagerTensor'. Item {i} is type: ResourceVariable")
            if not isinstance(arg, EagerTensor):
                raise _BindError(f"{summary}: expected argument #{i}(zero-based) to be a Tensor; "
                                 f"got {type(arg).__name__} ({arg}).")
        return args

    def _bind_values(self, args, kwargs) -> list:
        params = self._params
        positional = [p for p in params if p[1] != "KEYWORD_ONLY"]
        if len(args) > len(positional):
            raise _BindError("too many positional arguments")
        given = {p[0]: a for p, a in zip(positional, args)}
        kinds = {name: kind for name, kind, _ in params}
        for key, value in kwargs.items():
            if kinds.get(key, "POSITIONAL_ONLY") == "POSITIONAL_ONLY":
                raise _BindError(f"got an unexpected keyword argument '{key}'")
            if key in given:
                raise _BindError(f"multiple values for argument '{key}'")
            given[key] = value
        values = []
        for name, _kind, spec in params:
            if name not in given:  # a Python one too (TF: only the flat signature may omit it)
                raise _BindError(f"missing a required argument: '{name}'")
            value = given[name]
            if not _has_leaves(spec) and not _same_python_value(value, spec):
                raise _BindError(f"Can not cast {value!r} to {signatures.type_text(spec)}")
            values.append(value)
        return values

    def _check_leaf(self, i, leaf, ph):
        if isinstance(leaf, Variable):
            return leaf._handle._value
        if isinstance(leaf, EagerTensor):
            value = leaf._value
        else:
            value = np.asarray(leaf)
        dtype = _dt.NP_TO_DTYPE.get(value.dtype)
        if dtype is not ph.dtype:
            raise InvalidArgumentError(
                None, None,
                f"cannot compute {self.name} as input #{i}(zero-based) was expected to be a "
                f"{type_name(ph.dtype)} tensor but is a "
                f"{type_name(dtype) if dtype else value.dtype} tensor [Op:{self.name}]")
        rank = ph.shape.rank
        if rank is not None and rank != np.ndim(value):
            # TF 2.21 checks no shape here and runs the graph (what the trace baked in, such as
            # a static tf.shape, stays); with another rank our numpy kernels could accept what
            # TF's refuse (a matmul of vectors), so that call is refused instead
            raise InvalidArgumentError(
                None, None,
                f"Input #{i} ({ph.op.name}) of {self.name} was traced for shape {ph.shape} but "
                f"got shape {tuple(np.shape(value))}: tfgraph_edu runs a concrete function only "
                f"on inputs of the rank it was traced for [Op:{self.name}]")
        return value

    # -- what a learner can look at --------------------------------------------------------------
    @property
    def structured_input_signature(self):
        """``(args, kwargs)`` as traced: TensorSpecs named after their parameters (``x``,
        ``x_0`` inside structures, as the graph's placeholders), Python values as they were."""
        args = tuple(signatures.named_spec(spec, name) for name, kind, spec in self._params
                     if kind != "KEYWORD_ONLY")
        kwargs = {name: signatures.named_spec(spec, name) for name, kind, spec in self._params
                  if kind == "KEYWORD_ONLY"}
        return args, kwargs

    @property
    def variables(self) -> list:
        """The variables the graph reads.  As in TensorFlow 2.21 the function holds them
        weakly, but the values it captured live on with the function: a call after the last
        Python reference to a variable went away still reads (and writes) that variable's
        value; only this listing refuses, with TensorFlow's AssertionError."""
        if len(self.graph.variables) != len(self.graph.variables.refs):
            raise AssertionError(
                "Called a function referencing variables which have been deleted. This likely "
                "means that function-local variables were created and not referenced elsewhere "
                "in the program. This is generally a mistake; consider storing variables in an "
                "object attribute on first call.")
        return list(self.graph.variables)

    @property
    def trainable_variables(self) -> list:
        return [v for v in self.variables if v.trainable]

    @property
    def function_type(self):
        return FunctionType(self._params, self.structured_outputs)

    def _capture_specs(self):
        return [(inner.op.name, TensorSpec(inner.shape, inner.dtype))
                for _, inner in self.graph.captures]

    def pretty_printed_signature(self, verbose: bool = True) -> str:
        """The "Input Parameters / Output Type / Captures" block, or with ``verbose=False``
        the one-line ``(x: ...) -> ...`` form, as TensorFlow prints them."""
        if not verbose:
            return signatures.short_signature(self._params, self.structured_outputs)
        return signatures.pretty_signature(self._params, self.structured_outputs,
                                           self._capture_specs())

    @property
    def function_def(self):
        """The traced graph as TF's ``FunctionDef`` (``signature``, ``node_def``, ``ret``,
        ``attr``, ``arg_attr``; ``print`` gives TF's text form).  Each argument of the
        Python function carries ``_user_specified_name``, as in TF."""
        from types import SimpleNamespace

        from ..graph.function_defs import function_def
        from ..graph.printers import FunctionDef
        g = self.graph
        view = function_def(SimpleNamespace(function_name=self.name, graph=g,
                                            inputs=g.inputs, outputs=g.outputs), strict=False)
        own = {id(p) for p in self._arg_placeholders}
        for i, t in enumerate(g.inputs):
            if id(t) in own:
                view.arg_attrs[i] = {"_user_specified_name": t.op.name, **view.arg_attrs[i]}
        return FunctionDef(view)

    @property
    def inference_fn(self):
        """TF's ``AtomicFunction``: the traced graph called on its flat tensor inputs, in the
        graph's order (captured values are added), its flat outputs back."""
        return AtomicFunction(self)

    def __str__(self):
        return "ConcreteFunction " + self.pretty_printed_signature()

    def __repr__(self):
        return f"<ConcreteFunction {self.pretty_printed_signature(False)} at 0x{id(self):X}>"


class AtomicFunction:
    """``concrete_function.inference_fn`` (TF 2.21): one call of the graph, no binding of
    Python arguments: the tensors for its inputs, in order."""

    def __init__(self, concrete):
        self._concrete = concrete
        self.name = concrete.name

    def __call__(self, *args):
        from ..nest import flatten
        from ..ops.convert import to_tensor
        cf = self._concrete
        if len(args) != len(cf._arg_placeholders):
            raise TypeError(f"{self.name} takes {len(cf._arg_placeholders)} tensor inputs, "
                            f"got {len(args)}.")
        leaves = [a if isinstance(a, Variable) else to_tensor(a) for a in args]
        values = [cf._check_leaf(i, leaf, ph)
                  for i, (leaf, ph) in enumerate(zip(leaves, cf._arg_placeholders))]
        out = cf._run(values, leaves)
        return out if cf._single else tuple(flatten(out))  # TF: a tuple

    def __repr__(self):
        return f"<AtomicFunction> {self.name}"


class FunctionType:
    """The parameters and output type of a concrete function, printable as TF prints it."""

    def __init__(self, params, outputs):
        self.parameters = {name: (kind, spec) for name, kind, spec in params}
        self._params = params
        self.output = outputs

    def __repr__(self):
        return signatures.short_signature(self._params, self.output)

    __str__ = __repr__


class _BindError(Exception):
    """Why a direct call's arguments do not fit the traced parameters (inspect's words)."""


def _same_python_value(value, traced) -> bool:
    """Whether a Python argument equals the value a concrete function was traced with
    (TensorFlow compares by value, as trace keys do: 2 == 2.0)."""
    try:
        return value is traced or bool(value == traced)
    except Exception:  # noqa: BLE001 - an object whose == cannot answer is not equal
        return False


def _has_leaves(spec) -> bool:
    from ..ops.composite import CompositeTensor, TypeSpec
    from ..ops.convert import is_tensor
    if isinstance(spec, (TensorSpec, Variable, TypeSpec, CompositeTensor)) or is_tensor(spec):
        return True
    if isinstance(spec, (list, tuple)):
        return any(_has_leaves(s) for s in spec)
    if isinstance(spec, dict):
        return any(_has_leaves(s) for s in spec.values())
    return False
