"""``tf.linalg``: matrix ops (re-exports)."""

from ..ops.array_ops import eye, matrix_transpose  # noqa: F401
from ..ops.array_ops import matrix_diag as diag  # noqa: F401
from ..ops.array_ops import matrix_diag_part as diag_part  # noqa: F401
from ..ops.linalg_ops import det, einsum, inv, norm, solve, tensordot  # noqa: F401
from ..ops.math_ops import matmul  # noqa: F401
