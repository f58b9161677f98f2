"""Counter-based random ops: the stateless samplers and ``tf.random.Generator``'s (layer 1).

A Philox generator is a key and a 128-bit counter; the same key and counter always give
the same numbers.  ``StatelessRandom*V2`` draw from a key and counter given as inputs;
``RngReadAndSkip`` reads a generator's state variable (``[counter_low, counter_high,
key]``) and moves its counter on by 256 per number drawn, as TensorFlow's does, so a
learner printing ``g.state`` sees TensorFlow's values.  The numbers themselves come from
numpy's Philox (4x64) at that key and counter: TensorFlow uses Philox 4x32, so the values
differ from TensorFlow's while every rule (same seed, same numbers; a new counter, new
numbers) is the same.  Keys and counters are int64 here (uint64 in TensorFlow).
"""

from __future__ import annotations

import numpy as np

from .. import dtypes as _dt
from ..errors import InvalidArgumentError
from ..shapes import TensorShape
from ._core import bind, constant_value, define

PHILOX, THREEFRY, AUTO_SELECT = 1, 2, 3
ALGORITHMS = {"philox": PHILOX, "threefry": THREEFRY, "auto_select": AUTO_SELECT}
_MASK = (1 << 64) - 1
_I64 = _dt.int64
_SHAPE_DTYPES = frozenset({_dt.int32, _dt.int64})


def _u64(x) -> int:
    return int(x) & _MASK


def _rng(key, counter, alg) -> np.random.Generator:
    if int(alg) not in (PHILOX, AUTO_SELECT):
        raise InvalidArgumentError(None, None, f"Unsupported algorithm id: {int(alg)} "
                                   "(tfgraph_edu implements Philox, id 1, and auto_select)")
    k = np.array([_u64(np.ravel(key)[0]), 0], dtype=np.uint64)
    c = np.ravel(counter)
    ctr = np.array([_u64(c[0]), _u64(c[1]) if c.size > 1 else 0, 0, 0], dtype=np.uint64)
    return np.random.Generator(np.random.Philox(key=k, counter=ctr))


def _dims(s):
    return tuple(int(d) for d in np.ravel(s))


def _out_shape(shape_t, *_, dtype=None, **__):
    v = constant_value(shape_t)
    if v is None:
        n = shape_t.shape.dims[0] if shape_t.shape.rank == 1 else None
        return TensorShape(None if n is None else [None] * n), dtype
    return TensorShape(_dims(v)), dtype


def _normal(shape, key, counter, alg, dtype):
    return _rng(key, counter, alg).standard_normal(_dims(shape)).astype(dtype.np_dtype)


def _uniform(shape, key, counter, alg, dtype):
    return _rng(key, counter, alg).random(_dims(shape)).astype(dtype.np_dtype)


def _truncated(shape, key, counter, alg, dtype):
    rng = _rng(key, counter, alg)
    out = rng.standard_normal(_dims(shape))
    bad = np.abs(out) > 2
    while np.any(bad):  # redrawn until within two standard deviations, as TF's
        out[bad] = rng.standard_normal(int(bad.sum()))
        bad = np.abs(out) > 2
    return out.astype(dtype.np_dtype)


def _uniform_int(shape, key, counter, alg, minval, maxval):
    if not np.all(minval < maxval):
        raise InvalidArgumentError(None, None, f"Need minval < maxval, got {minval} >= {maxval}")
    return _rng(key, counter, alg).integers(minval, maxval, _dims(shape), dtype=minval.dtype)


def _full_int(shape, key, counter, alg, dtype):
    info = np.iinfo(dtype.np_dtype)
    return _rng(key, counter, alg).integers(info.min, info.max, _dims(shape), dtype=dtype.np_dtype,
                                            endpoint=True)


_IN = {0: _dt.int32, 1: _I64, 2: _I64, 3: _dt.int32}
_FLOAT = dict(input_dtypes=_IN)
StatelessRandomNormalV2 = define("StatelessRandomNormalV2", ("shape", "key", "counter", "alg"),
                                 _normal, _out_shape, None, **_FLOAT)
StatelessRandomUniformV2 = define("StatelessRandomUniformV2", ("shape", "key", "counter", "alg"),
                                  _uniform, _out_shape, None, **_FLOAT)
StatelessTruncatedNormalV2 = define(
    "StatelessTruncatedNormalV2", ("shape", "key", "counter", "alg"), _truncated, _out_shape,
    None, **_FLOAT)
StatelessRandomUniformFullIntV2 = define(
    "StatelessRandomUniformFullIntV2", ("shape", "key", "counter", "alg"), _full_int, _out_shape,
    None, **_FLOAT)
StatelessRandomUniformIntV2 = define(
    "StatelessRandomUniformIntV2", ("shape", "key", "counter", "alg", "minval", "maxval"),
    _uniform_int, lambda s, k, c, a, lo, hi: (_out_shape(s)[0], lo.dtype), None, T=(4, 5),
    dtypes=frozenset({_dt.int32, _dt.int64}), input_dtypes=_IN)


def _key_counter(seed):
    if np.shape(seed) != (2,):
        raise InvalidArgumentError(None, None, f"seed must have shape [2], not "
                                   f"[{','.join(map(str, np.shape(seed)))}]")
    # a fixed scramble of the two seed halves into a key and a counter
    words = np.random.SeedSequence([_u64(s) for s in seed]).generate_state(2, np.uint64)
    return (np.array([words[0]], np.uint64).view(np.int64),
            np.array([0, words[1]], np.uint64).view(np.int64))


StatelessRandomGetKeyCounter = define(
    "StatelessRandomGetKeyCounter", ("seed",), _key_counter,
    lambda s: [(TensorShape([1]), _I64), (TensorShape([2]), _I64)], None, num_outputs=2,
    T=(0,), dtypes=frozenset({_dt.int32, _dt.int64}))


def _read_and_skip(h, alg, delta):
    old = h.value
    counter = _u64(old[0]) + (_u64(old[1]) << 64) + 256 * int(delta)
    new = old.copy()
    new[0] = np.array(counter & _MASK, np.uint64).view(np.int64)
    new[1] = np.array((counter >> 64) & _MASK, np.uint64).view(np.int64)
    h.value = new
    return old


RngReadAndSkip = define(
    "RngReadAndSkip", ("resource", "alg", "delta"), _read_and_skip,
    lambda h, a, d: (TensorShape([3]), _I64), None, stateful=True, state="variable",
    input_dtypes={1: _dt.int32, 2: _I64})


def read_and_skip(handle, alg, count):
    """The generator state before ``count`` numbers are drawn; the counter moves past them."""
    return bind(RngReadAndSkip, (handle, alg, count), {})


def key_counter(seed):
    """``(key, counter)`` of a stateless op's ``seed`` (op ``StatelessRandomGetKeyCounter``)."""
    return bind(StatelessRandomGetKeyCounter, (seed,), {})
