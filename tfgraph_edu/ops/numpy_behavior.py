"""The switch of ``tnp.experimental_enable_numpy_behavior`` and what it changes in the
engine (layer 1): NumPy's type promotion for the Python operators on tensors, NumPy's
indexing, and the result dtypes of ``tf.experimental.numpy`` (``_api/numpy_api.py``).

As in TF 2.21, nothing changes until it is switched on; then it stays on for the process.
The NumPy methods on tensors (``.T``, ``.reshape``…) are set on the tensor classes by
``numpy_api`` when it switches this on; before, asking for one says how to switch it on.
"""

from __future__ import annotations

import builtins
import numbers
import weakref

import numpy as np

from .. import dtypes as _dt
from . import convert

MODES = ("off", "legacy", "safe", "all")


class _State:
    __slots__ = ("enabled", "prefer_float32", "mode", "flexible")

    def __init__(self):
        self.enabled = False
        self.prefer_float32 = False
        self.mode = "off"
        self.flexible = False  # the 'all' or 'safe' mode (weak tensors)


STATE = _State()

# names TF 2.21's tensors answer, when NumPy behaviour is off, with the hint to switch it on
HINTED = frozenset({"T", "astype", "ravel", "transpose", "reshape", "clip", "size", "tolist",
                    "data"})


def missing_attribute(obj, name: str) -> AttributeError:
    """The error for ``tensor.<name>`` that the tensor lacks (TF's hint for NumPy names)."""
    return AttributeError(
        f"{type(obj).__name__} object has no attribute '{name}'. \n        If you are looking "
        "for numpy-related methods, please run the following:\n        "
        "tf.experimental.numpy.experimental_enable_numpy_behavior()\n      ")


def check_mode(mode: str) -> None:
    if mode not in MODES:
        raise ValueError(f"The provided promotion mode {mode} does not exist. Make sure the "
                         "provided dtype conversion mode is one of the followings: 'off', "
                         "'legacy', 'safe' or 'all'.")


def switch_on(prefer_float32: bool, mode: str) -> None:
    STATE.enabled = True
    STATE.prefer_float32 = builtins.bool(prefer_float32)
    STATE.mode = mode
    STATE.flexible = mode in ("all", "safe")
    convert.WEAK_CONSTANTS = weak_constant if STATE.flexible else None


def switch_off() -> None:
    """Back to TF's behaviour before the switch (tests only; TF has no way back)."""
    STATE.enabled = False
    STATE.prefer_float32 = False
    STATE.mode = "off"
    STATE.flexible = False
    convert.WEAK_CONSTANTS = None


# -- dtypes ------------------------------------------------------------------------------------
def _as_numpy_dtype_or_value(x):
    """What NumPy's ``result_type`` is asked about for one value: Python numbers as they are
    (NumPy 2 treats them as weak), tensors and dtypes by their dtype, the rest as arrays."""
    if isinstance(x, builtins.bool | numbers.Number) and not isinstance(x, np.generic):
        if STATE.prefer_float32 and isinstance(x, float):
            return np.float32
        if STATE.prefer_float32 and isinstance(x, complex):
            return np.complex64
        return x
    if isinstance(x, np.generic):
        return x.dtype
    if convert.is_tf_type(x) or hasattr(x, "dtype") and isinstance(x.dtype, _dt.DType):
        return x.dtype.as_numpy_dtype
    if isinstance(x, _dt.DType):
        return x.as_numpy_dtype
    if isinstance(x, np.ndarray):
        return x.dtype
    if isinstance(x, type | np.dtype | str):
        return np.dtype(_dt.as_dtype(x).as_numpy_dtype) if not isinstance(x, type) or \
            not issubclass(x, builtins.bool | int | float | complex) else x
    return x


def _flat(values, out):
    for v in values:
        if isinstance(v, list | tuple):
            _flat(v, out)
        else:
            out.append(_as_numpy_dtype_or_value(v))
    return out


def result_type(*values) -> _dt.DType:
    """``tnp.result_type``: NumPy's promotion of the values' dtypes (Python numbers weak,
    nested lists by their elements); ``prefer_float32`` reads a Python float as float32."""
    flat = _flat(values, [])
    if not flat:
        flat = [np.float64]
    return _dt.as_dtype(np.result_type(*flat))


def default_float() -> _dt.DType:
    return _dt.float64


def promote_operands(x, y):
    """``x <op> y`` on tensors once NumPy behaviour is on ('legacy' mode): both converted to
    NumPy's result dtype (``int32 + 1.5`` is float64, ``float32 + 2`` float32)."""
    for v in (x, y):  # ragged and sparse operands go their own way, as in TF
        if convert.is_tf_type(v) and not convert.is_tensor(v) and not hasattr(v, "_as_tensor"):
            return x, y
    target = result_type(x, y)
    return _to(x, target), _to(y, target)


def _to(v, dtype):
    from . import math_ops
    if convert.is_tf_type(v):  # a tensor, or a variable read as one
        v = convert.to_tensor(v)
        return v if v.dtype == dtype else math_ops.cast(v, dtype)
    return convert.to_tensor(np.asarray(v).astype(dtype.as_numpy_dtype), dtype=dtype)


# -- indexing ----------------------------------------------------------------------------------
def _basic(k) -> bool:
    if k is None or k is Ellipsis or isinstance(k, builtins.slice):
        return True
    if convert.is_tensor(k):
        return k.shape.rank == 0 and k.dtype.is_integer
    return isinstance(k, numbers.Integral) and not isinstance(k, builtins.bool | np.bool_)


def getitem(tensor, key):
    """``tensor[key]`` with NumPy's rules: basic indexing is TF's ``StridedSlice``; advanced
    indexing (lists, tuples, arrays, boolean masks) gathers the elements NumPy's indexing
    picks from a tensor of known shape, with indices known when the graph is built."""
    from . import indexing_ops, shape_ops
    parts = key if isinstance(key, tuple) else (key,)
    if builtins.all(_basic(k) for k in parts):
        return indexing_ops.getitem(tensor, key)
    shape = tensor.shape
    if shape.rank is None or None in shape.as_list():
        raise NotImplementedError(
            "NumPy-style advanced indexing (lists, arrays or boolean masks as indices) of a "
            "tensor of unknown shape is not implemented in tfgraph_edu yet; index with "
            "tf.gather / tf.boolean_mask instead.")
    static = []
    for k in parts:
        if convert.is_tensor(k):
            value = getattr(k, "_value", None)
            if value is None:
                raise NotImplementedError(
                    "NumPy-style advanced indexing with an index tensor computed inside "
                    "tf.function is not implemented in tfgraph_edu yet; use tf.gather or "
                    "tf.boolean_mask.")
            static.append(np.asarray(value))
        elif isinstance(k, tuple | list):
            static.append(np.asarray([np.asarray(getattr(e, "_value", e)) for e in k]))
        else:
            static.append(k)
    dims = [int(d) for d in shape.as_list()]
    try:
        positions = np.arange(int(np.prod(dims)), dtype=np.int64).reshape(dims)[tuple(static)]
    except IndexError as e:
        from ..errors import InvalidArgumentError
        raise InvalidArgumentError(None, None, str(e)) from None
    flat = shape_ops.reshape(tensor, [-1])
    return indexing_ops.gather(flat, convert.constant(positions, dtype=_dt.int64))


# -- the 'all' and 'safe' modes: TF's flexible type promotion with weak tensors ----------------
# A Python number (or list of them) made a tensor without a dtype is "weak": its dtype gives
# way to the other operand's. The lattice below is TF 2.21's result of tf.add for every pair
# (recorded under TF; `*` marks a weak dtype, `X` a TypeError), one row per left operand
# (a long row goes on over the next line).
_ORDER = ("b u8 u16 u32 u64 i8 i16 i32 i64 f16 f32 f64 c64 c128 i32* i64* f32* f64* c64* "
          "c128*").split()
_ALL = """
b b u8 u16 u32 u64 i8 i16 i32 i64 f16 f32 f64 c64 c128 i32* i64* f32* f64* X c128*
u8 u8 u8 u16 u32 u64 i16 i16 i32 i64 f16 f32 f64 c64 c128 u8 u8 f64* f64* X c128*
u16 u16 u16 u16 u32 u64 i32 i32 i32 i64 f16 f32 f64 c64 c128 u16 u16 f64* f64* X c128*
u32 u32 u32 u32 u32 u64 i64 i64 i64 i64 f16 f32 f64 c64 c128 u32 u32 f64* f64* X c128*
u64 u64 u64 u64 u64 u64 f64* f64* f64* f64* f16 f32 f64 c64 c128 u64 u64 f64* f64* X c128*
i8 i8 i16 i32 i64 f64* i8 i16 i32 i64 f16 f32 f64 c64 c128 i8 i8 f64* f64* X c128*
i16 i16 i16 i32 i64 f64* i16 i16 i32 i64 f16 f32 f64 c64 c128 i16 i16 f64* f64* X c128*
i32 i32 i32 i32 i64 f64* i32 i32 i32 i64 f16 f32 f64 c64 c128 i32 i32 f64* f64* X c128*
i64 i64 i64 i64 i64 f64* i64 i64 i64 i64 f16 f32 f64 c64 c128 i64 i64 f64* f64* X c128*
f16 f16 f16 f16 f16 f16 f16 f16 f16 f16 f16 f32 f64 c64 c128 f16 f16 f16 f16 X c64
f32 f32 f32 f32 f32 f32 f32 f32 f32 f32 f32 f32 f64 c64 c128 f32 f32 f32 f32 X c64
f64 f64 f64 f64 f64 f64 f64 f64 f64 f64 f64 f64 f64 c128 c128 f64 f64 f64 f64 X c128
c64 c64 c64 c64 c64 c64 c64 c64 c64 c64 c64 c64 c128 c64 c128 c64 c64 c64 c64 X c64
c128 c128 c128 c128 c128 c128 c128 c128 c128 c128 c128
    c128 c128 c128 c128 c128 c128 c128 c128 X c128
i32* i32* u8 u16 u32 u64 i8 i16 i32 i64 f16 f32 f64 c64 c128 i32* i64* f32* f64* X c128*
i64* i64* u8 u16 u32 u64 i8 i16 i32 i64 f16 f32 f64 c64 c128 i64* i64* f32* f64* X c128*
f32* f32* f64* f64* f64* f64* f64* f64* f64* f64* f16 f32 f64 c64 c128 f32* f32* f32* f64* X c128*
f64* f64* f64* f64* f64* f64* f64* f64* f64* f64* f16 f32 f64 c64 c128 f64* f64* f64* f64* X c128*
c64* X X X X X X X X X X X X X X X X X X X X
c128* c128* c128* c128* c128* c128* c128* c128* c128* c128* c64
    c64 c128 c64 c128 c128* c128* c128* c128* X c128*
"""
# the pairs SAFE mode refuses on top of those (left, right; both orders are refused)
_UNSAFE = """u8+i8 u8+f32* u16+i8 u16+i16 u16+f16 u16+f32* u32+i8 u32+i16 u32+i32 u32+f16 u32+f32
u32+c64 u32+f32* u64+i8 u64+i16 u64+i32 u64+i64 u64+f16 u64+f32 u64+f64 u64+c64 u64+c128 u64+f32*
u64+f64* u64+c128* i8+f32* i16+f16 i16+f32* i32+f16 i32+f32 i32+c64 i32+f32* i64+f16 i64+f32
i64+f64 i64+c64 i64+c128 i64+f32* i64+f64* i64+c128* f16+c128* f32+c128* f64+c64"""
_NAMES = {"b": "bool", "u8": "uint8", "u16": "uint16", "u32": "uint32", "u64": "uint64",
          "i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64", "f16": "float16",
          "f32": "float32", "f64": "float64", "c64": "complex64", "c128": "complex128"}
_TABLES: dict = {}


def _tables():
    if not _TABLES:
        cells = _ALL.split()  # a long row continues on the next line
        rows = [cells[i:i + len(_ORDER) + 1] for i in range(0, len(cells), len(_ORDER) + 1)]
        table = {(a, b): cell for row in rows for a, b, cell in
                 ((row[0], b, c) for b, c in zip(_ORDER, row[1:]))}
        _TABLES["all"] = table
        safe = dict(table)
        for pair in _UNSAFE.split():
            a, b = pair.split("+")
            if b in _ORDER:
                safe[a, b] = safe[b, a] = "X"
        _TABLES["safe"] = safe
    return _TABLES


_WEAK: dict = {}


def is_weak(t) -> bool:
    ref = _WEAK.get(id(t)) if _WEAK else None
    return ref is not None and ref() is t


def mark_weak(t):
    """Marks the tensor ``t`` weak (its dtype yields to the other operand's); returns it."""
    key = id(t)
    _WEAK[key] = weakref.ref(t, lambda _r, key=key: _WEAK.pop(key, None))
    return t


def flexible() -> bool:
    return STATE.mode in ("all", "safe")


def _code(dtype, weak) -> str:
    short = {v: k for k, v in _NAMES.items()}.get(dtype.name)
    if short is None:
        raise NotImplementedError(f"tfgraph_edu's dtype_conversion_mode='{STATE.mode}' does not "
                                  f"implement {dtype.name} operands yet")
    return short + ("*" if weak else "")


def _operand(v):
    """(tensor, weak) of one operand under flexible promotion."""
    if convert.is_tensor(v):
        return v, is_weak(v)
    if convert.is_tf_type(v):
        return convert.to_tensor(v), False
    if isinstance(v, np.ndarray | np.generic):
        return convert.constant(v), False
    t = convert.constant(v)  # a Python value: weak (but bools, as TF)
    return t, t.dtype != _dt.bool


def flexible_operands(x, y):
    """``x`` and ``y`` converted to TF's flexible result dtype, and whether the result is
    weak; a pair the mode refuses raises TF's TypeError."""
    from . import math_ops
    for v in (x, y):  # ragged and sparse operands go their own way
        if convert.is_tf_type(v) and not convert.is_tensor(v) and not hasattr(v, "_as_tensor"):
            return x, y, False
    (tx, wx), (ty, wy) = _operand(x), _operand(y)
    cell = _tables()[STATE.mode][_code(tx.dtype, wx), _code(ty.dtype, wy)]
    if cell == "X":
        raise TypeError(
            f"In promotion mode PromoMode.{STATE.mode.upper()}, implicit dtype promotion "
            f"between ({tx.dtype}, weak={wx}) and ({ty.dtype}, weak={wy}) is disallowed. You "
            "need to explicitly specify the dtype in your op, or relax your dtype promotion "
            "rules (such as from SAFE mode to ALL mode).")
    target = _dt.as_dtype(_NAMES[cell.rstrip("*")])
    tx = tx if tx.dtype == target else math_ops.cast(tx, target)
    ty = ty if ty.dtype == target else math_ops.cast(ty, target)
    return tx, ty, cell.endswith("*")


def binary(fn, x, y, *rest):
    """``fn(x, y)`` with the operands promoted by the mode switched on (NumPy's in 'legacy',
    TF's lattice in 'all'/'safe', where a weak result is marked)."""
    if STATE.mode in ("all", "safe"):
        x, y, weak = flexible_operands(x, y)
        out = fn(x, y, *rest)
        return mark_weak(out) if weak and out.dtype != _dt.bool else out
    x, y = promote_operands(x, y)
    return fn(x, y, *rest)


def unary(fn, x, *rest):
    """``fn(x)`` in the 'all'/'safe' modes: a weak operand (or a Python number) gives a weak
    result."""
    t, weak = _operand(x)
    out = fn(t, *rest)
    return mark_weak(out) if weak else out


def weak_constant(t, value):
    """``tf.constant(value)`` of a Python value in the 'all'/'safe' modes is weak."""
    if isinstance(value, np.ndarray | np.generic) or t.dtype == _dt.bool or \
            t.dtype == _dt.string:
        return t
    if isinstance(value, list | tuple) and not builtins.all(
            isinstance(v, builtins.bool | int | float | complex | list | tuple)
            and not isinstance(v, np.generic) for v in value):
        return t
    return mark_weak(t)


def assign_value(value, dtype):
    """A value assigned to a variable of ``dtype`` in the 'all'/'safe' modes: cast when TF's
    lattice promotes the pair to the variable's dtype (an int16 into an int32 variable)."""
    from . import math_ops
    if not convert.is_tensor(value) or value.dtype == dtype:
        return value
    cell = _tables()[STATE.mode].get((_code(dtype, False), _code(value.dtype, is_weak(value))))
    if cell is not None and cell.rstrip("*") == _code(dtype, False):
        return math_ops.cast(value, dtype)
    return value


# -- the operators once NumPy behaviour is on ---------------------------------------------------
# Switching on wraps the tensor classes' operators (as TF patches its Tensor class), so that
# nothing is added to them while it is off.
_BINARY_OPERATORS = ("__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__",
                     "__truediv__", "__rtruediv__", "__floordiv__", "__rfloordiv__", "__mod__",
                     "__rmod__", "__pow__", "__rpow__", "__matmul__", "__rmatmul__", "__gt__",
                     "__ge__", "__lt__", "__le__")
_ORIGINAL: dict = {}


def _promoting(original):
    def operator(self, other):
        return binary(original, self, other)
    operator.__name__ = original.__name__
    operator.__doc__ = original.__doc__
    return operator


def _promoting_equality(original, when_none):
    def operator(self, other):
        if other is None:
            return when_none
        try:
            return binary(original, self, other)
        except (TypeError, ValueError):
            return original(self, other)  # the class's own answer (False / True)
    return operator


def install_operators(cls) -> None:
    """Operators of ``cls`` (the tensors', or the copy variables hold) promote their operands
    by the mode switched on; a tensor's getitem is NumPy's. Done once per class;
    ``uninstall_operators`` restores them (tests)."""
    if cls in _ORIGINAL:
        return
    saved = _ORIGINAL[cls] = {}
    for name in (*_BINARY_OPERATORS, "__eq__", "__ne__", "__getitem__"):
        if name in cls.__dict__:
            saved[name] = cls.__dict__[name]
    for name in _BINARY_OPERATORS:
        if name in saved:
            setattr(cls, name, _promoting(saved[name]))
    if "__eq__" in saved:
        cls.__eq__ = _promoting_equality(saved["__eq__"], False)
        cls.__ne__ = _promoting_equality(saved["__ne__"], True)
    if "__getitem__" in saved:
        cls.__getitem__ = getitem


def uninstall_operators(cls) -> None:
    for name, value in _ORIGINAL.pop(cls, {}).items():
        setattr(cls, name, value)
