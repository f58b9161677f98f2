"""Layer 1: every op defined once (kernel, shape rule, gradient); one module per family."""

from . import (  # noqa: F401 - importing registers the ops
    _core,
    array_ops,
    control_flow_ops,
    convert,
    dataset_ops,
    function_ops,
    graph_ops,
    image_ops,
    io_ops,
    linalg_ops,
    list_ops,
    math_extra_ops,
    math_ops,
    nn_ops,
    pad_ops,
    ragged_ops,
    random_ops,
    reduction_ops,
    script_ops,
    state_ops,
    string_ops,
)
from ._core import REGISTRY, OpDef, bind  # noqa: F401
