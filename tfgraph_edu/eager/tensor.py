"""EagerTensor: a numpy value with TensorFlow's face (layer 4)."""

from __future__ import annotations

import numpy as np

from .. import dtypes as _dt
from ..ops import numpy_behavior as _numpy_behavior
from ..ops.overloads import TensorOperators
from ..shapes import TensorShape

_NP_TO_DTYPE = _dt.NP_TO_DTYPE
DEVICE = "/job:localhost/replica:0/task:0/device:CPU:0"


class EagerTensor(TensorOperators):
    """A tensor with a concrete value.  ``_value`` is a numpy array or numpy scalar."""

    __slots__ = ("_value", "_keras_mask", "__weakref__")  # a Keras output's mask (Keras 3)

    def __init__(self, value):
        self._value = value

    def __setitem__(self, key, value):
        raise TypeError("'tensorflow.python.framework.ops.EagerTensor' object does not support "
                        "item assignment")

    # -- what it is --------------------------------------------------------------
    @property
    def dtype(self) -> _dt.DType:
        return _NP_TO_DTYPE[self._value.dtype]

    @property
    def shape(self) -> TensorShape:
        return TensorShape(self._value.shape)

    @property
    def ndim(self) -> int:
        return self._value.ndim

    @property
    def device(self) -> str:
        return DEVICE

    @property
    def name(self):
        raise AttributeError("Tensor.name is undefined when eager execution is enabled.")

    @property
    def graph(self):
        raise AttributeError("Tensor.graph is undefined when eager execution is enabled.")

    @property
    def op(self):
        raise AttributeError("Tensor.op is undefined when eager execution is enabled.")

    def numpy(self):
        """The value as numpy: an array, or a numpy scalar (bytes for strings) for rank 0."""
        v = self._value
        if isinstance(v, np.ndarray):
            return v[()] if v.ndim == 0 else v
        return v

    def _constant_value(self):
        return np.asarray(self._value)

    def __array__(self, dtype=None, copy=None):
        a = np.asarray(self._value)
        return a if dtype is None else a.astype(dtype)

    # -- Python conversions ----------------------------------------------------------
    def __bool__(self):
        return bool(self._value)

    def __int__(self):
        return int(self._value)

    def __float__(self):
        return float(self._value)

    def __index__(self):
        if self._value.dtype.kind not in "iu" or self._value.ndim:
            raise TypeError("Only integer scalar tensors can be used as an index.")
        return int(self._value)

    def __len__(self):
        if not self._value.ndim:
            raise TypeError("Scalar tensor has no `len()`")
        return len(self._value)

    def __iter__(self):
        if not self._value.ndim:
            raise TypeError("Cannot iterate over a scalar tensor.")
        from ..ops import concat_ops
        return iter(concat_ops.unstack(self, num=len(self._value)) if len(self._value) else ())

    def __format__(self, spec):
        """f-strings and ``format`` see the value, as in TensorFlow: ``f"{t}"`` is the numpy
        value's text, ``f"{t:.2f}"`` formats a scalar."""
        return format(self.numpy(), spec)

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):
        from ..ops.convert import constant
        return constant, (np.asarray(self._value),)

    # -- printing -------------------------------------------------------------------------
    def __str__(self):
        text = str(self.numpy()) if self._value.dtype.kind != "O" else _str_text(self._value)
        if "\n" in text:
            text = "\n" + text
        weak = ", weak=True" if _numpy_behavior.is_weak(self) else ""
        return f"tf.Tensor({text}, shape={self.shape}, dtype={self.dtype.name}{weak})"

    def __repr__(self):
        """TensorFlow 2.21's repr: a scalar shows as the Python value (``.item()``), so a
        float32 prints all the digits of its float64 value (``numpy=0.10000000149011612``);
        arrays and byte strings as numpy shows them."""
        v = self.numpy()
        if isinstance(v, np.ndarray) or isinstance(v, bytes):
            text = repr(v)
        else:
            text = repr(v.item())
        if "\n" in text:
            text = "\n" + text
        weak = ", weak=True" if _numpy_behavior.is_weak(self) else ""  # tnp's 'all' mode
        return f"<tf.Tensor: shape={self.shape}, dtype={self.dtype.name}, numpy={text}{weak}>"


def _str_text(value) -> str:
    return str(value[()]) if np.ndim(value) == 0 else str(value)
