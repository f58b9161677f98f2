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

import numpy as np

from .. import dtypes as _dt
from . import convert

MODES = ("off", "legacy", "safe", "all")


class _State:
    __slots__ = ("enabled", "prefer_float32", "mode")

    def __init__(self):
        self.enabled = False
        self.prefer_float32 = False
        self.mode = "off"


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


def switch_off() -> None:
    """Back to TF's behaviour before the switch (tests only; TF has no way back)."""
    STATE.enabled = False
    STATE.prefer_float32 = False
    STATE.mode = "off"


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
