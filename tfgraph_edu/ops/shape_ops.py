"""A tensor's shape and layout: Shape, Size, Rank, Reshape, ExpandDims, Squeeze, Transpose,
ReverseV2, Tile, BroadcastTo, BroadcastGradientArgs (layer 1).

Shapes, axes and permutations are *inputs* (int32 tensors), as in TensorFlow, so
inside a graph they show up as ``Const`` nodes such as ``Reshape/shape``.  Shape
rules read them with :func:`constant_value` and fall back to unknown dims when
they are computed at run time.
"""

from __future__ import annotations

import builtins

import numpy as np

from .. import dtypes as _dt
from ..errors import InvalidArgumentError
from ..shapes import TensorShape
from . import (
    concat_ops,
    convert,
    creation_ops,
    math_ops,
    reduction_ops,
)
from ._core import bind, const_input, constant_value, define, interpreter, shape_error
from ._rules import (
    attr_not_allowed,
    broadcast_shapes,
    fmt,
    ints,
    known_ints,
    partial_ints,
    same,
    vector_len,
)

I32 = _dt.int32
_INT_ARG = {1: I32}


# -- Shape, Size, Rank ----------------------------------------------------------------------------
def _shape_kernel(x, out_type=I32):
    return np.array(np.shape(x), dtype=out_type.np_dtype)


Shape = define("Shape", ("input",), _shape_kernel,
               lambda x, out_type=I32: (TensorShape([x.shape.rank]), out_type), None)
Size = define("Size", ("input",),
              lambda x, out_type=I32: out_type.np_dtype.type(np.size(x)),
              lambda x, out_type=I32: (TensorShape([]), out_type), None)
Rank = define("Rank", ("input",), lambda x: np.int32(np.ndim(x)),
              lambda x: (TensorShape([]), I32), None)


def shape(input, out_type=I32, name=None):  # noqa: A002
    """The shape of ``input`` as a 1-D int32 tensor (op ``Shape``)."""
    out_type = _dt.as_dtype(out_type)
    if out_type not in (I32, _dt.int64) and interpreter().executing_eagerly:
        # eagerly TF refuses another out_type (in a graph it folds the shape and gives it)
        raise attr_not_allowed("Shape", "out_type", out_type, (I32, _dt.int64))
    known = _static_shape(input)
    if known is not None and known.is_fully_defined():
        return convert.constant(np.array(known.as_list(), out_type.np_dtype), name=name or "Shape")
    return bind(Shape, (input,), {"out_type": _dt.as_dtype(out_type)}, name)


def _static_shape(x):
    """The static shape of a symbolic tensor while a graph is built (TF's ``shape``, ``size``
    and ``rank`` then give a ``Const`` when it is known, named as the op would be), else
    None."""
    if interpreter().executing_eagerly or not hasattr(x, "op") or not hasattr(x, "shape"):
        return None
    shape_ = x.shape
    return shape_ if isinstance(shape_, TensorShape) and x.dtype.name != "resource" else None


def size(input, out_type=I32, name=None):  # noqa: A002
    """The number of elements of ``input`` (op ``Size``)."""
    out_type = _dt.as_dtype(out_type)
    known = _static_shape(input)
    if known is not None and known.is_fully_defined():
        return convert.constant(np.array(known.num_elements(), out_type.np_dtype),
                                name=name or "Size")
    return bind(Size, (input,), {"out_type": out_type}, name)


def rank(input, name=None):  # noqa: A002
    """The number of dimensions of ``input`` (op ``Rank``)."""
    known = _static_shape(input)
    if known is not None and known.rank is not None:
        return convert.constant(np.int32(known.rank), name=name or "Rank")
    return bind(Rank, (input,), None, name)


# -- Reshape --------------------------------------------------------------------------------------
def _reshape_shape(tensor, shape):
    want = known_ints(shape)
    if want is None:
        part = partial_ints(shape)
        if part is None:
            return TensorShape(None), tensor.dtype
        total = tensor.shape.num_elements()
        open_dims = [i for i, d in enumerate(part) if d is None or d == -1]
        if total is not None and len(open_dims) == 1 and all(
                d is not None and d >= 0 for i, d in enumerate(part) if i != open_dims[0]):
            # one dim not known here: the element count fixes it, as TF's shape rule does
            known = int(np.prod([d for i, d in enumerate(part) if i != open_dims[0]]))
            if known and total % known == 0:
                part[open_dims[0]] = total // known
        return TensorShape([None if d is None or d < 0 else d for d in part]), tensor.dtype
    if builtins.sum(1 for d in want if d == -1) > 1:
        raise shape_error(f"Only one input size may be -1, not both {want.index(-1)} and "
                          f"{len(want) - 1 - want[::-1].index(-1)}")
    total = tensor.shape.num_elements()
    known = int(np.prod([d for d in want if d != -1])) if want else 1
    if -1 in want:
        if total is None:
            return TensorShape([None if d == -1 else d for d in want]), tensor.dtype
        if known == 0 or total % known:
            raise shape_error(f"Input to reshape is a tensor with {total} values, but the "
                              f"requested shape requires a multiple of {known}")
        return TensorShape([total // known if d == -1 else d for d in want]), tensor.dtype
    if total is not None and total != known:
        raise shape_error(f"Input to reshape is a tensor with {total} values, but the requested "
                          f"shape has {known}")
    return TensorShape(list(want)), tensor.dtype


def _reshape_kernel(x, s):
    return np.reshape(x, ints(s))


def _reshape_special(op):
    want = const_input(op, 1)
    if want is None:
        return None
    dims = ints(want)
    return (lambda x: np.reshape(x, dims)), (0,)


Reshape = define("Reshape", ("tensor", "shape"), _reshape_kernel, _reshape_shape,
                 lambda op, g: (reshape(g, shape(op.inputs[0])), None), input_dtypes=_INT_ARG,
                 specialize=_reshape_special)


def reshape(tensor, shape, name=None):  # noqa: A002
    """Gives ``tensor`` a new shape with the same elements (op ``Reshape``); one dim may be -1."""
    return bind(Reshape, (tensor, shape), None, name)


# -- Transpose, ExpandDims, Squeeze, ReverseV2 ----------------------------------------------------
def _transpose_shape(x, perm):
    p = known_ints(perm)
    r = x.shape.rank
    if p is None or r is None:
        return TensorShape(None if r is None else [None] * r), x.dtype
    if len(p) != r:
        raise shape_error(f"transpose expects a vector of size {r}. But input(1) is a vector of "
                          f"size {len(p)}")
    if sorted(p) != list(range(r)):
        raise shape_error(f"{list(p)} is not a valid permutation of {list(range(r))}")
    return TensorShape([x.shape.dims[i] for i in p]), x.dtype


def _transpose_grad(op, g):
    return transpose(g, invert_permutation(op.inputs[1])), None


Transpose = define("Transpose", ("x", "perm"), lambda x, p: np.transpose(x, ints(p)),
                   _transpose_shape, _transpose_grad, input_dtypes=_INT_ARG)
InvertPermutation = define("InvertPermutation", ("x",), lambda p: np.argsort(p).astype(p.dtype),
                           same, None, T=(0,), dtypes=frozenset({I32, _dt.int64}))


def invert_permutation(x, name=None):
    """The inverse of a permutation vector (op ``InvertPermutation``)."""
    return bind(InvertPermutation, (x,), None, name)


def transpose(a, perm=None, conjugate=False, name="transpose"):
    """Permutes the dimensions of ``a``; reverses them when ``perm`` is None (op ``Transpose``)."""
    if perm is None:
        a = convert.to_tensor(a)
        r = a.shape.rank
        if r is None:
            perm = math_ops.subtract(math_ops.subtract(rank(a), 1), creation_ops.range_(rank(a)))
        else:
            perm = list(range(r - 1, -1, -1))
    return bind(Transpose, (a, perm), None, name)


def _expand_dims_shape(x, axis):
    a = known_ints(axis)
    r = x.shape.rank
    if r is None or a is None:
        return TensorShape(None if r is None else [None] * (r + 1)), x.dtype
    ax = a[0]
    if not -r - 1 <= ax <= r:
        raise shape_error(f"Tried to expand dim index {ax} for tensor with {r} dimensions.")
    dims = list(x.shape.dims)
    dims.insert(ax % (r + 1), 1)
    return TensorShape(dims), x.dtype


ExpandDims = define("ExpandDims", ("input", "dim"),
                    lambda x, a: np.expand_dims(x, ints(a)[0]), _expand_dims_shape,
                    lambda op, g: (reshape(g, shape(op.inputs[0])), None), input_dtypes=_INT_ARG)


def expand_dims(input, axis, name=None):  # noqa: A002
    """Inserts a dimension of size 1 at ``axis`` (op ``ExpandDims``)."""
    return bind(ExpandDims, (input, axis), None, name)


def _squeeze_axes(dims, squeeze_dims):
    r = len(dims)
    if not squeeze_dims:
        return [i for i, d in enumerate(dims) if d == 1]
    out = []
    for a in squeeze_dims:
        if not -r <= a < r:
            raise shape_error(f"Tried to squeeze dim index {a} for tensor with {r} dimensions.")
        a %= r
        if dims[a] not in (1, None):
            raise shape_error(f"Can not squeeze dim[{a}], expected a dimension of 1, got "
                              f"{dims[a]}")
        out.append(a)
    return out


def _squeeze_shape(x, squeeze_dims=()):
    if x.shape.rank is None:
        return TensorShape(None), x.dtype
    dims = x.shape.dims
    if not squeeze_dims and None in dims:
        return TensorShape(None), x.dtype
    drop = _squeeze_axes(dims, squeeze_dims)
    return TensorShape([d for i, d in enumerate(dims) if i not in drop]), x.dtype


def _squeeze_kernel(x, squeeze_dims=()):
    return np.squeeze(x, axis=tuple(_squeeze_axes(list(np.shape(x)), squeeze_dims)))


Squeeze = define("Squeeze", ("input",), _squeeze_kernel, _squeeze_shape,
                 lambda op, g: (reshape(g, shape(op.inputs[0])),), T=(0,))


def squeeze(input, axis=None, name=None):  # noqa: A002
    """Removes dimensions of size 1 (all of them, or those in ``axis``) (op ``Squeeze``)."""
    if isinstance(axis, int):
        axis = [axis]
    return bind(Squeeze, (input,), {"squeeze_dims": tuple(axis or ())}, name)


ReverseV2 = define("ReverseV2", ("tensor", "axis"), lambda x, a: np.flip(x, ints(a)),
                   lambda x, a: (x.shape, x.dtype),
                   lambda op, g: (bind(ReverseV2, (g, op.inputs[1])), None),
                   input_dtypes=_INT_ARG)


def reverse(tensor, axis, name=None):
    """Reverses ``tensor`` along the dimensions in ``axis`` (op ``ReverseV2``)."""
    return bind(ReverseV2, (tensor, axis), None, name)


# -- Tile, BroadcastTo, BroadcastGradientArgs -----------------------------------------------------
def _tile_shape(x, multiples):
    m = known_ints(multiples)
    r = x.shape.rank
    if r is None or m is None:
        return TensorShape(None if r is None else [None] * r), x.dtype
    if len(m) != r:
        raise shape_error(f"Expected multiples argument to be a vector of length {r} but got "
                          f"length {len(m)}")
    return TensorShape([None if d is None else d * k for d, k in zip(x.shape.dims, m)]), x.dtype


def _tile_grad(op, g):
    x, multiples = op.inputs
    split_shape = reshape(transpose(concat_ops.stack([multiples, shape(x)])), [-1])
    r = x.shape.rank
    axes = list(range(0, 2 * r, 2))
    return reduction_ops.reduce_sum(reshape(g, split_shape), axis=axes), None


def _tile_kernel(x, m):
    if x.dtype == np.uint16 and x.ndim and any(k != 1 for k in ints(m)):
        # TF 2.21's CPU Tile has no uint16 case (rank >= 1, something to repeat)
        from ..errors import UnimplementedError
        raise UnimplementedError(None, None, "TileOp : The input data type is not supported, "
                                 f"DataType : uint16, Dimension : {x.ndim}")
    return np.tile(x, ints(m))


Tile = define("Tile", ("input", "multiples"), _tile_kernel, _tile_shape,
              _tile_grad, input_dtypes=_INT_ARG)


def tile(input, multiples, name=None):  # noqa: A002
    """Repeats ``input`` ``multiples[i]`` times along dimension i (op ``Tile``)."""
    return bind(Tile, (input, multiples), None, name)


def _broadcast_to_shape(x, shape_t):
    want = known_ints(shape_t)
    if want is None:
        n = vector_len(shape_t)
        return TensorShape(None if n is None else [None] * n), x.dtype
    out = broadcast_shapes(x.shape, TensorShape(list(want)))
    if out.rank is not None and list(out.dims) != list(want):
        raise shape_error(f"Unable to broadcast tensor of shape {fmt(x.shape)} to tensor of "
                          f"shape {fmt(list(want))}")
    return TensorShape(list(want)), x.dtype


def _broadcast_special(op):
    want = const_input(op, 1)
    if want is None:
        return None
    dims = ints(want)
    return (lambda x: np.broadcast_to(x, dims)), (0,)


BroadcastTo = define("BroadcastTo", ("input", "shape"),
                     lambda x, s: np.broadcast_to(x, ints(s)).copy(), _broadcast_to_shape,
                     lambda op, g: (math_ops.reduce_to(g, op.inputs[0]), None),
                     input_dtypes=_INT_ARG, specialize=_broadcast_special)


def broadcast_to(input, shape, name=None):  # noqa: A002
    """Broadcasts ``input`` to ``shape`` (op ``BroadcastTo``)."""
    return bind(BroadcastTo, (input, shape), None, name)


def _bga_kernel(s0, s1):
    a, b = list(ints(s0)), list(ints(s1))
    n = builtins.max(len(a), len(b))
    a, b = [1] * (n - len(a)) + a, [1] * (n - len(b)) + b
    r0, r1 = [], []
    for i, (x, y) in enumerate(zip(a, b)):
        if x == 1 and y == 1:
            r0.append(i)
            r1.append(i)
        elif x == 1:
            r0.append(i)
        elif y == 1:
            r1.append(i)
        elif x != y:
            raise InvalidArgumentError(None, None, f"Incompatible shapes: {fmt(a)} vs. {fmt(b)}")
    return np.array(r0, np.int32), np.array(r1, np.int32)


def _bga_shape(s0, s1):
    a, b = constant_value(s0), constant_value(s1)
    if a is None or b is None:
        return [(TensorShape([None]), s0.dtype)] * 2
    return [(TensorShape([len(r)]), s0.dtype) for r in _bga_kernel(a, b)]


BroadcastGradientArgs = define(
    "BroadcastGradientArgs", ("s0", "s1"), _bga_kernel, _bga_shape, None, T=(0, 1),
    dtypes=frozenset({I32, _dt.int64}), num_outputs=2)


def broadcast_gradient_args(s0, s1, name=None):
    """The axes to sum each operand's gradient over (op ``BroadcastGradientArgs``)."""
    return bind(BroadcastGradientArgs, (s0, s1), None, name)



# -- Roll, and tf.meshgrid (Reshape, Fill, Mul as TF builds it) -----------------------------------
def _roll_kernel(x, shift, axis):
    shift, axis = np.ravel(shift), np.ravel(axis)
    if shift.size != axis.size:
        raise InvalidArgumentError(None, None, "shift and axis must have the same size")
    rank = np.ndim(x)
    for a in axis:
        if not -rank <= int(a) < rank:
            raise InvalidArgumentError(None, None, f"axis {int(a)} is out of range")
    return np.roll(x, tuple(int(s) for s in shift), tuple(int(a) for a in axis))


def _roll_shape(x, shift, axis):
    n, m = vector_len(shift), vector_len(axis)
    if shift.shape.rank == 1 and axis.shape.rank == 1 and None not in (n, m) and n != m:
        raise shape_error(f"Dimension 0 in both shapes must be equal, but are {n} and {m}. "
                          f"Shapes are [{n}] and [{m}].")
    return x.shape, x.dtype


Roll = define("Roll", ("input", "shift", "axis"), _roll_kernel, _roll_shape,
              lambda op, g: (bind(Roll, (g, math_ops.negative(op.inputs[1]), op.inputs[2])),
                             None, None),
              input_dtypes={1: I32, 2: I32})


def roll(input, shift, axis, name=None):  # noqa: A002 - TensorFlow's argument name
    """``tf.roll``: elements shifted along ``axis`` by ``shift``, wrapping around (op ``Roll``)."""
    return bind(Roll, (input, shift, axis), None, name)


def meshgrid(*args, **kwargs):
    """``tf.meshgrid``: N-D coordinate grids from 1-D tensors; ``indexing="xy"`` (default)
    swaps the first two output axes, as numpy's meshgrid does."""
    indexing = kwargs.pop("indexing", "xy")
    kwargs.pop("name", None)
    if kwargs:
        raise TypeError(f"'{next(iter(kwargs))}' is an invalid keyword argument for this "
                        "function")
    if indexing not in ("xy", "ij"):
        raise ValueError("Argument `indexing` parameter must be either 'xy' or 'ij', got "
                         f"'{indexing}'")
    xs = [convert.to_tensor(a) for a in args]
    n = len(xs)
    outs = [reshape(x, [1] * i + [-1] + [1] * (n - i - 1)) for i, x in enumerate(xs)]
    sizes = [size(x) for x in xs]
    if indexing == "xy" and n > 1:
        outs[0] = reshape(xs[0], [1, -1] + [1] * (n - 2))
        outs[1] = reshape(xs[1], [-1, 1] + [1] * (n - 2))
        sizes[0], sizes[1] = sizes[1], sizes[0]
    ones = creation_ops.fill(concat_ops.stack(sizes), convert.to_tensor(1, xs[0].dtype))
    return [math_ops.multiply(o, ones) for o in outs]
