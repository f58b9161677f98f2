"""Elementwise math, comparisons, logic, matmul, cast and nn activations (layer 1)."""

from __future__ import annotations

import numpy as np

from .. import dtypes as _dt
from ..shapes import TensorShape
from . import complex_ops, creation_ops, indexing_ops, numpy_behavior, reduction_ops, shape_ops
from ._core import bind, const_input, define, ignoring_float_errors, interpreter, shape_error
from ._rules import binary, broadcast_shapes, compare, fmt, no_cpu_kernel, same

_NUMPY = numpy_behavior.STATE  # tnp's dtype conversion mode ('all'/'safe': weak tensors)
_NUMPY_VALUES = (np.ndarray, np.generic)

F, N = _dt.FLOATS, _dt.NUMERIC
NB = _dt.REAL_AND_BOOL
ALL = frozenset(_dt.ALL)


# -- gradient helpers ------------------------------------------------------------
def reduce_to(grad, x):
    """Sum ``grad`` over the dimensions along which ``x`` was broadcast."""
    xs, gs = x.shape, grad.shape
    if xs.is_fully_defined() and gs.is_fully_defined():
        if xs == gs:
            return grad
        xd, gd = xs.as_list(), gs.as_list()
        lead = len(gd) - len(xd)
        axes = list(range(lead)) + [i + lead for i, d in enumerate(xd)
                                    if d == 1 and gd[i + lead] != 1]
        out = reduction_ops.reduce_sum(grad, axis=axes) if axes else grad
        return shape_ops.reshape(out, xd)
    rx, _ = shape_ops.broadcast_gradient_args(shape_ops.shape(x), shape_ops.shape(grad))
    return shape_ops.reshape(reduction_ops.reduce_sum(grad, axis=rx), shape_ops.shape(x))


def _ins(op):
    return op.inputs[0], op.inputs[1]


def _skipped(op) -> tuple:
    """The inputs whose gradient nobody asked for (the tape's ``skip_input_indices``, as TF's
    tape passes them)."""
    return getattr(op, "skip_input_indices", None) or ()


def _scalar(t) -> bool:
    return t.shape.rank == 0


def _same_full_shapes(x, y, g) -> bool:
    s = x.shape
    return s.is_fully_defined() and s == y.shape == g.shape


def _scalar_y_skipped(op) -> bool:
    """TF 2.21's shortcut in the Add/Sub/Mul/Pow gradients: y is a scalar nobody
    differentiates, so only x's gradient is built."""
    return 1 in _skipped(op) and _scalar(op.inputs[1])


def _building() -> bool:
    """Whether a graph is being built (TF's gradient functions then shape their ops by the
    static shapes; eagerly only the values show)."""
    return not interpreter().executing_eagerly


def _infer_axes(xs, ys):
    """TF's reduction axes of a broadcasting op's two inputs read from their static shapes,
    or (None, None) when a dimension that decides them is unknown."""
    if xs.rank is None or ys.rank is None:
        return None, None
    xl, yl = xs.as_list(), ys.as_list()
    b = max(len(xl), len(yl))
    xa, ya = [], []
    for axis in range(b):
        xd = 1 if axis < b - len(xl) else xl[axis - (b - len(xl))]
        yd = 1 if axis < b - len(yl) else yl[axis - (b - len(yl))]
        if xd == 1 and yd != 1:
            xa.append(axis)
        elif yd == 1 and xd != 1:
            ya.append(axis)
        elif xd is None or yd is None:
            return None, None
    return xa, ya


def reduce_gradient_args(x, y, gx, gy):
    """``gx``, ``gy`` summed back to the shapes of ``x``, ``y``: in a graph as TF 2.21 builds
    it (both shapes, a Const when known, then Sum keeping dims and Reshape where needed);
    eagerly the same values through :func:`reduce_to`."""
    if gx is None and gy is None:
        return gx, gy
    if not _building():
        return (None if gx is None else reduce_to(gx, x), None if gy is None else reduce_to(gy, y))
    sx, sy = shape_ops.shape(x), shape_ops.shape(y)
    xa, ya = _infer_axes(x.shape, y.shape)
    if xa is None or ya is None:
        xa, ya = shape_ops.broadcast_gradient_args(sx, sy)
        must_x = must_y = True
    else:
        must_x = bool(xa) or x.shape.rank < y.shape.rank
        must_y = bool(ya) or y.shape.rank < x.shape.rank
    out = []
    for g, s, axes, must in ((gx, sx, xa, must_x), (gy, sy, ya, must_y)):
        if g is not None and must:
            g = shape_ops.reshape(reduction_ops.reduce_sum(g, axes, keepdims=True), s)
        out.append(g)
    return tuple(out)


def _add_grad(op, g):
    x, y = _ins(op)
    if _scalar_y_skipped(op):
        return g, None
    if _same_full_shapes(x, y, g):
        return g, g
    skip = _skipped(op)
    return reduce_gradient_args(x, y, None if 0 in skip else g, None if 1 in skip else g)


def _sub_grad(op, g):
    x, y = _ins(op)
    if _scalar_y_skipped(op):
        return g, None
    if _same_full_shapes(x, y, g):
        return g, negative(g)
    skip = _skipped(op)
    return reduce_gradient_args(x, y, None if 0 in skip else g,
                                None if 1 in skip else negative(g))


def _mul_grad(op, g):
    x, y = _ins(op)
    if _scalar_y_skipped(op):
        return multiply(g, y), None
    if _same_full_shapes(x, y, g) and g.dtype in (_dt.int32, _dt.float32):
        return multiply(g, y), multiply(g, x)
    skip = _skipped(op)
    return reduce_gradient_args(x, y, None if 0 in skip else multiply(g, y),
                                None if 1 in skip else multiply(x, g))


def _div_grad(op, g):  # TF 2.21's RealDiv gradient skips nothing
    x, y = _ins(op)
    return reduce_gradient_args(x, y, realdiv(g, y),
                                multiply(g, realdiv(realdiv(negative(x), y), y)))


def _pow_grad(op, g):
    x, y = _ins(op)
    if _scalar_y_skipped(op):  # as TF: only x's gradient, grad * y * x ** (y - 1)
        return multiply(multiply(g, y), pow(x, subtract(y, 1))), None
    skip = _skipped(op)
    gx = None if 0 in skip else multiply(multiply(g, y), pow(x, subtract(y, 1)))
    gy = None
    if 1 not in skip:  # no log(x) for an exponent nobody differentiates
        mask = greater(x, creation_ops.zeros_like(x))
        safe_x = indexing_ops.where(mask, x, creation_ops.ones_like(x))
        log_x = indexing_ops.where(mask, log(safe_x), creation_ops.zeros_like(x))
        gy = multiply(multiply(g, op.outputs[0]), log_x)
    return reduce_gradient_args(x, y, gx, gy)


def _minmax_grad(pick):
    def grad(op, g):
        x, y = _ins(op)
        mask = pick(x, y)
        zeros = creation_ops.zeros_like(g)
        return (reduce_to(indexing_ops.where(mask, g, zeros), x),
                reduce_to(indexing_ops.where(mask, zeros, g), y))
    return grad


def _zero_division():
    from ..errors import InvalidArgumentError
    return InvalidArgumentError(None, None, "Integer division by zero")


def _int_checked(fn):
    """An integer-safe FloorDiv/FloorMod kernel: TF's error for a zero integer divisor that
    divides something (an empty result divides nothing: no error, as in TF)."""
    quiet = ignoring_float_errors(fn, 2)

    def kernel(x, y):
        if x.dtype.kind in "iu" and x.size and not (
                y.all() if y.__class__ is np.ndarray else y):
            raise _zero_division()
        return quiet(x, y)
    return kernel


def _int_by_constant(fn):
    """``specialize`` for FloorDiv/FloorMod: an integer divisor that is a constant with no
    zero (and no -1, whose overflow numpy would warn about) needs no check per call."""
    def special(op):
        y = const_input(op, 1)
        if y is None or y.dtype.kind not in "iu" or not np.all(y) or np.any(y == -1):
            return None
        return (lambda a: fn(a, y)), (0,)
    return special


def _safe_int_operator(symbol):
    """``//`` or ``%`` for the compiled path where no zero check is needed: float operands
    (``//`` only: a float ``%`` keeps TF's signed zero, see ``_float_mod``), or an integer
    divisor that is a constant with no zero and no -1."""
    def operator(op):
        x = op.inputs[0]
        if x.dtype.is_floating:
            return symbol if symbol == "//" else None
        y = const_input(op, 1)
        if y is None or y.dtype.kind not in "iu" or not np.all(y) or np.any(y == -1):
            return None
        return symbol
    return operator


_pow_kernel = ignoring_float_errors(np.power, 2)


# -- binary arithmetic -------------------------------------------------------------
def _add_kernel(x, y):
    out = np.add(x, y)
    # two scalar strings add to a bare ``bytes``: keep it a 0-d object array
    return np.array(out, dtype=object) if out.__class__ is bytes else out


def _add_special(op):
    """In compiled graphs numeric adds call np.add directly (no string check)."""
    return None if op.inputs[0].dtype is _dt.string else (np.add, (0, 1))


_C = frozenset(_dt.COMPLEX)  # complex tensors add, subtract, multiply (no gradient yet)
# AddV2 also concatenates strings, as in TensorFlow (``tf.constant("a") + "b"``).
AddV2 = define("AddV2", ("x", "y"), _add_kernel, binary, _add_grad, T=(0, 1),
               dtypes=N | _C | {_dt.string}, specialize=_add_special, operator="+")
Sub = define("Sub", ("x", "y"), np.subtract, binary, _sub_grad, T=(0, 1), dtypes=N | _C,
             operator="-")
Mul = define("Mul", ("x", "y"), np.multiply, binary, _mul_grad, T=(0, 1), dtypes=N | _C,
             operator="*")
RealDiv = define("RealDiv", ("x", "y"), ignoring_float_errors(np.true_divide, 2), binary,
                 _div_grad, T=(0, 1), dtypes=F, operator="/")
FloorDiv = define("FloorDiv", ("x", "y"), _int_checked(np.floor_divide), binary,
                  lambda op, g: (None, None), T=(0, 1), dtypes=N,
                  specialize=_int_by_constant(np.floor_divide), operator=_safe_int_operator("//"))
def _float_mod(x, y):
    """TF's float FloorMod: C's fmod, moved by ``y`` when the signs differ, so a zero result
    keeps ``x``'s sign (``-3. % 3.`` is -0., NumPy's ``np.mod`` gives 0.)."""
    r = np.fmod(x, y)
    return np.where((r != 0) & ((y < 0) != (r < 0)), r + y, r).astype(r.dtype, copy=False)


def _mod_kernel(x, y):
    if x.dtype.kind == "f" or (hasattr(y, "dtype") and y.dtype.kind == "f"):
        return _quiet_float_mod(x, y)
    return _int_mod(x, y)


_quiet_float_mod = ignoring_float_errors(_float_mod, 2)
_int_mod = _int_checked(np.mod)


FloorMod = define("FloorMod", ("x", "y"), _mod_kernel, binary,
                  lambda op, g: (reduce_to(g, op.inputs[0]), None), T=(0, 1), dtypes=N,
                  specialize=_int_by_constant(np.mod), operator=_safe_int_operator("%"))
Pow = define("Pow", ("x", "y"), _pow_kernel, binary, _pow_grad, T=(0, 1),
             dtypes=N - _dt.UNSIGNED)
Maximum = define("Maximum", ("x", "y"), np.maximum, binary,
                 _minmax_grad(lambda x, y: greater_equal(x, y)), T=(0, 1), dtypes=N)
Minimum = define("Minimum", ("x", "y"), np.minimum, binary,
                 _minmax_grad(lambda x, y: less_equal(x, y)), T=(0, 1), dtypes=N)


def add(x, y, name=None):
    """Returns x + y element-wise (op ``AddV2``), with broadcasting."""
    if _NUMPY.flexible:  # TF's flexible promotion (weak tensors)
        return numpy_behavior.binary(_binder(AddV2), x, y, name)
    if isinstance(x, _NUMPY_VALUES):  # TF's tf.add converts x on its own first
        from . import convert
        x = convert.constant(x)
    return bind(AddV2, (x, y), None, name)


def subtract(x, y, name=None):
    """Returns x - y element-wise (op ``Sub``)."""
    if _NUMPY.flexible:  # TF's flexible promotion (weak tensors)
        return numpy_behavior.binary(_binder(Sub), x, y, name)
    return bind(Sub, (x, y), None, name)


def multiply(x, y, name=None):
    """Returns x * y element-wise (op ``Mul``)."""
    if _NUMPY.flexible:  # TF's flexible promotion (weak tensors)
        return numpy_behavior.binary(_binder(Mul), x, y, name)
    return bind(Mul, (x, y), None, name)


def truediv(x, y, name=None):
    """x / y; integer tensors are cast to float64 first (int8/16 to float32), as in TF."""
    if _NUMPY.flexible:
        return numpy_behavior.binary(_truediv, x, y, name)
    return _truediv(x, y, name)


def _binder(opdef):
    return lambda x, y, name: bind(opdef, (x, y), None, name)


def _truediv(x, y, name=None):
    from . import convert
    x, y = convert.matching_tensors(x, y)
    dt = x.dtype
    if dt.is_integer:
        target = _dt.float32 if dt.size <= 2 else _dt.float64
        x, y = cast(x, target), cast(y, target)
    return bind(RealDiv, (x, y), None, name or "truediv")  # TF's name for x / y


def realdiv(x, y, name=None):
    """``tf.realdiv``: x / y for real or complex tensors of one dtype (op ``RealDiv``)."""
    return bind(RealDiv, (x, y), None, name)


def divide(x, y, name=None):
    """Returns x / y element-wise (``tf.math.divide``)."""
    return truediv(x, y, name)


def floordiv(x, y, name=None):
    """x // y rounding toward negative infinity (op ``FloorDiv``)."""
    return bind(FloorDiv, (x, y), None, name)


def floormod(x, y, name=None):
    """Remainder of floor division, sign of the divisor (op ``FloorMod``)."""
    return bind(FloorMod, (x, y), None, name)


mod = floormod


def pow(x, y, name=None):  # noqa: A001 - TensorFlow's name
    """x ** y element-wise (op ``Pow``)."""
    if _NUMPY.flexible:  # TF's flexible promotion (weak tensors)
        return numpy_behavior.binary(_binder(Pow), x, y, name)
    return bind(Pow, (x, y), None, name)


def maximum(x, y, name=None):
    """Element-wise max (op ``Maximum``)."""
    if _NUMPY.flexible:  # TF's flexible promotion (weak tensors)
        return numpy_behavior.binary(_binder(Maximum), x, y, name)
    return bind(Maximum, (x, y), None, name)


def minimum(x, y, name=None):
    """Element-wise min (op ``Minimum``)."""
    if _NUMPY.flexible:  # TF's flexible promotion (weak tensors)
        return numpy_behavior.binary(_binder(Minimum), x, y, name)
    return bind(Minimum, (x, y), None, name)


# -- unary -------------------------------------------------------------------------
def _unary(name, kernel, grad, dtypes=N):
    return define(name, ("x",), kernel, same, grad, T=(0,), dtypes=dtypes)


SIGNED = N - _dt.UNSIGNED  # TF's Neg, Abs, Sign and Pow refuse unsigned integers
Neg = _unary("Neg", np.negative, lambda op, g: (negative(g),), SIGNED | _C)
Neg.operator = "neg"
Abs = _unary("Abs", np.abs, lambda op, g: (multiply(g, sign(op.inputs[0])),), SIGNED)
Sign = _unary("Sign", np.sign, lambda op, g: (creation_ops.zeros_like(op.inputs[0]),),
              SIGNED)
def _square_grad(op, g):
    from .convert import constant  # as TF: the 2 a Const of its own, then x * 2, then g * that
    return (multiply(g, multiply(op.inputs[0], constant(2, dtype=op.inputs[0].dtype))),)


Square = _unary("Square", np.square, _square_grad)
Sqrt = _unary("Sqrt", ignoring_float_errors(np.sqrt, 1),
              lambda op, g: (divide(g, multiply(op.outputs[0], 2)),), F)
Exp = _unary("Exp", ignoring_float_errors(np.exp, 1),
             lambda op, g: (multiply(g, op.outputs[0]),), F)
Log = _unary("Log", ignoring_float_errors(np.log, 1), lambda op, g: (divide(g, op.inputs[0]),), F)
Sin = _unary("Sin", np.sin, lambda op, g: (multiply(g, cos(op.inputs[0])),), F)
Cos = _unary("Cos", np.cos, lambda op, g: (negative(multiply(g, sin(op.inputs[0]))),), F)
Tanh = _unary("Tanh", np.tanh, lambda op, g: (multiply(g, subtract(1, square(op.outputs[0]))),), F)


def _sigmoid(x):
    return (1 / (1 + np.exp(-x))).astype(x.dtype, copy=False)


_sigmoid_kernel = ignoring_float_errors(_sigmoid, 1)


Sigmoid = _unary("Sigmoid", _sigmoid_kernel, lambda op, g: (multiply(g, multiply(
    op.outputs[0], subtract(1, op.outputs[0]))),), F)


def _relu_kernel(x):
    return np.maximum(x, x.dtype.type(0))


def _relu_grad_grad(op, gg):
    """ReluGrad is linear in its gradients input and flat in its features."""
    return bind(ReluGrad, (gg, op.inputs[1])), creation_ops.zeros_like(op.inputs[1])


ReluGrad = define("ReluGrad", ("gradients", "features"),
                  lambda g, y: np.where(y > 0, g, g.dtype.type(0)),
                  lambda g, y: (g.shape, g.dtype), _relu_grad_grad, T=(0, 1), dtypes=N)
Relu = _unary("Relu", _relu_kernel, lambda op, g: (bind(ReluGrad, (g, op.outputs[0])),))


def negative(x, name=None):
    """-x element-wise (op ``Neg``)."""
    if _NUMPY.flexible:
        return numpy_behavior.unary(lambda t, n: bind(Neg, (t,), None, n), x, name)
    return bind(Neg, (x,), None, name)


def abs(x, name=None):  # noqa: A001
    """|x| element-wise (op ``Abs``; ``ComplexAbs`` of a complex tensor, a float one)."""
    if getattr(x, "dtype", None) in _C:
        return complex_ops.complex_abs(x, name)
    if _NUMPY.flexible:
        return numpy_behavior.unary(lambda t, n: bind(Abs, (t,), None, n), x, name)
    return bind(Abs, (x,), None, name)


def sign(x, name=None):
    """-1, 0 or 1 element-wise (op ``Sign``)."""
    return bind(Sign, (x,), None, name)


def square(x, name=None):
    """x * x element-wise (op ``Square``)."""
    return bind(Square, (x,), None, name)


def sqrt(x, name=None):
    """Square root (op ``Sqrt``); float tensors only."""
    return bind(Sqrt, (x,), None, name)


def exp(x, name=None):
    """e ** x (op ``Exp``); float tensors only."""
    return bind(Exp, (x,), None, name)


def log(x, name=None):
    """Natural logarithm (op ``Log``); float tensors only."""
    return bind(Log, (x,), None, name)


def sin(x, name=None):
    """Sine (op ``Sin``)."""
    return bind(Sin, (x,), None, name)


def cos(x, name=None):
    """Cosine (op ``Cos``)."""
    return bind(Cos, (x,), None, name)


def tanh(x, name=None):
    """Hyperbolic tangent (op ``Tanh``)."""
    return bind(Tanh, (x,), None, name)


def sigmoid(x, name=None):
    """1 / (1 + exp(-x)) (op ``Sigmoid``)."""
    return bind(Sigmoid, (x,), None, name)


def relu(features, name=None):
    """max(features, 0) (op ``Relu``)."""
    return bind(Relu, (features,), None, name)


# -- comparisons and logic ------------------------------------------------------------
def _cmp(name, kernel, operator, dtypes=N):
    return define(name, ("x", "y"), kernel, compare, None, T=(0, 1), dtypes=dtypes,
                  operator=operator)


Greater = _cmp("Greater", np.greater, ">")
GreaterEqual = _cmp("GreaterEqual", np.greater_equal, ">=")
Less = _cmp("Less", np.less, "<")
LessEqual = _cmp("LessEqual", np.less_equal, "<=")
Equal = _cmp("Equal", np.equal, "==", ALL)
NotEqual = _cmp("NotEqual", np.not_equal, "!=", ALL)
_B = frozenset({_dt.bool})
LogicalAnd = define("LogicalAnd", ("x", "y"), np.logical_and, compare, None, T=(0, 1), dtypes=_B,
                    operator="&")
LogicalOr = define("LogicalOr", ("x", "y"), np.logical_or, compare, None, T=(0, 1), dtypes=_B,
                   operator="|")
LogicalNot = define("LogicalNot", ("x",), np.logical_not, same, None, T=(0,), dtypes=_B,
                    operator="~")


def greater(x, y, name=None):
    """x > y element-wise, bool result (op ``Greater``)."""
    return bind(Greater, (x, y), None, name)


def greater_equal(x, y, name=None):
    """x >= y element-wise (op ``GreaterEqual``)."""
    return bind(GreaterEqual, (x, y), None, name)


def less(x, y, name=None):
    """x < y element-wise (op ``Less``)."""
    return bind(Less, (x, y), None, name)


def less_equal(x, y, name=None):
    """x <= y element-wise (op ``LessEqual``)."""
    return bind(LessEqual, (x, y), None, name)


def equal(x, y, name=None):
    """x == y element-wise (op ``Equal``)."""
    return bind(Equal, (x, y), None, name)


def not_equal(x, y, name=None):
    """x != y element-wise (op ``NotEqual``)."""
    return bind(NotEqual, (x, y), None, name)


def logical_and(x, y, name=None):
    """Element-wise AND of bool tensors (op ``LogicalAnd``)."""
    return bind(LogicalAnd, (x, y), None, name)


def logical_or(x, y, name=None):
    """Element-wise OR of bool tensors (op ``LogicalOr``)."""
    return bind(LogicalOr, (x, y), None, name)


def logical_not(x, name=None):
    """Element-wise NOT of a bool tensor (op ``LogicalNot``)."""
    return bind(LogicalNot, (x,), None, name)


def logical_xor(x, y, name="LogicalXor"):
    """(x | y) & ~(x & y), built from the three ops as TensorFlow does."""
    return logical_and(logical_or(x, y), logical_not(logical_and(x, y)), name=name)


# -- matmul ---------------------------------------------------------------------------------
# TF 2.21's CPU kernels of MatMul and BatchMatMulV2 (their OpDefs also allow unsigned ints)
MATMUL_KERNELS = (_dt.int64, _dt.int32, _dt.int16, _dt.float64, _dt.float32, _dt.float16,
                  _dt.complex128, _dt.complex64)
_MATMUL_NP = frozenset(d.np_dtype for d in MATMUL_KERNELS)


def _matmul_kernel(a, b, transpose_a=False, transpose_b=False):
    if a.dtype not in _MATMUL_NP:
        raise no_cpu_kernel("MatMul", a.dtype, MATMUL_KERNELS)
    if np.ndim(a) != 2 or np.ndim(b) != 2:  # np.matmul would take vectors: TF does not
        from ..errors import InvalidArgumentError
        raise InvalidArgumentError(None, None, _matmul_rank_message(np.shape(a), np.shape(b)))
    if transpose_a:
        a = a.T
    if transpose_b:
        b = b.T
    return np.matmul(a, b)


def _matmul_rank_message(sa, sb) -> str:
    if len(sa) != len(sb):
        return (f"In[0] and In[1] has different ndims: [{','.join(map(str, sa))}] vs. "
                f"[{','.join(map(str, sb))}]")
    return f"In[0] and In[1] ndims must be == 2: {len(sa)}"


def _matmul_shape(a, b, transpose_a=False, transpose_b=False):
    sa, sb = a.shape, b.shape
    for s in (sa, sb):
        if s.rank is not None and s.rank != 2:
            raise shape_error(f"Shape must be rank 2 but is rank {s.rank}")
    if sa.rank is None or sb.rank is None:
        return TensorShape([None, None]), a.dtype
    m, k1 = sa.dims[::-1] if transpose_a else sa.dims
    k2, n = sb.dims[::-1] if transpose_b else sb.dims
    if k1 is not None and k2 is not None and k1 != k2:
        raise shape_error(f"Matrix size-incompatible: In[0]: {fmt(sa)}, In[1]: {fmt(sb)}")
    return TensorShape([m, n]), a.dtype


def _matmul_grad(op, g):
    """Both inputs' gradients, or only the one a tape needs: an input the tape did not watch
    (``skip_input_indices``, e.g. the data ``x`` of ``matmul(x, W)``) gets None and no
    MatMul, as TF's tape builds it (tests/eager/test_matmul_grad_skip.py)."""
    a, b = _ins(op)
    ta, tb = op.get_attr("transpose_a"), op.get_attr("transpose_b")
    skip = getattr(op, "skip_input_indices", None) or ()
    if not ta and not tb:
        da = lambda: matmul(g, b, transpose_b=True)  # noqa: E731
        db = lambda: matmul(a, g, transpose_a=True)  # noqa: E731
    elif not ta and tb:
        da = lambda: matmul(g, b)  # noqa: E731
        db = lambda: matmul(g, a, transpose_a=True)  # noqa: E731
    elif ta and not tb:
        da = lambda: matmul(b, g, transpose_b=True)  # noqa: E731
        db = lambda: matmul(a, g)  # noqa: E731
    else:
        da = lambda: matmul(b, g, transpose_a=True, transpose_b=True)  # noqa: E731
        db = lambda: matmul(g, a, transpose_a=True, transpose_b=True)  # noqa: E731
    return (None if 0 in skip else da()), (None if 1 in skip else db())


def _matmul_special(op):
    """``np.matmul`` itself (transposes as views), for inputs known to be matrices: an input
    of unknown rank keeps the kernel, whose rank check is TF's error for a vector."""
    a, b = op.inputs
    if a.shape.rank != 2 or b.shape.rank != 2 or a.dtype.np_dtype not in _MATMUL_NP:
        return None
    ta, tb = op.attrs.get("transpose_a"), op.attrs.get("transpose_b")
    mm = np.matmul
    if not ta and not tb:
        return mm, (0, 1)
    if ta and not tb:
        return (lambda x, y: mm(x.T, y)), (0, 1)
    if tb and not ta:
        return (lambda x, y: mm(x, y.T)), (0, 1)
    return (lambda x, y: mm(x.T, y.T)), (0, 1)


MatMul = define("MatMul", ("a", "b"), _matmul_kernel, _matmul_shape, _matmul_grad,
                T=(0, 1), dtypes=N - {_dt.int8, _dt.int16}, specialize=_matmul_special)


def _bmm_kernel(x, y, adj_x=False, adj_y=False):
    if x.dtype not in _MATMUL_NP:
        raise no_cpu_kernel("BatchMatMulV2", x.dtype, MATMUL_KERNELS)
    for i, v in enumerate((x, y)):
        if np.ndim(v) < 2:  # np.matmul would take a vector: TF does not
            from ..errors import InvalidArgumentError
            raise InvalidArgumentError(None, None, f"In[{i}] ndims must be >= 2: {np.ndim(v)}")
    if adj_x:
        x = np.swapaxes(x, -1, -2)
    if adj_y:
        y = np.swapaxes(y, -1, -2)
    return np.matmul(x, y)


def _bmm_shape(x, y, adj_x=False, adj_y=False):
    sx, sy = x.shape, y.shape
    if sx.rank is None or sy.rank is None:
        return TensorShape(None), x.dtype
    if sx.rank < 2 or sy.rank < 2:
        raise shape_error(f"In[0] and In[1] must have rank >= 2, got {fmt(sx)} and {fmt(sy)}")
    m, k1 = sx.dims[-2:][::-1] if adj_x else sx.dims[-2:]
    k2, n = sy.dims[-2:][::-1] if adj_y else sy.dims[-2:]
    if k1 is not None and k2 is not None and k1 != k2:
        raise shape_error(f"Matrix size-incompatible: In[0]: {fmt(sx)}, In[1]: {fmt(sy)}")
    batch = broadcast_shapes(TensorShape(sx.dims[:-2]), TensorShape(sy.dims[:-2]))
    return batch.concatenate([m, n]), x.dtype


def _bmm_grad(op, g):
    x, y = _ins(op)
    ax, ay = op.get_attr("adj_x"), op.get_attr("adj_y")

    def mm(a, b, adj_a, adj_b):
        return bind(BatchMatMulV2, (a, b), {"adj_x": adj_a, "adj_y": adj_b})
    if not ax and not ay:
        gx, gy = mm(g, y, False, True), mm(x, g, True, False)
    elif not ax:
        gx, gy = mm(g, y, False, False), mm(g, x, True, False)
    elif not ay:
        gx, gy = mm(y, g, False, True), mm(x, g, False, False)
    else:
        gx, gy = mm(y, g, True, True), mm(g, x, True, True)
    return reduce_to(gx, x), reduce_to(gy, y)


BatchMatMulV2 = define("BatchMatMulV2", ("x", "y"), _bmm_kernel, _bmm_shape, _bmm_grad,
                       T=(0, 1), dtypes=N - {_dt.int8})


def _rank(x):
    """A tensor's or variable's rank when it is known without converting it, else None."""
    ndim = getattr(x, "ndim", None)
    if ndim is not None:
        return ndim
    shape = getattr(x, "shape", None)  # a variable
    return shape.rank if isinstance(shape, TensorShape) else None


def matmul(a, b, transpose_a=False, transpose_b=False, adjoint_a=False, adjoint_b=False,
           a_is_sparse=False, b_is_sparse=False, output_type=None, grad_a=False, grad_b=False,
           name=None):
    """Matrix product (op ``MatMul`` for matrices, ``BatchMatMulV2`` for batches).
    ``grad_a``/``grad_b`` are TF's hints that an operand belongs to a backward pass (they pick
    a kernel there, never change the product); here they are accepted and change nothing."""
    for t, adj, side in ((transpose_a, adjoint_a, "a"), (transpose_b, adjoint_b, "b")):
        if t and adj:
            raise ValueError(f"Only one of `transpose_{side}` and `adjoint_{side}` can be True. "
                             f"Received `transpose_{side}`={t}, `adjoint_{side}`={adj}.")
    ta, tb = transpose_a or adjoint_a, transpose_b or adjoint_b
    ra, rb = _rank(a), _rank(b)
    if ra == 2 and rb == 2:  # the common case: two matrices (or variables, which the op
        # reads in its own scope, as TF: MatMul/ReadVariableOp), no conversion needed
        return bind(MatMul, (a, b), {"transpose_a": ta, "transpose_b": tb}, name or "MatMul")
    from . import convert
    a, b = convert.matching_tensors(a, b)
    ra, rb = a.shape.rank, b.shape.rank
    if ra is None or rb is None or ra > 2 or rb > 2:  # TF's rule: a rank unknown is a batch
        return bind(BatchMatMulV2, (a, b), {"adj_x": ta, "adj_y": tb}, name or "MatMul")
    return bind(MatMul, (a, b), {"transpose_a": ta, "transpose_b": tb}, name or "MatMul")


# -- cast ------------------------------------------------------------------------------------
def _cast_kernel(x, SrcT=None, DstT=None, Truncate=False):
    np_dt = DstT.np_dtype
    if DstT is _dt.string or x.dtype.kind == "O":
        from ..errors import UnimplementedError
        raise UnimplementedError(None, None, f"Cast {SrcT.name} to {DstT.name} is not supported")
    if x.dtype.kind == "f" and np_dt.kind in "iu":
        with np.errstate(invalid="ignore"):
            return np.trunc(x).astype(np_dt)
    return np.asarray(x).astype(np_dt) if np.ndim(x) else np_dt.type(x)


def _cast_grad(op, g):
    src, dst = op.get_attr("SrcT"), op.get_attr("DstT")
    if src.is_floating and dst.is_floating:
        return (cast(g, src),)
    return (None,)


def _cast_special(op):
    src, dst = op.attrs["SrcT"], op.attrs["DstT"]
    if src.is_floating and dst.is_integer or _dt.string in (src, dst):
        return None
    np_dt = dst.np_dtype
    return (lambda x: np.asarray(x).astype(np_dt) if np.ndim(x) else np_dt.type(x)), (0,)


Cast = define("Cast", ("x",), _cast_kernel, lambda x, SrcT, DstT, Truncate=False: (x.shape, DstT),
              _cast_grad, T=(), specialize=_cast_special)


def cast(x, dtype, name=None):
    """Cast ``x`` to ``dtype`` (op ``Cast``); floats to ints truncate toward zero."""
    from . import convert
    dtype = _dt.as_dtype(dtype)
    x = convert.to_tensor(x)
    if x.dtype is dtype:
        return x
    return bind(Cast, (x,), {"SrcT": x.dtype, "DstT": dtype, "Truncate": False}, name)


# -- composites built from ops ---------------------------------------------------------------------
def _softmax_kernel(logits):
    z = logits - np.max(logits, axis=-1, keepdims=True)
    e = np.exp(z)
    return (e / np.sum(e, axis=-1, keepdims=True)).astype(logits.dtype, copy=False)


def _softmax_grad(op, g):
    y = op.outputs[0]
    s = reduction_ops.reduce_sum(multiply(g, y), axis=-1, keepdims=True)
    return (multiply(subtract(g, s), y),)


Softmax = define("Softmax", ("logits",), _softmax_kernel, same, _softmax_grad, T=(0,), dtypes=F)


def softmax(logits, axis=None, name=None):
    """exp(logits) / sum(exp(logits)) along the last axis (op ``Softmax``)."""
    if axis is not None and axis != -1:
        from . import convert
        logits = convert.to_tensor(logits)
        rank = logits.shape.rank
        if rank is not None and axis % rank != rank - 1:
            perm = list(range(rank))
            perm[axis % rank], perm[-1] = perm[-1], perm[axis % rank]
            return shape_ops.transpose(bind(Softmax, (shape_ops.transpose(logits, perm),)), perm,
                                       name=name)
    return bind(Softmax, (logits,), None, name)


def clip_by_value(t, clip_value_min, clip_value_max, name=None):
    """Clamp ``t`` to [min, max], as TensorFlow does with ``Minimum`` then ``Maximum``."""
    return maximum(minimum(t, clip_value_max), clip_value_min, name=name)


def _log_softmax_kernel(logits):
    z = logits - np.max(logits, axis=-1, keepdims=True)
    return (z - np.log(np.sum(np.exp(z), axis=-1, keepdims=True))).astype(logits.dtype,
                                                                           copy=False)


def _log_softmax_grad(op, g):
    sm = exp(op.outputs[0])
    return (subtract(g, multiply(reduction_ops.reduce_sum(g, axis=-1, keepdims=True), sm)),)


LogSoftmax = define("LogSoftmax", ("logits",), _log_softmax_kernel, same, _log_softmax_grad,
                    T=(0,), dtypes=F)


def log_softmax(logits, axis=None, name=None):
    """logits - log(sum(exp(logits))) along the last axis (op ``LogSoftmax``)."""
    if axis not in (None, -1):
        raise NotImplementedError("tfgraph_edu implements log_softmax on the last axis only.")
    return bind(LogSoftmax, (logits,), None, name)


def _add_n_shape(*inputs):
    s = inputs[0].shape
    for x in inputs[1:]:
        if not s.is_compatible_with(x.shape):
            raise shape_error(f"Inputs to operation AddN of type AddN must have the same size "
                              f"and shape.  Input 0: {fmt(inputs[0].shape)} != input : "
                              f"{fmt(x.shape)}")
        s = s.merge_with(x.shape)
    return s, inputs[0].dtype


AddN = define("AddN", ("inputs*",), lambda *xs: np.sum(xs, axis=0, dtype=xs[0].dtype),
              _add_n_shape, lambda op, g: tuple(g for _ in op.inputs), dtypes=N)


def add_n(inputs, name=None):
    """Sums a list of tensors of the same shape and dtype (op ``AddN``)."""
    inputs = list(inputs)
    if not inputs:
        raise ValueError("Inputs must be an iterable of at least one Tensor/IndexedSlices with "
                         "the same dtype and shape.")
    return bind(AddN, tuple(inputs), None, name)
