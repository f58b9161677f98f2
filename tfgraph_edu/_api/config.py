"""``tf.config``: run_functions_eagerly, and ``tf.config.optimizer`` (re-exports)."""

from types import SimpleNamespace

from ..eager.context import functions_run_eagerly, run_functions_eagerly  # noqa: F401
from ..optimize.options import get_experimental_options, set_experimental_options

optimizer = SimpleNamespace(set_experimental_options=set_experimental_options,
                            get_experimental_options=get_experimental_options)
