"""``tf.random``: seeds and samplers (re-exports)."""

from ..ops.random_ops import normal, set_seed, truncated_normal, uniform  # noqa: F401
