"""``tf.random.Generator`` and the stateless samplers (``tf.random.stateless_*``).

A Generator keeps its state in an int64 ``tf.Variable`` (``[counter_low, counter_high,
key]`` for Philox); each draw reads the state and moves the counter on (op
``RngReadAndSkip``), then draws from that key and counter with a stateless op, eagerly and in
graphs alike.  See ``ops/stateless_random_ops.py`` for why the numbers differ from
TensorFlow's while the rules and the printed states are the same.
"""

from __future__ import annotations

import numpy as np

from .. import dtypes as _dt
from ..eager.variables import Variable
from ..ops import convert, math_ops, random_ops, reduction_ops, shape_ops
from ..ops import stateless_random_ops as sr
from ..ops._core import bind, constant_value

__all__ = ["Generator", "get_global_generator", "set_global_generator", "create_rng_state",
           "stateless_normal", "stateless_uniform", "stateless_truncated_normal",
           "Algorithm"]


class Algorithm:
    """The RNG algorithms by TensorFlow's ids (``tf.random.Algorithm``)."""

    PHILOX = sr.PHILOX
    THREEFRY = sr.THREEFRY
    AUTO_SELECT = sr.AUTO_SELECT


def _alg(alg) -> int:
    if alg is None:
        return sr.PHILOX
    if isinstance(alg, str):
        if alg not in sr.ALGORITHMS:
            raise ValueError(f"Argument `alg` got unsupported value {alg}. Supported values are "
                             "philox for the Philox algorithm, threefry for the ThreeFry "
                             "algorithm, and auto_select for auto-selection.")
        alg = sr.ALGORITHMS[alg]
    alg = int(getattr(alg, "value", alg))
    if alg == sr.THREEFRY:
        raise NotImplementedError("tfgraph_edu's tf.random.Generator implements the Philox "
                                  "algorithm only (alg='philox' or 'auto_select'), not ThreeFry.")
    if alg not in (sr.PHILOX, sr.AUTO_SELECT):
        raise ValueError(f"Argument `alg` got unsupported value {alg}.")
    return alg


def create_rng_state(seed, alg):
    """A Philox state for ``seed``: its 64-bit words, low first, padded to ``[3]``."""
    _alg(alg)
    seed = int(seed)
    words = [(seed >> (64 * i)) & ((1 << 64) - 1) for i in range(3)]
    return convert.constant(np.array(words, np.uint64).view(np.int64))


def _count(shape):
    """How many numbers ``shape`` holds: an int when known while tracing, else a tensor."""
    t = convert.to_tensor(shape, _dt.int32)
    v = constant_value(t)
    if v is not None:
        return int(np.prod([int(d) for d in np.ravel(v)]))
    return reduction_ops.reduce_prod(math_ops.cast(t, _dt.int64))


class Generator:
    """A random-number generator with its state in a variable (``tf.random.Generator``)."""

    _checkpoint_node = True  # tf.train.Checkpoint saves its ``_state_var``, as TF does

    def __init__(self, copy_from=None, state=None, alg=None):
        if copy_from is not None:
            state, alg = copy_from.state._read(), copy_from.algorithm
        if state is None:
            raise ValueError("A Generator needs `copy_from` or `state`; use "
                             "tf.random.Generator.from_seed(seed) to make one from a seed.")
        self._alg = _alg(alg)
        value = convert.to_tensor(state, _dt.int64)
        if value.shape.as_list() != [3]:
            raise ValueError(f"The shape of `state` must be [3] for the Philox algorithm, got "
                             f"{value.shape}.")
        self._state_var = Variable(value, dtype=_dt.int64, trainable=False, name="StateVar")

    @classmethod
    def from_seed(cls, seed, alg=None):
        """A generator whose state comes from an integer ``seed``."""
        return cls(state=create_rng_state(seed, _alg(alg)), alg=alg)

    @classmethod
    def from_state(cls, state, alg):
        return cls(state=state, alg=alg)

    @classmethod
    def from_key_counter(cls, key, counter, alg):
        counter = [int(c) for c in np.ravel(counter)]
        return cls(state=np.array([*counter, int(key)], np.int64), alg=alg)

    @classmethod
    def from_non_deterministic_state(cls, alg=None):
        state = np.random.SeedSequence().generate_state(3, np.uint64).view(np.int64)
        return cls(state=state, alg=alg)

    @property
    def state(self):
        """The state variable (int64 ``[counter_low, counter_high, key]``)."""
        return self._state_var

    @property
    def algorithm(self) -> int:
        return self._alg

    @property
    def key(self):
        return self._state_var._read()[2]

    def reset(self, state):
        self._state_var.assign(convert.to_tensor(state, _dt.int64))

    def reset_from_seed(self, seed):
        self.reset(create_rng_state(seed, self._alg))

    def reset_from_key_counter(self, key, counter):
        counter = [int(c) for c in np.ravel(counter)]
        self.reset(np.array([*counter, int(key)], np.int64))

    def skip(self, delta):
        """Moves the counter on as ``delta`` draws would."""
        sr.read_and_skip(self._state_var._handle_for("RngReadAndSkip"), self._alg, delta)

    def _key_counter(self, count):
        state = sr.read_and_skip(self._state_var._handle_for("RngReadAndSkip"), self._alg, count)
        return (shape_ops.reshape(state[2], [1]), state[0:2])

    def _draw(self, op, shape, attrs):
        key, counter = self._key_counter(_count(shape))
        return bind(op, (shape, key, counter, self._alg), attrs)

    def normal(self, shape, mean=0.0, stddev=1.0, dtype=_dt.float32, name=None):
        dtype = random_ops._check_float(dtype, "Generator.normal", mean)
        rnd = self._draw(sr.StatelessRandomNormalV2, shape, {"dtype": dtype})
        return math_ops.add(math_ops.multiply(rnd, stddev), mean)

    def truncated_normal(self, shape, mean=0.0, stddev=1.0, dtype=_dt.float32, name=None):
        dtype = random_ops._check_float(dtype, "Generator.truncated_normal", mean)
        rnd = self._draw(sr.StatelessTruncatedNormalV2, shape, {"dtype": dtype})
        return math_ops.add(math_ops.multiply(rnd, stddev), mean)

    def uniform(self, shape, minval=0, maxval=None, dtype=_dt.float32, name=None):
        dtype = _dt.as_dtype(dtype)
        if dtype.is_integer:
            if maxval is None:
                raise ValueError(f"Must specify maxval for integer dtype {dtype!r}")
            key, counter = self._key_counter(_count(shape))
            lo, hi = convert.to_tensor(minval, dtype), convert.to_tensor(maxval, dtype)
            return bind(sr.StatelessRandomUniformIntV2, (shape, key, counter, self._alg, lo, hi),
                        {})
        rnd = self._draw(sr.StatelessRandomUniformV2, shape, {"dtype": dtype})
        return _scaled(rnd, minval, maxval, dtype)

    def uniform_full_int(self, shape, dtype=None, name=None):
        if dtype is None:
            dtype = _dt.uint64  # TF's default
        return self._draw(sr.StatelessRandomUniformFullIntV2, shape,
                          {"dtype": _dt.as_dtype(dtype)})

    def make_seeds(self, count=1):
        """``count`` seeds for stateless ops: an int64 tensor of shape ``[2, count]``."""
        key, counter = self._key_counter(count)
        return bind(sr.StatelessRandomUniformFullIntV2, ([2, count], key, counter, self._alg),
                    {"dtype": _dt.int64})

    def split(self, count=1):
        """``count`` new generators, each keyed from this one (which moves on)."""
        keys = self.make_seeds(count)[0].numpy()
        return [Generator(state=np.array([0, 0, k], np.int64), alg=self._alg) for k in keys]

    def binomial(self, *args, **kwargs):
        raise NotImplementedError("tfgraph_edu does not implement tf.random.Generator.binomial "
                                  "yet.")


def _scaled(rnd, minval, maxval, dtype):
    """``rnd`` in [0, 1) moved to [minval, maxval)."""
    lo = convert.to_tensor(minval, dtype)
    hi = convert.to_tensor(1 if maxval is None else maxval, dtype)
    return math_ops.add(math_ops.multiply(rnd, math_ops.subtract(hi, lo)), lo)


_GLOBAL: list[Generator | None] = [None]


def get_global_generator() -> Generator:
    """The process's generator, made from a non-deterministic state on first use."""
    if _GLOBAL[0] is None:
        _GLOBAL[0] = Generator.from_non_deterministic_state()
    return _GLOBAL[0]


def set_global_generator(generator: Generator) -> None:
    _GLOBAL[0] = generator


def _stateless(op, shape, seed, attrs, extra=()):
    key, counter = sr.key_counter(convert.to_tensor(seed))
    return bind(op, (shape, key, counter, sr.PHILOX, *extra), attrs)


def stateless_normal(shape, seed, mean=0.0, stddev=1.0, dtype=_dt.float32, name=None, alg=None):
    """Normal samples that depend only on ``seed`` (shape ``[2]``) and ``shape``."""
    _alg(alg)
    dtype = random_ops._check_float(dtype, "tf.random.stateless_normal", mean)
    rnd = _stateless(sr.StatelessRandomNormalV2, shape, seed, {"dtype": dtype})
    return math_ops.add(math_ops.multiply(rnd, stddev), mean)


def stateless_truncated_normal(shape, seed, mean=0.0, stddev=1.0, dtype=_dt.float32, name=None,
                               alg=None):
    _alg(alg)
    dtype = random_ops._check_float(dtype, "tf.random.stateless_truncated_normal", mean)
    rnd = _stateless(sr.StatelessTruncatedNormalV2, shape, seed, {"dtype": dtype})
    return math_ops.add(math_ops.multiply(rnd, stddev), mean)


def stateless_uniform(shape, seed, minval=0, maxval=None, dtype=_dt.float32, name=None,
                      alg=None):
    _alg(alg)
    dtype = _dt.as_dtype(dtype)
    if dtype.is_integer:
        if maxval is None:
            raise ValueError(f"Must specify maxval for integer dtype {dtype!r}")
        lo, hi = convert.to_tensor(minval, dtype), convert.to_tensor(maxval, dtype)
        return _stateless(sr.StatelessRandomUniformIntV2, shape, seed, {}, (lo, hi))
    rnd = _stateless(sr.StatelessRandomUniformV2, shape, seed, {"dtype": dtype})
    return _scaled(rnd, minval, maxval, dtype)
