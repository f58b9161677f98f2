"""``tf.random``: seeds, samplers, ``Generator`` and the stateless samplers (re-exports)."""

from .._missing import module_getattr as _module_getattr
from ..ops.random_ops import (  # noqa: F401
    normal,
    set_seed,
    shuffle,
    truncated_normal,
    uniform,
)
from .random_generator import (  # noqa: F401
    Algorithm,
    Generator,
    create_rng_state,
    get_global_generator,
    set_global_generator,
    stateless_normal,
    stateless_truncated_normal,
    stateless_uniform,
)

__getattr__ = _module_getattr("random", __name__)
