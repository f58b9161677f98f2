"""``tf.keras.Variable``: a Keras 3 weight, and the name scopes that give it its path
(layer 10, models).

A Keras 3 weight is named as Keras 3 names it: ``name`` is its own name (``kernel``),
``path`` is where it was made (``sequential/dense/kernel``: the layers being called or built
when it was created), and it prints as ``<Variable path=…, shape=…, dtype=…, value=…>``.
It is one of our ``tf.Variable``s underneath (ops, tapes, tf.function captures and
checkpoints treat it as one); a Keras layer tracks only these, so a raw ``tf.Variable``
set on a layer is not one of its weights, as in TF 2.21.
"""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar

import numpy as np

from .. import dtypes as _dt
from ..eager.variables import ResourceVariable as _ResourceVariable
from ..eager.variables import Variable as _TFVariable
from ..ops.math_ops import cast as _cast
from .dtype_policy import autocast_dtype

# the Keras name scopes open now: ((name, id of the layer or optimizer that opened it), ...)
_SCOPES: ContextVar = ContextVar("tfgraph_edu_keras_scopes", default=())
_AUTO_NAMES: dict[str, int] = {}


def auto_name(base: str) -> str:
    """``base``, then ``base_1``, ``base_2``, … (Keras 3's names for unnamed objects)."""
    n = _AUTO_NAMES.get(base, 0)
    _AUTO_NAMES[base] = n + 1
    return base if n == 0 else f"{base}_{n}"


@contextmanager
def keras_scope(name: str, owner=None):
    """Weights made inside are under ``name/``; a layer re-entering its own scope (its call
    inside its ``__call__``) does not add its name twice, as in Keras 3."""
    scopes = _SCOPES.get()
    if owner is not None and scopes and scopes[-1][1] == id(owner):
        yield
        return
    token = _SCOPES.set(scopes + ((name, None if owner is None else id(owner)),))
    try:
        yield
    finally:
        _SCOPES.reset(token)


def path_for(name: str, owner=None) -> str:
    """The path of a weight ``name`` made now by ``owner`` (a layer or optimizer): the open
    scopes, then the owner's name if its own scope is not the innermost one."""
    scopes = _SCOPES.get()
    parts = [n for n, _ in scopes]
    if owner is not None and not (scopes and scopes[-1][1] == id(owner)):
        parts.append(owner.name)
    return "/".join(parts + [name])


class DTypeName(str):
    """A Keras 3 weight's ``dtype``: the name, as Keras 3 gives it (``'float32'``), that
    still answers as the tf.DType (``.is_floating``, ``.as_numpy_dtype``, ``== tf.float32``)."""

    __slots__ = ()

    def __getattr__(self, name):
        return getattr(_dt.as_dtype(str(self)), name)

    def __eq__(self, other):
        if isinstance(other, _dt.DType):
            return _dt.as_dtype(str(self)) is other
        return str.__eq__(self, other)

    def __ne__(self, other):
        return not self.__eq__(other)

    __hash__ = str.__hash__


class Variable(_TFVariable):
    """A Keras 3 weight (``tf.keras.Variable``)."""

    _in_name_scope = False  # its path is its whole name

    def __init__(self, initializer=None, shape=None, dtype=None, trainable=True,
                 name=None, *, path=None, **kwargs):
        if kwargs:
            raise TypeError(f"tf.keras.Variable got unexpected arguments: {sorted(kwargs)}")
        if name is None:  # Keras numbers unnamed variables: variable, variable_1, ...
            name = auto_name("variable")
        if callable(initializer) and shape is not None:
            initial = lambda: initializer(list(shape), dtype=dtype or "float32")  # noqa: E731
        else:
            initial = initializer
        path = path_for(name) if path is None else path
        super().__init__(initial, trainable=trainable, name=path, dtype=dtype)
        self._keras_name = name
        self._path = path

    @property
    def name(self) -> str:
        return self._keras_name

    @property
    def path(self) -> str:
        return self._path

    @property
    def value(self):
        """The tf.Variable underneath, as Keras 3 on TF gives it (``<tf.Variable
        'dense/kernel:0' …>``): the same state, printed and named as a tf.Variable (inside
        a mixed-precision layer's call, its value cast to the compute dtype, as Keras 3)."""
        if self._autocast_to() is not None:
            return self._as_tensor()
        view = object.__new__(_ResourceVariable)
        view.__dict__.update(self.__dict__)
        view._name = self._path + ":0"
        return view

    _autocast = True  # add_weight(autocast=False) turns it off

    def _autocast_to(self):
        """The compute dtype this float weight is read as now (inside a mixed-precision
        layer's call, Keras 3's autocast scope), else None."""
        target = autocast_dtype()
        if target is None or not self._autocast or not self._dtype.is_floating or (
                target is self._dtype):
            return None
        return target

    @property
    def dtype(self) -> DTypeName:
        target = self._autocast_to()
        return DTypeName((target or self._dtype).name)

    def _as_tensor(self):
        target = self._autocast_to()
        value = self._read()
        return value if target is None else _cast(value, target)

    @property
    def _as_tensor_dtype(self):
        return self._autocast_to() or self._dtype

    def __repr__(self):
        value = self.numpy()
        if getattr(value, "ndim", 0) == 0:  # a scalar shows as the Python number
            value = np.asarray(value).item()
        return (f"<Variable path={self._path}, shape={self.shape}, dtype={self._dtype.name}, "
                f"value={value}>")

    __str__ = __repr__
