"""``tf.debugging`` (re-exports)."""

from ..eager.devices import set_log_device_placement  # noqa: F401
