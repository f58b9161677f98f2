"""``tf.strings``: string tensor ops (re-exports)."""

from ..ops.string_ops import (  # noqa: F401
    as_string,
    bytes_split,
    format,
    join,
    length,
    lower,
    split,
    to_number,
    unicode_decode,
    unicode_split,
    upper,
)
