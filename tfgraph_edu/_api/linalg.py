"""``tf.linalg``: matrix ops (re-exports)."""

from .._missing import module_getattr as _module_getattr
from ..ops.broadcast_ops import trace  # noqa: F401
from ..ops.linalg_ops import (  # noqa: F401  # noqa: F401
    det,
    einsum,
    eye,
    inv,
    matrix_transpose,
    norm,
    solve,
    svd,  # noqa: F401
    tensordot,
)
from ..ops.linalg_ops import matrix_diag as diag  # noqa: F401
from ..ops.linalg_ops import matrix_diag_part as diag_part  # noqa: F401
from ..ops.math_extra_ops import global_norm  # noqa: F401
from ..ops.math_ops import matmul  # noqa: F401

__getattr__ = _module_getattr("linalg", __name__)
