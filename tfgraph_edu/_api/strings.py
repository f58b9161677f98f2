"""``tf.strings``: string tensor ops (re-exports)."""

from ..ops.string_ops import (  # noqa: F401
    as_string,
    format,
    join,
    length,
    lower,
    split,
    to_number,
    upper,
)
