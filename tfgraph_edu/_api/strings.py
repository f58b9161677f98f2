"""``tf.strings``: string tensor ops (re-exports)."""

from .._missing import module_getattr as _module_getattr
from ..ops.string_hash_ops import substr, to_hash_bucket_fast  # noqa: F401
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

__getattr__ = _module_getattr("strings", __name__)
