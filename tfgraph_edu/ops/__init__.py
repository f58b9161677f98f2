"""Layer 1: every op defined once (kernel, shape rule, gradient); one module per family."""

import warnings

from . import (  # noqa: F401 - importing registers the ops
    _core,
    check_ops,
    concat_ops,
    control_flow_ops,
    convert,
    creation_ops,
    dataset_ops,
    debug_ops,
    function_ops,
    graph_ops,
    identity_ops,
    image_ops,
    indexing_ops,
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
    scatter_ops,
    script_ops,
    set_ops,
    shape_ops,
    sort_ops,
    sparse_ops,
    state_ops,
    stateless_random_ops,
    string_hash_ops,
    string_ops,
)
from ._core import REGISTRY, OpDef, bind  # noqa: F401
from .ragged_dispatch import install as _install_ragged_dispatch

# TF's ops take RaggedTensors (their ragged versions): wrapped here, before any namespace
# imports them (a lazy install would miss `tf.reduce_sum(tf.ragged.constant(...))`, whose
# function Python looks up before the ragged tensor exists)
_install_ragged_dispatch()

# TensorFlow computes float overflow to inf and 0/0 to nan without a word: numpy's warnings
# for those, raised inside tfgraph_edu's own modules, are not shown (the user's numpy keeps
# its warnings; a filter costs nothing until a warning is raised)
warnings.filterwarnings("ignore", category=RuntimeWarning, module=r"tfgraph_edu(\.|$)",
                        message=r"(overflow|invalid value|divide by zero|underflow) encountered")
