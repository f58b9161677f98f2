"""Complex numbers: ``tf.complex``, ``tf.math.real``/``imag``/``conj``/``angle`` and the
``ComplexAbs`` op behind ``tf.abs`` of a complex tensor (layer 1).  Arithmetic on complex
tensors (``+``, ``-``, ``*``, negation) uses the ordinary ops; gradients through complex
values are not implemented (the tape refuses them)."""

from __future__ import annotations

import numpy as np

from .. import dtypes as _dt
from ..shapes import TensorShape
from ._core import bind, define
from ._rules import binary, same

COMPLEX = frozenset(_dt.COMPLEX)
_REAL_OF = {_dt.complex64: _dt.float32, _dt.complex128: _dt.float64}
_COMPLEX_OF = {_dt.float32: _dt.complex64, _dt.float64: _dt.complex128}


def _to_real(x, **_):
    return x.shape, _REAL_OF[x.dtype]


def _complex_shape(real, imag, **_):
    shape, dtype = binary(real, imag)
    return TensorShape(shape), _COMPLEX_OF[dtype]


def _complex_kernel(real, imag):
    out = np.asarray(real) + 1j * np.asarray(imag)
    return out.astype(np.complex64 if np.asarray(real).dtype == np.float32 else np.complex128)


ComplexAbs = define("ComplexAbs", ("x",), np.abs, _to_real, None, T=(0,), dtypes=COMPLEX)
Real = define("Real", ("input",), np.real, _to_real, None, T=(0,), dtypes=COMPLEX)
Imag = define("Imag", ("input",), np.imag, _to_real, None, T=(0,), dtypes=COMPLEX)
Angle = define("Angle", ("input",), np.angle, _to_real, None, T=(0,), dtypes=COMPLEX)
Conj = define("Conj", ("input",), np.conj, same, None, T=(0,), dtypes=COMPLEX)
Complex = define("Complex", ("real", "imag"), _complex_kernel, _complex_shape, None, T=(0, 1),
                 dtypes=frozenset(_COMPLEX_OF))


def complex_(real, imag, name=None):
    """``tf.complex``: real + imag * 1j; float32 parts give complex64 (op ``Complex``)."""
    return bind(Complex, (real, imag), None, name)


def complex_abs(x, name=None):
    """|x| of a complex tensor, a float tensor (op ``ComplexAbs``)."""
    return bind(ComplexAbs, (x,), None, name)


def real(input, name=None):  # noqa: A002 - TF's argument name
    """The real parts (op ``Real``); a real tensor is returned as it is, as in TF."""
    if getattr(input, "dtype", None) not in COMPLEX:
        return input
    return bind(Real, (input,), None, name)


def imag(input, name=None):  # noqa: A002
    """The imaginary parts (op ``Imag``)."""
    return bind(Imag, (input,), None, name)


def angle(input, name=None):  # noqa: A002
    """The arguments of complex numbers, in radians (op ``Angle``)."""
    return bind(Angle, (input,), None, name)


def conj(x, name=None):
    """The complex conjugates (op ``Conj``); a real tensor is returned as it is, as in TF."""
    if getattr(x, "dtype", None) not in COMPLEX:
        return x
    return bind(Conj, (x,), None, name)
