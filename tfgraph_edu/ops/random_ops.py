"""Random ops and TensorFlow's seed rules (layer 1).

``tf.random.set_seed`` fixes the global seed; each random op then gets its own
op seed from a counter, so a program gives the same sequence after every
``set_seed`` call, as in TensorFlow.  Random ops are stateful: each op (each
``(seed, seed2)`` pair) owns a numpy Generator, so running the same graph node
twice gives new numbers.  The numbers differ from TensorFlow's (different
generators); the rules are the same.
"""

from __future__ import annotations

import numpy as np

from .. import dtypes as _dt
from ..shapes import TensorShape
from . import math_ops
from ._core import bind, constant_value, define

I32 = _dt.int32
_DEFAULT_OP_SEED = 87654321


class _SeedState:
    """The global seed, the op-seed counter, and each seeded op's generator."""

    def __init__(self):
        self.global_seed: int | None = None
        self.counter = 0
        self.generators: dict[tuple[int, int], np.random.Generator] = {}
        self.unseeded = np.random.default_rng()


STATE = _SeedState()


def set_seed(seed):
    """Sets the global random seed and restarts the op-seed counter (``tf.random.set_seed``)."""
    STATE.global_seed = None if seed is None else int(seed)
    STATE.counter = 0
    STATE.generators.clear()


def get_seed(op_seed):
    """The ``(seed, seed2)`` pair an op gets, by TensorFlow's rules."""
    g = STATE.global_seed
    if g is None:
        if op_seed is None:
            return None, None
        return _DEFAULT_OP_SEED, int(op_seed)
    if op_seed is None:
        STATE.counter += 1
        return g, STATE.counter
    return g, int(op_seed)


def _generator(seed, seed2):
    if not seed and not seed2:
        return STATE.unseeded
    key = (int(seed), int(seed2))
    gen = STATE.generators.get(key)
    if gen is None:
        gen = STATE.generators[key] = np.random.default_rng(key)
    return gen


def _out_shape(shape_t, **attrs):
    v = constant_value(shape_t)
    dtype = attrs.get("dtype") or attrs.get("Tout")
    if v is None:
        n = shape_t.shape.dims[0] if shape_t.shape.rank == 1 else None
        return TensorShape(None if n is None else [None] * n), dtype
    return TensorShape([int(d) for d in np.ravel(v)]), dtype


def _dims(s):
    return tuple(int(d) for d in np.ravel(s))


def _normal(shape, dtype, seed=0, seed2=0):
    return _generator(seed, seed2).standard_normal(_dims(shape)).astype(dtype.np_dtype)


def _uniform(shape, dtype, seed=0, seed2=0):
    return _generator(seed, seed2).random(_dims(shape)).astype(dtype.np_dtype)


def _truncated(shape, dtype, seed=0, seed2=0):
    gen = _generator(seed, seed2)
    out = gen.standard_normal(_dims(shape))
    bad = np.abs(out) > 2
    while np.any(bad):
        out[bad] = gen.standard_normal(int(bad.sum()))
        bad = np.abs(out) > 2
    return out.astype(dtype.np_dtype)


def _uniform_int(shape, minval, maxval, seed=0, seed2=0):
    if not np.all(minval < maxval):
        from ..errors import InvalidArgumentError
        raise InvalidArgumentError(None, None, f"Need minval < maxval, got {minval} >= {maxval}")
    return _generator(seed, seed2).integers(minval, maxval, _dims(shape), dtype=minval.dtype)


_IN = {0: I32}
RandomStandardNormal = define("RandomStandardNormal", ("shape",), _normal, _out_shape, None,
                              stateful=True, state="random", input_dtypes=_IN)
RandomUniform = define("RandomUniform", ("shape",), _uniform, _out_shape, None, stateful=True,
                       state="random", input_dtypes=_IN)
TruncatedNormal = define("TruncatedNormal", ("shape",), _truncated, _out_shape, None,
                         stateful=True, state="random", input_dtypes=_IN)
RandomUniformInt = define(
    "RandomUniformInt", ("shape", "minval", "maxval"), _uniform_int,
    lambda s, lo, hi, seed=0, seed2=0: (_out_shape(s, dtype=lo.dtype)[0], lo.dtype), None,
    T=(1, 2), dtypes=frozenset({_dt.int32, _dt.int64}), stateful=True, state="random",
    input_dtypes=_IN)


def _seed_attrs(seed, dtype):
    s, s2 = get_seed(seed)
    return {"dtype": dtype, "seed": s or 0, "seed2": s2 or 0}


def _check_float(dtype, fn, mean):
    """``dtype`` if floating; else TF's TypeError (it fails converting the mean), explained."""
    dtype = _dt.as_dtype(dtype)
    if not dtype.is_floating:
        raise TypeError(f"Cannot convert {mean!r} to EagerTensor of dtype {dtype.name} "
                        f"({fn} draws floating-point numbers: give it a float dtype).")
    return dtype


_UNIFORM_DTYPES = (_dt.float16, _dt.float32, _dt.float64, _dt.int32, _dt.int64)
_UNIFORM_NAMES = "tf.float16, tf.bfloat16, tf.float32, tf.float64, tf.int32, tf.int64"  # TF's


def normal(shape, mean=0.0, stddev=1.0, dtype=_dt.float32, seed=None, name=None):
    """Samples from a normal distribution: ``RandomStandardNormal`` * stddev + mean."""
    dtype = _check_float(dtype, "tf.random.normal", mean)
    rnd = bind(RandomStandardNormal, (shape,), _seed_attrs(seed, dtype), name)
    return math_ops.add(math_ops.multiply(rnd, stddev), mean)


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=_dt.float32, seed=None, name=None):
    """Normal samples redrawn until within two standard deviations (op ``TruncatedNormal``)."""
    dtype = _check_float(dtype, "tf.random.truncated_normal", mean)
    rnd = bind(TruncatedNormal, (shape,), _seed_attrs(seed, dtype), name)
    return math_ops.add(math_ops.multiply(rnd, stddev), mean)


def _shuffle(value, seed=0, seed2=0):
    value = np.asarray(value)
    if value.ndim == 0:
        return value.copy()
    return value[_generator(seed, seed2).permutation(value.shape[0])]


# TF registers no gradient for RandomShuffle: tape.gradient gives None through it
RandomShuffle = define("RandomShuffle", ("value",), _shuffle,
                       lambda value, **attrs: (value.shape, value.dtype),
                       lambda op, grad: (None,), T=(0,), stateful=True, state="random")


def shuffle(value, seed=None, name=None):
    """A copy of ``value`` with its first dimension in a random order (``RandomShuffle``);
    the order differs from TF's (another generator), the seed rules are TF's."""
    from . import convert
    value = convert.to_tensor(value)
    s, s2 = get_seed(seed)
    return bind(RandomShuffle, (value,), {"seed": s or 0, "seed2": s2 or 0}, name)


def uniform(shape, minval=0, maxval=None, dtype=_dt.float32, seed=None, name=None):
    """Uniform samples in [minval, maxval): ``RandomUniform`` for floats, ``RandomUniformInt``
    for integers (where ``maxval`` is required)."""
    dtype = _dt.as_dtype(dtype)
    if dtype not in _UNIFORM_DTYPES:
        raise ValueError(f"Argument `dtype` got invalid value {dtype}. Accepted dtypes are "
                         f"({_UNIFORM_NAMES}).")
    if dtype.is_integer:
        if maxval is None:
            raise ValueError(f"Must specify maxval for integer dtype {dtype!r}")
        s, s2 = get_seed(seed)
        from . import convert
        lo, hi = convert.to_tensor(minval, dtype), convert.to_tensor(maxval, dtype)
        return bind(RandomUniformInt, (shape, lo, hi), {"seed": s or 0, "seed2": s2 or 0}, name)
    from . import convert
    lo = convert.to_tensor(minval, dtype)
    hi = convert.to_tensor(1 if maxval is None else maxval, dtype)
    rnd = bind(RandomUniform, (shape,), _seed_attrs(seed, dtype), name)
    return math_ops.add(math_ops.multiply(rnd, math_ops.subtract(hi, lo)), lo)
