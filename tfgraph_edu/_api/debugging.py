"""The ``tf.debugging`` namespace: the asserts, check numerics, traceback filtering (re-exports)."""

from .._missing import module_getattr as _module_getattr
from .._traceback import (  # noqa: F401
    disable_traceback_filtering,
    enable_traceback_filtering,
    is_traceback_filtering_enabled,
)
from ..eager.devices import set_log_device_placement  # noqa: F401
from ..ops.check_ops import (  # noqa: F401
    Assert,
    assert_all_finite,
    assert_equal,
    assert_greater,
    assert_greater_equal,
    assert_integer,
    assert_less,
    assert_less_equal,
    assert_near,
    assert_negative,
    assert_non_negative,
    assert_non_positive,
    assert_none_equal,
    assert_positive,
    assert_rank,
    assert_rank_at_least,
    assert_shapes,
    assert_type,
)
from ..ops.debug_ops import (  # noqa: F401
    check_numerics,
    disable_check_numerics,
    enable_check_numerics,
)

__getattr__ = _module_getattr("debugging", __name__)
