"""Python values to tensors, by TensorFlow's rules (layer 1).

Python float -> float32, int -> int32 (int64 when it does not fit), bool -> bool,
str/bytes -> string; numpy arrays and scalars keep their dtype; nested lists take
the widest kind they hold.  ``Const`` is the op that makes a value a tensor, so a
constant is an eager tensor eagerly and a ``Const`` node inside a graph.
"""

from __future__ import annotations

import math
import numbers
import warnings

import numpy as np

from .. import dtypes as _dt
from ..shapes import TensorShape
from ._core import bind, define, interpreter

__all__ = ["TensorBase", "to_numpy", "to_tensor", "constant", "matching_tensors", "is_tensor"]


class TensorBase:
    """Marker base of every tensor class (eager and symbolic); operators live in a mixin."""

    __slots__ = ()


def is_tensor(x) -> bool:
    return isinstance(x, TensorBase)


def is_tf_type(x) -> bool:
    """``tf.is_tensor``: a tensor, or a TF type that stands for one (a Variable, a ragged or
    sparse tensor), as TF answers; ``is_tensor`` above is the engine's narrower test."""
    return isinstance(x, TensorBase) or hasattr(x, "_as_tensor") or type(x).__name__ in (
        "RaggedTensor", "SparseTensor")


_INT32_MIN, _INT32_MAX = -(2 ** 31), 2 ** 31 - 1
_PY_SCALARS = (bool, int, float, str, bytes)


_INT64_MIN, _INT64_MAX = -2 ** 63, 2 ** 63 - 1
# TF's message for a Python int that no int64 holds (its sequence converter's words)
_OUT_OF_RANGE = "Can't convert Python sequence with out-of-range integer to Tensor."


def _describe(value) -> str:
    return (f"Attempt to convert a value ({value!r}) with an unsupported type ({type(value)}) "
            "to a Tensor.")


def _infer(value):
    """The numpy array for a Python value with TF's default dtypes."""
    if isinstance(value, np.ndarray):
        if value.dtype.kind in "SU":
            return np.asarray(value.astype(bytes), dtype=object)
        if value.dtype == object:  # TF reads an object array as strings, or refuses it
            for v in value.flat:
                if not isinstance(v, (str, bytes)):
                    raise ValueError("Failed to convert a NumPy array to a Tensor (Unsupported "
                                     f"object type {type(v).__name__}).")
            out = np.empty(value.shape, dtype=object)
            out.flat[:] = [_to_bytes(v) for v in value.flat]
            return out
        if value.dtype not in _dt.NP_TO_DTYPE:
            raise TypeError(_describe(value))
        return value
    if isinstance(value, np.generic):
        if isinstance(value, (np.str_, np.bytes_)):
            return np.array(_to_bytes(value), dtype=object)
        return np.asarray(value)
    if isinstance(value, bool):
        return np.array(value, dtype=np.bool_)
    if isinstance(value, int):
        if _INT32_MIN <= value <= _INT32_MAX:
            return np.array(value, dtype=np.int32)
        if not _INT64_MIN <= value <= _INT64_MAX:
            raise ValueError(_OUT_OF_RANGE)
        return np.array(value, dtype=np.int64)
    if isinstance(value, float):
        return np.array(value, dtype=np.float32)
    if isinstance(value, (str, bytes)):
        return np.array(_to_bytes(value), dtype=object)
    if isinstance(value, complex):
        return np.array(value, dtype=np.complex128)
    if isinstance(value, TensorShape):  # as TensorFlow converts shapes: an int32 vector
        if not value.is_fully_defined():
            raise ValueError(f"Cannot convert a partially known TensorShape {value} to a "
                             "Tensor.")
        return np.array(value.as_list(), dtype=np.int32)
    if isinstance(value, (list, tuple)):
        return _infer_nested(value)
    if is_tensor(value):
        return value.numpy()
    arr = getattr(value, "__array__", None)
    if arr is not None:
        return _infer(np.asarray(value))
    raise ValueError(_describe(value))


def _to_bytes(s):
    return s.encode("utf-8") if isinstance(s, str) else bytes(s)


def _infer_nested(value):
    flat: list = []
    _flatten(value, flat)
    if any(isinstance(v, (str, bytes, np.str_, np.bytes_)) for v in flat):
        if not all(isinstance(v, (str, bytes, np.str_, np.bytes_)) for v in flat):
            raise ValueError(_describe(value))
        arr = np.empty(len(flat), dtype=object)
        arr[:] = [_to_bytes(v) for v in flat]
        try:
            shape = np.shape(np.array(value, dtype=object))
        except ValueError:
            raise ValueError("Can't convert non-rectangular Python sequence to Tensor.") from None
        return arr.reshape(shape)
    for v in flat:
        if not isinstance(v, (numbers.Number, np.generic, np.ndarray)) and not is_tensor(v):
            raise ValueError(_describe(value))
        if type(v) is int and not _INT64_MIN <= v <= _INT64_MAX:
            raise ValueError(_OUT_OF_RANGE)
    items = [v.numpy() if is_tensor(v) else v for v in flat]
    try:
        arr = np.array(_rebuild(value, iter(items)))
    except ValueError:
        raise ValueError("Can't convert non-rectangular Python sequence to Tensor.") from None
    if arr.dtype == object:
        raise ValueError("Can't convert non-rectangular Python sequence to Tensor.")
    if arr.dtype.kind == "f" and not any(isinstance(v, (np.generic, np.ndarray)) for v in flat):
        return arr.astype(np.float32)
    if arr.dtype.kind == "i" and not any(isinstance(v, (np.generic, np.ndarray)) for v in flat):
        if arr.size == 0 or (arr.min() >= _INT32_MIN and arr.max() <= _INT32_MAX):
            return arr.astype(np.int32)
    if arr.dtype.kind == "f" and arr.size == 0:
        return arr.astype(np.float32)
    if arr.dtype not in _dt.NP_TO_DTYPE:
        return arr.astype(np.float32) if arr.size == 0 else arr
    return arr


def _flatten(value, out):
    if isinstance(value, (list, tuple)):
        for v in value:
            _flatten(v, out)
    else:
        out.append(value)


def _rebuild(value, it):
    if isinstance(value, (list, tuple)):
        return [_rebuild(v, it) for v in value]
    return next(it)


def _cast_value(arr: np.ndarray, dtype, original):
    """Convert an inferred array to ``dtype`` the way TF's convert_to_tensor allows."""
    src = arr.dtype
    tgt = dtype.np_dtype
    if src == tgt or (dtype is _dt.string and src.kind == "O"):
        return arr
    if arr.size == 0 and src.kind != "O" and dtype is not _dt.string:
        return arr.astype(tgt)  # an empty list takes any numeric dtype
    if src.kind in "biufc" and tgt.kind in "biufc" and not is_tensor(original) and (
            isinstance(original, (np.ndarray, np.generic))
            or (src.kind in "iu" and tgt.kind in "iu")
            or (type(original) is bool and tgt.kind != "b")):
        # TF casts a NumPy value as NumPy does (1.5 -> 1, 300 -> 44 in uint8); a Python int
        # wraps around in a narrower integer dtype; a lone Python bool is a number (1 or 0)
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore", getattr(np, "exceptions", np).ComplexWarning)
            return arr.astype(tgt)
    ok = True
    if dtype is _dt.string or src.kind == "O":
        ok = False
    elif src.kind == "b" and tgt.kind != "b":
        ok = False
    elif src.kind == "f" and tgt.kind in "iub":
        ok = False
    elif src.kind in "iu" and tgt.kind == "b":
        ok = False
    if ok:
        out = arr.astype(tgt)
        if src.kind in "iu" and tgt.kind in "iu" and not np.array_equal(out, arr):
            ok = False  # a tensor of another dtype is refused (tf.cast converts it)
        else:
            return out
    if isinstance(original, (np.ndarray, np.generic)) or is_tensor(original):
        raise TypeError(f"Cannot convert {original!r} to EagerTensor of dtype {dtype.name}")
    raise TypeError(f"Cannot convert {original!r} to EagerTensor of dtype {dtype.name}")


# The range of each integer dtype. A Python int outside it is refused here, not left to
# numpy: numpy 2 raises OverflowError for np.int32(2 ** 40), numpy 1.x wraps it around.
INT_BOUNDS = {np.dtype(t): (int(np.iinfo(t).min), int(np.iinfo(t).max))
              for t in (np.int8, np.int16, np.int32, np.int64,
                        np.uint8, np.uint16, np.uint32, np.uint64)}


def _uint64_list(value):
    """A nested list of Python ints as uint64 when one is above int64's range and all fit
    uint64 (TF converts ``[3, 2**63]`` with ``dtype=tf.uint64``), else None."""
    flat = list(value)
    i = 0
    while i < len(flat):
        if isinstance(flat[i], (list, tuple)):
            flat[i:i + 1] = list(flat[i])
            continue
        if type(flat[i]) is not int:
            return None
        i += 1
    if not flat or max(flat) <= _INT64_MAX or min(flat) < 0 or max(flat) >= 2 ** 64:
        return None
    return np.array(value, dtype=np.uint64)


def to_numpy(value, dtype=None) -> np.ndarray:
    """``value`` as a numpy array by TF's conversion rules, optionally cast to ``dtype``."""
    t = type(value)
    if t is range:  # TF converts a range as the list of its numbers
        value, t = list(value), list
    if dtype is not None and (t is float or t is int):  # fast path: scalar into a known dtype
        np_dt = getattr(dtype, "np_dtype", None)
        if np_dt is not None and (np_dt.kind == "f" or (
                t is int and np_dt.kind in "iu"
                and INT_BOUNDS[np_dt][0] <= value <= INT_BOUNDS[np_dt][1])):
            try:
                return np_dt.type(value)
            except OverflowError:  # an int too big for a float
                pass
    if dtype is not None and type(value) is np.ndarray and value.dtype == object and \
            _dt.as_dtype(dtype) is not _dt.string:  # numbers held as objects, dtype given
        try:
            value = np.array(value.tolist())
        except ValueError:
            pass  # _infer's error below
    if dtype is not None and (t is list or t is tuple) and _dt.as_dtype(dtype) is _dt.uint64:
        big = _uint64_list(value)  # ints above int64's range, which only uint64 holds
        if big is not None:
            return big
    arr = _infer(value)
    if dtype is not None and (t is list or t is tuple) and arr.dtype in _WIDE:
        # Python floats read straight into the wider dtype asked for (TF: 0.1 in float64 is
        # 0.1), never through float32
        np_dt = getattr(_dt.as_dtype(dtype), "np_dtype", None)
        if np_dt is not None and np_dt.kind in "fc" and np_dt.itemsize > arr.dtype.itemsize:
            try:
                wide = np.array(value, dtype=_WIDE[arr.dtype])
            except (TypeError, ValueError):
                wide = None
            if wide is not None and wide.shape == arr.shape:
                arr = wide
    if dtype is not None:
        arr = _cast_value(arr, _dt.as_dtype(dtype), value)
    elif arr.dtype == np.float32 and t is not np.ndarray and not isinstance(value, np.generic) \
            and np.isinf(arr).any() and not is_tensor(value):
        _refuse_float32_overflow(value)
    return arr


def _refuse_float32_overflow(value):
    """TF infers float32 for Python floats but refuses one float32 cannot hold (rather than
    make it inf); with an explicit dtype (or next to a float32 tensor) it becomes inf."""
    flat: list = []
    _flatten(value, flat)
    if any(isinstance(v, float) and math.isfinite(v) and abs(v) > _FLOAT32_MAX for v in flat):
        raise ValueError("Can't convert Python sequence with a value out of range for a "
                         "double-precision float. Give the dtype (tf.float64) to keep it.")


_FLOAT32_MAX = float(np.finfo(np.float32).max)
_WIDE = {np.dtype(np.float32): np.float64, np.dtype(np.complex64): np.complex128}


# -- the Const op ------------------------------------------------------------------
def _const_kernel(value, dtype):
    return value


def _const_shape(value, dtype):
    return TensorShape(value.shape), dtype


Const = define("Const", (), _const_kernel, _const_shape, None, T=())


# set by ops/numpy_behavior.py in the 'all'/'safe' dtype conversion modes: a constant made
# from Python values without a dtype is then weak
WEAK_CONSTANTS = None


def constant(value, dtype=None, shape=None, name="Const"):
    """Creates a constant tensor (op ``Const``) from a Python or numpy value."""
    if WEAK_CONSTANTS is not None:
        if dtype is not None and is_tensor(value) and shape is None:
            from . import math_ops  # the flexible modes cast a tensor given a dtype
            return math_ops.cast(value, dtype)
        if dtype is None:
            return WEAK_CONSTANTS(_constant(value, None, shape, name), value)
    return _constant(value, dtype, shape, name)


def _constant(value, dtype, shape, name):
    if dtype is not None:
        dtype = _dt.as_dtype(dtype)
    if isinstance(value, (list, tuple)) and holds_graph_tensor(value):
        raise TypeError("Expected any non-tensor type, but got a tensor instead. tf.constant "
                        "takes Python and numpy values; use tf.stack or "
                        "tf.convert_to_tensor for a list holding tensors.")
    arr = to_numpy(value, dtype)
    if isinstance(arr, np.generic):  # a numpy scalar (to_numpy of 0 as int32) as a 0-d array
        arr = np.asarray(arr)
    if shape is not None:
        shape = [int(d) for d in shape]
        size = int(np.prod(shape)) if shape else 1
        if arr.size == size:
            arr = arr.reshape(shape)
        elif arr.size == 1:
            arr = np.broadcast_to(arr.reshape(()), shape).copy()
        else:
            raise TypeError(f"Eager execution of tf.constant with unsupported shape. Tensor "
                            f"{value!r} (converted from {value!r}) has {arr.size} elements, but "
                            f"got `shape` {tuple(shape)} with {size} elements).")
    if dtype is None:
        dtype = _dt.NP_TO_DTYPE[arr.dtype]
    return bind(Const, (), {"value": arr, "dtype": dtype}, name)


def to_tensor(value, dtype=None, name=None, dtype_hint=None):
    """``tf.convert_to_tensor``: tensors pass through (dtype checked), values become Const."""
    if is_tensor(value):
        if dtype is not None and value.dtype is not _dt.as_dtype(dtype):
            raise ValueError(f"Tensor conversion requested dtype {_dt.as_dtype(dtype).name} for "
                             f"Tensor with dtype {value.dtype.name}: {value!r}")
        return value
    to_tensor_hook = getattr(value, "_as_tensor", None)
    if to_tensor_hook is not None:
        return to_tensor(to_tensor_hook(), dtype, name)
    if type(value).__name__ == "RaggedTensor":  # TF dispatches such ops to ragged versions
        raise NotImplementedError(
            "tfgraph_edu does not pass a tf.RaggedTensor to this op yet (TensorFlow runs its "
            "ragged version): use the ragged tensor's flat_values, or to_tensor() eagerly.")
    if isinstance(value, range):  # TF converts a range as the list of its numbers
        value = list(value)
    if isinstance(value, (list, tuple)):
        tensors = _tensors_in(value, [])
        if tensors:
            value, dtype = _autopack_dtypes(value, tensors, dtype)
            if any(not hasattr(t, "numpy") for t in tensors):
                # TF packs a list holding graph tensors (``tf.concat([x, [i]], 0)``): one
                # Pack node
                return _pack(value, dtype, name)
    if dtype is None and dtype_hint is not None:
        try:
            return constant(value, dtype_hint, name=name or "Const")
        except (TypeError, ValueError):
            pass
    return constant(value, dtype, name=name or "Const")


def _tensors_in(value, out: list) -> list:
    """The tensors of a nested list, depth first."""
    for v in value:
        if isinstance(v, (list, tuple)):
            _tensors_in(v, out)
        elif is_tensor(v):
            out.append(v)
    return out


def _autopack_dtypes(value, tensors, dtype):
    """TF's rule for a list holding tensors: its dtype is the first tensor's; asked for
    another dtype, the list's tensors are cast to it (``tf.concat((int32_vector,
    [int64_scalar]), 0)`` gives int32); otherwise every tensor must have that dtype (in a
    graph TypeError, eagerly Pack's InvalidArgumentError)."""
    inferred = tensors[0].dtype
    if dtype is not None and _dt.as_dtype(dtype) is not inferred:
        want = _dt.as_dtype(dtype)
        return _cast_nested(value, want), want
    for i, t in enumerate(tensors):
        if t.dtype is not inferred:
            if hasattr(t, "numpy"):
                from ..errors import InvalidArgumentError
                raise InvalidArgumentError(
                    None, None, f"cannot compute Pack as input #{i}(zero-based) "
                    f"was expected to be a {inferred.name} tensor but is a {t.dtype.name} "
                    "tensor [Op:Pack] name: packed")
            raise TypeError(f"Cannot convert a list containing a tensor of dtype <dtype: "
                            f"'{t.dtype.name}'> to <dtype: '{inferred.name}'> (Tensor is: "
                            f"{t!r}). Cast it first, e.g. tf.cast(x, tf.{inferred.name}).")
    return value, inferred


def _cast_nested(value, dtype):
    from .math_ops import cast
    out = [_cast_nested(v, dtype) if isinstance(v, (list, tuple))
           else cast(v, dtype) if is_tensor(v) and v.dtype is not dtype else v for v in value]
    return type(value)(out) if isinstance(value, tuple) else out


def _pack(value, dtype, name):
    from .concat_ops import stack
    return stack([_pack(v, dtype, None) if isinstance(v, (list, tuple)) and _tensors_in(v, [])
                  else to_tensor(v, dtype) for v in value], name=name)


def holds_graph_tensor(value) -> bool:
    """Whether a (nested) list holds a tensor of a graph being built (one with no value)."""
    for v in value:
        if isinstance(v, (list, tuple)):
            if holds_graph_tensor(v):
                return True
        elif is_tensor(v) and not hasattr(v, "numpy"):
            return True
    return False


def matching_tensors(x, y):
    """Convert two operands so a Python value adopts the other operand's dtype."""
    if is_tensor(x) or getattr(x, "_as_tensor", None) is not None:
        x = to_tensor(x)
        y = to_tensor(y, dtype=x.dtype) if not is_tensor(y) else y
    elif is_tensor(y) or getattr(y, "_as_tensor", None) is not None:
        y = to_tensor(y)
        x = to_tensor(x, dtype=y.dtype)
    else:
        x = to_tensor(x)
        y = to_tensor(y, dtype=x.dtype)
    if x.dtype is not y.dtype:
        raise TypeError(f"`x` and `y` must have the same dtype, got {x.dtype!r} != {y.dtype!r}.")
    return x, y


del interpreter


def target_dtypes(opdef, inputs) -> list:
    """For each input, the dtype a Python value there must take (None: its own default).

    Inputs in the op's ``T`` group adopt the dtype of the group's first tensor, as
    TensorFlow's ``args_to_matching_eager`` does; if the group holds no tensor,
    the first value's default dtype wins.  Other inputs use ``input_dtypes``.
    """
    n = len(inputs)
    group = range(n) if opdef.same_dtype else opdef.T
    out = [opdef.input_dtypes.get(i) for i in range(n)]
    if not group:
        return out
    common = None
    for i in group:
        x = inputs[i]
        if is_tensor(x):
            common = x.dtype
            break
        hook = getattr(x, "_as_tensor_dtype", None)
        if hook is not None:
            common = hook
            break
    if common is None:
        first = group[0]
        common = _dt.NP_TO_DTYPE.get(_infer(inputs[first]).dtype)
    for i in group:
        out[i] = common
    return out
