"""``tf.debugging.assert_*``: checks built from ordinary ops and the ``Assert`` op (layer 1).

Eagerly a failed check raises at once, with TensorFlow 2.21's message for that check; inside
a graph, a check whose inputs are constants is decided while tracing (as TensorFlow does), and
otherwise becomes an ``Assert`` op (state "check") that raises when the graph runs.  Static
facts (ranks, known dims) are checked while tracing and raise ``ValueError``.
"""

from __future__ import annotations

from contextlib import contextmanager

import numpy as np

from ..errors import InvalidArgumentError
from . import convert, math_ops, reduction_ops, shape_ops
from ._core import constant_value, interpreter
from .control_flow_ops import assert_

_SUMMARIZE = 3


@contextmanager
def _scope(name):
    """The op names' prefix inside a graph (``tf.name_scope``'s effect, from this layer)."""
    interp = interpreter()
    graph = getattr(interp, "graph", None)
    if interp.executing_eagerly or graph is None:
        yield
        return
    with graph.name_scope(name):
        yield


def _eager() -> bool:
    return interpreter().executing_eagerly


def _np_text(a) -> str:
    return str(np.asarray(a))


def _eager_name(t) -> str:
    return f"shape={tuple(t.shape.as_list())} dtype={t.dtype.name}"


# -- assert_less, assert_greater, assert_equal, ... -----------------------------------------------
def _binary(sym, compare, np_compare, default_name):
    def check(x, y, message=None, summarize=None, name=None):
        summarize = _SUMMARIZE if summarize is None else int(summarize)
        with _scope(name or default_name):
            x = convert.to_tensor(x, name="x")
            y = convert.to_tensor(y, dtype_hint=x.dtype, name="y")
            cond = compare(x, y)
            head = [] if message is None else [str(message)]
            if _eager():
                if not np.all(cond.numpy()):
                    raise InvalidArgumentError(None, None, "\n".join(head + [_eager_binary_text(
                        sym, x.numpy(), y.numpy(), cond.numpy(), summarize)]))
                return None
            xv, yv = constant_value(x), constant_value(y)
            data = head + [f"Condition x {sym} y did not hold element-wise:", f"x ({x.name}) = ",
                           x, f"y ({y.name}) = ", y]
            if xv is not None and yv is not None:
                if not np.all(np_compare(xv, yv)):
                    raise InvalidArgumentError(None, None, _static_text(data))
                return None
            return assert_(reduction_ops.reduce_all(cond), data, summarize=summarize)
    check.__name__ = default_name
    check.__doc__ = (f"``tf.debugging.{default_name}``: raises InvalidArgumentError unless "
                     f"``x {sym} y`` holds for every element (broadcast).")
    return check


def _eager_binary_text(sym, x, y, cond, summarize) -> str:
    lines = [f"Condition x {sym} y did not hold."]
    if np.shape(x) == np.shape(y) and np.ndim(x):  # not for scalars or broadcasts
        bad = np.argwhere(~np.asarray(cond, bool))[:summarize]
        rows = tuple(bad.T)
        lines += [f"Indices of first {len(bad)} different values:", _np_text(bad),
                  "Corresponding x values:", _np_text(np.asarray(x)[rows]),
                  "Corresponding y values:", _np_text(np.asarray(y)[rows])]
    for label, v in (("x", x), ("y", y)):
        flat = np.ravel(v)[:summarize]
        lines += [f"First {flat.size} elements of {label}:", _np_text(flat)]
    return "\n".join(lines)


def _static_text(data) -> str:
    parts = [d if isinstance(d, str) else _np_text(constant_value(d)) for d in data]
    return "\n".join(parts) + "\n"


assert_less = _binary("<", math_ops.less, np.less, "assert_less")
assert_greater = _binary(">", math_ops.greater, np.greater, "assert_greater")
assert_equal = _binary("==", math_ops.equal, np.equal, "assert_equal")
assert_less_equal = _binary("<=", math_ops.less_equal, np.less_equal, "assert_less_equal")
assert_greater_equal = _binary(">=", math_ops.greater_equal, np.greater_equal,
                               "assert_greater_equal")
assert_none_equal = _binary("!=", math_ops.not_equal, np.not_equal, "assert_none_equal")


# -- assert_non_negative, assert_positive, assert_negative, assert_non_positive ------------------
def _sign(sym, np_compare, default_name, newline="\n"):
    def check(x, message=None, summarize=None, name=None):
        summarize = _SUMMARIZE if summarize is None else int(summarize)
        with _scope(name or default_name):
            x = convert.to_tensor(x, name="x")
            cond = _COMPARE[sym](x, convert.to_tensor(0, x.dtype))
            prefix = f"{message}.  " if message else ""
            head = f"Condition x {sym} 0 did not hold element-wise:"
            if _eager():
                if not np.all(cond.numpy()):
                    flat = [str(v) for v in np.ravel(x.numpy())]
                    shown = flat[:summarize] + (["..."] if len(flat) > summarize else [])
                    # TF 2.21 writes no newline after the condition of assert_non_positive
                    raise InvalidArgumentError(None, None, f"{prefix}\n{head}{newline}x "
                                               f"({_eager_name(x)}) = \n{shown}")
                return None
            data = [prefix, head, f"x ({x.name}) = ", x]
            xv = constant_value(x)
            if xv is not None:
                if not np.all(np_compare(np.asarray(xv), 0)):
                    text = _static_text(data)
                    raise InvalidArgumentError(None, None, text if newline else text.replace(
                        f"{head}\n", head, 1))
                return None
            return assert_(reduction_ops.reduce_all(cond), data, summarize=summarize)
    check.__name__ = default_name
    check.__doc__ = (f"``tf.debugging.{default_name}``: raises InvalidArgumentError unless "
                     f"``x {sym} 0`` everywhere.")
    return check


_COMPARE = {">=": math_ops.greater_equal, ">": math_ops.greater, "<": math_ops.less,
            "<=": math_ops.less_equal}
assert_non_negative = _sign(">=", np.greater_equal, "assert_non_negative")
assert_positive = _sign(">", np.greater, "assert_positive")
assert_negative = _sign("<", np.less, "assert_negative")
assert_non_positive = _sign("<=", np.less_equal, "assert_non_positive", newline="")


# -- assert_near ----------------------------------------------------------------------------------
def assert_near(x, y, rtol=None, atol=None, message=None, summarize=None, name=None):
    """``tf.debugging.assert_near``: raises InvalidArgumentError unless ``|x - y| <= atol +
    rtol * |y|`` everywhere (default tolerances: ten machine epsilons of the dtype)."""
    summarize = _SUMMARIZE if summarize is None else int(summarize)
    with _scope(name or "assert_near"):
        x = convert.to_tensor(x, name="x")
        y = convert.to_tensor(y, dtype=x.dtype, name="y")
        eps = float(np.finfo(x.dtype.np_dtype).eps) * 10 if x.dtype.is_floating else 0.0
        rtol = convert.to_tensor(eps if rtol is None else rtol, x.dtype, name="rtol")
        atol = convert.to_tensor(eps if atol is None else atol, x.dtype, name="atol")
        diff = math_ops.abs(math_ops.subtract(x, y))
        bound = math_ops.add(atol, math_ops.multiply(rtol, math_ops.abs(y)))
        cond = reduction_ops.reduce_all(math_ops.less_equal(diff, bound))
        data = [f"{message}.  " if message else "",
                f"x and y not equal to tolerance rtol = {rtol!s}, atol = {atol!s}",
                f"x ({_eager_name(x) if _eager() else x.name}) = ", x,
                f"y ({_eager_name(y) if _eager() else y.name}) = ", y]
        return Assert(cond, data, summarize=summarize)


def Assert(condition, data, summarize=None, name=None):  # noqa: N802 - TensorFlow's name
    """``tf.debugging.Assert``: eagerly, TensorFlow's "Expected '…' to be true. Summarized
    data: …" error at once; in a graph, an ``Assert`` op that raises when it runs."""
    summarize = _SUMMARIZE if summarize is None else int(summarize)
    if _eager():
        shown_condition = str(condition)  # a Python bool prints as itself, as in TF
        condition = convert.to_tensor(condition)
        if not bool(condition.numpy()):
            shown = []
            for d in data:
                if isinstance(d, (str, bytes)):
                    shown.append(repr(d.encode() if isinstance(d, str) else d))
                else:
                    flat = [str(v) for v in np.ravel(convert.to_tensor(d).numpy())]
                    shown.append(", ".join(flat[:summarize]
                                           + (["..."] if len(flat) > summarize else [])))
            raise InvalidArgumentError(None, None, f"Expected '{shown_condition}' to be true. "
                                                   f"Summarized data: " + "\n".join(shown))
        return None
    return assert_(condition, data, summarize=summarize, name=name)


# -- assert_rank, assert_shapes -------------------------------------------------------------------
def _rank_text(prefix, name, want, t) -> str:
    return (f"{prefix}Tensor {name} must have rank {want}.  Received rank {t.shape.rank}, "
            f"shape {t.shape}")


def assert_rank(x, rank, message=None, name=None):
    """``tf.debugging.assert_rank``: ValueError when the rank is known and wrong; a run-time
    check (an ``Assert`` op) when it is not."""
    with _scope(name or "assert_rank"):
        x = convert.to_tensor(x, name="x")
        want = int(np.asarray(constant_value(convert.to_tensor(rank))))
        prefix = f"{message}.  " if message else ""
        tname = "" if _eager() else x.name
        if x.shape.rank is not None:
            if x.shape.rank != want:
                raise ValueError(_rank_text(prefix, tname, want, x))
            return None
        cond = math_ops.equal(shape_ops.rank(x), want)
        return assert_(cond, [prefix, f"Tensor {x.name} must have rank", want,
                              "Received shape: ", shape_ops.shape(x)])


def assert_shapes(shapes, data=None, summarize=None, message=None, name=None):
    """``tf.debugging.assert_shapes``: every tensor's rank and dims against its spec (ints,
    or names whose size the first tensor using them fixes); ValueError for what is known while
    tracing or eagerly.  Dims unknown while tracing are not checked here: that raises
    NotImplementedError rather than passing in silence."""
    items = list(shapes.items()) if isinstance(shapes, dict) else list(shapes)
    prefix = f"{message}.  " if message else ""
    sizes: dict = {}  # symbol -> (size, name of the tensor that fixed it, its dim)
    with _scope(name or "assert_shapes"):
        for x, spec in items:
            x = convert.to_tensor(x)
            spec = list(spec) if not isinstance(spec, str) else [spec]
            eager = _eager()
            if x.shape.rank is None:
                raise NotImplementedError("tfgraph_edu's tf.debugging.assert_shapes needs "
                                          "ranks known while tracing.")
            allowed = (0, 1) if len(spec) == 1 else (len(spec),)
            if x.shape.rank not in allowed:
                want = f"in {allowed}" if len(allowed) > 1 else str(allowed[0])
                raise ValueError(_rank_text(prefix, "" if eager else x.name, want, x))
            dims = x.shape.dims or [1]
            label = _eager_name(x) if eager else x.name
            for j, (sym, got) in enumerate(zip(spec, dims)):
                if got is None:
                    raise NotImplementedError("tfgraph_edu's tf.debugging.assert_shapes "
                                              "checks dims known while tracing only.")
                if isinstance(sym, str) and sym in ("*", "."):
                    continue
                if isinstance(sym, str):
                    if sym not in sizes:
                        sizes[sym] = (got, label, j)
                        continue
                    want, by, k = sizes[sym]
                    origin = f"Specified by tensor {by} dimension {k}."
                else:
                    want, origin = int(sym), "Specified explicitly."
                if got != want:
                    raise ValueError(f"{prefix}{origin}  Tensor {label} dimension {j} must have "
                                     f"size {want}.  Received size {got}, shape {x.shape}")
    return None


__all__ = ["Assert", "assert_equal", "assert_greater", "assert_greater_equal", "assert_less",
           "assert_less_equal", "assert_near", "assert_negative", "assert_non_negative",
           "assert_non_positive", "assert_none_equal", "assert_positive", "assert_rank",
           "assert_shapes"]


# -- assert_rank_at_least, assert_type, assert_integer, assert_all_finite -------------------------
def assert_rank_at_least(x, rank, message=None, name=None):
    """``tf.debugging.assert_rank_at_least``: ValueError when the rank is known and smaller;
    a run-time check (an ``Assert`` op) when it is not."""
    with _scope(name or "assert_rank_at_least"):
        x = convert.to_tensor(x, name="x")
        want = int(np.asarray(constant_value(convert.to_tensor(rank))))
        prefix = f"{message}.  " if message else ""
        if x.shape.rank is not None:
            if x.shape.rank < want:
                tname = "" if _eager() else x.name
                raise ValueError(_rank_text(prefix, tname, f"at least {want}", x))
            return None
        cond = math_ops.greater_equal(shape_ops.rank(x), want)
        return assert_(cond, [prefix, f"Tensor {x.name} must have rank at least", want,
                              "Received shape: ", shape_ops.shape(x)])


def assert_type(tensor, tf_type, message=None, name=None):
    """``tf.debugging.assert_type``: TypeError unless ``tensor``'s dtype is ``tf_type``
    (a fact known while tracing, so no op)."""
    from .. import dtypes as _dt
    tensor = convert.to_tensor(tensor)
    want = _dt.as_dtype(tf_type)
    if tensor.dtype != want:
        prefix = f"{message}.  " if message else ""
        raise TypeError(f"{prefix}tensor must be of type {want!r}; got {tensor.dtype!r}")
    return None


def assert_integer(x, message=None, name=None):
    """``tf.debugging.assert_integer``: TypeError unless ``x``'s dtype is an integer one."""
    x = convert.to_tensor(x)
    if not x.dtype.is_integer:
        prefix = f"{message}.  " if message else ""
        raise TypeError(f'{prefix}Expected "x" to be integer type.  Found: tensor of dtype '
                        f"<dtype: '{x.dtype.name}'>")
    return None


def assert_all_finite(x, message, name=None):
    """``tf.debugging.assert_all_finite``: ``x`` through a ``CheckNumerics`` op in a
    ``VerifyFinite`` scope (InvalidArgumentError "<message> : Tensor had NaN values")."""
    from .debug_ops import check_numerics
    with _scope(name or "VerifyFinite"):
        return check_numerics(convert.to_tensor(x), message)
