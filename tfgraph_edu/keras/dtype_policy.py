"""Keras 3's dtype policies (``keras.mixed_precision``): the dtype a layer computes in and the
dtype of its weights (layer 10, models).

A policy named for a dtype (``"float32"``, ``"float64"``, ``"int32"``…) uses it for both; the mixed
policies compute in ``float16``/``bfloat16`` and keep ``float32`` weights.  The global
policy (``set_global_policy``) is what a layer made without ``dtype=`` takes.  While a
layer with a mixed policy runs its ``call``, its float weights are read cast to the compute
dtype (Keras 3's autocast scope, :func:`autocast`); the variables themselves stay float32.
"""

from __future__ import annotations

from contextlib import contextmanager, nullcontext
from contextvars import ContextVar

from .. import dtypes as _dt

_MIXED = {"mixed_float16": "float16", "mixed_bfloat16": "bfloat16"}
_AUTOCAST: ContextVar = ContextVar("tfgraph_edu_keras_autocast", default=None)


class DTypePolicy:
    """``keras.mixed_precision.DTypePolicy`` (also ``Policy``): a name, a compute dtype, a
    variable dtype, printed as ``<DTypePolicy "mixed_float16">``."""

    def __init__(self, name=None):
        if name is None:
            name = global_policy().name
        if isinstance(name, DTypePolicy):
            name = name.name
        if isinstance(name, _dt.DType):
            name = name.name
        if not isinstance(name, str):
            raise TypeError(f"'name' must be a string, such as 'mixed_float16'. Received: "
                            f"name={name} (of type {type(name)})")
        if name in ("mixed_bfloat16", "bfloat16"):
            raise NotImplementedError(f"tfgraph_edu has no bfloat16 dtype, so it does not "
                                      f"implement the DTypePolicy {name!r} (TF 2.21 has it); "
                                      "use 'mixed_float16'.")
        if name in _MIXED:
            compute, variable = _MIXED[name], "float32"
        else:
            try:
                dtype = _dt.as_dtype(name)
            except TypeError:
                dtype = None
            if dtype is None:
                raise ValueError(f"Cannot convert '{name}' to a mixed precision DTypePolicy. "
                                 "Valid policies include 'mixed_float16', 'mixed_bfloat16', "
                                 "and the name of any float dtype such as 'float32'.")
            compute = variable = dtype.name
        self._name, self._compute, self._variable = name, compute, variable

    name = property(lambda self: self._name)
    compute_dtype = property(lambda self: self._compute)
    variable_dtype = property(lambda self: self._variable)

    def get_config(self):
        return {"name": self._name}

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def __eq__(self, other):
        return isinstance(other, DTypePolicy) and other._name == self._name

    def __hash__(self):
        return hash(self._name)

    def __repr__(self):
        return f'<DTypePolicy "{self._name}">'

    __str__ = __repr__


Policy = DTypePolicy
_GLOBAL = [DTypePolicy("float32")]


def set_global_policy(policy):
    """The policy layers made from now on without ``dtype=`` take (a name or a policy)."""
    if policy is None:
        policy = "float32"
    if not isinstance(policy, DTypePolicy):
        if not isinstance(policy, str):
            raise ValueError(f"Invalid `policy` argument. Expected the string name of a policy "
                             f"(such as 'mixed_float16') or a `DTypePolicy` instance. Received: "
                             f"policy={policy} (of type {type(policy)})")
        policy = DTypePolicy(policy)
    _GLOBAL[0] = policy


def global_policy() -> DTypePolicy:
    """The global policy (``float32`` until ``set_global_policy``)."""
    return _GLOBAL[0]


def as_policy(dtype) -> DTypePolicy:
    """A layer's ``dtype=`` argument as a policy (None: the global policy)."""
    if dtype is None:
        return global_policy()
    if isinstance(dtype, DTypePolicy):
        return dtype
    return DTypePolicy(getattr(dtype, "name", dtype))


_NOTHING = nullcontext()


def autocast(policy: DTypePolicy):
    """While a layer with a mixed policy runs, its float weights read as the compute dtype
    (a layer with a plain policy inside one turns it off for its own call, as in Keras 3).
    Outside any mixed layer a plain policy changes nothing: no context is entered."""
    mixed = policy.compute_dtype != policy.variable_dtype
    if not mixed and _AUTOCAST.get() is None:
        return _NOTHING
    return _autocast_scope(_dt.as_dtype(policy.compute_dtype) if mixed else None)


@contextmanager
def _autocast_scope(dtype):
    token = _AUTOCAST.set(dtype)
    try:
        yield
    finally:
        _AUTOCAST.reset(token)


def autocast_dtype():
    """The dtype float weights are read as now (None: their own)."""
    return _AUTOCAST.get()
