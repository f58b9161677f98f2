"""Writing at indices: ScatterNd (``tf.scatter_nd``), TensorScatterUpdate / Add / Sub / Max /
Min (``tf.tensor_scatter_nd_*``), and GatherNd (``tf.gather_nd``, their gradient) (layer 1).

``indices`` has shape ``[..., d]``: each row of its last axis indexes the first ``d`` axes of
the output, and ``updates`` has shape ``indices.shape[:-1] + shape[d:]``.  Repeated indices add
up in ScatterNd and TensorScatterAdd/Sub; in TensorScatterUpdate the last one wins here (TF
leaves it unspecified)."""

from __future__ import annotations

import numpy as np

from .. import dtypes as _dt
from ..errors import InvalidArgumentError
from ..shapes import TensorShape
from . import convert, creation_ops, math_ops
from ._core import bind, define, shape_error
from ._rules import fmt, known_ints

I32 = _dt.int32


def _check_indices(indices, shape):
    """TF's error for an index row outside ``shape``; the rows as a tuple of index arrays."""
    indices = np.asarray(indices)
    d = indices.shape[-1]
    flat = indices.reshape(-1, d)
    bad = np.any((flat < 0) | (flat >= np.asarray(shape[:d])), axis=1)
    if np.any(bad):
        i = int(np.argmax(bad))
        row = ",".join(str(int(v)) for v in flat[i])
        raise InvalidArgumentError(None, None, f"indices[{i}] = [{row}] does not index into "
                                               f"shape {fmt(shape)}")
    return tuple(flat.T)


def _check_updates(indices, updates, shape, eager_text):
    lead = list(np.shape(indices)[:-1])
    d = np.shape(indices)[-1]
    want = lead + list(shape[d:])
    if list(np.shape(updates)) != want:
        raise InvalidArgumentError(None, None, eager_text(np.shape(indices), np.shape(updates)))


def _scatter(out, indices, updates, mode):
    rows = _check_indices(indices, out.shape)
    d = np.shape(indices)[-1]
    ups = np.asarray(updates).reshape((-1,) + out.shape[d:])
    if mode == "update":
        out[rows] = ups
    elif mode == "add":
        np.add.at(out, rows, ups)
    elif out.dtype.kind == "f" and (np.isnan(out).any() or np.isnan(ups).any()):
        # TF keeps the current value unless the update is strictly larger (smaller): a NaN
        # on either side loses to the value already there (numpy's maximum spreads NaN)
        for key, u in zip(zip(*rows), ups):
            cur = out[key]
            out[key] = np.where(cur < u if mode == "max" else u < cur, u, cur)
    elif mode == "max":
        np.maximum.at(out, rows, ups)
    elif mode == "min":
        np.minimum.at(out, rows, ups)
    else:
        np.subtract.at(out, rows, ups)
    return out


def _updates_rule(indices, updates, shape_dims):
    """Graph-time check that ``updates`` fits ``indices`` and the output shape."""
    ir, ur = indices.shape, updates.shape
    if ir.rank is None or ur.rank is None:
        return
    n = ir.rank - 1
    lead_i, lead_u = ir.dims[:n], ur.dims[:n]
    if ur.rank < n or any(a is not None and b is not None and a != b
                          for a, b in zip(lead_i, lead_u)):
        raise shape_error(f"Dimensions [0,{n}) of indices[shape={fmt(ir)}] = {fmt(lead_i)} "
                          f"must match dimensions [0,{n}) of updates[shape={fmt(ur)}] = "
                          f"{fmt(lead_u)}")


# -- ScatterNd ------------------------------------------------------------------------------------
def _scatter_nd_kernel(indices, updates, shape):
    shape = tuple(int(s) for s in np.ravel(shape))
    _check_updates(indices, updates, shape, lambda i, u: (
        f"Dimensions [0,{len(i) - 1}) of indices[shape={fmt(i)}] must match dimensions "
        f"[0,{len(i) - 1}) of updates[shape={fmt(u)}]"))
    return _scatter(np.zeros(shape, np.asarray(updates).dtype), indices, updates, "add")


def _scatter_nd_shape(indices, updates, shape):
    _updates_rule(indices, updates, None)
    s = known_ints(shape)
    if s is None:
        n = shape.shape.dims[0] if shape.shape.rank == 1 else None
        return TensorShape(None if n is None else [None] * n), updates.dtype
    return TensorShape(list(s)), updates.dtype


ScatterNd = define("ScatterNd", ("indices", "updates", "shape"), _scatter_nd_kernel,
                   _scatter_nd_shape, lambda op, g: (None, gather_nd(g, op.inputs[0]), None),
                   input_dtypes={0: I32, 2: I32})


def scatter_nd(indices, updates, shape, name=None):
    """``tf.scatter_nd``: zeros of ``shape`` with ``updates`` added at ``indices``."""
    return bind(ScatterNd, (indices, updates, shape), None, name)


# -- TensorScatterUpdate / Add / Sub --------------------------------------------------------------
def _tensor_scatter_kernel(mode):
    def kernel(tensor, indices, updates):
        tensor = np.asarray(tensor)
        _check_updates(indices, updates, tensor.shape, lambda i, u: (
            f"Outer dimensions of indices and update must match. Indices shape: {fmt(i)}, "
            f"updates shape:{fmt(u)}"))
        return _scatter(tensor.copy(), indices, updates, mode)
    return kernel


def _tensor_scatter_shape(tensor, indices, updates):
    _updates_rule(indices, updates, tensor.shape)
    return tensor.shape, tensor.dtype


def _tensor_scatter_update_grad(op, g):
    _, indices, updates = op.inputs
    cleared = bind(TensorScatterUpdate, (g, indices, creation_ops.zeros_like(updates)))
    return cleared, None, gather_nd(g, indices)


TensorScatterUpdate = define(
    "TensorScatterUpdate", ("tensor", "indices", "updates"), _tensor_scatter_kernel("update"),
    _tensor_scatter_shape, _tensor_scatter_update_grad, T=(0, 2), input_dtypes={1: I32})
TensorScatterAdd = define(
    "TensorScatterAdd", ("tensor", "indices", "updates"), _tensor_scatter_kernel("add"),
    _tensor_scatter_shape, lambda op, g: (g, None, gather_nd(g, op.inputs[1])),
    T=(0, 2), input_dtypes={1: I32})
TensorScatterSub = define(
    "TensorScatterSub", ("tensor", "indices", "updates"), _tensor_scatter_kernel("sub"),
    _tensor_scatter_shape,
    lambda op, g: (g, None, math_ops.negative(gather_nd(g, op.inputs[1]))),
    T=(0, 2), input_dtypes={1: I32})


def _tensor_scatter_extreme_grad(op, g):
    """The gradient goes to whichever of the tensor's value and the updates at a position
    became the output there, shared equally among ties (as in TensorFlow)."""
    tensor, indices, updates = op.inputs
    out = op.outputs[0]
    from . import shape_ops
    from_tensor = math_ops.cast(math_ops.equal(tensor, out), g.dtype)
    from_updates = math_ops.cast(math_ops.equal(updates, gather_nd(out, indices)), g.dtype)
    winners = math_ops.add(from_tensor, bind(ScatterNd, (indices, from_updates,
                                                         shape_ops.shape(tensor))))
    share = math_ops.divide(g, winners)  # every position has at least one winner
    return (math_ops.multiply(share, from_tensor), None,
            math_ops.multiply(gather_nd(share, indices), from_updates))


TensorScatterMax = define(
    "TensorScatterMax", ("tensor", "indices", "updates"), _tensor_scatter_kernel("max"),
    _tensor_scatter_shape, _tensor_scatter_extreme_grad, T=(0, 2), input_dtypes={1: I32},
    dtypes=_dt.NUMERIC)
TensorScatterMin = define(
    "TensorScatterMin", ("tensor", "indices", "updates"), _tensor_scatter_kernel("min"),
    _tensor_scatter_shape, _tensor_scatter_extreme_grad, T=(0, 2), input_dtypes={1: I32},
    dtypes=_dt.NUMERIC)


def _tensor_scatter(op, tensor, indices, updates, name):
    tensor = convert.to_tensor(tensor)
    return bind(op, (tensor, indices, updates), None, name)


def tensor_scatter_nd_update(tensor, indices, updates, name=None):
    """``tf.tensor_scatter_nd_update``: a copy of ``tensor`` with ``updates`` at ``indices``."""
    return _tensor_scatter(TensorScatterUpdate, tensor, indices, updates, name)


def tensor_scatter_nd_add(tensor, indices, updates, name=None):
    """``tf.tensor_scatter_nd_add``: a copy of ``tensor`` with ``updates`` added at ``indices``."""
    return _tensor_scatter(TensorScatterAdd, tensor, indices, updates, name)


def tensor_scatter_nd_sub(tensor, indices, updates, name=None):
    """``tf.tensor_scatter_nd_sub``: a copy of ``tensor`` with ``updates`` subtracted."""
    return _tensor_scatter(TensorScatterSub, tensor, indices, updates, name)


# -- GatherNd -------------------------------------------------------------------------------------
def _gather_nd_kernel(params, indices):
    params = np.asarray(params)
    rows = _check_indices(indices, params.shape)
    lead = np.shape(indices)[:-1]
    return params[rows].reshape(lead + params.shape[np.shape(indices)[-1]:])


def _gather_nd_shape(params, indices):
    ps, is_ = params.shape, indices.shape
    if ps.rank is None or is_.rank is None or is_.dims[-1] is None:
        return TensorShape(None), params.dtype
    d = is_.dims[-1]
    if d > ps.rank:
        raise shape_error(f"indices.shape[-1] must be <= params.rank, but saw indices shape: "
                          f"{fmt(is_)} and params shape: {fmt(ps)}")
    return TensorShape(is_.dims[:-1] + ps.dims[d:]), params.dtype


def _gather_nd_grad(op, g):
    params, indices = op.inputs
    from . import shape_ops
    return bind(ScatterNd, (indices, g, shape_ops.shape(params))), None


GatherNd = define("GatherNd", ("params", "indices"), _gather_nd_kernel, _gather_nd_shape,
                  _gather_nd_grad, input_dtypes={1: I32})


def tensor_scatter_nd_max(tensor, indices, updates, name=None):
    """``tf.tensor_scatter_nd_max``: a copy of ``tensor`` with the larger of it and
    ``updates`` at ``indices``."""
    return _tensor_scatter(TensorScatterMax, tensor, indices, updates, name)


def tensor_scatter_nd_min(tensor, indices, updates, name=None):
    """``tf.tensor_scatter_nd_min``: a copy of ``tensor`` with the smaller of it and
    ``updates`` at ``indices``."""
    return _tensor_scatter(TensorScatterMin, tensor, indices, updates, name)


def gather_nd(params, indices, batch_dims=0, name=None):
    """``tf.gather_nd``: the slices of ``params`` that the rows of ``indices`` name."""
    if batch_dims:
        raise NotImplementedError("tfgraph_edu implements tf.gather_nd with batch_dims=0 only.")
    return bind(GatherNd, (params, indices), None, name)
