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

_missing = _module_getattr("train", __name__)


def __getattr__(name):
    """``tf.train.Example`` and its parts are protobuf classes, built on first use."""
    from .example import NAMES, proto_class
    if name in NAMES:
        return proto_class(name)
    return _missing(name)
