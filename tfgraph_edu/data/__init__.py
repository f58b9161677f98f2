"""``tf.data``: Dataset pipelines, iterated eagerly or as a loop inside tf.function."""

from types import SimpleNamespace

from .dataset import AUTOTUNE, INFINITE, UNKNOWN, Dataset  # noqa: F401

INFINITE_CARDINALITY = INFINITE
UNKNOWN_CARDINALITY = UNKNOWN
experimental = SimpleNamespace(AUTOTUNE=AUTOTUNE, INFINITE_CARDINALITY=INFINITE,
                               UNKNOWN_CARDINALITY=UNKNOWN)
