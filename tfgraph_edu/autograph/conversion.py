"""Converting a Python function: source, pipeline, generated code, source map (layer 5).

The generated function is compiled under its own file name, registered in
``linecache`` (tracebacks show it) and in the graph builder's source maps
(every generated line points back to the user's line).  Closures keep their
live cells and globals stay the function's own, so notebook functions convert
like any other.  Each function is converted once (cached on its code object).
"""

from __future__ import annotations

import ast
import functools
import inspect
import linecache
import logging
import textwrap
import time
import types
import weakref

from ..tracing.graph_builder import GENERATED_SOURCES
from . import analysis, operators, options, pipeline, templates
from .unparse import unparse

_log = logging.getLogger("tensorflow")
_CACHE: dict = {}  # code object -> Converted
_UNCONVERTIBLE: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_DO_NOT_CONVERT = "__ag_do_not_convert__"
_LIBRARY_PREFIXES = ("tfgraph_edu", "numpy", "builtins", "functools", "itertools", "math",
                     "collections", "typing", "abc", "enum", "inspect", "logging", "IPython",
                     "ipykernel", "pytest", "_pytest", "hypothesis", "random", "re", "operator")




class ConversionError(Exception):
    """The function could not be converted (its source is unavailable or unsupported)."""


class UnsupportedLanguageElementError(ConversionError, NotImplementedError):
    """The function uses Python that AutoGraph does not convert (TF's class of the same name):
    ``tf.function`` runs it as-is, ``tf.autograph.to_code`` raises this."""


class _Context:
    def __init__(self, name, params, fn_node, features=frozenset()):
        self.name = name
        self.features = features  # names of the optional features converted with
        self.params = params
        self.namer = templates.Namer(analysis.assigned([fn_node]) | analysis.loaded([fn_node])
                                     | set(params) | {"ag__", "fscope", "itr", "vars_"})
        self.hoisted: set[str] = set()
        self.refresh_locals(fn_node)

    def refresh_locals(self, fn_node):
        self.local_names = set(self.params) | analysis.assigned(fn_node.body)


class Converted:
    """The result of converting one function."""

    def __init__(self, fn, source, code_source, filename, factory, seconds):
        self.original = fn
        self.source = source  # the whole generated module (what runs)
        self.code = code_source  # the converted function alone (what to_code shows)
        self.filename = filename
        self.factory = factory
        self.seconds = seconds
        self.code_lines: dict[int, int] = {}  # line of ``code`` -> the user's line in the file


# -- which functions to convert -------------------------------------------------------------------
def do_not_convert(func=None):
    """Decorator: run ``func`` as it is, never converted by AutoGraph."""
    if func is None:
        return do_not_convert
    try:
        setattr(func, _DO_NOT_CONVERT, True)
        return func
    except AttributeError:
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            return func(*args, **kwargs)
        setattr(wrapper, _DO_NOT_CONVERT, True)
        return wrapper


def _is_library(fn) -> bool:
    module = getattr(fn, "__module__", None) or ""
    return module.split(".")[0] in _LIBRARY_PREFIXES


# Types whose instances convert their own body when they trace (tf.function's Function).
# Layer 7 registers its type here, so this layer never imports the one above it.
_SELF_CONVERTING: list[type] = []


def register_self_converting(cls: type) -> type:
    """Declare that instances of ``cls`` are called as they are (they convert themselves)
    and that ``to_code``/``to_graph`` look through them at ``python_function``."""
    if cls not in _SELF_CONVERTING:
        _SELF_CONVERTING.append(cls)
    return cls


def _self_converting(f) -> bool:
    return any(isinstance(f, cls) for cls in _SELF_CONVERTING)


def unconverted_cause(f) -> str | None:
    """Why AutoGraph runs ``f`` as it is (its conversion failed), or None."""
    try:
        causes = _UNCONVERTIBLE.get(f)
    except TypeError:
        return None
    return next(iter(causes.values()), None) if causes else None


def _current_features(features) -> frozenset:
    """The optional features to convert with: those given, else those of the tf.function
    being traced (a converted call converts its callee with its caller's features)."""
    if features is None:
        return operators._FEATURES[-1]
    return options.feature_names(features)


def convertible(f, features=None):
    """The converted version of ``f`` to call, or None to call ``f`` as it is."""
    features = _current_features(features)
    if _self_converting(f):
        return None  # a tf.function converts its own body when it traces
    if getattr(f, _DO_NOT_CONVERT, False):
        return None
    if isinstance(f, types.MethodType):
        inner = convertible(f.__func__, features)
        return None if inner is None else types.MethodType(inner, f.__self__)
    if isinstance(f, functools.partial):
        inner = convertible(f.func, features)
        return None if inner is None else functools.partial(inner, *f.args, **f.keywords)
    if not isinstance(f, types.FunctionType):
        if isinstance(f, type) or not callable(f):
            return None
        call = type(f).__call__
        if isinstance(call, types.FunctionType) and not _is_library(call):
            inner = convertible(call, features)
            return None if inner is None else types.MethodType(inner, f)
        return None
    if _is_library(f) or features in _UNCONVERTIBLE.get(f, ()):
        return None
    try:
        return convert(f, features)
    except ConversionError as exc:
        _UNCONVERTIBLE.setdefault(f, {})[features] = str(exc)
        _log.warning("AutoGraph could not transform %r and will run it as-is.\nCause: %s\nTo "
                     "silence this warning, decorate the function with "
                     "@tf.autograph.experimental.do_not_convert", f, exc)
        return None


# -- conversion -
def converted_entry(fn, features=frozenset()) -> Converted:
    """Convert ``fn`` (once per code object and set of optional features); the record."""
    key = (fn.__code__, features)
    entry = _CACHE.get(key)
    if entry is None:
        entry = _CACHE[key] = _convert(fn, features)
    return entry


def convert(fn, features=frozenset()):
    """The converted function: same arguments, same globals and closure, AutoGraph's body."""
    entry = converted_entry(fn, features)
    closure = []
    cells = dict(zip(fn.__code__.co_freevars, fn.__closure__ or ()))
    inner = entry.factory
    for name in inner.__code__.co_freevars:
        if name == "ag__":
            closure.append(types.CellType(operators))
        else:
            closure.append(cells[name])
    new = types.FunctionType(inner.__code__, fn.__globals__, inner.__name__,
                             fn.__defaults__, tuple(closure))
    new.__kwdefaults__ = fn.__kwdefaults__
    new.__wrapped_by_autograph__ = fn
    return new


def _source_of(fn):
    """The source of ``fn``'s own code: a wrapper made with ``functools.wraps`` is the
    wrapper, not the function it wraps (whose ``__wrapped__`` inspect would follow)."""
    code = fn.__code__
    try:
        lines, start = inspect.getsourcelines(code)
    except (OSError, TypeError) as exc:
        raise ConversionError(f"could not get source code ({exc})") from None
    if not "".join(lines).strip():  # Python 3.13 answers a blank line for exec'd code
        raise ConversionError("could not get source code")
    return textwrap.dedent("".join(lines)), start, inspect.getsourcefile(code) or \
        code.co_filename


def _find_node(tree, fn):
    """The FunctionDef (or Lambda, made into a def) in ``tree`` that defines ``fn``."""
    if fn.__code__.co_name == "<lambda>":
        lambdas = [n for n in ast.walk(tree) if isinstance(n, ast.Lambda)]
        want = fn.__code__.co_varnames[:fn.__code__.co_argcount]
        lambdas = [n for n in lambdas if tuple(a.arg for a in n.args.args) == want]
        if len(lambdas) != 1:
            raise ConversionError("could not tell which lambda on its line this is")
        lam = lambdas[0]
        node = ast.FunctionDef(name="lambda_", args=lam.args,
                               body=[ast.Return(value=lam.body, lineno=lam.lineno,
                                                col_offset=lam.col_offset)],
                               decorator_list=[], returns=None, type_params=[],
                               lineno=lam.lineno, col_offset=lam.col_offset)
        return node
    name = fn.__code__.co_name  # not __name__, which functools.wraps copies from elsewhere
    defs = [n for n in ast.walk(tree)
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == name]
    if not defs:
        if fn.__code__.co_filename.startswith("<"):  # exec'd code: Python 3.13 may answer
            # with other text kept under the same pseudo file name ("<string>")
            raise ConversionError("could not get source code")
        raise ConversionError(f"could not find the definition of {name} in its source")
    return defs[0]


def _parse(source):
    try:
        return ast.parse(source)
    except SyntaxError:
        # a lambda in the middle of a statement: parse the expression around it
        try:
            return ast.parse("(" + source.strip().rstrip(",") + ")")
        except SyntaxError as exc:
            raise ConversionError(f"could not parse its source ({exc.msg})") from None


def _convert(fn, features=frozenset()) -> Converted:
    start_time = time.perf_counter()
    if isinstance(fn, types.FunctionType) and inspect.isgeneratorfunction(fn):
        raise_unsupported_yield(fn)
    source, first_line, filename = _source_of(fn)
    tree = _parse(source)
    node = _find_node(tree, fn)
    if analysis.has_yield(node):
        raise_unsupported_yield(fn)
    loop_else = analysis.loop_with_else(node)
    if loop_else is not None:
        # as TF 2.21: the whole function runs unconverted (a Python loop with an else is then
        # Python's; a tensor condition anywhere in it raises OperatorNotAllowedInGraphError)
        raise UnsupportedLanguageElementError(f"{loop_else}/else statement not yet supported")
    if isinstance(node, ast.AsyncFunctionDef):
        raise ConversionError(f"{fn.__name__} is a coroutine function (async def), which "
                              "AutoGraph does not convert")
    depth = analysis.nesting_depth(node)
    if depth >= _PYTHON_MAX_INDENT - 4:
        # TF's generated code nests the body 4 levels deeper than the user's blocks: at this
        # depth it passes Python's limit (TF 2.21: 95 elifs convert, 96 run as-is)
        raise ConversionError(f"too many levels of indentation (control flow {depth} blocks "
                              "deep; an elif counts one level)")
    for n in ast.walk(node):  # remember every user node's line, in file coordinates
        if hasattr(n, "lineno"):
            n._ag_line = n.lineno + first_line - 1
    params = [a.arg for a in node.args.posonlyargs + node.args.args + node.args.kwonlyargs]
    if node.args.vararg:
        params.append(node.args.vararg.arg)
    if node.args.kwarg:
        params.append(node.args.kwarg.arg)
    own_name = fn.__code__.co_name
    ctx = _Context(own_name if own_name != "<lambda>" else "lambda_", params, node, features)
    try:
        node = pipeline.run(node, ctx)
    except RecursionError as exc:
        raise ConversionError(str(exc)) from None
    _propagate_lines(node, node._ag_line)
    # the defaults are the function's own values (set by convert()), never evaluated again:
    # `lambda i=i: ...` made in a loop keeps the i it was made with
    shown_defaults = (node.args.defaults, node.args.kw_defaults)
    node.args.defaults = [ast.Constant(None) for _ in node.args.defaults]
    node.args.kw_defaults = [None if d is None else ast.Constant(None)
                             for d in node.args.kw_defaults]
    freevars = [v for v in fn.__code__.co_freevars if v != "ag__"]
    factory = ast.parse(f"def ag__factory(ag__{''.join(', ' + v for v in freevars)}):\n"
                        f"    pass\n    return {node.name}").body[0]
    factory.body = [node, factory.body[1]]
    module = ast.Module(body=[factory], type_ignores=[])
    ast.fix_missing_locations(module)
    gen_filename = f"<autograph {fn.__qualname__} from {filename}:{first_line}>"
    try:
        generated = unparse(module)
        line_map = _line_map(module, generated, filename, fn.__name__)
    except SyntaxError as exc:
        # as TF: control flow nested so deeply that the generated closures pass Python's
        # limit of nested blocks; the function then runs as it is
        raise ConversionError(f"{exc.msg} ({gen_filename}, line {exc.lineno})") from None
    except RecursionError as exc:
        raise ConversionError(str(exc)) from None
    if _indent_levels(generated) >= _PYTHON_MAX_INDENT - 1:
        # TF's generated module nests the function one level deeper than ours: refused at
        # the same depth as TF refuses it (TF 2.21: 95 elifs convert, 96 do not)
        raise ConversionError(f"too many levels of indentation ({gen_filename})")
    linecache.cache[gen_filename] = (len(generated), None, generated.splitlines(True),
                                     gen_filename)
    GENERATED_SOURCES[gen_filename] = line_map
    namespace: dict = {}
    exec(compile(generated, gen_filename, "exec"), namespace)  # noqa: S102 - generated from code
    inner = namespace["ag__factory"](operators, *[None] * len(freevars))
    node.args.defaults, node.args.kw_defaults = shown_defaults
    code_source = textwrap.dedent(unparse(node))
    entry = Converted(fn, generated, code_source, gen_filename, inner,
                      time.perf_counter() - start_time)
    wrapped = ast.Module(body=[node], type_ignores=[])
    entry.code_lines = {k: v[1] for k, v in _line_map(wrapped, code_source, filename,
                                                      fn.__name__).items()}
    return entry


_PYTHON_MAX_INDENT = 100  # CPython's limit of nested blocks


def _indent_levels(source: str) -> int:
    return max(((len(ln) - len(ln.lstrip(" "))) // 4 for ln in source.splitlines()
                if ln.strip()), default=0)


def raise_unsupported_yield(fn):
    raise UnsupportedLanguageElementError(
        f"generators are not supported ({fn.__name__} uses `yield`); tf.function runs a "
        "generator as plain Python at trace time")


def _propagate_lines(root, default):
    """Generated nodes take the user line of the nearest enclosing user node."""
    def visit(n, inherited):
        line = getattr(n, "_ag_line", None) or inherited
        n._ag_line = line
        for child in ast.iter_child_nodes(n):
            visit(child, line)
    visit(root, default)


def _line_map(module, generated, filename, func_name) -> dict:
    """Generated line -> (user file, user line, function), by walking the parsed output in
    step with the tree it was printed from (both have the same shape)."""
    reparsed = ast.parse(generated)
    out: dict[int, tuple] = {}
    spans = []
    for a, b in zip(ast.walk(module), ast.walk(reparsed)):
        line = getattr(a, "_ag_line", None)
        if line is not None and isinstance(b, ast.stmt):
            spans.append((b.lineno, b.end_lineno or b.lineno, line))
    # breadth-first order: inner statements come later and win
    for start, end, line in spans:
        for ln in range(start, end + 1):
            out[ln] = (filename, line, func_name)
    return out


# -- public helpers -
def to_code(entity, recursive=True, experimental_optional_features=None) -> str:
    """The source AutoGraph generates for ``entity`` (``tf.autograph.to_code``)."""
    del recursive  # calls are always converted when they run (TF's default)
    fn = _unwrap(entity)
    return converted_entry(fn, options.feature_names(experimental_optional_features)).code + "\n"


def to_graph(entity, recursive=True, experimental_optional_features=None):
    """The converted function, which builds graph control flow for tensor conditions; the
    functions it calls are converted with the same optional features."""
    del recursive
    fn = _unwrap(entity)
    features = options.feature_names(experimental_optional_features)
    converted = convert(fn, features)
    if features:
        plain = converted

        @functools.wraps(fn)
        def converted(*args, **kwargs):
            with operators.optional_features(features):
                return plain(*args, **kwargs)
    if isinstance(entity, types.MethodType):
        return types.MethodType(converted, entity.__self__)
    return converted


def conversion_seconds(entity) -> float:
    return converted_entry(_unwrap(entity)).seconds


def _unwrap(entity):
    if _self_converting(entity):
        entity = entity.python_function
    if isinstance(entity, types.MethodType):
        entity = entity.__func__
    if isinstance(entity, functools.partial):
        entity = entity.func
    if not isinstance(entity, types.FunctionType):
        raise TypeError(f"AutoGraph converts Python functions, got {entity!r}")
    return entity

