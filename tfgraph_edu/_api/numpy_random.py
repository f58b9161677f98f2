"""``tf.experimental.numpy.random``: NumPy's samplers made of the engine's random ops
(float64 unless a dtype is given, as tnp's; the values are this engine's, not TF's)."""

from __future__ import annotations

import numpy as np

from .. import dtypes as _dt
from .._missing import module_getattr as _module_getattr
from ..ops import math_ops, numpy_behavior, random_ops


def _size(size):
    if numpy_behavior.STATE.flexible:
        raise NotImplementedError("tnp.random under dtype_conversion_mode="
                                  f"'{numpy_behavior.STATE.mode}' is not implemented in "
                                  "tfgraph_edu yet; use the default 'legacy' mode.")
    if size is None:
        return []
    if isinstance(size, int | np.integer):
        return [int(size)]
    return [int(d) for d in size]


def seed(s):
    """Seeds the samplers (``tf.random.set_seed``)."""
    random_ops.set_seed(s)


def standard_normal(size=None):
    return random_ops.normal(_size(size), dtype=_dt.float64)


def randn(*args):
    """Standard normal samples of shape ``args`` (``randn(2, 3)``)."""
    return standard_normal(args)


def uniform(low=0.0, high=1.0, size=None):
    return random_ops.uniform(_size(size), low, high, dtype=_dt.float64)


def random(size=None):
    return uniform(0.0, 1.0, size)


def rand(*size):
    return uniform(0.0, 1.0, size)


def randint(low, high=None, size=None, dtype=np.int64):
    """Integers in [low, high) (in [0, low) without high)."""
    if high is None:
        low, high = 0, low
    dtype = _dt.as_dtype(dtype)
    if dtype not in (_dt.int32, _dt.int64):
        out = random_ops.uniform(_size(size), low, high, dtype=_dt.int64)
        return math_ops.cast(out, dtype)
    return random_ops.uniform(_size(size), low, high, dtype=dtype)


def poisson(lam=1.0, size=None):
    raise NotImplementedError("tnp.random.poisson is not implemented in tfgraph_edu yet")


__getattr__ = _module_getattr("experimental.numpy.random", __name__)
