"""``tf.pad``: op ``Pad`` pads with zeros, ``PadV2`` with another value (TensorFlow picks
``Pad`` when ``constant_values`` is 0 and ``PadV2`` otherwise; so do we) (layer 1)."""

from __future__ import annotations

import numpy as np

from .. import dtypes as _dt
from ..errors import InvalidArgumentError
from ..shapes import TensorShape
from . import concat_ops, indexing_ops, shape_ops
from ._core import bind, constant_value, define, shape_error
from ._rules import fmt


# -- Pad (zeros) ----------------------------------------------------------------------------------
def _pad_shape(x, paddings):
    p = constant_value(paddings)
    r = x.shape.rank
    if r is None or p is None:
        return TensorShape(None if r is None else [None] * r), x.dtype
    p = np.asarray(p).reshape(-1, 2)
    if len(p) != r:
        raise shape_error(f"The first dimension of paddings must be the rank of inputs"
                          f"[{len(p)},2] {fmt(x.shape)}")
    return TensorShape([None if d is None else d + int(a) + int(b)
                        for d, (a, b) in zip(x.shape.dims, p)]), x.dtype


def _pad_grad(op, g):
    x, p = op.inputs
    begin = shape_ops.reshape(
        indexing_ops.slice_(p, [0, 0], concat_ops.stack([shape_ops.rank(x), 1])), [-1])
    return indexing_ops.slice_(g, begin, shape_ops.shape(x)), None


Pad = define("Pad", ("input", "paddings"),
             lambda x, p: np.pad(x, np.asarray(p).reshape(-1, 2).tolist()), _pad_shape,
             _pad_grad, input_dtypes={1: _dt.int32})


# -- PadV2 -----------------------------------------------------------------------------------------
def _kernel(x, paddings, constant_values):
    if np.ndim(constant_values) != 0:
        raise InvalidArgumentError(None, None, "constant_values must be a scalar. Shape of "
                                   f"constant_values was {list(np.shape(constant_values))}")
    return np.pad(x, np.asarray(paddings).reshape(-1, 2).tolist(),
                  constant_values=np.asarray(constant_values, dtype=x.dtype))


def _shape(x, paddings, constant_values):
    if constant_values.shape.rank not in (None, 0):
        raise shape_error(f"constant_values must be a scalar. Shape of constant_values was "
                          f"{fmt(constant_values.shape)}")
    return _pad_shape(x, paddings)


def _grad(op, g):
    """As ``Pad``'s: the slice of ``g`` the input occupies; none for the fill value."""
    x, p = op.inputs[0], op.inputs[1]
    begin = shape_ops.reshape(
        indexing_ops.slice_(p, [0, 0], concat_ops.stack([shape_ops.rank(x), 1])), [-1])
    return indexing_ops.slice_(g, begin, shape_ops.shape(x)), None, None


PadV2 = define("PadV2", ("input", "paddings", "constant_values"), _kernel, _shape, _grad,
               T=(0, 2), input_dtypes={1: _dt.int32})


def pad(tensor, paddings, mode="CONSTANT", constant_values=0, name=None):
    """``tensor`` padded by ``paddings`` (``[[before, after], ...]`` per dimension) with
    ``constant_values``: op ``Pad`` for 0, ``PadV2`` otherwise."""
    if str(mode).upper() != "CONSTANT":
        raise NotImplementedError("tfgraph_edu implements tf.pad with mode='CONSTANT' only "
                                  "(REFLECT and SYMMETRIC, op MirrorPad, are not here).")
    if not hasattr(constant_values, "dtype") and constant_values == 0:
        return bind(Pad, (tensor, paddings), None, name)
    return bind(PadV2, (tensor, paddings, constant_values), None, name)
