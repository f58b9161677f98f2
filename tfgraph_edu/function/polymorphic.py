"""``tf.function``: a polymorphic Function that traces one graph per trace key (layer 7).

Calling a Function computes the trace key of its arguments (trace_key.py); a
key seen before runs its ConcreteFunction's compiled graph, a new key traces
the Python function into a new graph first.  Everything is recorded in
``Function.events`` so notebooks can show when and why each trace happened.
"""

from __future__ import annotations

import functools
import inspect
import itertools
import time
import types
import weakref

import numpy as np

from .. import _gc
from .. import dtypes as _dt
from .._traceback import filter_traceback
from ..autograph import conversion as autograph_conversion
from ..autograph import operators as autograph_operators
from ..autograph.errors import in_user_code
from ..control_flow.tensor_array import TensorArray
from ..eager import context
from ..eager.tensor import EagerTensor
from ..eager.variables import Variable, watching_creation
from ..errors import OperatorNotAllowedInGraphError
from ..graph.graph import FuncGraph, Graph, Tensor
from ..ops import _core, identity_ops, numpy_behavior
from ..ops.composite import CompositeTensor, TypeSpec
from ..ops.convert import is_tensor, to_tensor
from ..shapes import TensorShape, TensorSpec
from ..tracing.graph_builder import GraphBuilder, caller_stack
from . import retracing, signatures, trace_key
from .concrete import CompositeSlot, ConcreteFunction, _Slot
from .events import CallEvent, EventLog, TraceEvent

_uid = itertools.count(1)
_KIND = {
    inspect.Parameter.POSITIONAL_ONLY: "POSITIONAL_ONLY",
    inspect.Parameter.POSITIONAL_OR_KEYWORD: "POSITIONAL_OR_KEYWORD",
    inspect.Parameter.KEYWORD_ONLY: "KEYWORD_ONLY",
}

# TensorFlow's rule for tf.Variables created while tracing, and its two messages: the first
# call may create variables (then it is traced a second time, and that trace must create
# none); a later trace may not create any.
_SINGLETON_ERROR = (
    "tf.function only supports singleton tf.Variables created on the first call. Make sure the "
    "tf.Variable is only created once or created outside tf.function. See "
    "https://www.tensorflow.org/guide/function#creating_tfvariables for more information.")
_LATE_ERROR = ("Creating variables on a non-first call to a function decorated with "
               "tf.function.")
_VARIABLE_HINT = (" (`{name}` created a tf.Variable while being traced {when}: create it "
                  "outside the function, or guard the creation with `if self.v is None:` so "
                  "it happens once.)")


class Function:
    """A Python function made into TensorFlow graphs, one per trace key."""

    def __init__(self, python_function, name=None, input_signature=None, autograph=True,
                 jit_compile=None, reduce_retracing=False, experimental_implements=None,
                 experimental_autograph_options=None, experimental_attributes=None,
                 experimental_follow_type_hints=None, experimental_relax_shapes=None):
        if isinstance(python_function, Function):
            python_function = python_function.python_function
        self._python_function = python_function
        self._name = name or getattr(python_function, "__name__", "function")
        self._autograph = autograph
        self._autograph_features = _feature_names(experimental_autograph_options)
        self._converted = None
        self._jit_compile = jit_compile
        self._reduce_retracing = bool(reduce_retracing or experimental_relax_shapes)
        self._signature = _signature_of(python_function)
        self._user_input_signature = input_signature  # as given: errors print it (TF)
        self._input_signature = (None if input_signature is None  # specs named (x, x_0)
                                 else _check_input_signature(input_signature, self._signature))
        self._given_signature = None if input_signature is None else tuple(input_signature)
        self._cache: dict[tuple, ConcreteFunction] = {}
        self._general: list[tuple[tuple, ConcreteFunction]] = []
        self._concretes: list[ConcreteFunction] = []
        self._keys: list[tuple] = []
        self._traced: list[tuple[tuple, list]] = []  # (key, params as specs) of each call trace
        self._saving: dict[tuple, ConcreteFunction] = {}  # traced while saving (see below)
        self._seen = trace_key.SeenArguments()
        self.events = EventLog(owner=self)
        self.last_call = None
        self._calls = 0
        self._tracing_depth = 0
        self._created_variables = None  # None until the first trace; then whether it did
        self._initializing_traces = 0  # first-call traces that created variables (discarded)
        self._instances: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        params = list(self._signature.parameters.values())
        simple = all(p.kind == p.POSITIONAL_OR_KEYWORD for p in params)
        self._fast_arity = len(params) if simple else -1
        self._param_names = [p.name for p in params]
        try:
            functools.update_wrapper(self, python_function)
        except (AttributeError, TypeError):  # a numpy ufunc or other builtin callable
            pass

    # -- public attributes ---------------------------------------------------------------------
    @property
    def python_function(self):
        return self._python_function

    @property
    def input_signature(self):
        """The input_signature as given (None if none)."""
        return self._given_signature

    @property
    def function_spec(self):
        return self._signature

    def experimental_get_tracing_count(self) -> int:
        """How many graphs this Function has traced (as in TF, a first call that creates
        variables traces twice and counts twice)."""
        return len(self._concretes) + self._initializing_traces

    @property
    def concrete_functions(self) -> list[ConcreteFunction]:
        return list(self._concretes)

    def pretty_printed_concrete_signatures(self, verbose: bool = True) -> str:
        """Every traced signature: blocks apart by a blank line, or one line each when not
        ``verbose`` (as TensorFlow joins them)."""
        joiner = "\n\n" if verbose else "\n"
        return joiner.join(cf.pretty_printed_signature(verbose) for cf in self._concretes)

    @property
    def function_type(self):
        if self._concretes:
            return self._concretes[0].function_type
        return self._signature

    def __repr__(self):
        """As TensorFlow prints a Function (its class path; Jupyter shows the rich display of
        viz/displays.py instead)."""
        return ("<tensorflow.python.eager.polymorphic_function.polymorphic_function.Function "
                f"object at 0x{id(self):x}>")

    def __get__(self, instance, owner=None):
        """Methods: one Function per instance, so each object gets its own graphs."""
        if instance is None:
            return self
        try:
            bound = self._instances.get(instance)
        except TypeError:
            bound = None
        if bound is None:
            bound = Function(functools.partial(self._python_function, instance),
                             name=self._name, input_signature=self._given_signature,
                             autograph=self._autograph, reduce_retracing=self._reduce_retracing)
            bound._autograph_features = self._autograph_features
            bound._signature = _drop_first(self._signature)
            params = list(bound._signature.parameters.values())
            bound._fast_arity = (len(params) if all(p.kind == p.POSITIONAL_OR_KEYWORD
                                                    for p in params) else -1)
            bound._param_names = [p.name for p in params]
            try:
                self._instances[instance] = bound
            except TypeError:
                pass
        return bound

    # -- calling -----------------------------------------------------------------------------------
    @filter_traceback
    def __call__(self, *args, **kwargs):
        self.last_call = (args, kwargs)  # what %%trace replays to time eager vs graph
        if context.functions_run_eagerly():
            self._calls += 1
            self.events.append(CallEvent(self._calls, None, False))
            return self._python_function(*args, **kwargs)
        if not _core.interpreter().executing_eagerly:
            return self._call_inside_trace(args, kwargs)
        # fast path: positional tensors only, already seen
        if not kwargs and len(args) == self._fast_arity and self._input_signature is None:
            key = []
            for a in args:
                if type(a) is not EagerTensor:
                    break
                v = a._value
                key.append((v.dtype, v.shape))
            else:
                cf = self._cache.get(tuple(key))
                if cf is not None:
                    self._calls += 1
                    retracing.detector(self._python_function).not_traced()
                    self.events.append(CallEvent(self._calls, cf.index, False))
                    return cf._run([a._value for a in args], args)
        return self._call_slow(args, kwargs)

    def _call_slow(self, args, kwargs):
        params = self._canonical(args, kwargs)
        key, leaves = self._key(params)
        cf = self._lookup(key)
        self._calls += 1
        traced = cf is None
        if traced:
            cf = self._trace(params, key)
        else:
            retracing.detector(self._python_function).not_traced()
        self.events.append(CallEvent(self._calls, cf.index, traced))
        return cf._run([_leaf_value(leaf) for leaf in leaves], leaves)

    def _call_inside_trace(self, args, kwargs):
        """Called while another function is traced: trace the body into the same graph."""
        if self._tracing_depth > MAX_NESTED_TRACES:
            if _has_symbolic((args, kwargs)):
                raise RecursionError(  # TF's gist first (it goes on to Python's limit)
                    f"maximum recursion depth exceeded: tf.function '{self._name}' keeps "
                    "calling itself while it is being traced. "
                    "A recursive tf.function must stop on a Python condition: a condition on a "
                    "tensor is only known when the graph runs, so tracing would never end.")
            raise RecursionError(
                f"tf.function '{self._name}' called itself more than {MAX_NESTED_TRACES} levels "
                "deep while being traced. Its arguments are Python values, so the recursion "
                "would stop, but every level is traced into the graph (TensorFlow goes on until "
                "Python's recursion limit; tfgraph_edu stops here). Write the recursion as a "
                "loop (a `for i in tf.range(n)` or `while` loop on a tensor stays one graph "
                "loop).")
        self._tracing_depth += 1
        try:
            return self._traced_callable()(*args, **kwargs)
        finally:
            self._tracing_depth -= 1

    def _traced_callable(self):
        """What tracing calls: the AutoGraph-converted function unless ``autograph=False``."""
        if not self._autograph:
            return self._python_function
        if self._converted is None:
            converted = autograph_conversion.convertible(
                self._python_function, self._autograph_features) or self._python_function
            if self._autograph_features:
                features = self._autograph_features

                @functools.wraps(converted)
                def converted_with_features(*args, **kwargs):
                    with autograph_operators.optional_features(features):
                        return converted(*args, **kwargs)
                self._converted = converted_with_features
            else:
                self._converted = converted
        return self._converted

    def get_concrete_function(self, *args, **kwargs) -> ConcreteFunction:
        """The ConcreteFunction for these arguments (tensors, TensorSpecs or Python values),
        traced now if needed."""
        if self._input_signature is not None and not args and not kwargs:
            args = tuple(self._input_signature)
        params = self._canonical(args, kwargs, allow_specs=True)
        key, _ = self._key(params)
        cf = self._lookup(key)
        if cf is None:
            cf = self._trace(params, key)
        return cf

    # -- arguments and keys -
    def _canonical(self, args, kwargs, allow_specs=False) -> list:
        """(name, kind, value) for every parameter, defaults applied, in declaration order."""
        try:
            bound = self._signature.bind(*args, **kwargs)
        except TypeError as exc:
            raise TypeError(f"{self._name}{self._signature}: {exc}") from None
        bound.apply_defaults()
        params = []
        for name, value in bound.arguments.items():
            kind = self._signature.parameters[name].kind
            if kind == inspect.Parameter.VAR_POSITIONAL:
                params += [(f"{name}_{i}", "POSITIONAL_ONLY", v) for i, v in enumerate(value)]
            elif kind == inspect.Parameter.VAR_KEYWORD:
                params += [(k, "KEYWORD_ONLY", value[k]) for k in sorted(value)]
            else:
                params.append((name, _KIND[kind], value))
        if self._input_signature is not None:
            params = self._apply_input_signature(params, args, kwargs)
        return params

    def _apply_input_signature(self, params, args, kwargs):
        out = []
        sig = list(self._input_signature)
        for i, (name, kind, value) in enumerate(params):
            if i >= len(sig):
                out.append((name, kind, value))
                continue
            out.append((name, kind, _conform(value, sig[i], self, args, kwargs)))
        return out

    def _key(self, params):
        leaves: list = []
        key = tuple(trace_key.encode(value, leaves, name) for name, _, value in params)
        if self._input_signature is not None:  # one trace, keyed by the signature's specs
            specs = self._signature_params(params)
            key = tuple(trace_key.encode(value, [], name) for name, _, value in specs)
        if _takes_var_keyword(self._signature):
            # the names given to **kwargs are part of the call (h(a=t) and h(b=t) differ)
            key += (("**", tuple(name for name, kind, _ in params if kind == "KEYWORD_ONLY")),)
        return key, leaves

    def _signature_params(self, params):
        """``params`` with the input_signature's TensorSpecs in place of the values."""
        sig = list(self._input_signature or ())
        return [(n, k, sig[i] if i < len(sig) else v) for i, (n, k, v) in enumerate(params)]

    def _lookup(self, key):
        """The concrete function for ``key``: traced for it, or for a more general key
        (unknown dims) that covers it - the most specific of those, as TensorFlow dispatches
        (a [1, None] trace before a [None, None] one) - then remembered for ``key`` too."""
        cf = self._cache.get(key)
        if cf is None and self._general:
            found = [(g, g_cf) for g, g_cf in self._general if trace_key.covers(g, key)]
            if found:
                best = found[-1][1]  # none more specific than all others: the latest
                for general, g_cf in reversed(found):
                    if all(trace_key.covers(other, general) for other, _ in found):
                        best = g_cf
                        break
                self._cache[key] = best
                return best
        return cf

    # -- tracing -
    def _trace(self, params, key) -> ConcreteFunction:
        if numpy_behavior.STATE.flexible:  # weak tensors are not traced yet: say so
            raise NotImplementedError(
                "tracing a tf.function under tnp.experimental_enable_numpy_behavior("
                f"dtype_conversion_mode='{numpy_behavior.STATE.mode}') is not implemented in "
                "tfgraph_edu yet (weak tensors are eager only); use the default 'legacy' mode.")
        if self._input_signature is not None:
            params = self._signature_params(params)
        trace_as = key
        if self._reduce_retracing and self._keys:
            for old in reversed(self._keys):
                relaxed = trace_key.relax(key, old)
                if relaxed is not None and relaxed != key:
                    trace_as = relaxed
                    params = _relax_params(params, relaxed)
                    break
        names = [n for n, _, _ in params]
        reason = self._seen.reason(names, key)
        start = time.perf_counter()
        if self._created_variables is None:  # the first trace may create variables
            cf, created = self._build(params, "allow")
            self._created_variables = bool(created)
            if created:  # as TF: trace again, reusing them (also those made in tf.init_scope)
                self._initializing_traces += 1
                reason += ("; it created tf.Variables, so it was traced a second time that "
                           "must not create any (as TensorFlow does)")
                cf, _ = self._build(params, "singleton")
        elif self._created_variables:
            cf, _ = self._build(params, "singleton")
        else:
            cf, created = self._build(params, "allow")
            if created:
                raise ValueError(_LATE_ERROR + _VARIABLE_HINT.format(
                    name=self._name, when=f"for the {_ordinal(len(self._concretes) + 1)} time"))
        seconds = time.perf_counter() - start
        self._cache[trace_as] = cf
        if trace_as != key or trace_key.has_unknown_dims(trace_as):
            self._general.append((trace_as, cf))
        self._keys.append(key)
        self._traced.append((trace_as, _as_specs(params)))
        self._seen.add(names, key)
        self._concretes.append(cf)
        cf.index = len(self._concretes)
        self.events.append(TraceEvent(len(self._concretes), trace_as, reason,
                                      cf.pretty_printed_signature(False), seconds, cf))
        retracing.detector(self._python_function).traced(repr(self._python_function))
        return cf

    def _saving_traces(self) -> list[ConcreteFunction]:
        """The graphs a SavedModel keeps of this Function.  As TF 2.21 does, saving traces
        every signature again (each signature traced so far, once; or the input_signature):
        the saving context is part of TF's trace key, so the Python function runs again (its
        ``print`` shows, the tracing count grows) the first time a signature is saved; later
        saves reuse those graphs, and calls never do (an input_signature function traced only
        by a save is traced again on its first call)."""
        if self._input_signature is not None:
            params = self._signature_params(self._canonical(tuple(self._input_signature), {}))
            wanted = [(self._key(params)[0], params)]
        else:
            wanted, seen = [], set()
            for key, params in self._traced:
                if key not in seen:
                    seen.add(key)
                    wanted.append((key, params))
        out = []
        for key, params in wanted:
            cf = self._saving.get(key)
            if cf is None:
                cf, created = self._build(params, "singleton" if self._created_variables
                                          else "allow")
                if created:
                    raise ValueError(_LATE_ERROR + _VARIABLE_HINT.format(
                        name=self._name, when="while saving"))
                self._saving[key] = cf
                self._concretes.append(cf)
                cf.index = len(self._concretes)
            out.append(cf)
        return out

    def _build(self, params, variables: str):
        """Trace once: (ConcreteFunction, one flag per tf.Variable created: True if created in
        the graph, False if inside tf.init_scope).  ``variables`` is "allow" or "singleton"
        (creating one raises TF's ValueError).

        A first trace that created variables in any way (in the graph, or under tf.init_scope
        as Keras weights and optimizer slots are) is followed by a second one that may not
        create any, as TensorFlow does (so a ``print`` in a Keras layer shows both traces)."""
        _refuse_generators(self._python_function)
        name = f"__inference_{self._name}_{next(_uid)}"
        graph = FuncGraph(name)
        graph.caller_stack = caller_stack()  # where the trace was called from (TF's traceback)
        builder = GraphBuilder(graph)
        created = []
        if variables == "singleton":
            when = ("again on the first call" if not self._concretes
                    else f"for the {_ordinal(len(self._concretes) + 1)} time")

            def refuse(variable):
                raise ValueError(_SINGLETON_ERROR + _VARIABLE_HINT.format(name=self._name,
                                                                          when=when))
            watch = refuse
        else:
            def watch(variable):
                created.append(not _core.interpreter().executing_eagerly)
        placeholders: list = []
        leaf_specs: list = []
        call_values = []
        shown = []
        self._tracing_depth += 1
        try:
            with _core.using_interpreter(builder), _gc.paused(), watching_creation(watch):
                for pname, kind, value in params:
                    call_values.append(_placeholders_for(value, pname, builder, placeholders,
                                                         leaf_specs))
                    shown.append((pname, kind, _spec_of(value)))
                args, kwargs = _split(params, call_values)
                try:
                    result = self._traced_callable()(*args, **kwargs)
                except Exception as exc:  # noqa: BLE001 - re-raised, pointed at the user's line
                    if _is_builtin(self._python_function) and isinstance(
                            exc, (TypeError, NotImplementedError, ValueError)):
                        raise _builtin_error(self._python_function, exc) from exc
                    exc = _explain_unconverted(exc, self._python_function, self._autograph)
                    better = in_user_code(exc) if self._autograph else None
                    if better is None:
                        raise
                    raise better.with_traceback(None) from exc
                flat: list = []
                structure = _outputs(result, builder, flat, self._python_function)
        finally:
            self._tracing_depth -= 1
        structured = _structured(structure, flat)
        cf = ConcreteFunction(graph, name, shown, placeholders, leaf_specs, structured, flat,
                              structure, self._name)
        return cf, created


autograph_conversion.register_self_converting(Function)  # AutoGraph calls it as it is


def function(func=None, input_signature=None, autograph=True, jit_compile=None,
             reduce_retracing=False, experimental_implements=None,
             experimental_autograph_options=None, experimental_attributes=None,
             experimental_relax_shapes=None, experimental_compile=None,
             experimental_follow_type_hints=None):
    """``tf.function``: as a call ``tf.function(f)`` or a decorator, with or without arguments.

    ``jit_compile=True`` is accepted but there is no XLA here: the graph runs as any other,
    on the compiled Python fast path, and a warning says so (TF compiles it with XLA).
    """
    def make(f):
        if jit_compile or experimental_compile:
            import warnings
            warnings.warn(
                f"jit_compile=True: tfgraph_edu has no XLA compiler, so "
                f"'{getattr(f, '__name__', 'function')}' runs as an ordinary graph (same "
                "results). TensorFlow would compile the whole graph with XLA into fused "
                "kernels for this device.", UserWarning, stacklevel=2 if func is None else 3)
        return Function(f, input_signature=input_signature, autograph=autograph,
                        jit_compile=(jit_compile if jit_compile is not None
                                     else experimental_compile),
                        reduce_retracing=reduce_retracing,
                        experimental_autograph_options=experimental_autograph_options,
                        experimental_relax_shapes=experimental_relax_shapes)
    if func is None:
        return make
    return make(func)


# -- helpers -
def _explain_unconverted(exc, fn, autograph):
    """A symbolic tensor used as a Python bool or iterable in a function AutoGraph could not
    convert: the error says why the function ran as plain Python."""
    cause = autograph_conversion.unconverted_cause(fn) if autograph else None
    if cause is None or not isinstance(exc, OperatorNotAllowedInGraphError):
        return exc
    name = getattr(fn, "__name__", "the function")
    new = OperatorNotAllowedInGraphError(
        f"{exc}\n\nAutoGraph could not convert {name} ({cause}), so it ran as plain Python, "
        "where a tensor cannot be a condition or be iterated over. Remove what AutoGraph "
        "cannot convert (e.g. the `else` of a loop: set a flag before `break` and test it after "
        "the loop).")
    return new.with_traceback(exc.__traceback__)


def _feature_names(options) -> frozenset:
    """``experimental_autograph_options`` (a Feature or a tuple of them) as their names."""
    if options is None:
        return frozenset()
    if not isinstance(options, (list, tuple, set, frozenset)):
        options = (options,)
    return frozenset(getattr(o, "name", str(o)) for o in options)


MAX_NESTED_TRACES = 50  # a tf.function calling itself while traced, at most this deep
_GENERIC = inspect.Signature([inspect.Parameter("args", inspect.Parameter.VAR_POSITIONAL),
                              inspect.Parameter("kwargs", inspect.Parameter.VAR_KEYWORD)])
_OP_INSTEAD = {"max": "tf.reduce_max or tf.maximum", "min": "tf.reduce_min or tf.minimum",
               "sum": "tf.reduce_sum", "sorted": "tf.sort", "round": "tf.round",
               "pow": "tf.pow", "sqrt": "tf.sqrt", "exp": "tf.exp", "log": "tf.math.log",
               "square": "tf.square", "mean": "tf.reduce_mean", "any": "tf.reduce_any",
               "all": "tf.reduce_all"}


def _signature_of(python_function) -> inspect.Signature:
    """The Python signature; ``(*args, **kwargs)`` for builtins and numpy ufuncs, which have
    none that Python can read."""
    try:
        return inspect.signature(python_function)
    except (ValueError, TypeError):
        if not callable(python_function):
            raise TypeError(f"tf.function expects a callable, got {python_function!r}.") \
                from None
        return _GENERIC


def _is_builtin(f) -> bool:
    return isinstance(f, (types.BuiltinFunctionType, np.ufunc)) or (
        not isinstance(f, (types.FunctionType, types.MethodType, functools.partial))
        and type(f).__module__.split(".")[0] in ("numpy", "builtins", "math"))


def _builtin_error(f, exc):
    """The builtin's own error class, saying why a builtin cannot run on graph tensors."""
    name = getattr(f, "__name__", repr(f))
    instead = _OP_INSTEAD.get(name)
    hint = (f"Use {instead} instead." if instead else
            "Use the TensorFlow op that does the same, or wrap the call in tf.numpy_function.")
    if isinstance(f, np.ufunc):  # what TensorFlow says when numpy meets a graph tensor
        exc = NotImplementedError(
            "Cannot convert a symbolic tf.Tensor to a numpy array. This error may indicate "
            "that you're trying to pass a Tensor to a NumPy call, which is not supported.")
    try:
        return type(exc)(
            f"tf.function({name}): `{name}` is not Python code that AutoGraph can convert; "
            "while tracing it is called as it is, on symbolic tensors that have no values "
            f"yet, and it failed: {exc}\n{hint}")
    except TypeError:  # an error class with other constructor arguments: keep it
        return exc


def _has_symbolic(value, depth=0) -> bool:
    if isinstance(value, Tensor):
        return True
    if depth < 20 and isinstance(value, (list, tuple)):
        return any(_has_symbolic(v, depth + 1) for v in value)
    if depth < 20 and isinstance(value, dict):
        return any(_has_symbolic(v, depth + 1) for v in value.values())
    return False


_NOT_TRACEABLE = (
    (inspect.isasyncgenfunction, "async_generator", "an async generator function (`async def` "
     "with `yield`)"),
    (inspect.iscoroutinefunction, "coroutine", "an `async def` function"),
    (inspect.isgeneratorfunction, "generator", "a generator function (it uses `yield`)"),
)


def _refuse_generators(python_function) -> None:
    """TF's TypeError for functions whose call returns a generator or coroutine, raised
    before calling them (a coroutine never awaited would also warn)."""
    f = python_function
    while isinstance(f, functools.partial):
        f = f.func
    for test, type_name, what in _NOT_TRACEABLE:
        if test(f):
            raise TypeError(
                "To be compatible with tf.function, Python functions must return zero or more "
                "Tensors or ExtensionTypes or None values; in compilation of "
                f"{python_function}, found return value of type {type_name}, which is not a "
                f"Tensor or ExtensionType. `{getattr(f, '__name__', f)}` is {what}: a graph "
                "cannot pause and resume. Return tensors instead (collect values with "
                "tf.TensorArray, or iterate a tf.data.Dataset).")


def _ordinal(n: int) -> str:
    if n % 100 in (11, 12, 13):
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _drop_first(sig: inspect.Signature) -> inspect.Signature:
    params = list(sig.parameters.values())[1:]
    return sig.replace(parameters=params)


def _leaf_value(leaf):
    if type(leaf) is EagerTensor:
        return leaf._value
    if isinstance(leaf, Variable):
        return leaf._handle._value
    if isinstance(leaf, np.ndarray):
        return leaf
    raise TypeError(f"Cannot feed {leaf!r} to a graph.")


def _spec_of(value):
    """What the signature shows for an argument value."""
    if isinstance(value, CompositeTensor):
        return value._type_spec
    if isinstance(value, (EagerTensor, np.ndarray)) or (is_tensor(value)):
        v = value if not isinstance(value, np.ndarray) else to_tensor(value)
        return TensorSpec(v.shape, v.dtype)
    if isinstance(value, list):
        return [_spec_of(v) for v in value]
    if isinstance(value, tuple) and not hasattr(value, "_fields"):
        return tuple(_spec_of(v) for v in value)
    if isinstance(value, dict):
        return {k: _spec_of(value[k]) for k in sorted(value)}
    return value


def _as_specs(params) -> list:
    """``params`` with each eager tensor or array (also inside lists, tuples, dicts) as a
    TensorSpec: what tracing again needs, without keeping the call's values alive."""
    def spec(value):
        if type(value) is EagerTensor or isinstance(value, np.ndarray):
            v = value if type(value) is EagerTensor else to_tensor(value)
            return TensorSpec(v.shape, v.dtype)
        if isinstance(value, list):
            return [spec(v) for v in value]
        if isinstance(value, tuple) and not hasattr(value, "_fields"):
            return tuple(spec(v) for v in value)
        if isinstance(value, dict):
            return {k: spec(v) for k, v in value.items()}
        return value
    return [(n, k, spec(v)) for n, k, v in params]


def _placeholders_for(value, name, builder, placeholders, leaf_specs, user_name=None):
    """The value the Python function sees while traced: placeholders stand for tensors,
    each with TF's ``_user_specified_name`` attr (the argument's name, or its spec's)."""
    user_name = user_name or name
    if isinstance(value, (CompositeTensor, TypeSpec)):  # placeholders for its components
        spec = value._type_spec if isinstance(value, CompositeTensor) else value
        parts = []
        for c in spec._component_specs():
            ph = builder.placeholder(c.dtype, c.shape, name)
            ph.op.attrs["_user_specified_name"] = user_name
            placeholders.append(ph)
            leaf_specs.append(c)
            parts.append(ph)
        return spec._from_components(parts)
    if isinstance(value, TensorSpec) or isinstance(value, EagerTensor) or isinstance(
            value, np.ndarray) or (is_tensor(value) and not isinstance(value, Variable)):
        if isinstance(value, np.ndarray):
            dtype, shape = _dt.NP_TO_DTYPE[value.dtype], TensorShape(list(value.shape))
        else:
            dtype, shape = value.dtype, value.shape
        ph_name = value.name if isinstance(value, TensorSpec) and value.name else name
        ph = builder.placeholder(dtype, shape, ph_name)
        ph.op.attrs["_user_specified_name"] = ph_name if ph_name != name else user_name
        placeholders.append(ph)
        leaf_specs.append(TensorSpec(shape, dtype))
        return ph
    if isinstance(value, Variable):
        ph = builder.placeholder(_dt.resource, [], name)
        ph.op.attrs["_user_specified_name"] = user_name
        ph.handle_shape, ph.handle_dtype = value.shape, value.dtype
        builder.variable_inputs[id(value._handle)] = ph
        placeholders.append(ph)
        leaf_specs.append(value)
        return value
    if isinstance(value, list):
        return [_placeholders_for(v, f"{name}_{i}", builder, placeholders, leaf_specs,
                                  user_name)
                for i, v in enumerate(value)]
    if isinstance(value, tuple):
        items = [_placeholders_for(v, f"{name}_{i}", builder, placeholders, leaf_specs,
                                  user_name)
                 for i, v in enumerate(value)]
        return type(value)(*items) if hasattr(value, "_fields") else tuple(items)
    if isinstance(value, dict):
        return {k: _placeholders_for(value[k], f"{name}_{k}", builder, placeholders, leaf_specs,
                                  user_name)
                for k in sorted(value)}
    protocol = getattr(type(value), "__tf_tracing_type__", None)
    if protocol is not None:  # TF traces with the value its TraceType says stands for it
        return protocol(value, trace_key.TRACING_CONTEXT).placeholder_value(
            trace_key.TRACING_CONTEXT)
    return value


@functools.lru_cache(maxsize=4096)
def _takes_var_keyword(signature: inspect.Signature) -> bool:
    return any(p.kind is inspect.Parameter.VAR_KEYWORD for p in signature.parameters.values())


def _split(params, values):
    args, kwargs = [], {}
    for (name, kind, _), v in zip(params, values):
        if kind == "KEYWORD_ONLY":
            kwargs[name] = v
        else:
            args.append(v)
    return args, kwargs


def _outputs(result, builder, flat, python_function=None, depth=0):
    """The output structure with _Slot markers; each output tensor gets an Identity node.

    As in TensorFlow, every leaf that is not None becomes a tensor: Python numbers, strings
    and numpy values are converted (``return 1 + 1`` gives an int32 tensor); anything that
    cannot be converted is TF's TypeError."""
    if result is None:
        return None
    if isinstance(result, Variable):
        result = result._read()  # as TF: a plain ReadVariableOp
    if isinstance(result, (list, tuple, dict)):
        if depth >= trace_key.MAX_DEPTH:
            raise ValueError(f"The value returned by {python_function} is nested more than "
                             f"{trace_key.MAX_DEPTH} levels deep (or contains itself).")
        if isinstance(result, list):
            return [_outputs(r, builder, flat, python_function, depth + 1) for r in result]
        if isinstance(result, tuple):
            items = [_outputs(r, builder, flat, python_function, depth + 1) for r in result]
            return type(result)(*items) if hasattr(result, "_fields") else tuple(items)
        return {k: _outputs(v, builder, flat, python_function, depth + 1)
                for k, v in result.items()}
    if isinstance(result, TensorArray):
        return result
    if isinstance(result, CompositeTensor):  # its components go out, rebuilt by its spec
        return CompositeSlot(result._type_spec, [
            _outputs(c, builder, flat, python_function, depth + 1)
            for c in result._ag_components()])
    if not isinstance(result, (Tensor, EagerTensor)):
        try:
            if isinstance(result, Graph) or not (
                    isinstance(result, (bool, int, float, complex, str, bytes, np.ndarray,
                                        np.generic)) or hasattr(result, "_as_tensor")):
                raise TypeError
            result = to_tensor(result)
        except (TypeError, ValueError):
            raise TypeError(
                "To be compatible with tf.function, Python functions must return zero or more "
                "Tensors or ExtensionTypes or None values; in compilation of "
                f"{python_function}, found return value of type {type(result).__name__}, "
                "which is not a Tensor or ExtensionType.") from None
    t = result
    if isinstance(t, EagerTensor):
        t = builder.capture(t, "capture")
    flat.append(identity_ops.identity(t, name="Identity"))
    return _Slot(len(flat) - 1)


def _structured(structure, flat):
    if type(structure) is _Slot:
        return flat[structure.index]
    if type(structure) is CompositeSlot:
        return structure.spec._from_components([_structured(p, flat) for p in structure.parts])
    if isinstance(structure, list):
        return [_structured(s, flat) for s in structure]
    if isinstance(structure, tuple):
        items = [_structured(s, flat) for s in structure]
        return type(structure)(*items) if hasattr(structure, "_fields") else tuple(items)
    if isinstance(structure, dict):
        return {k: _structured(v, flat) for k, v in structure.items()}
    return structure


def _relax_params(params, relaxed_key):
    """Params whose tensors are replaced by TensorSpecs with the relaxed shapes."""
    out = []
    for (name, kind, value), comp in zip(params, relaxed_key):
        out.append((name, kind, _relax_value(value, comp)))
    return out


def _relax_value(value, comp):
    if isinstance(comp, tuple) and comp and isinstance(comp[0], np.dtype):
        dtype = _dt.NP_TO_DTYPE[comp[0]]
        return TensorSpec(None if comp[1] is None else list(comp[1]), dtype)
    if isinstance(value, list):
        return [_relax_value(v, c) for v, c in zip(value, comp[1:])]
    if isinstance(value, tuple) and not hasattr(value, "_fields"):
        return tuple(_relax_value(v, c) for v, c in zip(value, comp[1:]))
    if isinstance(value, dict):
        return {k: _relax_value(value[k], c[1]) for k, c in zip(sorted(value), comp[1:])}
    return value


def _check_input_signature(sig, py_sig):
    """The input_signature as a tuple, each TensorSpec without a name named after its
    parameter (``x``; ``x_0``, ``x_key`` inside structures; ``self`` is skipped), as the
    signatures TensorFlow prints show them."""
    if not isinstance(sig, (list, tuple)):
        raise TypeError(f"input_signature must be either a tuple or a list, got {type(sig)}.")
    sig = list(sig)
    for s in sig:
        if not _all_specs(s):
            raise TypeError(f"input_signature must be a possibly nested sequence of TensorSpec "
                            f"objects, got {s!r}")
    params = [p for p in py_sig.parameters.values()
              if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    if params and params[0].name == "self":
        params = params[1:]
    var = [p for p in py_sig.parameters.values() if p.kind == p.VAR_POSITIONAL]
    if len(sig) > len(params) and not var:
        raise TypeError(f"input_signature has {len(sig)} entries but the function takes "
                        f"{len(params)} positional arguments.")
    names = [p.name for p in params] + [f"{var[0].name}_{i}" for i in range(len(sig))] \
        if var else [p.name for p in params]
    return tuple(signatures.named_spec(s, n) for s, n in zip(sig, names))


def _flat_specs(s) -> list:
    if isinstance(s, TensorSpec):
        return [s]
    if isinstance(s, dict):
        s = list(s.values())
    return [x for item in (s if isinstance(s, (list, tuple)) else ()) for x in _flat_specs(item)]


def _all_specs(s) -> bool:
    if isinstance(s, (TensorSpec, TypeSpec)):
        return True
    if isinstance(s, (list, tuple)):
        return all(_all_specs(x) for x in s)
    if isinstance(s, dict):
        return all(_all_specs(x) for x in s.values())
    return False


def _conform(value, spec, fn, args, kwargs):
    """``value`` as a tensor (or structure of tensors) matching ``spec`` (input_signature),
    or TF's TypeError."""
    if isinstance(spec, TypeSpec):  # a SparseTensorSpec, RaggedTensorSpec
        got = value if isinstance(value, TypeSpec) else getattr(value, "_type_spec", None)
        if got is None or not spec.is_compatible_with(got):
            part = getattr(spec, "_first_incompatible", None)
            pair = part(got) if part is not None and got is not None else None
            if pair is not None:  # an extension type: TF names the first field that differs
                raise _cast_error(repr(pair[0]), pair[1], fn, args, kwargs)
            raise _cast_error(repr(got if got is not None else value), spec, fn, args, kwargs)
        return value
    if isinstance(spec, TensorSpec):
        if isinstance(value, TensorSpec):
            got = value
        else:
            try:
                t = value if is_tensor(value) else to_tensor(value, spec.dtype)
            except (TypeError, ValueError):
                t = None
            if t is None:
                raise _cast_error(repr(value), spec, fn, args, kwargs)
            got = TensorSpec(t.shape, t.dtype)
            value = t
        if got.dtype is not spec.dtype or not spec.shape.is_compatible_with(got.shape):
            raise _cast_error(repr(got), spec, fn, args, kwargs)
        return value
    if isinstance(spec, dict):
        if isinstance(value, dict) and set(value) == set(spec):
            return {k: _conform(value[k], spec[k], fn, args, kwargs) for k in value}
    elif isinstance(spec, (list, tuple)) and isinstance(value, (list, tuple)) and len(
            spec) == len(value) and (not hasattr(spec, "_fields") or type(value) is type(spec)):
        items = [_conform(v, s, fn, args, kwargs) for v, s in zip(value, spec)]
        return type(value)(*items) if hasattr(value, "_fields") else type(value)(items)
    raise _cast_error(repr(value), spec, fn, args, kwargs)


def _cast_error(got, spec, fn, args, kwargs):
    """TF's binding error, the specs printed as the user wrote them (``name=None`` when
    unnamed: the parameter names given here to unnamed specs are not shown, as in TF)."""
    user = getattr(fn, "_user_input_signature", None)
    user = fn._input_signature if user is None else tuple(user)
    names = {s.name for s in _flat_specs(user) if s.name}
    if isinstance(spec, TensorSpec) and spec.name not in names:
        spec = TensorSpec(spec.shape, spec.dtype)
    shown = [(n, "POSITIONAL_OR_KEYWORD", s) for n, s in zip(fn._param_names, user)]
    return TypeError(f"Binding inputs to tf.function failed due to `Can not cast {got} to "
                     f"{signatures.type_text(spec)}`. Received args: {args!r} and kwargs: "
                     f"{kwargs!r} for signature: {signatures.short_signature(shown)}.")
