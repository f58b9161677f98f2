"""``tf.keras.initializers``: Keras 3's initializers, by class and by name (layer 10).

An initializer is called as ``init(shape, dtype=None)`` and gives the first value of a
weight.  The random ones draw from tfgraph_edu's own generator: the same distributions as
Keras 3 (same bounds and standard deviations), not the same numbers.
"""

from __future__ import annotations

import math

import numpy as np

from .. import dtypes as _dt
from ..ops import creation_ops, random_ops
from ..ops.convert import to_tensor


def _dtype(dtype):
    return _dt.as_dtype(getattr(dtype, "name", dtype) or _dt.float32)


def compute_fans(shape):
    """Keras's fans: a kernel's receptive field (all but its last two axes) counts too."""
    shape = list(shape)
    if len(shape) == 0:
        return 1, 1
    if len(shape) == 1:
        return shape[0], shape[0]
    receptive = math.prod(shape[:-2]) if len(shape) > 2 else 1
    return shape[-2] * receptive, shape[-1] * receptive


class Initializer:
    """The base: subclasses define ``__call__(shape, dtype=None)``."""

    def get_config(self):
        return {}

    def __repr__(self):
        return f"<{type(self).__name__}>"


class Zeros(Initializer):
    def __call__(self, shape, dtype=None):
        return creation_ops.zeros(list(shape), _dtype(dtype))


class Ones(Initializer):
    def __call__(self, shape, dtype=None):
        return creation_ops.ones(list(shape), _dtype(dtype))


class Constant(Initializer):
    def __init__(self, value=0.0):
        self.value = value

    def __call__(self, shape, dtype=None):
        return creation_ops.fill(list(shape), to_tensor(self.value, dtype=_dtype(dtype)))

    def get_config(self):
        return {"value": self.value}


class RandomNormal(Initializer):
    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        self.mean, self.stddev, self.seed = mean, stddev, seed

    def __call__(self, shape, dtype=None):
        return random_ops.normal(list(shape), self.mean, self.stddev, dtype=_dtype(dtype),
                                 seed=self.seed)

    def get_config(self):
        return {"mean": self.mean, "stddev": self.stddev, "seed": self.seed}


class TruncatedNormal(RandomNormal):
    def __call__(self, shape, dtype=None):
        return random_ops.truncated_normal(list(shape), self.mean, self.stddev,
                                           dtype=_dtype(dtype), seed=self.seed)


class RandomUniform(Initializer):
    def __init__(self, minval=-0.05, maxval=0.05, seed=None):
        self.minval, self.maxval, self.seed = minval, maxval, seed

    def __call__(self, shape, dtype=None):
        return random_ops.uniform(list(shape), self.minval, self.maxval, dtype=_dtype(dtype),
                                  seed=self.seed)

    def get_config(self):
        return {"minval": self.minval, "maxval": self.maxval, "seed": self.seed}


class VarianceScaling(Initializer):
    """``scale / fan`` as the variance, drawn from a truncated normal (its standard deviation
    corrected for the truncation at two), a normal, or a uniform distribution."""

    def __init__(self, scale=1.0, mode="fan_in", distribution="truncated_normal", seed=None):
        if scale <= 0.0:
            raise ValueError("Argument `scale` must be positive float. "
                             f"Received: scale={scale}")
        if mode not in ("fan_in", "fan_out", "fan_avg"):
            raise ValueError('Invalid `mode` argument: expected one of {"fan_in", "fan_out", '
                             f'"fan_avg"}}. Received: mode={mode}')
        distribution = distribution.lower()
        if distribution == "normal":
            distribution = "truncated_normal"
        if distribution not in ("uniform", "truncated_normal", "untruncated_normal"):
            raise ValueError('Invalid `distribution` argument: expected one of {"uniform", '
                             '"truncated_normal", "untruncated_normal"}. Received: '
                             f"distribution={distribution}")
        self.scale, self.mode, self.distribution, self.seed = scale, mode, distribution, seed

    def __call__(self, shape, dtype=None):
        fan_in, fan_out = compute_fans(shape)
        fan = {"fan_in": fan_in, "fan_out": fan_out,
               "fan_avg": (fan_in + fan_out) / 2.0}[self.mode]
        scale = self.scale / max(1.0, fan)
        dtype, shape = _dtype(dtype), list(shape)
        if self.distribution == "truncated_normal":
            stddev = math.sqrt(scale) / 0.87962566103423978
            return random_ops.truncated_normal(shape, 0.0, stddev, dtype=dtype, seed=self.seed)
        if self.distribution == "untruncated_normal":
            return random_ops.normal(shape, 0.0, math.sqrt(scale), dtype=dtype, seed=self.seed)
        limit = math.sqrt(3.0 * scale)
        return random_ops.uniform(shape, -limit, limit, dtype=dtype, seed=self.seed)

    def get_config(self):
        return {"scale": self.scale, "mode": self.mode, "distribution": self.distribution,
                "seed": self.seed}


def _scaling(name, scale, mode, distribution):
    def __init__(self, seed=None):
        VarianceScaling.__init__(self, scale, mode, distribution, seed)

    def get_config(self):
        return {"seed": self.seed}
    return type(name, (VarianceScaling,), {"__init__": __init__, "get_config": get_config,
                                           "__doc__": f"VarianceScaling({scale}, {mode!r}, "
                                                      f"{distribution!r})."})


GlorotUniform = _scaling("GlorotUniform", 1.0, "fan_avg", "uniform")
GlorotNormal = _scaling("GlorotNormal", 1.0, "fan_avg", "truncated_normal")
HeUniform = _scaling("HeUniform", 2.0, "fan_in", "uniform")
HeNormal = _scaling("HeNormal", 2.0, "fan_in", "truncated_normal")
LecunUniform = _scaling("LecunUniform", 1.0, "fan_in", "uniform")
LecunNormal = _scaling("LecunNormal", 1.0, "fan_in", "truncated_normal")


class Orthogonal(Initializer):
    """Keras 3's ``Orthogonal``: the Q of a normal matrix's QR decomposition, signs fixed by
    R's diagonal, as a (prod(shape[:-1]), shape[-1]) matrix reshaped to ``shape``."""

    def __init__(self, gain=1.0, seed=None):
        self.gain, self.seed = gain, seed

    def __call__(self, shape, dtype=None):
        shape, dtype = list(shape), _dtype(dtype)
        if len(shape) < 2:
            raise ValueError("The tensor to initialize must be at least two-dimensional. "
                             f"Received: shape={tuple(shape)} of rank {len(shape)}.")
        rows, cols = math.prod(shape[:-1]), shape[-1]
        a = random_ops.normal([max(rows, cols), min(rows, cols)], dtype=dtype,
                              seed=self.seed).numpy()
        q, r = np.linalg.qr(a)
        q = q * np.sign(np.diag(r))
        if rows < cols:
            q = q.T
        return to_tensor((self.gain * q).reshape(shape).astype(a.dtype))

    def get_config(self):
        return {"gain": self.gain, "seed": self.seed}


class Identity(Initializer):
    """``gain`` times the identity matrix (2-D shapes only)."""

    def __init__(self, gain=1.0):
        self.gain = gain

    def __call__(self, shape, dtype=None):
        if len(shape) != 2:
            raise ValueError("Identity matrix initializer can only be used for 2D matrices. "
                             f"Received: shape={tuple(shape)} of rank {len(shape)}.")
        return to_tensor((self.gain * np.eye(*shape)).astype(_dtype(dtype).as_numpy_dtype))

    def get_config(self):
        return {"gain": self.gain}


# snake_case names (and Keras 3's aliases) -> classes
_BY_NAME = {
    "zeros": Zeros, "zero": Zeros, "ones": Ones, "one": Ones, "constant": Constant,
    "random_normal": RandomNormal, "normal": RandomNormal, "random_uniform": RandomUniform,
    "uniform": RandomUniform, "truncated_normal": TruncatedNormal,
    "variance_scaling": VarianceScaling, "glorot_uniform": GlorotUniform,
    "glorot_normal": GlorotNormal, "he_uniform": HeUniform, "he_normal": HeNormal,
    "lecun_uniform": LecunUniform, "lecun_normal": LecunNormal, "orthogonal": Orthogonal,
    "identity": Identity,
}
_BY_NAME.update({cls.__name__: cls for cls in set(_BY_NAME.values())})

# the snake_case functions of the namespace (tf.keras.initializers.he_normal is the class)
zeros, ones, constant = Zeros, Ones, Constant
random_normal, random_uniform, truncated_normal = RandomNormal, RandomUniform, TruncatedNormal
variance_scaling, orthogonal, identity = VarianceScaling, Orthogonal, Identity
glorot_uniform, glorot_normal = GlorotUniform, GlorotNormal
he_uniform, he_normal, lecun_uniform, lecun_normal = HeUniform, HeNormal, LecunUniform, LecunNormal


def get(identifier):
    """An initializer from a name (``"he_normal"``), a config dict, or itself; None stays
    None."""
    if identifier is None or isinstance(identifier, Initializer):
        return identifier
    if isinstance(identifier, dict) and "class_name" in identifier:
        cls = _BY_NAME.get(identifier["class_name"])
        if cls is not None:
            return cls(**identifier.get("config", {}))
    if isinstance(identifier, str) and identifier in _BY_NAME:
        return _BY_NAME[identifier]()
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret initializer identifier: {identifier}")


def __getattr__(name):
    from .tf_api_names import missing
    raise missing("initializers", name)
