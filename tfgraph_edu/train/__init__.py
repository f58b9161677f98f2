"""``tf.train``: checkpoints of variables, as data (JSON index + npz of .npy arrays)."""

from .checkpoint import (  # noqa: F401
    Checkpoint,
    CheckpointManager,
    latest_checkpoint,
    list_variables,
    load_variable,
)
