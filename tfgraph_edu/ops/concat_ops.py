"""Joining tensors and splitting them: ConcatV2 (``tf.concat``), Pack (``tf.stack``),
Unpack (``tf.unstack``), SplitV (``tf.split``) (layer 1)."""

from __future__ import annotations

import builtins

import numpy as np

from .. import dtypes as _dt
from ..errors import InvalidArgumentError
from ..shapes import TensorShape
from . import (
    convert,
    creation_ops,
    identity_ops,
    shape_ops,
)
from ._core import bind, define, interpreter, shape_error
from ._rules import fmt, ints, known_ints

ALL = frozenset(_dt.ALL)
I32 = _dt.int32
_INT_ARG = {1: I32}


# -- ConcatV2, Pack, Unpack, SplitV ---------------------------------------------------------------
def _concat_shape(*values, axis=0):
    ranks = {v.shape.rank for v in values if v.shape.rank is not None}
    if not ranks:
        return TensorShape(None), values[0].dtype
    if len(ranks) > 1:
        r0 = values[0].shape.rank
        bad = next(i for i, v in enumerate(values) if v.shape.rank != r0)
        raise shape_error(f"Ranks of all input tensors should match: shape[0] = "
                          f"{fmt(values[0].shape)} vs. shape[{bad}] = {fmt(values[bad].shape)}")
    r = ranks.pop()
    if not -r <= axis < r:
        raise shape_error(f"ConcatOp : Expected concatenating dimensions in the range [{-r}, {r})"
                          f", but got {axis}")
    axis %= r
    dims = list(values[0].shape.dims)
    for i, v in enumerate(values[1:], 1):
        for k, d in enumerate(v.shape.dims):
            if k == axis:
                dims[k] = None if dims[k] is None or d is None else dims[k] + d
            elif dims[k] is not None and d is not None and d != dims[k]:
                raise shape_error(
                    f"ConcatOp : Dimension {k} in both shapes must be equal: shape[0] = "
                    f"{fmt(values[0].shape)} vs. shape[{i}] = {fmt(v.shape)}")
            elif dims[k] is None:
                dims[k] = d
    return TensorShape(dims), values[0].dtype


def _concat_grad(op, g):
    axis = op.get_attr("axis")
    sizes = [shape_ops.shape(x)[axis % builtins.max(x.shape.rank or 1, 1)]
             if x.shape.rank is not None else shape_ops.shape(x)[axis] for x in op.inputs]
    if all(x.shape.rank is not None and x.shape.dims[axis] is not None for x in op.inputs):
        sizes = [x.shape.dims[axis] for x in op.inputs]
    else:
        sizes = stack(sizes)
    return tuple(split(g, sizes, axis=axis))


ConcatV2 = define("ConcatV2", ("values*",), lambda *v, axis=0: np.concatenate(v, axis=axis),
                  _concat_shape, _concat_grad, dtypes=ALL)


def concat(values, axis, name="concat"):
    """Joins tensors along ``axis`` (op ``ConcatV2``; here ``axis`` is an attribute)."""
    values = list(values)
    if len(values) == 1:
        return identity_ops.identity(values[0], name=name)
    return bind(ConcatV2, tuple(values), {"axis": int(axis)}, name)


def _pack_shape(*values, axis=0, N=1):
    base = values[0].shape
    for i, v in enumerate(values[1:], 1):
        if not v.shape.is_compatible_with(base):
            raise shape_error(f"Shapes of all inputs must match: values[0].shape = {fmt(base)} "
                              f"!= values[{i}].shape = {fmt(v.shape)}")
        base = base.merge_with(v.shape)
    if base.rank is None:
        return TensorShape(None), values[0].dtype
    r = base.rank + 1
    if not -r <= axis < r:
        raise shape_error(f"axis = {axis} not in [{-r}, {r})")
    dims = list(base.dims)
    dims.insert(axis % r, len(values))
    return TensorShape(dims), values[0].dtype


Pack = define("Pack", ("values*",), lambda *v, axis=0, N=1: np.stack(v, axis=axis), _pack_shape,
              lambda op, g: tuple(unstack(g, num=op.get_attr("N"), axis=op.get_attr("axis"))),
              dtypes=ALL)


def stack(values, axis=0, name="stack"):
    """Stacks rank-R tensors into one rank-(R+1) tensor (op ``Pack``)."""
    values = list(values)
    return bind(Pack, tuple(values), {"axis": int(axis), "N": len(values)}, name)


def _unpack_shape(value, num=1, axis=0):
    s = value.shape
    if s.rank is None:
        return [(TensorShape(None), value.dtype)] * num
    if not -s.rank <= axis < s.rank:
        raise shape_error(f"axis = {axis} not in [{-s.rank}, {s.rank})")
    dims = list(s.dims)
    n = dims.pop(axis % s.rank)
    if n is not None and n != num:
        raise shape_error(f"Input shape axis {axis} must equal {num}, got shape {fmt(s)}")
    return [(TensorShape(dims), value.dtype)] * num


def _unpack_kernel(x, num=1, axis=0):
    parts = tuple(np.moveaxis(x, axis, 0))
    return parts[0] if num == 1 else parts


Unpack = define("Unpack", ("value",), _unpack_kernel, _unpack_shape,
                lambda op, *gs: (stack([g if g is not None
                                        else creation_ops.zeros_like(op.outputs[0])
                                        for g in gs], axis=op.get_attr("axis")),),
                T=(0,), num_outputs=lambda attrs: attrs["num"])


def unstack(value, num=None, axis=0, name="unstack"):
    """Splits ``value`` along ``axis`` into a list of tensors (op ``Unpack``)."""
    value = convert.to_tensor(value)
    s = value.shape
    if s.rank is not None and not -s.rank <= axis < s.rank:
        raise ValueError(f"Argument `axis` = {axis} not in range [{-s.rank}, {s.rank})")
    if num is None:
        if s.rank is None or s.dims[axis] is None:
            raise ValueError(f"Cannot infer argument `num` from shape {s}")
        num = s.dims[axis]
    return _as_list(bind(Unpack, (value,), {"num": int(num), "axis": int(axis)}, name), num)


def _as_list(result, n):
    """A multi-output op's outputs as a list, also when it has one output or none."""
    if isinstance(result, list):
        return result
    return [result] if n == 1 else []


def _splitv_shape(value, size_splits, axis=0, num_split=1):
    sizes = known_ints(size_splits)
    s = value.shape
    if s.rank is None:
        return [(TensorShape(None), value.dtype)] * num_split
    if s.rank == 0:
        raise shape_error("Shape must be at least rank 1 but is rank 0")
    if not -s.rank <= axis < s.rank:
        raise shape_error(f"Dimension size, given by scalar input {axis} must be in range "
                          f"[{-s.rank}, {s.rank})")
    ax = axis % s.rank
    total = s.dims[ax]
    if sizes is not None and -1 in sizes and total is not None:
        rest = builtins.sum(d for d in sizes if d != -1)
        sizes = tuple(total - rest if d == -1 else d for d in sizes)
    if sizes is not None and total is not None and builtins.sum(sizes) != total:
        raise shape_error(f"Determined shape must either match input shape along split_dim "
                          f"exactly if fully specified, or be less than the size of the input "
                          f"along split_dim if not fully specified.  Got: {builtins.sum(sizes)}")
    out = []
    for i in range(num_split):
        dims = list(s.dims)
        dims[ax] = None if sizes is None else sizes[i]
        out.append((TensorShape(dims), value.dtype))
    return out


def _splitv_kernel(x, sizes, axis=0, num_split=1):
    sizes = list(ints(sizes))
    if -1 in sizes:
        sizes[sizes.index(-1)] = x.shape[axis] - (builtins.sum(sizes) + 1)
    parts = tuple(np.split(x, np.cumsum(sizes)[:-1], axis=axis))
    return parts[0] if num_split == 1 else parts


def _split_grad(op, *gs):
    gs = [g if g is not None else creation_ops.zeros_like(o) for g, o in zip(gs, op.outputs)]
    return concat(gs, op.get_attr("axis")), None


SplitV = define("SplitV", ("value", "size_splits"), _splitv_kernel, _splitv_shape, _split_grad,
                num_outputs=lambda attrs: attrs["num_split"], input_dtypes=_INT_ARG)


def split(value, num_or_size_splits, axis=0, num=None, name="split"):
    """Splits ``value`` into equal parts or parts of given sizes along ``axis`` (``SplitV``)."""
    value = convert.to_tensor(value)
    rank = value.shape.rank
    if rank and not -rank <= int(axis) < rank:
        if interpreter().executing_eagerly:  # the Split kernel's words
            raise InvalidArgumentError(None, None, f"-input rank(-{rank}) <= split_dim < input "
                                       f"rank ({rank}), but got {int(axis)} [Op:Split] name: "
                                       f"{name}")
        n = int(num_or_size_splits) if isinstance(num_or_size_splits, (int, np.integer)) else (
            num if num is not None else len(num_or_size_splits))
        return _as_list(bind(SplitV, (value, [0] * n), {"axis": int(axis), "num_split": n},
                             name), n)  # the shape rule raises TF's error for the graph
    if isinstance(num_or_size_splits, (int, np.integer)) and value.shape.rank == 0:
        n = int(num_or_size_splits)
        sizes = [0] * n  # the shape rule raises TF's error for a scalar
    elif isinstance(num_or_size_splits, (int, np.integer)):
        n = int(num_or_size_splits)
        d = value.shape.dims[axis] if value.shape.rank is not None else None
        if d is None:
            raise ValueError("Cannot split a dimension of unknown size into equal parts here; "
                             "pass the sizes as a list instead.")
        if d % n:
            raise InvalidArgumentError(None, None, f"Number of ways to split should evenly divide "
                                       f"the split dimension, but got split_dim {axis} (size = "
                                       f"{d}) and num_split {n}")
        sizes = [d // n] * n
    else:
        sizes = num_or_size_splits
        n = num if num is not None else (len(sizes) if not convert.is_tensor(sizes)
                                         else sizes.shape.dims[0])
    return _as_list(bind(SplitV, (value, sizes), {"axis": int(axis), "num_split": int(n)},
                         name), n)

