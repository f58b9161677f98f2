"""``tf.keras.mixed_precision``: dtype policies and the loss-scale optimizer of Keras 3."""

from .dtype_policy import (  # noqa: F401
    DTypePolicy,
    Policy,
    global_policy,
    set_global_policy,
)
from .optimizers import LossScaleOptimizer  # noqa: F401

dtype_policy = global_policy  # Keras 3's other names for the two
set_dtype_policy = set_global_policy


def __getattr__(name):
    from .tf_api_names import missing
    raise missing("mixed_precision", name)
