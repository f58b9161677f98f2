"""``tf.train``: checkpoints of variables, as data (JSON index + npz of .npy arrays)."""

from .._missing import module_getattr as _module_getattr
from .checkpoint import (  # noqa: F401
    Checkpoint,
    CheckpointManager,
    latest_checkpoint,
    list_variables,
    load_checkpoint,
    load_variable,
)

__getattr__ = _module_getattr("train", __name__)
