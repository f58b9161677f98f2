"""``tf.sparse`` (re-exports)."""

from .._missing import module_getattr as _module_getattr
from ..ops.sparse_ops import (  # noqa: F401
    SparseTensor,
    add,
    concat,
    expand_dims,
    eye,
    fill_empty_rows,
    from_dense,
    map_values,
    maximum,
    minimum,
    reduce_max,
    reduce_sum,
    reorder,
    reset_shape,
    reshape,
    retain,
    softmax,
    sparse_dense_matmul,
    to_dense,
    transpose,
)
from ..ops.sparse_ops import slice_ as slice  # noqa: A004, F401

__getattr__ = _module_getattr("sparse", __name__)
