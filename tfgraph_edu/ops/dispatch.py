"""``tf.experimental.dispatch_for_api`` and the elementwise dispatch decorators.

A handler registered for an API is called instead of it when the call's arguments match
the handler's type annotations (a class, ``List[...]``, ``Union[...]``) and at least one of
them is a value of a dispatch type (an extension type, not a plain tensor).  The public
names of the API in the ``tf`` namespaces (``tf.stack``, ``tf.math.add``, ...) are replaced
by a wrapper that checks the handlers; the engine's own calls to its functions do not go
through it, so eager code without handlers is not slowed down.
"""

from __future__ import annotations

import functools
import inspect
import sys
import typing

from .convert import TensorBase

# the elementwise APIs TF's elementwise decorators cover (those tfgraph_edu has)
UNARY = ("abs", "negative", "sign", "square", "sqrt", "rsqrt", "exp", "log", "log1p",
         "sin", "cos", "tan", "tanh", "sigmoid", "round", "floor", "ceil", "logical_not",
         "ones_like", "zeros_like", "reciprocal", "erf", "expm1", "is_nan", "is_inf",
         "is_finite", "softplus", "asin", "acos", "atan", "sinh", "cosh", "imag", "real")
BINARY = ("add", "subtract", "multiply", "divide", "truediv", "floordiv", "floormod",
          "maximum", "minimum", "pow", "equal", "not_equal", "less", "less_equal",
          "greater", "greater_equal", "logical_and", "logical_or", "logical_xor",
          "squared_difference", "atan2")

_API_HANDLERS: dict = {}      # id(original api) -> [(handler, checks)]
_WRAPPERS: dict = {}          # id(original api) -> wrapper
_ORIGINALS: dict = {}         # id(wrapper) -> original api
_UNARY: list = []             # [(handler, type)]
_BINARY: list = []            # [(handler, type_x, type_y)]


def _namespaces():
    return [m for name, m in list(sys.modules.items())
            if m is not None and (name == "tfgraph_edu" or name.startswith("tfgraph_edu._api."))]


def _install(api):
    """The wrapper of ``api`` (made once), put where the tf namespaces hold ``api``."""
    api = _ORIGINALS.get(id(api), api)
    wrapper = _WRAPPERS.get(id(api))
    if wrapper is not None:
        return api
    name = getattr(api, "__name__", "")

    @functools.wraps(api)
    def wrapper(*args, **kwargs):
        out = _dispatch(api, name, args, kwargs)
        return api(*args, **kwargs) if out is NotImplemented else out

    _WRAPPERS[id(api)] = wrapper
    _ORIGINALS[id(wrapper)] = api
    for module in _namespaces():
        for key, value in list(vars(module).items()):
            if value is api:
                setattr(module, key, wrapper)
    return api


def _dispatch(api, name, args, kwargs):
    for handler, checks in reversed(_API_HANDLERS.get(id(api), [])):
        params = inspect.signature(handler).parameters
        given = kwargs if "name" in params else {k: v for k, v in kwargs.items() if k != "name"}
        try:
            bound = inspect.signature(handler).bind(*args, **given)
        except TypeError:
            continue
        if _matches(bound.arguments, checks):
            return handler(*args, **given)
    if name in UNARY and args:
        x = args[0]
        for handler, t in reversed(_UNARY):
            if _is(x, t) and _has_dispatch_value(x, t):
                return handler(_partial_after(api, args[1:], kwargs), x)
    if name in BINARY and len(args) >= 2:
        x, y = args[0], args[1]
        for handler, tx, ty in reversed(_BINARY):
            if _is(x, tx) and _is(y, ty) and (_has_dispatch_value(x, tx)
                                               or _has_dispatch_value(y, ty)):
                return handler(_partial_after(api, args[2:], kwargs, 2), x, y)
    return NotImplemented


def _partial_after(api, rest, kwargs, n=1):
    def call(*leading):
        return api(*leading[:n], *rest, **kwargs)
    return call


# -- annotations ---------------------------------------------------------------------------
def _check_annotation(t):
    if isinstance(t, type):
        return
    origin = typing.get_origin(t)
    if origin is list or origin is typing.Union or _is_union_type(t):
        for a in typing.get_args(t):
            _check_annotation(a)
        return
    raise ValueError(f"Type annotation {t} is not currently supported by dispatch.  "
                     "Supported annotations: type objects,  List[...], and Union[...]")


def _is_union_type(t):
    import types
    return isinstance(t, types.UnionType)


def _is(value, t) -> bool:
    if isinstance(t, type):
        if t is TensorBase:
            return isinstance(value, TensorBase)
        return isinstance(value, t)
    origin = typing.get_origin(t)
    if origin is list:
        (item,) = typing.get_args(t)
        return isinstance(value, (list, tuple)) and all(_is(v, item) for v in value)
    return any(_is(value, a) for a in typing.get_args(t))


def _has_dispatch_value(value, t) -> bool:
    """Whether ``value`` holds a value of a non-tensor type named by ``t``."""
    if isinstance(t, type):
        return t is not TensorBase and isinstance(value, t) and not isinstance(
            value, TensorBase)
    origin = typing.get_origin(t)
    if origin is list:
        (item,) = typing.get_args(t)
        return any(_has_dispatch_value(v, item) for v in value)
    return any(_has_dispatch_value(value, a) for a in typing.get_args(t))


def _matches(arguments, checks) -> bool:
    found = False
    for name, t in checks.items():
        if name not in arguments:
            continue
        if not _is(arguments[name], t):
            return False
        found = found or _has_dispatch_value(arguments[name], t)
    return found


def _check_signature(api, handler):
    """TF's rule: the handler has the API's parameters (names and kinds, in order), unless it
    takes only ``*args, **kwargs``."""
    theirs = inspect.signature(handler)
    kinds = [p.kind for p in theirs.parameters.values()]
    if kinds == [inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD]:
        return
    mine = inspect.signature(api)
    if "name" in mine.parameters and "name" not in theirs.parameters:  # TF adds it (a scope)
        mine = mine.replace(parameters=[p for n, p in mine.parameters.items() if n != "name"])
    same = len(mine.parameters) == len(theirs.parameters) and all(
        a.name == b.name and a.kind == b.kind
        for a, b in zip(mine.parameters.values(), theirs.parameters.values()))
    if not same:
        raise ValueError(f"Dispatch function's signature {theirs} does not match API's "
                         f"signature {mine}.")


def _checks(handler) -> dict:
    checks = {}
    for name, p in inspect.signature(handler).parameters.items():
        if p.annotation is not inspect.Parameter.empty:
            _check_annotation(p.annotation)
            checks[name] = p.annotation
    return checks


# -- the decorators ------------------------------------------------------------------------
def dispatch_for_api(api, *signatures):
    """Call the decorated handler instead of ``api`` for arguments matching its annotations."""
    if signatures:
        raise NotImplementedError("tfgraph_edu's tf.experimental.dispatch_for_api takes the "
                                  "signature from the handler's type annotations only.")

    def decorator(handler):
        _check_signature(_ORIGINALS.get(id(api), api), handler)
        checks = _checks(handler)
        original = _install(api)
        _API_HANDLERS.setdefault(id(original), []).append((handler, checks))
        return handler
    return decorator


def _elementwise_names(names):
    top = sys.modules.get("tfgraph_edu")
    math = sys.modules.get("tfgraph_edu._api.math")
    for n in names:
        for m in (top, math):
            fn = getattr(m, n, None) if m is not None else None
            if callable(fn) and not isinstance(fn, type):
                _install(fn)


def dispatch_for_unary_elementwise_apis(x_type):
    """Call the handler ``handler(api_func, x)`` for every unary elementwise API when ``x``
    is an ``x_type``."""
    _check_annotation(x_type)

    def decorator(handler):
        _elementwise_names(UNARY)
        _UNARY.append((handler, x_type))
        return handler
    return decorator


def dispatch_for_binary_elementwise_apis(x_type, y_type):
    """Call ``handler(api_func, x, y)`` for every binary elementwise API when ``x`` is an
    ``x_type`` and ``y`` a ``y_type``."""
    _check_annotation(x_type)
    _check_annotation(y_type)

    def decorator(handler):
        _elementwise_names(BINARY)
        _BINARY.append((handler, x_type, y_type))
        return handler
    return decorator


def unregister_dispatch_for(dispatch_target):
    """Forget a handler registered with one of the decorators above."""
    found = False
    for handlers in _API_HANDLERS.values():
        for entry in list(handlers):
            if entry[0] is dispatch_target:
                handlers.remove(entry)
                found = True
    for table in (_UNARY, _BINARY):
        for entry in list(table):
            if entry[0] is dispatch_target:
                table.remove(entry)
                found = True
    if not found:
        raise ValueError(f"Function {dispatch_target} was not registered using a "
                         "`@dispatch_for_*` decorator.")

