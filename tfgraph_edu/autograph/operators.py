"""The ``ag__`` runtime: what converted code calls (layer 5).

Each operator looks at its condition: a Python value (or an eager tensor) runs
plain Python - only one branch runs, a loop unrolls - while a symbolic tensor
builds graph control flow (an If op whose two branches are both traced, or a
While op).  Errors use TensorFlow's wording.
"""

from __future__ import annotations

import logging

import numpy as np

from ..control_flow import cond_while as cf
from ..eager.tensor import EagerTensor
from ..graph.graph import Tensor
from ..ops import _core, creation_ops, math_ops, shape_ops
from ..ops.composite import is_composite
from ..ops.convert import is_tensor, to_tensor
from ..tracing.graph_builder import building_graph
from .options import Feature  # noqa: F401 - generated code shows ag__.Feature.X

_log = logging.getLogger("tensorflow")
UNROLL_WARNING_ITERATIONS = 3000  # TF warns when a Python loop keeps adding ops this long
UNROLL_WARNING_OPS = 1


# -- values that stand for "nothing yet" ---------------------------------------------------------
class Undefined:
    """A variable that has no value yet (defined later, or in only one branch)."""

    __slots__ = ("symbol_name",)

    def __init__(self, symbol_name):
        self.symbol_name = symbol_name

    def __repr__(self):
        return f"<undefined {self.symbol_name}>"

    def __getattr__(self, name):
        raise AttributeError(f"'{self.symbol_name}' is used before it has a value "
                             f"(it has no attribute {name!r} yet). Assign it before this "
                             "line on every path that reaches it.")


class UndefinedReturnValue:
    """The return value of a function that has not returned (yet)."""

    def __repr__(self):
        return "<no return value>"


def ld(value):
    """Read a local variable: an Undefined one is an error that names it."""
    if isinstance(value, Undefined):
        raise UnboundLocalError(f"'{value.symbol_name}' is used before assignment. Assign it "
                                "before this line on every path (in both branches of an "
                                "if, and before a loop that may not run).")
    return value


def ldu(fn, name):
    """Read a name or composite name (``x['b']``, ``obj.v``) that may not exist yet."""
    try:
        return fn()
    except (NameError, KeyError, AttributeError):
        return Undefined(name)


class ConversionOptions:
    """The options a converted function was converted with (shown in generated code)."""

    def __init__(self, recursive=True, user_requested=True, optional_features=(),
                 internal_convert_user_code=True):
        self.recursive = recursive
        self.user_requested = user_requested
        self.optional_features = optional_features
        self.internal_convert_user_code = internal_convert_user_code

    def __repr__(self):
        return (f"ConversionOptions(recursive={self.recursive}, "
                f"user_requested={self.user_requested})")


class FunctionScope:
    """``with ag__.FunctionScope(name, 'fscope', options) as fscope:``; ``fscope.ret(...)``."""

    def __init__(self, function_name, scope_name, options):
        self.name = function_name
        self.scope_name = scope_name
        self.options = options

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def ret(self, value, did_return):
        if isinstance(value, (UndefinedReturnValue, Undefined)):
            return None
        return value


# -- optional features (tf.function(experimental_autograph_options=...)) -
_FEATURES: list[frozenset] = [frozenset()]  # those of the tf.function being traced


class optional_features:  # noqa: N801 - used as a context manager, like TF's scopes
    """While a tf.function traces, the optional features it was given (names of
    ``tf.autograph.experimental.Feature``); the calls it converts read them."""

    def __init__(self, features):
        self.features = frozenset(features)

    def __enter__(self):
        _FEATURES.append(self.features)

    def __exit__(self, *exc):
        _FEATURES.pop()
        return False


def feature_enabled(name: str) -> bool:
    return name in _FEATURES[-1] or "ALL" in _FEATURES[-1]


def assert_stmt(test, message):
    """``assert test, msg`` under ``Feature.ASSERT_STATEMENTS``: on a tensor, a
    ``tf.debugging.Assert`` (TF's InvalidArgumentError when it runs and fails; eagerly at
    once); on a Python value, Python's assert. ``message`` is a function giving the text."""
    if is_tensor(test):
        from ..ops.control_flow_ops import assert_
        return assert_(test, [message()])
    if not test:
        raise AssertionError(message())
    return None


def print_(*objects, **kwargs):
    """``print`` under ``Feature.BUILTIN_FUNCTIONS``: with a symbolic tensor among its
    arguments, a Python print that runs each time the graph runs (an ``EagerPyFunc`` op), with
    the tensors' values; without one, Python's print, once, while tracing (as TF)."""
    unknown = sorted(set(kwargs) - {"sep", "end", "file", "flush"})
    if unknown:
        raise ValueError(f"invalid keyword arguments: {tuple(unknown)}")
    if not any(_symbolic(x) for x in objects):
        return print(*objects, **kwargs)
    from ..ops.script_ops import py_function
    kwargs.setdefault("flush", True)  # as TF: flushed, so output does not interleave
    where = [i for i, x in enumerate(objects) if _symbolic(x)]
    others = list(objects)

    def run_print(*values):
        shown = list(others)
        for i, v in zip(where, values):
            v = v.numpy()
            shown[i] = v.decode("utf-8") if isinstance(v, bytes) else v
        print(*shown, **kwargs)
        return []
    py_function(run_print, [objects[i] for i in where], [])
    return None


# -- calls -
def converted_call(f, args, kwargs, caller_fn_scope=None, options=None):
    """Call ``f``, converting it first when it is user code."""
    from . import conversion
    kwargs = kwargs or {}
    if f is print and feature_enabled("BUILTIN_FUNCTIONS"):
        return print_(*args, **kwargs)
    if f is range and any(_symbolic(a) for a in args):
        return creation_ops.range_(*args, **kwargs)
    if f is len and len(args) == 1 and _symbolic(args[0]):
        return _tensor_len(args[0])
    target = conversion.convertible(f)
    if target is None:
        return f(*args, **kwargs)
    return target(*args, **kwargs)


def _tensor_len(t):
    if t.shape.rank == 0:
        raise ValueError(f"len requires a non-scalar tensor, got one of shape {t.shape}; "
                         "iterate over a tensor of rank 1 or more, or use tf.range.")
    if t.shape.rank is not None and t.shape.rank > 0 and t.shape.dims[0] is not None:
        return t.shape.dims[0]
    return shape_ops.shape(t)[0]


def _symbolic(x) -> bool:
    return isinstance(x, Tensor)


# -- if -
def if_stmt(cond, body, orelse, get_state, set_state, symbol_names, nouts):
    """``if cond: body() else: orelse()`` - as an If op when ``cond`` is a symbolic tensor."""
    if _symbolic(cond):
        return _tf_if_stmt(cond, body, orelse, get_state, set_state, symbol_names, nouts)
    if bool(cond):
        body()
    else:
        orelse()


def _verify_branch_values(body_vars, orelse_vars):
    """What TF's AutoGraph does after tracing the else branch to compare the branches' values:
    each Python value (of the main branch's, then of the else branch's) is converted to a
    tensor in the else branch's graph.  Those Const nodes stay there unused, as in TF's graph."""
    for a, b in zip(body_vars, orelse_vars):
        flat_a, flat_b = cf.flatten([a]), cf.flatten([b])
        if len(flat_a) != len(flat_b):
            continue  # refused later, with the branches' structures
        for x, y in zip(flat_a, flat_b):
            for v in (x, y):
                if isinstance(v, (bool, int, float, str, np.ndarray)):
                    to_tensor(v)


def _tf_if_stmt(cond, body, orelse, get_state, set_state, symbol_names, nouts=None):
    """Both branches traced from the same state; the first ``nouts`` variables are the If's
    outputs, the rest (modified but not read afterwards) go back to their values before."""
    builder = building_graph()
    if cond.dtype.name != "bool":
        raise TypeError(f"The condition of an `if` on a tensor must be a bool tensor, got "
                        f"{cond!r}. Compare it explicitly, e.g. `if x > 0:`.")
    init = get_state()
    # the learner's names of the values the branches may read (for the graph viewer's ports)
    known = {id(v): name for name, v in zip(symbol_names, init)}
    nouts = len(symbol_names) if nouts is None else nouts
    keep_after = list(init[nouts:])
    if nouts < len(symbol_names):  # only the outputs flow through the If
        full_get, full_set = get_state, set_state
        get_state = lambda: tuple(full_get())[:nouts]  # noqa: E731
        set_state = lambda vals: full_set(tuple(vals) + tuple(keep_after))  # noqa: E731
        symbol_names = symbol_names[:nouts]
        init = tuple(init[:nouts])
    n = next(cf._uid)
    results = []
    subgraphs = []
    scope = cf.op_scope(builder, "cond")
    for fn, label in ((body, "true"), (orelse, "false")):
        sg = cf.Subgraph(builder, f"cond_{label}_{n}", scope=scope)
        set_state(init)

        def run(fn=fn):
            fn()
            state = get_state()
            if results:  # the else branch, traced second
                _verify_branch_values(results[0], state)
            return state
        results.append(sg.run(run))
        subgraphs.append(sg)
        # as TF, each branch is checked right after it is traced (before the else branch is):
        # on an error the state stays the failing branch's, so a `finally` around the `if`
        # sees that branch's values (a tensor made inside it is out of scope there: TF's
        # InaccessibleTensorError)
        _check_branch(symbol_names, results[-1], "main" if label == "true" else "else")
    set_state(init)
    for name, a, b in zip(symbol_names, results[0], results[1]):
        _check_none(name, a, b)
    for name, a, b in zip(symbol_names, results[0], results[1]):
        if cf._shape_of(a) != cf._shape_of(b) or len(cf.flatten([a])) != len(cf.flatten([b])):
            raise TypeError(f"'{name}' must have the same nested structure in the main and "
                            f"else branches: {_describe(a)} in the main branch, {_describe(b)}"
                            " in the else branch. Give it the same structure in both branches.")
    structure = list(results[0])
    names = _flat_names(structure, symbol_names)
    results = [cf.flatten(list(r)) for r in results]
    outs_idx = []
    merged = list(results[0])
    symbol_names = names
    for i, name in enumerate(symbol_names):
        a, b = results[0][i], results[1][i]
        _check_none(name, a, b)
        if ((a is b or _same_python_value(a, b)) and not _python_number(a)) or (
                isinstance(a, Undefined) and isinstance(b, Undefined)):
            merged[i] = a
            continue
        outs_idx.append(i)  # as in TF, a Python number (even one equal in both) leaves as a tensor
    if not outs_idx:
        # nothing flows out; still build the If when a branch has side effects
        if not (subgraphs[0].stateful or subgraphs[1].stateful):
            set_state(tuple(cf.pack_as(structure, merged)))
            return
    flat_then = [results[0][i] for i in outs_idx]
    flat_else = [results[1][i] for i in outs_idx]
    then_out = subgraphs[0].finish(flat_then)
    else_out = subgraphs[1].finish(flat_else)
    for i, a, b in zip(outs_idx, then_out, else_out):
        if a.dtype is not b.dtype:
            raise TypeError(f"'{symbol_names[i]}' has dtype {a.dtype.name} in the main branch, "
                            f"but dtype {b.dtype.name} in the else branch. Use tf.cast so "
                            "both branches give it the same dtype.")
    out = cf.make_if(builder, cond, subgraphs[0], subgraphs[1], list(range(len(outs_idx))))
    if out:  # the learner's names of the If's outputs and inputs, for the viewer's ports
        op = out[0].op.inputs[0].op  # the If (its results come through cond/Identity)
        for attr in ("then_branch", "else_branch"):
            op.attrs[attr].output_names = tuple(symbol_names[i] for i in outs_idx)
            op.attrs[attr].input_names = tuple(known.get(id(t), "") for t in op.inputs[1:])
    for k, i in enumerate(outs_idx):
        merged[i] = out[k]
    set_state(tuple(cf.pack_as(structure, merged)))


def _flat_names(structure, names) -> list[str]:
    out = []
    for value, name in zip(structure, names):
        out += [name] * len(cf.flatten([value]))
    return out


def _python_number(v) -> bool:
    return isinstance(v, (bool, int, float, np.generic)) and not is_tensor(v)


def _same_python_value(a, b) -> bool:
    if is_tensor(a) or is_tensor(b):
        return False
    try:
        return type(a) is type(b) and bool(a == b)
    except Exception:  # noqa: BLE001 - incomparable values are different
        return False


def _check_branch(names, values, branch):
    """TF's check of an ``if`` branch's outputs right after tracing it: every output set
    (the return value too, when a return may happen in either branch)."""
    for name, value in zip(names, values):
        if isinstance(value, UndefinedReturnValue):
            raise ValueError(f"the {branch} branch must also have a return statement. "
                             "Return a value of the same type on every path (or after "
                             "the if).")
        if isinstance(value, Undefined):
            raise ValueError(f"'{name}' must also be initialized in the {branch} branch. "
                             f"Assign '{name}' before the if, or in both branches.")


def _check_none(name, a, b):
    for value, branch in ((a, "main"), (b, "else")):
        if value is None:
            raise ValueError(f"'{name}' is None at the end of the {branch} branch. A tensor "
                             "`if` needs a tensor (or a Python value) in both branches, not "
                             "None; keep None-valued names out of it.")


# -- while -
def while_stmt(test, body, get_state, set_state, symbol_names, opts):
    """``while test(): body()`` - as a While op when the test is a symbolic tensor.

    As TF does, the first test that picks the kind of loop runs in a scratch graph: its ops
    do not stay in the function's graph."""
    builder = building_graph()
    cond = cf.Subgraph(builder, "while_dispatch").run(test) if builder else test()
    if _symbolic(cond):
        return _tf_loop(test, body, get_state, set_state, symbol_names, opts, first=cond)
    _py_loop_guard(lambda: bool(cond), body, test)


def _py_loop_guard(first_check, body, test, iterations=None):
    """Run a Python while loop, warning when it unrolls into a very large graph."""
    builder = building_graph()
    i = 0
    keep = first_check()
    while keep:
        before = len(builder.graph.operations) if builder else 0
        body()
        i += 1
        if builder and i == UNROLL_WARNING_ITERATIONS and len(
                builder.graph.operations) - before >= UNROLL_WARNING_OPS:
            _warn_unroll(i, builder.graph.operations[before:])
        c = test()
        if _symbolic(c):
            raise NotImplementedError(
                "The condition of while loop started as non-Tensor, then changed to Tensor (a "
                "Python `while` loop whose condition, or a break or return in it, came to depend "
                "on a tensor after it started). Make the condition a tensor from the start, "
                "e.g. with tf.constant, so the loop is a TF loop.")
        keep = bool(c)


def _warn_unroll(i, ops):
    names = ", ".join(op.name for op in ops[:5])
    _log.warning("Large unrolled loop detected. Did you mean to use a TF loop? The following "
                 "ops were created after iteration %d: %s. Loop over tf.range(...) instead of "
                 "range(...) to build one loop op.", i, names)


def _tf_loop(test, body, get_state, set_state, symbol_names, opts, first=None, extra=None,
             relax_shapes=False):
    """A While op over the state; ``relax_shapes`` (dataset loops, as TF's ``Dataset.reduce``)
    retraces with a less specific shape where a variable's shape changes, instead of TF's
    AutoGraph error."""
    builder = building_graph()
    init = list(get_state())
    undefined = [i for i, v in enumerate(init) if isinstance(v, (Undefined, UndefinedReturnValue))]
    init, unchanged, probed = _initialise_undefined(init, body, get_state, set_state,
                                                    symbol_names, builder)
    # names only the body defines hold a made-up zero until the first iteration: as in TF,
    # a loop that runs zero times must not hand that zero on (a runtime error instead)
    iterates = set((opts or {}).get("iterate_names", "").replace(" ", "").split(","))
    first_set = ["the function return value" if symbol_names[i] == "retval_" else
                 symbol_names[i] for i in undefined if i not in unchanged and
                 symbol_names[i] not in iterates | {"do_return"}]
    fixed = {i: init[i] for i in unchanged}
    if fixed:  # values no iteration sets do not become loop variables
        full_get, full_set = get_state, set_state
        carried = [i for i in range(len(init)) if i not in fixed]

        def get_state():
            values = full_get()
            return tuple(values[i] for i in carried)

        def set_state(vals):
            merged = dict(fixed)
            merged.update(zip(carried, vals))
            full_set(tuple(merged[i] for i in range(len(merged))))
        symbol_names = tuple(symbol_names[i] for i in carried)
        init = [init[i] for i in carried]
        probed = {carried.index(i): v for i, v in probed.items() if i in carried}
    for name, v in zip(symbol_names, init):
        if v is None:
            raise ValueError(f"'{name}' is not allowed to be None before the loop. Give it a "
                             "tensor value of the right dtype and shape before the loop.")
    names = _flat_names(init, symbol_names)
    tensors = []
    with _core.using_interpreter(builder):
        for v in cf.flatten(init):
            tensors.append(v if isinstance(v, Tensor) else to_tensor(v))
    invariants = _shape_invariants((opts or {}).get("shape_invariants"), cf.flatten(init))
    loop_shapes: dict[int, object] = {}
    if any(is_composite(x) for x in cf.flatten_composites(init)):
        init, invariants = _composite_invariants(symbol_names, init, (opts or {}).get(
            "shape_invariants"), invariants, loop_shapes)
    if probed:  # as TF: a made-up initial value's invariant is the shape the body gives it
        given = invariants or [None] * len(tensors)
        invariants, k = [], 0
        for i, v in enumerate(init):
            flat = cf.flatten([v])
            shapes = probed.get(i, [None] * len(flat))
            invariants += [g if g is not None else p for g, p in
                           zip(given[k:k + len(flat)], shapes)]
            k += len(flat)

    n = len(tensors)
    if first_set:  # an iteration count rides along as one more loop variable
        with _core.using_interpreter(builder):
            tensors.append(to_tensor(0))
        names = list(names) + ["iterations"]
        if invariants is not None:
            invariants = list(invariants) + [None]

    def cond_fn(*vals):
        set_state(tuple(cf.pack_as(init, vals[:n])))
        return test()

    def body_fn(*vals):
        set_state(tuple(cf.pack_as(init, vals[:n])))
        body()
        after = list(get_state())
        _check_loop_structure(symbol_names, init, after, loop_shapes)
        return cf.flatten(after) + [vals[n] + 1 for _ in vals[n:]]

    opts = opts or {}
    while True:
        try:
            out = cf.build_while(builder, cond_fn, body_fn, list(range(len(tensors))), tensors,
                                 shape_invariants=invariants,
                                 maximum_iterations=opts.get("maximum_iterations"),
                                 parallel_iterations=opts.get("parallel_iterations", 10),
                                 names=names)
            break
        except cf.LoopShapeChanged as exc:
            if not relax_shapes:  # TF's class, ValueError (the subclass is only a signal)
                raise ValueError(str(exc)).with_traceback(exc.__traceback__) from None
            set_state(tuple(init))
            invariants = list(invariants or [None] * len(tensors))
            invariants[exc.index] = exc.relaxed
    if first_set:
        from ..ops.control_flow_ops import assert_
        with _core.using_interpreter(builder):
            assert_(out[n] > 0, ["loop must iterate at least once to initialize "
                                 + ", ".join(first_set)])
        out = out[:n]
    set_state(tuple(cf.pack_as(init, out)))


def _shape_invariants(pairs, flat_init):
    """``set_loop_options(shape_invariants=[(x, shape), ...])`` as one entry per flat loop
    variable (None where none was given); variables are matched by identity, as in TF."""
    if not pairs:
        return None
    from ..shapes import TensorShape
    by_id = {id(v): TensorShape(shape) for v, shape in pairs}
    out = [by_id.get(id(v)) for v in flat_init]
    return out if any(s is not None for s in out) else None


def _composite_invariants(names, init, pairs, invariants, loop_shapes):
    """Composite loop variables (SparseTensor, RaggedTensor): their loop shapes, and the
    invariants of their components (what their spec lets vary, e.g. the number of sparse
    values, unknown), as TF's AutoGraph and while loop carry them.  A shape invariant given for
    a composite is checked against its shape first (TF's AutoGraph check), then turned into
    its loop shape as tf.while_loop does (``[rank]`` for a SparseTensor)."""
    from ..shapes import TensorShape
    by_id = {id(v): TensorShape(shape) for v, shape in (pairs or ())}
    flat_inv = list(invariants) if invariants is not None else [None] * len(cf.flatten(init))
    new_init, k = [], 0
    for i, (name, v) in enumerate(zip(names, init)):
        n = len(cf.flatten([v]))
        if is_composite(v) and not getattr(v, "_loop_shape_free", False):
            shape = v.shape
            inv = by_id.get(id(v))
            if inv is not None:
                if not cf._is_subshape(v.shape, inv):
                    raise ValueError(f"'{name}' has shape {v.shape} before the loop, which "
                                     f"does not conform with the shape invariant {inv}.")
                shape = v._invariant_shape(inv)
                v = v._relaxed(shape)
            loop_shapes[i] = shape
            flat_inv[k:k + n] = cf.component_invariants(v, shape)
        new_init.append(v)
        k += n
    return new_init, flat_inv


def _check_loop_structure(names, before, after, loop_shapes=None):
    """TF's errors for loop variables whose Python structure changes in the body."""
    for i, (name, a, b) in enumerate(zip(names, before, after)):
        if loop_shapes and i in loop_shapes:
            _check_composite(name, a, b, loop_shapes[i])
            continue
        if b is None:
            raise ValueError(f"'{name}' is None at the end of the iteration. Assign it a tensor "
                             "on every path through the loop body.")
        if cf._shape_of(a) != cf._shape_of(b) or len(cf.flatten([a])) != len(cf.flatten([b])):
            raise TypeError(f"'{name}' does not have the same nested structure after one "
                            f"iteration: {_describe(a)} before the loop, {_describe(b)} after. "
                            "Keep its structure fixed in the loop, e.g. collect values in a "
                            "tf.TensorArray instead of a Python list.")


def _check_composite(name, a, b, shape):
    """A composite loop variable keeps its type, dtype and (loop) shape, as TF checks them."""
    if type(b) is not type(a) or b.dtype is not a.dtype:
        raise TypeError(f"'{name}' does not have the same nested structure after one iteration."
                        f"\n\nThe two structures don't have the same nested structure.\n\n"
                        f"First structure: type={type(a).__name__} str={a}\n\n"
                        f"Second structure: type={type(b).__name__} str={b}")
    if not cf._is_subshape(b.shape, shape):
        raise ValueError(f"'{name}' has shape {shape} before the loop, but shape {b.shape} "
                         "after one iteration. Use tf.autograph.experimental.set_loop_options "
                         "to set shape invariants.")


def _describe(v) -> str:
    if isinstance(v, (list, tuple, dict)):
        return f"a {type(v).__name__} of {len(v)}"
    return "a tensor" if is_tensor(v) else f"a {type(v).__name__}"


_DEFINE_FIX = "Assign it a value of the type the loop gives it before the loop."


def _initialise_undefined(init, body, get_state, set_state, symbol_names, builder):
    """Loop variables first assigned inside the loop get a zero of the type the body gives
    them (traced once in a scratch graph); a variable the body reads first is an error."""
    missing = [i for i, v in enumerate(init) if isinstance(v, (Undefined, UndefinedReturnValue))]
    if not missing:
        return init, set(), {}
    probe = cf.Subgraph(builder, "loop_probe")
    # Python numbers become tensors in the loop, so the probe sees them as tensors too (a
    # Python condition on them would hide what a tensor condition's branches assign)
    set_state(tuple(probe.run(_probe_values, init)))
    try:
        probe.run(body)
    except UnboundLocalError as exc:
        set_state(tuple(init))  # nothing of the probe may stay behind (a user finally runs)
        if symbol_names[missing[0]] == "retval_":
            raise NotImplementedError(_RETURN_IN_LOOP) from None
        name = str(exc).split("'")[1] if "'" in str(exc) else symbol_names[missing[0]]
        raise ValueError(f"'{name}' must be defined before the loop. {_DEFINE_FIX}") from None
    except (TypeError, ValueError, KeyError) as exc:
        set_state(tuple(init))
        # as TF: the first name (in order) with no value decides; a return value the body
        # does not always set (a return in one branch of a tensor if) cannot start the loop
        name = symbol_names[missing[0]]
        if name == "retval_":
            raise NotImplementedError(_RETURN_IN_LOOP) from None
        first = str(exc).splitlines()[0] if str(exc) else ""
        raise ValueError(f"'{name}' must be defined before the loop. Note: AutoGraph tried to "
                         f"define it automatically, but ran into a {type(exc).__name__}: "
                         f"{first} {_DEFINE_FIX}") from None
    except BaseException:
        set_state(tuple(init))  # the error stands as it is; the probe's values do not stay
        raise
    after = list(get_state())
    set_state(tuple(init))
    out = list(init)
    unchanged: set[int] = set()
    probed: dict[int, list] = {}
    with _core.using_interpreter(builder):
        for i in missing:
            v = after[i]
            if symbol_names[i] == "retval_":
                # as TF: a return the first iteration reaches starts the loop with a zero of
                # its type (a runtime error if the loop then runs zero times); one it does not
                # reach, or a bare `return`, is refused
                if v is None:
                    raise NotImplementedError(_RETURN_IN_LOOP)
                if isinstance(v, (Undefined, UndefinedReturnValue)):
                    raise ValueError(
                        "the return value from a TensorFlow loop may only be a Tensor, int, "
                        "float, bool or a list, tuple or dict thereof; got no value: the first "
                        "iteration did not reach the return (a Python condition?). Set the "
                        "result in a variable and `break` instead, then return it after the "
                        "loop.")
            elif isinstance(v, (Undefined, UndefinedReturnValue)) or v is None:
                raise ValueError(f"'{symbol_names[i]}' must be defined before the loop. "
                                 f"{_DEFINE_FIX}")
            elif any(is_composite(x) for x in cf.flatten_composites([v])):
                # as TF: a composite first set in the loop has no value of its type before it
                raise TypeError(f"'{symbol_names[i]}' does not have the same nested structure "
                                f"after one iteration: it is first set in the loop, to {v}. "
                                f"{_DEFINE_FIX}")
            out[i] = cf.pack_as(v, [_zeros_like_value(x) for x in cf.flatten(v)])
            probed[i] = [x.shape if isinstance(x, Tensor) else None for x in cf.flatten(v)]
    return out, unchanged, probed


_RETURN_IN_LOOP = (
    "a return statement cannot be placed inside this TensorFlow loop; this may happen if a "
    "return statement depends on a static Python condition such as a hyperparameter. "
    "Set the result in a variable and `break` instead, then return it after the loop.")


def _probe_values(init):
    out = []
    for v in init:
        if isinstance(v, (bool, int, float, np.generic)) and not isinstance(v, Tensor):
            t = to_tensor(v)
            v = building_graph().placeholder(t.dtype, t.shape, "probe")
        out.append(v)
    return out


def _zeros_like_value(v):
    """A zero of the type a loop body gives a variable (its placeholder before the loop)."""
    if isinstance(v, Tensor):
        dims = [d if d is not None else 0 for d in (v.shape.dims or [])]
        return creation_ops.zeros(dims, v.dtype)
    return creation_ops.zeros_like(to_tensor(v))


# -- for -
def for_stmt(iter_, extra_test, body, get_state, set_state, symbol_names, opts):
    """``for itr in iter_: body(itr)`` - a While op over the first dimension of a symbolic
    tensor; plain Python over anything else (which unrolls inside a trace)."""
    # -- tf.data (owned by tfgraph_edu/data): `for x in dataset` is a graph loop when tracing
    dataset_loop = getattr(iter_, "_tf_dataset_for_stmt", None)
    if dataset_loop is not None and building_graph() is not None:
        return dataset_loop(extra_test, body, get_state, set_state, symbol_names, opts)
    # -- end tf.data
    if _symbolic(iter_):
        return _tf_for(iter_, extra_test, body, get_state, set_state, symbol_names, opts)
    if is_composite(iter_) and _symbolic(iter_._ag_components()[-1]):
        if not hasattr(iter_, "__iter__"):  # a SparseTensor: TF's conversion error
            raise TypeError(f"Failed to convert elements of {iter_} to Tensor. Consider casting "
                            "elements to a supported type. See "
                            "https://www.tensorflow.org/api_docs/python/tf/dtypes for supported "
                            "TF dtypes.")
        return _tf_for(iter_, extra_test, body, get_state, set_state, symbol_names, opts)
    if isinstance(iter_, EagerTensor):
        iter_ = list(iter_) if iter_.shape.rank else [iter_]
    builder = building_graph()
    i = 0
    for itr in iter_:
        if extra_test is not None:
            keep = extra_test()
            if _symbolic(keep):
                raise NotImplementedError(
                    "break and return statements which depend on a TF condition are not "
                    "supported in Python for loops. Did you intend to make it a TF loop? Loop "
                    "over tf.range(...) or a tensor instead of a Python iterable.")
            if not keep:
                break
        before = len(builder.graph.operations) if builder else 0
        body(itr)
        i += 1
        if builder and i == UNROLL_WARNING_ITERATIONS and len(
                builder.graph.operations) - before >= UNROLL_WARNING_OPS:
            _warn_unroll(i, builder.graph.operations[before:])
    if extra_test is not None and _symbolic(extra_test()):
        raise NotImplementedError(
            "break and return statements which depend on a TF condition are not supported in "
            "Python for loops. Did you intend to make it a TF loop? Loop over tf.range(...) or "
            "a tensor instead of a Python iterable.")


def _range_parts(iter_):
    """``(start, limit, delta, ascending)`` when ``iter_`` is an integer ``tf.range`` with a
    constant non-zero step (``ascending`` None for a tensor step), else None (a float range
    keeps its exact ``start + k * delta`` elements, which repeated addition would round
    differently)."""
    op = getattr(iter_, "op", None)
    if op is None or op.type != "Range" or len(op.inputs) != 3 or not iter_.dtype.is_integer:
        return None
    start, limit, delta = op.inputs
    step = _core.constant_value(delta)
    if step is None:  # a tensor step: its sign picks the test at run time, as TF's does
        return start, limit, delta, None
    if step.ndim or not step:
        return None
    return start, limit, delta, bool(step > 0)


def _tf_range_for(parts, extra_test, body, get_state, set_state, symbol_names, opts):
    """``for i in tf.range(...)`` as TensorFlow lowers it: a counter loop from ``start``
    by ``delta`` while short of ``limit``; the range itself is never built or sliced."""
    start, limit, delta, ascending = parts
    _range_length(start, limit, delta)
    state = {"i": start}
    # a target no iteration sets keeps the range's start, as in TF (not a made-up zero)
    iterates = set((opts or {}).get("iterate_names", "").replace(" ", "").split(","))
    values = list(get_state())
    if any(name in iterates and isinstance(v, Undefined)
           for name, v in zip(symbol_names, values)):
        set_state(tuple(start if name in iterates and isinstance(v, Undefined) else v
                        for name, v in zip(symbol_names, values)))

    def get_all():
        return (state["i"],) + tuple(get_state())

    def set_all(vals):
        state["i"] = vals[0]
        set_state(tuple(vals[1:]))

    def test():
        i = state["i"]
        if ascending is None:  # TF's test: (delta >= 0 and i < limit) or (delta < 0 and ...)
            more = math_ops.logical_or(
                math_ops.logical_and(math_ops.greater_equal(delta, 0), math_ops.less(i, limit)),
                math_ops.logical_and(math_ops.less(delta, 0), math_ops.greater(i, limit)))
        else:
            more = math_ops.less(i, limit) if ascending else math_ops.greater(i, limit)
        if extra_test is None:
            return more
        return and_(lambda: more, extra_test)

    def loop_body():
        i = state["i"]
        body(i)
        state["i"] = i + delta  # TF's name: while/add_1 after the body's add

    _tf_loop(test, loop_body, get_all, set_all, ("<index>",) + tuple(symbol_names), opts)


def _range_length(start, limit, delta):
    """The number of elements of ``tf.range(start, limit, delta)``, built as TF's AutoGraph
    builds it before a range loop (``sub``, ``floordiv``, ``mod``, ``NotEqual``, ``Cast``,
    ``add``, ``Maximum``).  TF hands it to the loop only under XLA; elsewhere, as here, the
    ops stay in the graph unused (they print in ``get_operations()``), and run never."""
    dist = limit - start
    whole = dist // delta
    partial = math_ops.cast(math_ops.not_equal(dist % delta, creation_ops.zeros_like(whole)),
                            dist.dtype)
    length = whole + partial
    return math_ops.maximum(length, creation_ops.zeros_like(length))


def _tf_for(iter_, extra_test, body, get_state, set_state, symbol_names, opts):
    parts = _range_parts(iter_)
    if parts is not None:
        return _tf_range_for(parts, extra_test, body, get_state, set_state, symbol_names, opts)
    builder = building_graph()
    with _core.using_interpreter(builder):
        # a RaggedTensor: a loop over its rows, as TF's
        n = iter_.nrows(out_type=to_tensor(0).dtype) if is_composite(iter_) else _tensor_len(
            iter_)
        n = n if isinstance(n, Tensor) else to_tensor(n)
    index = [to_tensor(0)]
    with _core.using_interpreter(builder):
        index = [to_tensor(0)]
    state = {"i": index[0]}

    def get_all():
        return (state["i"],) + tuple(get_state())

    def set_all(vals):
        state["i"] = vals[0]
        set_state(tuple(vals[1:]))

    def test():
        more = math_ops.less(state["i"], n)
        if extra_test is None:
            return more
        return and_(lambda: more, extra_test)

    def loop_body():
        i = state["i"]
        body(iter_[i])
        state["i"] = math_ops.add(i, 1)

    _tf_loop(test, loop_body, get_all, set_all, ("<index>",) + tuple(symbol_names), opts)


# -- expressions -
def if_exp(cond, if_true, if_false, expr_repr):
    """``a if cond else b``: tf.cond when ``cond`` is a symbolic tensor."""
    if _symbolic(cond):
        return cf.cond(cond, if_true, if_false)
    return if_true() if cond else if_false()


def and_(a, b):
    """Lazy ``a and b``: ``b`` is only evaluated (traced) when ``a`` may be true."""
    a_val = a()
    if _symbolic(a_val):
        return cf.cond(a_val, lambda: _as_bool_tensor(b()), lambda: a_val)
    return a_val and b()


def or_(a, b):
    """Lazy ``a or b``."""
    a_val = a()
    if _symbolic(a_val):
        return cf.cond(a_val, lambda: a_val, lambda: _as_bool_tensor(b()))
    return a_val or b()


def not_(a):
    """``not a``: tf.logical_not for tensors."""
    if _symbolic(a):
        return math_ops.logical_not(a)
    return not a


def _as_bool_tensor(v):
    return v if isinstance(v, Tensor) else to_tensor(bool(v))
