"""``tf.math``: elementwise math, comparisons, logic and reductions (re-exports)."""

from .._missing import module_getattr as _module_getattr
from ..ops.complex_ops import angle, conj, imag, real  # noqa: F401
from ..ops.indexing_ops import unsorted_segment_sum  # noqa: F401
from ..ops.linalg_ops import norm  # noqa: F401
from ..ops.math_extra_ops import (  # noqa: F401
    bincount,
    ceil,
    count_nonzero,
    divide_no_nan,
    floor,
    is_nan,
    log1p,
    reciprocal,
    round,
)
from ..ops.math_ops import (  # noqa: F401
    abs,
    add,
    add_n,
    cos,
    divide,
    equal,
    exp,
    floordiv,
    floormod,
    greater,
    greater_equal,
    less,
    less_equal,
    log,
    logical_and,
    logical_not,
    logical_or,
    logical_xor,
    maximum,
    minimum,
    multiply,
    negative,
    not_equal,
    pow,
    realdiv,
    sigmoid,
    sign,
    sin,
    sqrt,
    square,
    subtract,
    tanh,
    truediv,
)
from ..ops.math_ops import floormod as mod  # noqa: F401
from ..ops.nn_ops import elu, softplus  # noqa: F401
from ..ops.reduction_ops import (  # noqa: F401
    argmax,
    argmin,
    cumprod,
    cumsum,
    reduce_all,
    reduce_any,
    reduce_logsumexp,
    reduce_max,
    reduce_mean,
    reduce_min,
    reduce_prod,
    reduce_std,
    reduce_sum,
    reduce_variance,
)
from ..ops.segment_ops import (  # noqa: F401
    segment_max,
    segment_mean,
    segment_min,
    segment_sum,
    unsorted_segment_max,
    unsorted_segment_min,
)
from ..ops.sort_ops import top_k  # noqa: F401

__getattr__ = _module_getattr("math", __name__)
