"""DType objects with TensorFlow's names (layer 0).

``tf.float32`` and friends are singletons; ``as_dtype`` turns names, numpy
dtypes and Python types into them.
"""

from __future__ import annotations

import builtins

import numpy as np

__all__ = [
    "DType", "as_dtype", "float16", "float32", "float64", "half", "double",
    "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "bool", "string",
    "complex64", "complex128",
]


class DType:
    """A TensorFlow element type, backed by a numpy dtype."""

    __slots__ = ("name", "as_numpy_dtype", "_np", "_enum", "_enum_number", "is_floating",
                 "is_integer", "is_bool", "is_unsigned", "is_numeric", "is_complex")

    def __init__(self, name: str, np_dtype, enum: str, number: int):
        self.name = name
        self._np = np.dtype(np_dtype)
        self.as_numpy_dtype = np_dtype if name != "string" else object
        self._enum = enum  # the GraphDef text name, DT_FLOAT
        self._enum_number = number  # its number in TF's DataType enum
        kind = self._np.kind
        self.is_floating = kind == "f"
        self.is_integer = kind in "iu"
        self.is_unsigned = kind == "u"
        self.is_bool = kind == "b"
        self.is_numeric = kind in "fiu"
        self.is_complex = kind == "c"

    def __eq__(self, other):
        """As in TF: equal to itself and to what names it (``tf.float32 == "float32"``, a
        Keras 3 weight's ``dtype``, ``np.float32``)."""
        if self is other:
            return True
        if other is None or isinstance(other, DType):
            return False
        try:
            return as_dtype(other) is self
        except (TypeError, ValueError, KeyError):
            return False

    def __ne__(self, other):
        return not self.__eq__(other)

    __hash__ = object.__hash__

    @property
    def np_dtype(self) -> np.dtype:
        return self._np

    @property
    def as_datatype_enum(self) -> int:
        """The number of TF's ``DataType`` enum (``DT_FLOAT`` is 1, ``DT_UINT32`` 22), as TF."""
        return self._enum_number

    @property
    def enum_name(self) -> str:
        """The enum's name as GraphDef text prints it, e.g. ``DT_FLOAT``."""
        return self._enum

    @property
    def is_numpy_compatible(self) -> builtins.bool:
        return self is not resource and self is not variant

    @property
    def is_quantized(self) -> builtins.bool:
        return False

    @property
    def base_dtype(self) -> DType:
        return self

    @property
    def min(self):
        if self.is_floating:
            return float(np.finfo(self._np).min)
        if self.is_integer:
            return int(np.iinfo(self._np).min)
        raise TypeError(f"Cannot find minimum value of {self.name}.")

    @property
    def max(self):
        if self.is_floating:
            return float(np.finfo(self._np).max)
        if self.is_integer:
            return int(np.iinfo(self._np).max)
        raise TypeError(f"Cannot find maximum value of {self.name}.")

    @property
    def size(self) -> int:
        return self._np.itemsize

    def is_compatible_with(self, other) -> bool:
        return self is as_dtype(other)

    def __repr__(self) -> str:
        return f"tf.{self.name}"

    def __str__(self) -> str:
        return f"<dtype: '{self.name}'>"

    def __reduce__(self):
        return as_dtype, (self.name,)


float16 = DType("float16", np.float16, "DT_HALF", 19)
float32 = DType("float32", np.float32, "DT_FLOAT", 1)
float64 = DType("float64", np.float64, "DT_DOUBLE", 2)
int8 = DType("int8", np.int8, "DT_INT8", 6)
int16 = DType("int16", np.int16, "DT_INT16", 5)
int32 = DType("int32", np.int32, "DT_INT32", 3)
int64 = DType("int64", np.int64, "DT_INT64", 9)
uint8 = DType("uint8", np.uint8, "DT_UINT8", 4)
uint16 = DType("uint16", np.uint16, "DT_UINT16", 17)
uint32 = DType("uint32", np.uint32, "DT_UINT32", 22)
uint64 = DType("uint64", np.uint64, "DT_UINT64", 23)
bool = DType("bool", np.bool_, "DT_BOOL", 10)  # noqa: A001 - TF's public name
string = DType("string", np.object_, "DT_STRING", 7)
resource = DType("resource", np.object_, "DT_RESOURCE", 20)
variant = DType("variant", np.object_, "DT_VARIANT", 21)
complex64 = DType("complex64", np.complex64, "DT_COMPLEX64", 8)
complex128 = DType("complex128", np.complex128, "DT_COMPLEX128", 18)
half = float16
double = float64

ALL = (float16, float32, float64, int8, int16, int32, int64, uint8, uint16, uint32, uint64,
       bool, string, complex64, complex128)
COMPLEX = frozenset({complex64, complex128})
FLOATS = frozenset({float16, float32, float64})
INTS = frozenset({int8, int16, int32, int64, uint8, uint16, uint32, uint64})
UNSIGNED = frozenset({uint8, uint16, uint32, uint64})
NUMERIC = FLOATS | INTS
REAL_AND_BOOL = NUMERIC | {bool}

_BY_NAME = {d.name: d for d in ALL}
_BY_NAME.update({"half": float16, "double": float64, "float": float32,
                 "int": int32, "resource": resource, "variant": variant})
# numpy dtype -> DType; object arrays hold bytes, so they are strings.
NP_TO_DTYPE = {d.np_dtype: d for d in ALL if d is not string}
NP_TO_DTYPE[np.dtype(object)] = string
_BY_NUMBER = {d.as_datatype_enum: d for d in ALL + (resource, variant)}
_PY_TYPES = {float: float32, int: int32, builtins.bool: bool, str: string, bytes: string,
             complex: complex128}


def as_dtype(type_value) -> DType:
    """Convert ``type_value`` (DType, name, numpy dtype or Python type) to a DType."""
    if isinstance(type_value, DType):
        return type_value
    if type(type_value) is int:  # TF's DataType enum number (as_datatype_enum)
        found = _BY_NUMBER.get(type_value)
        if found is not None:
            return found
        raise TypeError(f"Cannot convert the argument `type_value`: {type_value!r} to a "
                        "TensorFlow DType.")
    if isinstance(type_value, str):
        found = _BY_NAME.get(type_value)
        if found is not None:
            return found
    elif isinstance(type_value, type) and type_value in _PY_TYPES:
        return _PY_TYPES[type_value]
    else:
        try:
            np_dt = np.dtype(type_value)
        except (TypeError, ValueError):
            np_dt = None
        if np_dt is not None:
            if np_dt.kind in "SU":
                return string
            found = NP_TO_DTYPE.get(np_dt)
            if found is not None:
                return found
    raise TypeError(
        f"Cannot convert the argument `type_value`: {type_value!r} to a TensorFlow DType."
    )

from ._missing import module_getattr as _module_getattr  # noqa: E402

__getattr__ = _module_getattr("dtypes", __name__)
