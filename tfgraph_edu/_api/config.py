"""``tf.config``: run_functions_eagerly and friends (re-exports)."""

from ..eager.context import functions_run_eagerly, run_functions_eagerly  # noqa: F401
