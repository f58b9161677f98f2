"""ConcreteFunction: one traced graph with one signature, and the way to call it (layer 7)."""

from __future__ import annotations

import numpy as np

from .. import dtypes as _dt
from .._traceback import filter_traceback
from ..eager.tensor import EagerTensor
from ..eager.variables import Variable
from ..errors import InvalidArgumentError
from ..ops._core import type_name
from ..optimize import optimize
from ..runtime.compiled import CompiledGraph
from ..shapes import TensorShape, TensorSpec
from . import signatures

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


def _pack(structure, values):
    if type(structure) is _Slot:
        return _wrap(values[structure.index])
    if isinstance(structure, list):
        return [_pack(s, values) for s in structure]
    if isinstance(structure, tuple):
        items = [_pack(s, values) for s in structure]
        return type(structure)(*items) if hasattr(structure, "_fields") else tuple(items)
    if isinstance(structure, dict):
        return {k: _pack(v, values) for k, v in structure.items()}
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

    def _run(self, leaf_values: list):
        """Run with the numpy values (or variable handles) of the argument leaves."""
        self.call_count += 1
        compiled = self._compiled or self.compiled
        results = compiled(*leaf_values, *self._capture_values)
        if self._single:
            return _wrap(results[0])
        return _pack(self._output_structure, results)

    @filter_traceback
    def __call__(self, *args, **kwargs):
        leaves = self._bind(args, kwargs)
        return self._run(leaves)

    def _bind(self, args, kwargs) -> list:
        """The leaf values of a direct call, checked against the traced signature."""
        from .trace_key import encode
        given = list(args)
        values = []
        for name, _kind, spec in self._params:
            if name in kwargs:
                values.append(kwargs.pop(name))
            elif given and _has_leaves(spec):
                values.append(given.pop(0))
            elif _has_leaves(spec):
                raise TypeError(f"{self._python_name}() missing required argument: '{name}' "
                                f"(expected {signatures.type_text(spec)})")
            else:
                if given and not _has_leaves(spec):
                    v = given.pop(0)
                    if v != spec:
                        raise TypeError(f"{self._python_name}(): argument '{name}' was traced as "
                                        f"the Python value {spec!r} and cannot be {v!r} here; "
                                        "call the tf.function instead to trace a new graph.")
                values.append(spec)
        if given or kwargs:
            extra = given or list(kwargs)
            raise TypeError(f"{self._python_name}() got unexpected arguments: {extra!r}. "
                            f"Expected signature: {self.pretty_printed_signature(False)}")
        leaves: list = []
        for v in values:
            encode(v, leaves, "argument")
        out = []
        for i, (leaf, ph) in enumerate(zip(leaves, self._arg_placeholders)):
            out.append(self._check_leaf(i, leaf, ph))
        return out

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
        if not ph.shape.is_compatible_with(TensorShape(list(np.shape(value)))):
            raise InvalidArgumentError(
                None, None,
                f"Input #{i} ({ph.op.name}) of {self.name} was traced for shape {ph.shape} but "
                f"got shape {tuple(np.shape(value))} [Op:{self.name}]")
        return value

    # -- what a learner can look at --------------------------------------------------------------
    @property
    def structured_input_signature(self):
        args = tuple(spec for _, kind, spec in self._params if kind != "KEYWORD_ONLY")
        kwargs = {name: spec for name, kind, spec in self._params if kind == "KEYWORD_ONLY"}
        return args, kwargs

    @property
    def variables(self) -> list:
        return list(self.graph.variables)

    @property
    def trainable_variables(self) -> list:
        return [v for v in self.graph.variables if v.trainable]

    @property
    def function_type(self):
        return FunctionType(self._params, self.structured_outputs)

    def _capture_specs(self):
        return [(inner.op.name, TensorSpec(inner.shape, inner.dtype))
                for _, inner in self.graph.captures]

    def pretty_printed_signature(self, verbose: bool = True) -> str:
        if not verbose:
            return f"{self._python_name}" + signatures.short_signature(
                self._params, self.structured_outputs)
        return signatures.pretty_signature(self._params, self.structured_outputs,
                                           self._capture_specs())

    def __str__(self):
        return "ConcreteFunction " + self.pretty_printed_signature()

    def __repr__(self):
        return ("<ConcreteFunction " + signatures.short_signature(
            self._params, self.structured_outputs) + ">")


class FunctionType:
    """The parameters and output type of a concrete function, printable as TF prints it."""

    def __init__(self, params, outputs):
        self.parameters = {name: (kind, spec) for name, kind, spec in params}
        self._params = params
        self.output = outputs

    def __repr__(self):
        return signatures.short_signature(self._params, self.output)

    __str__ = __repr__


def _has_leaves(spec) -> bool:
    from ..ops.convert import is_tensor
    if isinstance(spec, (TensorSpec, Variable)) or is_tensor(spec):
        return True
    if isinstance(spec, (list, tuple)):
        return any(_has_leaves(s) for s in spec)
    if isinstance(spec, dict):
        return any(_has_leaves(s) for s in spec.values())
    return False
