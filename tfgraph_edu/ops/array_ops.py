"""Shape and layout ops: reshape, transpose, concat, stack, slicing, gather, where … (layer 1).

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
from . import convert, math_ops, reduction_ops
from ._core import bind, const_input, constant_value, define, shape_error
from ._rules import broadcast_shapes, fmt, same

ALL = frozenset(_dt.ALL)
I32 = _dt.int32
_INT_ARG = {1: I32}


def _ints(arr) -> tuple[int, ...]:
    return tuple(int(d) for d in np.ravel(arr))


def _known_ints(t):
    """The value of an int tensor input if known at build time, else None."""
    v = constant_value(t)
    return None if v is None else _ints(v)


def _vector_len(t):
    s = t.shape
    return s.dims[0] if s.rank == 1 else None


# -- Identity, StopGradient, Shape, Size, Rank --------------------------------------------------
Identity = define("Identity", ("input",), lambda x: x, same, lambda op, g: (g,), T=(0,))
StopGradient = define("StopGradient", ("input",), lambda x: x, same, lambda op, g: (None,),
                      T=(0,))


# tf.custom_gradient: "_gradient_op_type" attr of an IdentityN op -> its gradient function
GRADIENT_OVERRIDES: dict = {}


def _identity_n_kernel(*xs, **_):
    return xs[0] if len(xs) == 1 else tuple(xs)


def _identity_n_grad(op, *grads):
    key = op.attrs.get("_gradient_op_type")
    if key is None:
        return grads
    fn = GRADIENT_OVERRIDES.get(key)
    if fn is None:
        raise LookupError(
            f"No gradient defined for operation '{getattr(op, 'name', 'IdentityN')}' (op type: "
            f"IdentityN): its tf.custom_gradient ({key}) is not available here (a loaded "
            "SavedModel keeps only the forward computation).")
    return fn(op, *grads)


IdentityN = define("IdentityN", ("input*",), _identity_n_kernel,
                   lambda *xs, **_: [(x.shape, x.dtype) for x in xs], _identity_n_grad,
                   mixed_types=True, num_outputs=lambda attrs: len(attrs["T"]),
                   doc="Each input passed through; tf.custom_gradient sets its gradient.")


def identity(input, name=None):  # noqa: A002 - TensorFlow's argument name
    """Returns a tensor with the same value (op ``Identity``)."""
    return bind(Identity, (input,), None, name)


def stop_gradient(input, name=None):  # noqa: A002
    """Identity whose gradient is None: the tape stops here (op ``StopGradient``)."""
    return bind(StopGradient, (input,), None, name)


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
    return bind(Shape, (input,), {"out_type": _dt.as_dtype(out_type)}, name)


def size(input, out_type=I32, name=None):  # noqa: A002
    """The number of elements of ``input`` (op ``Size``)."""
    return bind(Size, (input,), {"out_type": _dt.as_dtype(out_type)}, name)


def rank(input, name=None):  # noqa: A002
    """The number of dimensions of ``input`` (op ``Rank``)."""
    return bind(Rank, (input,), None, name)


# -- Reshape -
def _reshape_shape(tensor, shape):
    want = _known_ints(shape)
    if want is None:
        n = _vector_len(shape)
        return TensorShape(None if n is None else [None] * n), tensor.dtype
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
    return np.reshape(x, _ints(s))


def _reshape_special(op):
    want = const_input(op, 1)
    if want is None:
        return None
    dims = _ints(want)
    return (lambda x: np.reshape(x, dims)), (0,)


Reshape = define("Reshape", ("tensor", "shape"), _reshape_kernel, _reshape_shape,
                 lambda op, g: (reshape(g, shape(op.inputs[0])), None), input_dtypes=_INT_ARG,
                 specialize=_reshape_special)


def reshape(tensor, shape, name=None):  # noqa: A002
    """Gives ``tensor`` a new shape with the same elements (op ``Reshape``); one dim may be -1."""
    return bind(Reshape, (tensor, shape), None, name)


# -- Fill, zeros, ones -
def _fill_shape(dims, value):
    want = _known_ints(dims)
    if value.shape.rank not in (None, 0):
        raise shape_error(f"value must be a scalar, got shape {fmt(value.shape)}")
    if want is None:
        n = _vector_len(dims)
        return TensorShape(None if n is None else [None] * n), value.dtype
    return TensorShape(list(want)), value.dtype


Fill = define("Fill", ("dims", "value"),
              lambda d, v: np.full(_ints(d), v, dtype=np.asarray(v).dtype),
              _fill_shape, lambda op, g: (None, reduction_ops.reduce_sum(g)),
              input_dtypes={0: I32})
ZerosLike = define("ZerosLike", ("x",), np.zeros_like, same, lambda op, g: (None,), T=(0,))
OnesLike = define("OnesLike", ("x",), np.ones_like, same, lambda op, g: (None,), T=(0,))


def fill(dims, value, name=None):
    """A tensor of shape ``dims`` filled with the scalar ``value`` (op ``Fill``)."""
    return bind(Fill, (dims, value), None, name)


def _static_shape(shape_arg):
    if convert.is_tensor(shape_arg):
        v = constant_value(shape_arg)
        return None if v is None else _ints(v)
    if isinstance(shape_arg, TensorShape):
        return tuple(shape_arg.as_list())
    if isinstance(shape_arg, (int, np.integer)):
        return (int(shape_arg),)
    try:
        return tuple(int(d) for d in shape_arg)
    except TypeError:
        return None


def _filled(shape_arg, dtype, value, name):
    dtype = _dt.as_dtype(dtype)
    dims = _static_shape(shape_arg)
    if dims is not None and not any(convert.is_tensor(d) for d in np.ravel(
            np.asarray(shape_arg, dtype=object))) and not convert.is_tensor(shape_arg):
        return convert.constant(np.full(dims, value, dtype=dtype.np_dtype), dtype, name=name)
    value = convert.constant(value, dtype, name=f"{name}/Const" if name else "Const")
    return fill(pack_shape(shape_arg), value, name=name)


def pack_shape(shape_arg):
    """A shape given as a tensor or as a list that may contain scalar tensors."""
    if convert.is_tensor(shape_arg):
        return shape_arg
    if any(convert.is_tensor(d) for d in shape_arg):
        return stack([cast_int32(d) for d in shape_arg])
    return convert.constant(list(shape_arg), I32)


def cast_int32(d):
    return math_ops.cast(d, I32) if convert.is_tensor(d) else d


def zeros(shape, dtype=_dt.float32, name="zeros"):
    """A tensor of zeros: a ``Const`` for a static shape, ``Fill`` otherwise (as TF does)."""
    return _filled(shape, dtype, 0, name)


def ones(shape, dtype=_dt.float32, name="ones"):
    """A tensor of ones (``Const`` or ``Fill``)."""
    return _filled(shape, dtype, 1, name)


def zeros_like(input, dtype=None, name=None):  # noqa: A002
    """Zeros with the shape (and dtype) of ``input`` (op ``ZerosLike``)."""
    x = convert.to_tensor(input)
    if dtype is not None and _dt.as_dtype(dtype) is not x.dtype:
        return zeros(shape(x), dtype, name=name or "zeros_like")
    return bind(ZerosLike, (x,), None, name)


def ones_like(input, dtype=None, name=None):  # noqa: A002
    """Ones with the shape (and dtype) of ``input`` (op ``OnesLike``)."""
    x = convert.to_tensor(input)
    if dtype is not None and _dt.as_dtype(dtype) is not x.dtype:
        return ones(shape(x), dtype, name=name or "ones_like")
    return bind(OnesLike, (x,), None, name)


# -- Transpose, ExpandDims, Squeeze ----------------------------------------------------------------
def _transpose_shape(x, perm):
    p = _known_ints(perm)
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


Transpose = define("Transpose", ("x", "perm"), lambda x, p: np.transpose(x, _ints(p)),
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
            perm = math_ops.subtract(math_ops.subtract(rank(a), 1), range_(rank(a)))
        else:
            perm = list(range(r - 1, -1, -1))
    return bind(Transpose, (a, perm), None, name)


def matrix_transpose(a, name="matrix_transpose", conjugate=False):
    """Swaps the last two dimensions of ``a``."""
    a = convert.to_tensor(a)
    r = a.shape.rank
    if r is None or r < 2:
        raise ValueError(f"Argument `a` should be a (batch) matrix with rank >= 2.  Received "
                         f"`a` = {a!r} with shape: {a.shape}")
    perm = list(range(r - 2)) + [r - 1, r - 2]
    return transpose(a, perm, name=name)


def _expand_dims_shape(x, axis):
    a = _known_ints(axis)
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
                    lambda x, a: np.expand_dims(x, _ints(a)[0]), _expand_dims_shape,
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


# -- Concat, Pack, Unpack, Split ------------------------------------------------------------------
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
    sizes = [shape(x)[axis % builtins.max(x.shape.rank or 1, 1)] if x.shape.rank is not None
             else shape(x)[axis] for x in op.inputs]
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
        return identity(values[0], name=name)
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
                lambda op, *gs: (stack([g if g is not None else zeros_like(op.outputs[0])
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
    sizes = _known_ints(size_splits)
    s = value.shape
    if s.rank is None:
        return [(TensorShape(None), value.dtype)] * num_split
    if s.rank == 0:
        raise shape_error("Shape must be at least rank 1 but is rank 0")
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
    sizes = list(_ints(sizes))
    if -1 in sizes:
        sizes[sizes.index(-1)] = x.shape[axis] - (builtins.sum(sizes) + 1)
    parts = tuple(np.split(x, np.cumsum(sizes)[:-1], axis=axis))
    return parts[0] if num_split == 1 else parts


def _split_grad(op, *gs):
    gs = [g if g is not None else zeros_like(o) for g, o in zip(gs, op.outputs)]
    return concat(gs, op.get_attr("axis")), None


SplitV = define("SplitV", ("value", "size_splits"), _splitv_kernel, _splitv_shape, _split_grad,
                num_outputs=lambda attrs: attrs["num_split"], input_dtypes=_INT_ARG)


def split(value, num_or_size_splits, axis=0, num=None, name="split"):
    """Splits ``value`` into equal parts or parts of given sizes along ``axis`` (``SplitV``)."""
    value = convert.to_tensor(value)
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


# -- Tile, BroadcastTo, BroadcastGradientArgs -----------------------------------------------------
def _tile_shape(x, multiples):
    m = _known_ints(multiples)
    r = x.shape.rank
    if r is None or m is None:
        return TensorShape(None if r is None else [None] * r), x.dtype
    if len(m) != r:
        raise shape_error(f"Expected multiples argument to be a vector of length {r} but got "
                          f"length {len(m)}")
    return TensorShape([None if d is None else d * k for d, k in zip(x.shape.dims, m)]), x.dtype


def _tile_grad(op, g):
    x, multiples = op.inputs
    split_shape = reshape(transpose(stack([multiples, shape(x)])), [-1])
    r = x.shape.rank
    axes = list(range(0, 2 * r, 2))
    return reduction_ops.reduce_sum(reshape(g, split_shape), axis=axes), None


Tile = define("Tile", ("input", "multiples"), lambda x, m: np.tile(x, _ints(m)), _tile_shape,
              _tile_grad, input_dtypes=_INT_ARG)


def tile(input, multiples, name=None):  # noqa: A002
    """Repeats ``input`` ``multiples[i]`` times along dimension i (op ``Tile``)."""
    return bind(Tile, (input, multiples), None, name)


def _broadcast_to_shape(x, shape_t):
    want = _known_ints(shape_t)
    if want is None:
        n = _vector_len(shape_t)
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
    dims = _ints(want)
    return (lambda x: np.broadcast_to(x, dims)), (0,)


BroadcastTo = define("BroadcastTo", ("input", "shape"),
                     lambda x, s: np.broadcast_to(x, _ints(s)).copy(), _broadcast_to_shape,
                     lambda op, g: (math_ops.reduce_to(g, op.inputs[0]), None),
                     input_dtypes=_INT_ARG, specialize=_broadcast_special)


def broadcast_to(input, shape, name=None):  # noqa: A002
    """Broadcasts ``input`` to ``shape`` (op ``BroadcastTo``)."""
    return bind(BroadcastTo, (input, shape), None, name)


def _bga_kernel(s0, s1):
    a, b = list(_ints(s0)), list(_ints(s1))
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


# -- Pad, Slice -
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
    begin = reshape(slice_(p, [0, 0], stack([rank(x), 1])), [-1])
    return slice_(g, begin, shape(x)), None


Pad = define("Pad", ("input", "paddings"),
             lambda x, p: np.pad(x, np.asarray(p).reshape(-1, 2).tolist()), _pad_shape,
             _pad_grad, input_dtypes=_INT_ARG)


def pad(tensor, paddings, mode="CONSTANT", constant_values=0, name=None):
    """Pads ``tensor`` with zeros (op ``Pad``); only mode CONSTANT with 0 here."""
    if str(mode).upper() != "CONSTANT" or constant_values != 0:
        raise NotImplementedError("tfgraph_edu implements tf.pad with mode='CONSTANT' and "
                                  "constant_values=0 only.")
    return bind(Pad, (tensor, paddings), None, name)


def _slice_shape(x, begin, size_t):
    b, s = _known_ints(begin), _known_ints(size_t)
    r = x.shape.rank
    if r is None or s is None:
        return TensorShape(None if r is None else [None] * r), x.dtype
    dims = []
    for i, k in enumerate(s):
        d = x.shape.dims[i]
        if k == -1:
            dims.append(None if d is None or b is None else d - b[i])
        else:
            if d is not None and b is not None and b[i] + k > d:
                raise shape_error(f"Expected size[{i}] in [0, {d - b[i]}], but got {k}")
            dims.append(k)
    return TensorShape(dims), x.dtype


def _slice_kernel(x, begin, size_):
    idx = tuple(builtins.slice(b, None if s == -1 else b + s)
                for b, s in zip(_ints(begin), _ints(size_)))
    return np.asarray(x)[idx]


def _slice_grad(op, g):
    x, begin, _ = op.inputs
    after = math_ops.subtract(math_ops.subtract(shape(x), shape(g)), begin)
    return pad(g, stack([begin, after], axis=1)), None, None


Slice = define("Slice", ("input", "begin", "size"), _slice_kernel, _slice_shape, _slice_grad,
               T=(0,), input_dtypes={1: I32, 2: I32})


def slice_(input_, begin, size, name=None):
    """Extracts ``size`` elements from ``begin`` (op ``Slice``); ``tf.slice``."""
    return bind(Slice, (input_, begin, size), None, name)


# -- StridedSlice (tensor[...]) --------------------------------------------------------------------
_MASKS = ("begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask", "shrink_axis_mask")


def _index_tuple(begin, end, strides, begin_mask=0, end_mask=0, ellipsis_mask=0,
                 new_axis_mask=0, shrink_axis_mask=0):
    out = []
    for i, (b, e, s) in enumerate(zip(begin, end, strides)):
        bit = 1 << i
        if ellipsis_mask & bit:
            out.append(Ellipsis)
        elif new_axis_mask & bit:
            out.append(None)
        elif shrink_axis_mask & bit:
            out.append(int(b))
        else:
            out.append(builtins.slice(None if begin_mask & bit else int(b),
                                      None if end_mask & bit else int(e), int(s)))
    return tuple(out)


def _check_index(idx, shape_dims):
    """TF's out-of-range error for integer indices (numpy would say IndexError)."""
    dim = 0
    n_real = builtins.sum(1 for k in idx if k is not None and k is not Ellipsis)
    for k in idx:
        if k is Ellipsis:
            dim += len(shape_dims) - n_real
        elif k is None:
            continue
        else:
            if dim >= len(shape_dims):
                raise shape_error(f"Index out of range using input dim {dim}; input has only "
                                  f"{len(shape_dims)} dims")
            if isinstance(k, int) and dim < len(shape_dims):
                d = shape_dims[dim]
                if d is not None and not -d <= k < d:
                    raise shape_error(f"slice index {k} of dimension {dim} out of bounds.")
            dim += 1


def _strided_slice_kernel(x, begin, end, strides, **masks):
    idx = _index_tuple(_ints(begin), _ints(end), _ints(strides), **masks)
    _check_index(idx, list(np.shape(x)))
    out = np.asarray(x)[idx]
    return out.copy() if isinstance(out, np.ndarray) else out


def _strided_slice_shape(x, begin, end, strides, **masks):
    b, e, s = _known_ints(begin), _known_ints(end), _known_ints(strides)
    n = begin.shape.dims[0] if begin.shape.rank == 1 else None
    if (b is None and x.shape.rank is not None and n is not None and n <= x.shape.rank
            and masks.get("shrink_axis_mask", 0) == (1 << n) - 1
            and not masks.get("ellipsis_mask", 0) and not masks.get("new_axis_mask", 0)):
        # x[i] (x[i, j]...) with tensor indices, as a tensor loop iterates: the leading dims
        # go, the others stay known even though the indices are not
        return TensorShape(x.shape.dims[n:]), x.dtype
    if x.shape.rank is None or b is None or e is None or s is None:
        return TensorShape(None), x.dtype
    if 0 in s:
        raise shape_error("strides[0] must be non-zero")
    idx = _index_tuple(b, e, s, **masks)
    dims = x.shape.dims
    _check_index(idx, dims)
    # apply the index to a zero-stride stand-in whose unknown dims are huge, then mark
    # the output dims that came from unknown input dims as unknown
    big = 1 << (60 // builtins.max(1, dims.count(None)))
    stand_in = np.broadcast_to(np.int8(0), [big if d is None else d for d in dims])
    out_shape = list(stand_in[idx].shape)
    if any(d is None for d in dims):
        # map each output dim back to its input dim
        dim, result = 0, []
        n_real = builtins.sum(1 for k in idx if k is not None and k is not Ellipsis)
        for k in idx:
            if k is Ellipsis:
                for _ in range(len(dims) - n_real):
                    result.append(dims[dim])
                    dim += 1
            elif k is None:
                result.append(1)
            elif isinstance(k, int):
                dim += 1
            else:
                result.append(None if dims[dim] is None else out_shape[len(result)])
                dim += 1
        result.extend(dims[dim:])
        out_shape = result
    return TensorShape(out_shape), x.dtype


def _strided_slice_grad(op, g):
    x, begin, end, strides = op.inputs
    masks = {k: op.get_attr(k) for k in _MASKS}
    return (bind(StridedSliceGrad, (shape(x), begin, end, strides, g), masks),
            None, None, None)


StridedSlice = define("StridedSlice", ("input", "begin", "end", "strides"),
                      _strided_slice_kernel, _strided_slice_shape, _strided_slice_grad,
                      T=(0,), input_dtypes={1: I32, 2: I32, 3: I32})


def _ssg_kernel(shape_, begin, end, strides, dy, **masks):
    out = np.zeros(_ints(shape_), dtype=dy.dtype)
    out[_index_tuple(_ints(begin), _ints(end), _ints(strides), **masks)] = dy
    return out


def _ssg_shape(shape_, begin, end, strides, dy, **masks):
    want = _known_ints(shape_)
    if want is None:
        n = _vector_len(shape_)
        return TensorShape(None if n is None else [None] * n), dy.dtype
    return TensorShape(list(want)), dy.dtype


def _ssg_grad(op, g):
    _, begin, end, strides, _ = op.inputs
    masks = {k: op.get_attr(k) for k in _MASKS}
    return None, None, None, None, bind(StridedSlice, (g, begin, end, strides), masks)


StridedSliceGrad = define("StridedSliceGrad", ("shape", "begin", "end", "strides", "dy"),
                          _ssg_kernel, _ssg_shape, _ssg_grad,
                          input_dtypes={0: I32, 1: I32, 2: I32, 3: I32})


def strided_slice(input_, begin, end, strides=None, begin_mask=0, end_mask=0, ellipsis_mask=0,
                  new_axis_mask=0, shrink_axis_mask=0, name=None):
    """Extracts a strided slice (op ``StridedSlice``), the op behind ``tensor[...]``."""
    if strides is None:
        strides = [1] * len(begin)
    masks = dict(begin_mask=begin_mask, end_mask=end_mask, ellipsis_mask=ellipsis_mask,
                 new_axis_mask=new_axis_mask, shrink_axis_mask=shrink_axis_mask)
    return bind(StridedSlice, (input_, begin, end, strides), masks, name)


def _scalar_index(k):
    if convert.is_tensor(k):
        if k.shape.rank not in (0, None) or not (k.dtype.is_integer):
            raise TypeError(_INDEX_HELP.format(k=k))
        return k
    if isinstance(k, (bool, np.bool_)):
        raise TypeError(_INDEX_HELP.format(k=repr(k)))
    try:
        return int(k.__index__())
    except (AttributeError, TypeError):
        raise TypeError(_INDEX_HELP.format(k=repr(k))) from None


_INDEX_HELP = ("Only integers, slices (`:`), ellipsis (`...`), tf.newaxis (`None`) and scalar "
               "tf.int32/tf.int64 tensors are valid indices, got {k}")


def getitem(tensor, key):
    """``tensor[key]`` the way TensorFlow does it: one ``StridedSlice`` op with masks."""
    if not isinstance(key, tuple):
        key = (key,)
    begin, end, strides = [], [], []
    masks = dict.fromkeys(_MASKS, 0)
    for i, k in enumerate(key):
        bit = 1 << i
        if k is Ellipsis:
            masks["ellipsis_mask"] |= bit
            begin.append(0), end.append(0), strides.append(1)
        elif k is None:
            masks["new_axis_mask"] |= bit
            begin.append(0), end.append(0), strides.append(1)
        elif isinstance(k, builtins.slice):
            st = 1 if k.step is None else _scalar_index(k.step)
            if k.start is None:
                masks["begin_mask"] |= bit
                begin.append(0)
            else:
                begin.append(_scalar_index(k.start))
            if k.stop is None:
                masks["end_mask"] |= bit
                end.append(0)
            else:
                end.append(_scalar_index(k.stop))
            strides.append(st)
        else:
            k = _scalar_index(k)
            masks["shrink_axis_mask"] |= bit
            begin.append(k)
            end.append(math_ops.add(k, 1) if convert.is_tensor(k) else
                       (k + 1 if k != -1 else 0))
            if not convert.is_tensor(k) and k == -1:
                masks["end_mask"] |= bit
            strides.append(1)
    parts = (begin, end, strides)
    if any(convert.is_tensor(v) for p in parts for v in p):
        parts = tuple(stack([math_ops.cast(v, I32) if convert.is_tensor(v) else v for v in p])
                      for p in parts)
    return bind(StridedSlice, (tensor, *parts), masks, "strided_slice")


# -- Gather, UnsortedSegmentSum, OneHot, Where, SelectV2 -----------------------------------------
def _gather_kernel(params, indices, axis, batch_dims=0):
    ax = int(np.ravel(axis)[0]) % builtins.max(np.ndim(params), 1)
    n = np.shape(params)[ax]
    bad = (indices < 0) | (indices >= n)
    if np.any(bad):
        pos = np.argwhere(bad)[0]
        where = ",".join(str(int(p)) for p in pos)
        val = int(np.asarray(indices)[tuple(pos)])
        raise InvalidArgumentError(None, None, f"indices[{where}] = {val} is not in [0, {n})")
    return np.take(params, indices, axis=ax)


def _gather_shape(params, indices, axis, batch_dims=0):
    a = _known_ints(axis)
    ps, is_ = params.shape, indices.shape
    if ps.rank is None or is_.rank is None or a is None:
        return TensorShape(None), params.dtype
    ax = a[0]
    if not -ps.rank <= ax < ps.rank:
        raise shape_error(f"Expected axis in the range [{-ps.rank}, {ps.rank}), but got {ax}")
    ax %= ps.rank
    return TensorShape(ps.dims[:ax] + is_.dims + ps.dims[ax + 1:]), params.dtype


def _gather_grad(op, g):
    params, indices, axis = op.inputs
    a = _known_ints(axis)
    if a is None or params.shape.rank is None:
        raise NotImplementedError("The gradient of tf.gather needs a constant axis and a known "
                                  "rank here.")
    r = params.shape.rank
    ax = a[0] % r
    if ax:
        perm = [ax] + [i for i in range(r) if i != ax]
        moved = transpose(params, perm)
        gm = transpose(g, _gather_grad_perm(ax, indices.shape.rank, g.shape.rank))
        inner = _segment_grad(moved, indices, gm)
        return transpose(inner, invert_permutation(perm)), None, None
    return _segment_grad(params, indices, g), None, None


def _gather_grad_perm(ax, ri, rg):
    # bring the index dims (ax .. ax+ri) of g to the front
    idx = list(range(ax, ax + ri))
    return idx + [i for i in range(rg) if i not in idx]


def _segment_grad(params, indices, g):
    flat_i = reshape(indices, [-1])
    inner = shape(params)[1:]
    flat_g = reshape(g, concat([[-1], inner], 0) if params.shape.rank > 1 else [-1])
    return unsorted_segment_sum(flat_g, flat_i, shape(params)[0])


GatherV2 = define("GatherV2", ("params", "indices", "axis"), _gather_kernel, _gather_shape,
                  _gather_grad, input_dtypes={1: I32, 2: I32})


def gather(params, indices, validate_indices=None, axis=None, batch_dims=0, name=None):
    """Gathers slices of ``params`` at ``indices`` along ``axis`` (op ``GatherV2``)."""
    if batch_dims:
        raise NotImplementedError("tfgraph_edu implements tf.gather with batch_dims=0 only.")
    return bind(GatherV2, (params, indices, 0 if axis is None else axis),
                {"batch_dims": 0}, name)


def _uss_kernel(data, ids, num):
    n = int(np.ravel(num)[0])
    from .segment_ops import check_segment_ids  # TF refuses ids >= n, drops negative ones
    keep = check_segment_ids(ids, n)
    if keep is not None:
        ids, data = np.asarray(ids)[keep], np.asarray(data)[keep]
    out = np.zeros((n,) + np.shape(data)[np.ndim(ids):], dtype=data.dtype)
    np.add.at(out, ids, data)
    return out


def _uss_shape(data, ids, num):
    n = _known_ints(num)
    ds, is_ = data.shape, ids.shape
    if ds.rank is None or is_.rank is None:
        return TensorShape(None), data.dtype
    return TensorShape([None if n is None else n[0]] + ds.dims[is_.rank:]), data.dtype


UnsortedSegmentSum = define(
    "UnsortedSegmentSum", ("data", "segment_ids", "num_segments"), _uss_kernel, _uss_shape,
    lambda op, g: (gather(g, op.inputs[1]), None, None), input_dtypes={1: I32, 2: I32})


def unsorted_segment_sum(data, segment_ids, num_segments, name=None):
    """Sums the rows of ``data`` into ``num_segments`` buckets (op ``UnsortedSegmentSum``)."""
    return bind(UnsortedSegmentSum, (data, segment_ids, num_segments), None, name)


def _one_hot_kernel(indices, depth, on, off, axis=-1):
    d = int(np.ravel(depth)[0])
    hot = np.arange(d) == np.expand_dims(indices, -1)
    out = np.where(hot, on, off).astype(np.asarray(on).dtype)
    return np.moveaxis(out, -1, axis) if axis != -1 else out


def _one_hot_shape(indices, depth, on, off, axis=-1):
    d = _known_ints(depth)
    s = indices.shape
    if s.rank is None:
        return TensorShape(None), on.dtype
    dims = list(s.dims)
    dims.insert(len(dims) if axis == -1 else axis, None if d is None else d[0])
    return TensorShape(dims), on.dtype


OneHot = define("OneHot", ("indices", "depth", "on_value", "off_value"), _one_hot_kernel,
                _one_hot_shape, lambda op, g: (None, None, None, None), T=(2, 3),
                input_dtypes={1: I32})


def one_hot(indices, depth, on_value=None, off_value=None, axis=None, dtype=None, name=None):
    """One-hot vectors of length ``depth`` (op ``OneHot``), float32 unless told."""
    dtype = _dt.as_dtype(dtype) if dtype is not None else _dt.float32
    on = 1 if on_value is None else on_value
    off = 0 if off_value is None else off_value
    on = convert.to_tensor(on, dtype) if not convert.is_tensor(on) else on
    off = convert.to_tensor(off, on.dtype) if not convert.is_tensor(off) else off
    return bind(OneHot, (indices, depth, on, off), {"axis": -1 if axis is None else int(axis)},
                name)


def _select_shape(c, t, e):
    if c.dtype is not _dt.bool:
        raise shape_error(f"condition must be a bool tensor, got {c.dtype.name}")
    return broadcast_shapes(broadcast_shapes(c.shape, t.shape), e.shape), t.dtype


def _select_grad(op, g):
    c, t, e = op.inputs
    z = zeros_like(g)
    return (None, math_ops.reduce_to(bind(SelectV2, (c, g, z)), t),
            math_ops.reduce_to(bind(SelectV2, (c, z, g)), e))


SelectV2 = define("SelectV2", ("condition", "t", "e"), np.where, _select_shape, _select_grad,
                  T=(1, 2))
def _where_shape(x):
    v = constant_value(x)
    n = None if v is None else int(np.count_nonzero(v))
    return TensorShape([n, x.shape.rank]), _dt.int64


Where = define("Where", ("input",), lambda x: np.argwhere(x).astype(np.int64), _where_shape,
               None)


def where(condition, x=None, y=None, name=None):
    """Elementwise choice ``x if condition else y`` (op ``SelectV2``), or the indices of the
    True elements when only ``condition`` is given (op ``Where``)."""
    if x is None and y is None:
        return bind(Where, (condition,), None, name)
    if x is None or y is None:
        raise ValueError("x and y must both be non-None or both be None.")
    return bind(SelectV2, (condition, x, y), None, name)


# -- Range, eye, diag, reverse -
def _range_direction_error(s, lim, d):
    """TF's Range refuses a step that leads away from the limit (it gives no empty range)."""
    if d > 0 and s > lim:
        return f"Requires start <= limit when delta > 0: {s:g}/{lim:g}"
    if d < 0 and s < lim:
        return f"Requires start >= limit when delta < 0: {s:g}/{lim:g}"
    return None


def _range_kernel(start, limit, delta, Tidx=None):
    if delta == 0:
        raise InvalidArgumentError(None, None, "Requires delta != 0: 0")
    wrong_way = _range_direction_error(start, limit, delta)
    if wrong_way:
        raise InvalidArgumentError(None, None, wrong_way)
    return np.arange(start, limit, delta, dtype=np.asarray(start).dtype)


def _range_shape(start, limit, delta, Tidx=None):
    vals = [constant_value(t) for t in (start, limit, delta)]
    if any(v is None for v in vals):
        return TensorShape([None]), start.dtype
    s, lim, d = (v.item() for v in vals)
    if d == 0:
        raise shape_error("Requires delta != 0: 0")
    if _range_direction_error(s, lim, d):
        raise shape_error(_range_direction_error(s, lim, d))
    n = builtins.max(0, int(np.ceil((lim - s) / d)))
    return TensorShape([n]), start.dtype


Range = define("Range", ("start", "limit", "delta"), _range_kernel, _range_shape, None,
               T=(0, 1, 2), dtypes=frozenset({_dt.float32, _dt.float64, _dt.int32, _dt.int64}))


def range_(start, limit=None, delta=1, dtype=None, name="range"):
    """``tf.range``: a 1-D tensor from ``start`` up to ``limit`` by ``delta`` (op ``Range``)."""
    if limit is None:
        start, limit = 0, start
    vals = (start, limit, delta)
    if dtype is None:
        dts = [v.dtype if convert.is_tensor(v) else convert.to_numpy(v).dtype for v in vals]
        order = [np.dtype(np.int32), np.dtype(np.int64), np.dtype(np.float32),
                 np.dtype(np.float64)]
        best = builtins.max((order.index(np.dtype(getattr(d, "np_dtype", d))) for d in dts),
                            default=0)
        dtype = _dt.NP_TO_DTYPE[order[best]]
    dtype = _dt.as_dtype(dtype)
    vals = tuple(math_ops.cast(v, dtype) if convert.is_tensor(v) else convert.constant(v, dtype)
                 for v in vals)
    return bind(Range, vals, {"Tidx": dtype}, name)


def _diag_kernel(d):
    n = np.shape(d)[-1]
    out = np.zeros(np.shape(d) + (n,), dtype=d.dtype)
    idx = np.arange(n)
    out[..., idx, idx] = d
    return out


def _diag_part_kernel(m):
    return np.diagonal(m, axis1=-2, axis2=-1).copy()


MatrixDiag = define("MatrixDiag", ("diagonal",), _diag_kernel,
                    lambda d: (d.shape.concatenate([d.shape.dims[-1] if d.shape.rank else None])
                               if d.shape.rank is not None else TensorShape(None), d.dtype),
                    lambda op, g: (matrix_diag_part(g),), T=(0,))
MatrixDiagPart = define("MatrixDiagPart", ("input",), _diag_part_kernel,
                        lambda m: (TensorShape(m.shape.dims[:-1]) if m.shape.rank is not None
                                   else TensorShape(None), m.dtype),
                        lambda op, g: (matrix_diag(g),), T=(0,))


def matrix_diag(diagonal, name="diag"):
    """A (batch of) square matrices with ``diagonal`` on the diagonal (op ``MatrixDiag``)."""
    return bind(MatrixDiag, (diagonal,), None, name)


def matrix_diag_part(input, name="diag_part"):  # noqa: A002
    """The main diagonal of a (batch of) matrices (op ``MatrixDiagPart``)."""
    return bind(MatrixDiagPart, (input,), None, name)


def eye(num_rows, num_columns=None, batch_shape=None, dtype=_dt.float32, name=None):
    """An identity matrix, built as TensorFlow does: ``ones`` fed to a ``MatrixDiag`` op."""
    batch = list(batch_shape or [])
    if num_columns is None or num_columns == num_rows:
        dims = batch + [num_rows]
        return matrix_diag(ones(dims, dtype=dtype, name="eye/ones"), name=name or "eye/diag")
    # a rectangular identity: the square one of the smaller side, padded with zeros
    n = min(num_rows, num_columns)
    square = matrix_diag(ones(batch + [n], dtype=dtype, name="eye/ones"), name="eye/diag")
    paddings = [[0, 0]] * len(batch) + [[0, num_rows - n], [0, num_columns - n]]
    return pad(square, paddings, name=name or "eye/pad")


ReverseV2 = define("ReverseV2", ("tensor", "axis"), lambda x, a: np.flip(x, _ints(a)),
                   lambda x, a: (x.shape, x.dtype),
                   lambda op, g: (bind(ReverseV2, (g, op.inputs[1])), None),
                   input_dtypes=_INT_ARG)


def reverse(tensor, axis, name=None):
    """Reverses ``tensor`` along the dimensions in ``axis`` (op ``ReverseV2``)."""
    return bind(ReverseV2, (tensor, axis), None, name)

