"""tfgraph_edu: TensorFlow 2's graph machinery rebuilt on numpy, to be looked at.

Use it as ``import tfgraph_edu as tf``.  This module only re-exports: every
name below is defined in the layer that owns it (see ARCHITECTURE.md).
"""

from . import autograph, dtypes, errors, keras, nest, onnx, saved_model, viz  # noqa: F401
from ._api import config, debugging, distribute, linalg, math, nn, random  # noqa: F401
from .control_flow.cond_while import cond, while_loop  # noqa: F401
from .control_flow.map_fn import map_fn, vectorized_map  # noqa: F401
from .control_flow.tensor_array import TensorArray  # noqa: F401
from .dtypes import (  # noqa: F401
    DType,
    as_dtype,
    bool,
    float16,
    float32,
    float64,
    int8,
    int16,
    int32,
    int64,
    resource,
    string,
    uint8,
    uint16,
    uint32,
    uint64,
)
from .eager.context import init_scope, name_scope  # noqa: F401
from .eager.custom_gradient import custom_gradient  # noqa: F401
from .eager.dispatch import executing_eagerly  # noqa: F401
from .eager.tape import GradientTape, UnconnectedGradients  # noqa: F401
from .eager.tensor import EagerTensor  # noqa: F401
from .eager.variables import Variable  # noqa: F401
from .function import ConcreteFunction, Function, function  # noqa: F401
from .graph.graph import Graph, Operation  # noqa: F401
from .jupyter import load_ipython_extension  # noqa: F401 - `%load_ext tfgraph_edu`
from .keras.module import Module  # noqa: F401
from .ops.check_ops import (  # noqa: F401
    Assert,
    assert_equal,
    assert_greater,
    assert_less,
    assert_rank,
)
from .ops.concat_ops import concat, split, stack, unstack  # noqa: F401
from .ops.convert import TensorBase as Tensor  # noqa: F401
from .ops.convert import constant  # noqa: F401
from .ops.convert import is_tf_type as is_tensor  # noqa: F401
from .ops.convert import to_tensor as convert_to_tensor  # noqa: F401
from .ops.creation_ops import fill, one_hot, ones, ones_like, zeros, zeros_like  # noqa: F401
from .ops.creation_ops import range_ as range  # noqa: F401
from .ops.identity_ops import identity, stop_gradient  # noqa: F401
from .ops.indexing_ops import gather, strided_slice, where  # noqa: F401
from .ops.indexing_ops import slice_ as slice  # noqa: F401
from .ops.io_ops import print_ as print  # noqa: F401
from .ops.io_ops import timestamp  # noqa: F401
from .ops.linalg_ops import eye  # noqa: F401
from .ops.math_ops import (  # noqa: F401
    abs,
    add,
    add_n,
    cast,
    clip_by_value,
    cos,
    divide,
    equal,
    exp,
    greater,
    greater_equal,
    less,
    less_equal,
    log,
    logical_and,
    logical_not,
    logical_or,
    matmul,
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
from .ops.reduction_ops import (  # noqa: F401
    argmax,
    argmin,
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
from .ops.shape_ops import (  # noqa: F401
    broadcast_to,
    expand_dims,
    meshgrid,
    rank,
    reshape,
    reverse,
    roll,
    shape,
    size,
    squeeze,
    tile,
    transpose,
)
from .shapes import TensorShape, TensorSpec  # noqa: F401
from .tf_logging import get_logger  # noqa: F401

newaxis = None

# -- API the guides use (strings, devices, linalg, nn, py_function) --
from . import data, profiler, summary, train  # noqa: F401,E402

# -- versions, and honest errors for the rest of TensorFlow's API --
from ._api import (  # noqa: F401,E402
    bitwise,
    experimental,
    image,
    io,
    queue,
    ragged,
    sets,
    sparse,
    strings,
    types,
    version,
)
from ._missing import module_getattr as _module_getattr  # noqa: E402
from .dtypes import complex64, complex128  # noqa: F401,E402
from .eager.devices import device  # noqa: F401,E402
from .ops.broadcast_ops import (  # noqa: F401,E402
    broadcast_dynamic_shape,
    broadcast_static_shape,
)
from .ops.complex_ops import complex_ as complex  # noqa: F401,E402
from .ops.extension_type import type_spec_from_value  # noqa: F401,E402
from .ops.indexed_slices import IndexedSlices, IndexedSlicesSpec  # noqa: F401,E402
from .ops.linalg_ops import einsum, norm, tensordot  # noqa: F401,E402
from .ops.mask_ops import boolean_mask  # noqa: F401,E402
from .ops.math_extra_ops import (  # noqa: F401,E402
    clip_by_global_norm,
    clip_by_norm,
    floor,
    linspace,
    round,
)
from .ops.pad_ops import pad  # noqa: F401,E402
from .ops.ragged_ops import RaggedTensor, RaggedTensorSpec  # noqa: F401,E402
from .ops.scatter_ops import (  # noqa: F401,E402
    gather_nd,
    scatter_nd,
    tensor_scatter_nd_add,
    tensor_scatter_nd_max,
    tensor_scatter_nd_min,
    tensor_scatter_nd_sub,
    tensor_scatter_nd_update,
)
from .ops.script_ops import numpy_function, py_function  # noqa: F401,E402
from .ops.sort_ops import (  # noqa: F401,E402
    argsort,
    searchsorted,
    sort,
    unique,
    unique_with_counts,
)
from .ops.sparse_ops import SparseTensor, SparseTensorSpec  # noqa: F401,E402

# the TensorFlow version whose API this follows, so that notebooks' version checks pass;
# tfgraph_edu's own version is the package's (importlib.metadata.version("tfgraph_edu"))
__version__ = version.VERSION
__getattr__ = _module_getattr("", __name__)  # last: an unimplemented name says so
