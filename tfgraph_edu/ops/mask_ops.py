"""``tf.boolean_mask`` (and ``tensor[bool_mask]``) made of ordinary ops, as TF makes it:
the masked dimensions flattened into one (``Reshape``), the kept positions
(``Where`` + ``Squeeze``) gathered (``GatherV2``); so it runs in graphs and has gradients
(layer 1)."""

from __future__ import annotations

import numpy as np

from .. import dtypes as _dt
from ..shapes import TensorShape
from . import concat_ops, convert, indexing_ops, reduction_ops, shape_ops


def boolean_mask(tensor, mask, axis=None, name="boolean_mask"):
    """The entries of ``tensor`` where ``mask`` is True; ``mask``'s dimensions match
    ``tensor``'s from ``axis`` (0 unless told) and become one dimension in the result."""
    tensor = convert.to_tensor(tensor)
    mask = convert.to_tensor(mask, _dt.bool)
    k = mask.shape.rank
    if k is None:
        raise ValueError("Number of mask dimensions must be specified, even if some "
                         "dimensions are None.  E.g. shape=[None] is ok, but shape=None is "
                         "not.")
    if k == 0:
        raise ValueError("mask cannot be scalar.")
    axis = 0 if axis is None else int(axis)
    rank = tensor.shape.rank
    if axis < 0 and rank is not None:
        axis += rank
    dims = tensor.shape.dims if rank is not None else None
    if dims is not None:
        TensorShape(dims[axis:axis + k]).assert_is_compatible_with(mask.shape)
    # the graph TF builds: a Shape per use, the flattened size packed into a vector
    n = reduction_ops.reduce_prod(shape_ops.shape(tensor)[axis:axis + k], axis=[0])
    head, tail = shape_ops.shape(tensor)[:axis], shape_ops.shape(tensor)[axis + k:]
    flat = shape_ops.reshape(tensor, concat_ops.concat([head, concat_ops.stack([n]), tail], 0))
    if dims is not None and hasattr(flat, "set_shape"):
        known = [d for d in dims[axis:axis + k]]
        leading = None if any(d is None for d in known) else int(np.prod(known))
        flat.set_shape(TensorShape(list(dims[:axis]) + [leading] + list(dims[axis + k:])))
    where = indexing_ops.where(shape_ops.reshape(mask, [-1]))
    return indexing_ops.gather(flat, shape_ops.squeeze(where, axis=[1]), axis=axis)


def is_mask(key) -> bool:
    """``tensor[key]`` is a boolean mask: a bool tensor or NumPy array (TF's rule)."""
    if isinstance(key, np.ndarray):
        return key.dtype == np.bool_
    return convert.is_tensor(key) and key.dtype == _dt.bool
