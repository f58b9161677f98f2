"""The op registry and the one dispatch every op goes through (layer 1).

An :class:`OpDef` keeps everything about one TensorFlow op together: its
op-type name, input names, numpy kernel, shape/dtype rule and gradient.
Public functions such as ``tf.add`` call :func:`bind`, which hands the op to
the *current interpreter*: the eager interpreter runs the kernel now, a graph
builder adds a node instead (autodidax2's design: one context variable, no
stack of trace levels).  Interpreters live in higher layers and register
themselves here, so this layer never imports them.
"""

from __future__ import annotations

import inspect
import types
from collections.abc import Callable
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

import numpy as np

from .. import dtypes as _dt
from ..errors import InvalidArgumentError

__all__ = ["OpDef", "define", "REGISTRY", "bind", "interpreter", "using_interpreter",
           "set_default_interpreter", "constant_value", "shape_error"]

REGISTRY: dict[str, OpDef] = {}
# what a stateful op may touch (OpDef.state): see OpDef's docstring
STATES = ("variable", "random", "output", "check", "iterator", "python", "body")


class OpDef:
    """One op: name, inputs, kernel, shape rule and gradient, defined once.

    - ``inputs``: input argument names as TensorFlow names them; a name ending
      in ``*`` is a variadic list and must be the only input.
    - ``kernel(*arrays, **attrs)``: numpy implementation returning an array
      (or a tuple of arrays when the op has zero or several outputs for these
      attributes - ``num_outputs`` may be a function of them); it may raise a
      ``tf.errors`` exception for value-dependent failures.
    - ``shape(*tensors, **attrs)``: returns ``(TensorShape, DType)`` or a list of
      them; raises :func:`shape_error` for incompatible inputs.  Tensors passed
      here have ``.shape``, ``.dtype`` and ``_constant_value()``.
    - ``grad(op, *output_grads)``: input gradients built from public ops (so it
      works eagerly and inside graphs), ``None`` where there is none.
    - ``T``: indices of inputs that share the op's type attribute ``T`` (Python
      values among them adopt the dtype of the first tensor); ``dtypes`` the
      types allowed for ``T``.  A variadic op's inputs share one dtype unless
      ``mixed_types`` (a list-of-types attribute, as in ``StringFormat``).
    - ``specialize(op)``: optional; for a graph node whose attrs (and constant inputs) are
      known, a ``(kernel, input_indices)`` pair the compiled executor calls instead - the
      same computation with the attrs resolved in advance - or None.
    - ``stateful`` ops say in ``state`` what they touch beyond their outputs, so that the
      instruments (timing, step mode, exercise checks) know what a re-run would change:
      ``"variable"`` (a variable's value), ``"random"`` (the random ops' generators),
      ``"output"`` (printed text), ``"check"`` (nothing: it only raises), ``"iterator"`` (a
      dataset iterator's position), ``"python"`` (anything: it runs the learner's Python),
      ``"body"`` (control flow: what its branches' or body's ops touch).
    - ``operator``: optional; the Python operator (``"+"``, ``"<"``, ``"neg"`` ...) that
      computes exactly what the kernel computes on numeric numpy values, or a function of
      the graph node returning one or None.  The compiled executor writes it instead of a
      kernel call: on numpy scalars an operator costs a tenth of a ufunc call.
    - ``attrs``: the names of the op's attributes, the only ones a graph node (a loaded
      SavedModel's too) may give it.  Derived when not given (:func:`_attr_names`).
    """

    __slots__ = ("name", "inputs", "kernel", "shape", "grad", "T", "dtypes",
                 "stateful", "num_outputs", "variadic", "input_dtypes", "doc", "np_allowed",
                 "same_dtype", "specialize", "T_rest", "fast_arity", "operator", "state",
                 "attrs")

    def __init__(self, name: str, inputs: tuple[str, ...], kernel: Callable, shape: Callable,
                 grad: Callable | None = None, T: tuple[int, ...] = (),
                 dtypes: frozenset | None = None, stateful: bool = False,
                 num_outputs: int | Callable[[dict], int] = 1,
                 input_dtypes: dict[int, Any] | None = None, doc: str = "",
                 mixed_types: bool = False, specialize: Callable | None = None,
                 operator: str | Callable | None = None, state: str | None = None,
                 attrs=None):
        if stateful != (state is not None) or (state is not None and state not in STATES):
            raise ValueError(f"Op {name!r}: a stateful op names the state it touches (one of "
                             f"{', '.join(STATES)}); a stateless op names none")
        self.name = name
        self.inputs = tuple(inputs)
        self.kernel = kernel
        self.shape = shape
        self.grad = grad
        self.T = tuple(T)
        self.T_rest = self.T[1:]  # the inputs whose dtype must equal input T[0]'s
        self.dtypes = dtypes
        self.stateful = stateful
        self.state = state
        self.num_outputs = num_outputs
        self.variadic = bool(inputs) and inputs[0].endswith("*")
        self.same_dtype = self.variadic and not mixed_types
        self.specialize = specialize
        self.operator = operator
        # default dtypes for inputs outside T when given as Python values
        self.input_dtypes = input_dtypes or {}
        self.doc = doc
        # the numpy dtypes T may take, for the eager interpreter's quick check
        self.np_allowed = None if dtypes is None else frozenset(
            np.dtype(object) if d is _dt.string else d.np_dtype for d in dtypes)
        # 1 or 2 when every input shares T (with a dtype list) and there is one output: the
        # eager interpreter's short path for such ops; 0 otherwise
        self.attrs = frozenset(attrs) if attrs is not None else _attr_names(self)
        self.fast_arity = 0
        if (self.np_allowed is not None and num_outputs == 1 and not self.variadic
                and self.T == tuple(range(len(self.inputs))) and len(self.inputs) in (1, 2)):
            self.fast_arity = len(self.inputs)

    def output_count(self, attrs: dict | None) -> int:
        n = self.num_outputs
        return n(attrs or {}) if callable(n) else n

    def input_name(self, i: int) -> str:
        if self.variadic:
            base = self.inputs[0][:-1]
            return base if i == 0 else f"{base}_{i}"
        return self.inputs[i] if i < len(self.inputs) else f"input_{i}"

    def __repr__(self):
        return f"<OpDef {self.name}({', '.join(self.inputs)})>"


def _keyword_names(fn, n_inputs: int):
    """The keyword parameters of the Python function ``fn`` after its first ``n_inputs``
    positional ones (a ``*args`` takes every input), or None if it takes ``**kwargs``."""
    params = list(inspect.signature(fn).parameters.values())
    if any(p.kind is p.VAR_KEYWORD for p in params):
        return None
    names, positional = [], 0
    for p in params:
        if p.kind is p.VAR_POSITIONAL:
            positional = n_inputs
        elif p.kind is not p.KEYWORD_ONLY and positional < n_inputs:
            positional += 1
        elif p.kind is not p.POSITIONAL_ONLY:
            names.append(p.name)
    return frozenset(names)


def _attr_names(op: OpDef) -> frozenset:
    """An op's attribute names, when ``define`` was not given them: the keyword parameters
    of its shape rule (called with every attribute when a node is built), else those of
    its kernel when that is a Python function.  A kernel that is not one (a numpy ufunc such
    as ``np.multiply``) takes no attributes: its own keywords (``out=``, ``where=``) must
    never come from a graph.  Derived here, once, from Python functions of this library
    (never by introspecting numpy), and an op whose rule and kernel both take ``**kwargs``
    must declare ``attrs=``: an unknown attribute is never accepted by default."""
    n = 10 ** 6 if op.variadic else len(op.inputs)
    for fn in (op.shape, op.kernel):
        if isinstance(fn, types.FunctionType):
            names = _keyword_names(fn, n)
            if names is not None:
                return names
    if isinstance(op.kernel, types.FunctionType):
        raise TypeError(f"Op {op.name}: its shape rule and kernel both take **kwargs; "
                        "declare its attribute names with define(..., attrs=(...)).")
    return frozenset()


def define(name: str, inputs, kernel, shape, grad=None, **kwargs) -> OpDef:
    """Create and register an OpDef; op names are unique."""
    if name in REGISTRY:
        raise ValueError(f"Op {name!r} is already registered")
    op = OpDef(name, inputs, kernel, shape, grad, **kwargs)
    REGISTRY[name] = op
    return op


# -- the current interpreter --------------------------------------------------
_current: ContextVar[Any] = ContextVar("tfgraph_edu_interpreter", default=None)
_default: list[Any] = [None]


_default_apply: Callable | None = None  # _default[0].apply, looked up once


def set_default_interpreter(interp) -> None:
    """Install the interpreter used when none is active (the eager one)."""
    global _default_apply
    _default[0] = interp
    _default_apply = interp.apply


def interpreter():
    """The interpreter ops are bound to right now."""
    interp = _current.get()
    return _default[0] if interp is None else interp


@contextmanager
def using_interpreter(interp):
    """Run the body with ``interp`` as the current interpreter (None: the default)."""
    token = _current.set(interp)
    try:
        yield interp
    finally:
        _current.reset(token)


# ``hook(opdef, inputs, attrs, name)``: an op given an input no interpreter takes (a
# RaggedTensor) gets a second chance here (ragged_dispatch.py: an elementwise op runs on the
# flat values); it returns NotImplemented for anything else.  Set once; costs nothing until
# an op fails.
_composite_hook: list[Callable] = []


def bind(opdef: OpDef, inputs: tuple, attrs: dict | None = None, name: str | None = None):
    """Apply ``opdef`` to ``inputs`` in the current interpreter."""
    interp = _current.get()
    try:
        if interp is None:
            return _default_apply(opdef, inputs, attrs, name)
        return interp.apply(opdef, inputs, attrs, name)
    except (TypeError, ValueError, NotImplementedError):
        if _composite_hook:
            out = _composite_hook[0](opdef, inputs, attrs, name)
            if out is not NotImplemented:
                return out
        raise


# -- float errors -------------------------------------------------------------------
# TensorFlow's float kernels give inf/nan without a word; numpy warns unless told not to.
# ``np.errstate`` costs about 1.5 µs per use, more than a small kernel, so kernels use
# ``ignoring_float_errors``: the same setting applied through numpy's own context
# variable (what ``np.errstate.__enter__`` sets), falling back to ``np.errstate`` on a
# numpy without it.
try:
    from numpy._core._ufunc_config import _extobj_contextvar as _np_errors
    with np.errstate(all="ignore"):
        _IGNORE = _np_errors.get()
except (ImportError, AttributeError):  # pragma: no cover - other numpy versions
    _np_errors = None


def ignoring_float_errors(fn: Callable, nargs: int | None = None) -> Callable:
    """``fn`` run with numpy's floating-point warnings off (inf/nan results, as in TF);
    ``nargs`` (1 or 2) makes a wrapper for exactly that many positional arguments."""
    if _np_errors is None:  # pragma: no cover - numpy before 2.x: errstate, same signatures
        if nargs == 1:
            def kernel(x):
                with np.errstate(all="ignore"):
                    return fn(x)
        elif nargs == 2:
            def kernel(x, y):
                with np.errstate(all="ignore"):
                    return fn(x, y)
        else:
            def kernel(*args, **kw):
                with np.errstate(all="ignore"):
                    return fn(*args, **kw)
        return kernel
    set_errors, reset_errors = _np_errors.set, _np_errors.reset
    if nargs == 1:
        def kernel(x):
            token = set_errors(_IGNORE)
            try:
                return fn(x)
            finally:
                reset_errors(token)
    elif nargs == 2:
        def kernel(x, y):
            token = set_errors(_IGNORE)
            try:
                return fn(x, y)
            finally:
                reset_errors(token)
    else:
        def kernel(*args, **kw):
            token = set_errors(_IGNORE)
            try:
                return fn(*args, **kw)
            finally:
                reset_errors(token)
    kernel.__name__ = getattr(fn, "__name__", "kernel")
    kernel.quiet_inner = fn  # what to call where float errors are already ignored
    return kernel


# -- helpers for shape rules ----------------------------------------------------
def constant_value(t):
    """The numpy value of ``t`` if it is known without running anything, else None."""
    get = getattr(t, "_constant_value", None)
    return get() if get is not None else None


def shape_error(message: str) -> InvalidArgumentError:
    """The error a shape rule raises; interpreters add the op's name."""
    return InvalidArgumentError(None, None, message)


def type_name(dtype) -> str:
    """TF's short type word used in 'expected to be a float tensor' messages."""
    return {"float32": "float", "float64": "double", "float16": "half"}.get(dtype.name, dtype.name)


NUMERIC = _dt.NUMERIC
FLOATS = _dt.FLOATS


def const_input(op, i):
    """The value of ``op``'s input ``i`` when it is a Const node in the graph, else None."""
    t = op.inputs[i]
    return t.op.attrs["value"] if t.op.type == "Const" else None
