"""``tf.sparse``: ``SparseTensor`` (``values`` at ``indices`` of a ``dense_shape``) and its ops.

A SparseTensor is a composite value (see ``composite.py``): three tensors, ``indices`` (int64,
``[nnz, rank]``), ``values`` (``[nnz]``) and ``dense_shape`` (int64, ``[rank]``), eagerly and in
graphs alike; its static ``shape`` is what is known of ``dense_shape`` without running it,
merged with the shape its spec carries (a loop variable or a tf.function argument keeps the
shape of its spec, as in TF).  The ops are TF's (``SparseToDense``, ``SparseConcat``,
``SparseAdd``, ``SparseReorder``, ``SparseReduceSum``); ``expand_dims``, ``from_dense`` and
``map_values`` are made of ordinary ops, as in TF, so their static shapes and errors are TF's.

The order rule: ops that need indices in row-major order (``to_dense``) refuse others with
TF's error; ``tf.sparse.reorder`` sorts them.
"""

from __future__ import annotations

import numpy as np

from .. import dtypes as _dt
from ..errors import InvalidArgumentError
from ..shapes import TensorShape, TensorSpec
from . import concat_ops, convert, creation_ops, indexing_ops, math_ops, shape_ops
from ._core import bind, constant_value, define, shape_error
from .check_ops import _scope
from .composite import CompositeTensor, TypeSpec

I64 = _dt.int64


def _static_shape(dense_shape) -> TensorShape:
    """What is known of a dense_shape tensor's value without running it (TF's
    ``constant_value_as_shape``: constants, and concatenations of known and unknown parts)."""
    value = constant_value(dense_shape)
    if value is not None:
        return TensorShape([int(d) for d in np.asarray(value).reshape(-1)])
    op = getattr(dense_shape, "op", None)
    if op is not None and op.type == "ConcatV2":
        out = TensorShape([])
        for part in op.inputs[:-1]:
            out = out.concatenate(_static_shape(part))
        return out
    if op is not None and op.type in ("Pack", "Shape"):  # [2, n] or tf.shape(x)
        from ._rules import partial_ints
        dims = partial_ints(dense_shape)
        if dims is not None:
            return TensorShape(dims)
    n = dense_shape.shape.dims[0] if dense_shape.shape.rank == 1 else None
    return TensorShape(None if n is None else [None] * n)


def _merge(known: TensorShape, default: TensorShape | None) -> TensorShape:
    if default is None or default.rank is None:
        return known
    if known.rank is None:
        return default
    if known.rank != default.rank:
        return known
    return TensorShape([a if a is not None else b for a, b in zip(known.dims, default.dims)])


def _exact(kernel, inputs, attrs, dtypes):
    """The exact output shapes when every input is a known constant (the kernel run on them),
    else None; a kernel error is left to run time, where TF reports it."""
    values = [constant_value(t) for t in inputs]
    if any(v is None for v in values):
        return None
    try:
        out = kernel(*values, **attrs)
    except Exception:  # noqa: BLE001 - reported when the op runs
        return None
    out = out if isinstance(out, tuple) else (out,)
    return [(TensorShape(list(np.shape(o))), d) for o, d in zip(out, dtypes)]


class SparseTensorSpec(TypeSpec):
    """``tf.SparseTensorSpec``: the dense shape and dtype of a SparseTensor."""

    def __init__(self, shape=None, dtype=_dt.float32):
        super().__init__(shape, _dt.as_dtype(dtype))

    @staticmethod
    def _with_shape(spec, shape):
        return SparseTensorSpec(shape, spec.dtype)

    @property
    def value_type(self):
        """The class of the values this spec describes: SparseTensor."""
        return SparseTensor

    def _component_specs(self):
        rank = self._shape.rank
        return [TensorSpec([None, rank], I64), TensorSpec([None], self._dtype),
                TensorSpec([rank], I64)]

    def _from_components(self, components):
        out = SparseTensor(*components)
        out._shape_default = self._shape
        return out

    def __repr__(self):
        return f"SparseTensorSpec({self._shape!r}, tf.{self._dtype.name})"


class SparseTensor(CompositeTensor):
    """``tf.sparse.SparseTensor``: the non-zero ``values`` at ``indices`` of ``dense_shape``."""

    _shape_default = None

    def __init__(self, indices, values, dense_shape):
        self._indices = convert.to_tensor(indices, dtype=I64)
        self._values = convert.to_tensor(values)
        self._dense_shape = convert.to_tensor(dense_shape, dtype=I64)
        ishape, vshape, sshape = (self._indices.shape, self._values.shape,
                                  self._dense_shape.shape)
        if ishape.rank is not None and ishape.rank != 2:
            raise ValueError(f"Shape {ishape} must have rank 2")
        if vshape.rank is not None and vshape.rank != 1:
            raise ValueError(f"Shape {vshape} must have rank 1")
        if sshape.rank is not None and sshape.rank != 1:
            raise ValueError(f"Shape {sshape} must have rank 1")
        for a, b in ((ishape.dims[0] if ishape.rank else None,
                      vshape.dims[0] if vshape.rank else None),
                     (ishape.dims[1] if ishape.rank else None,
                      sshape.dims[0] if sshape.rank else None)):
            if a is not None and b is not None and a != b:
                raise ValueError(f"Dimensions {a} and {b} are not compatible")

    indices = property(lambda self: self._indices)
    values = property(lambda self: self._values)
    dense_shape = property(lambda self: self._dense_shape)
    dtype = property(lambda self: self._values.dtype)

    @property
    def shape(self) -> TensorShape:
        return _merge(_static_shape(self._dense_shape), self._shape_default)

    @property
    def _type_spec(self) -> SparseTensorSpec:
        return SparseTensorSpec(self.shape, self.dtype)

    def _ag_components(self):
        return [self._indices, self._values, self._dense_shape]

    def _invariant_shape(self, invariant):
        """tf.while_loop's invariant for a SparseTensor is the shape of its dense_shape
        vector, ``[rank]``, as in TF; the loop then carries an unknown shape of that rank."""
        if isinstance(invariant, SparseTensorSpec):
            return invariant.shape
        shape = TensorShape(invariant) if not isinstance(invariant, TensorShape) else invariant
        if shape.rank is not None and shape.rank != 1:
            raise ValueError(f"Expected a shape with 1 dimension. Obtained: {shape} which has "
                             f"{shape.rank} dimensions.")
        rank = None if shape.rank is None else shape.dims[0]
        return TensorShape(None if rank is None else [None] * rank)

    def __repr__(self):
        return (f"SparseTensor(indices={self._indices!s}, values={self._values!s}, "
                f"dense_shape={self._dense_shape!s})")

    __str__ = __repr__

    def with_values(self, new_values):
        """The same indices and dense shape with other values (as many)."""
        new_values = convert.to_tensor(new_values)
        n, m = self._values.shape, new_values.shape
        if n.rank == 1 and m.rank == 1 and None not in (n.dims[0], m.dims[0]) and (
                n.dims[0] != m.dims[0]):
            raise ValueError(f"Dimensions {n.dims[0]} and {m.dims[0]} are not compatible")
        return SparseTensor(self._indices, new_values, self._dense_shape)

    def __mul__(self, other):
        """``sp * x``: each value times ``x`` at its place (``x`` broadcast to the sparse
        shape; TF's SparseDenseCwiseMul)."""
        return _cwise(SparseDenseCwiseMul, self, other)

    def __truediv__(self, other):
        """``sp / x``: each value divided by ``x`` at its place (SparseDenseCwiseDiv);
        integer values are divided as floats first, as TF's ``/``."""
        sp = self
        if not (self.dtype.is_floating or self.dtype.is_complex):
            as_float = _dt.float64 if self.dtype.size > 2 else _dt.float32
            sp = SparseTensor(self._indices, math_ops.cast(self._values, as_float),
                              self._dense_shape)
            if convert.is_tensor(other) and other.dtype is self.dtype:
                other = math_ops.cast(other, as_float)
        return _cwise(SparseDenseCwiseDiv, sp, other)

    __rmul__ = __mul__


# -- SparseToDense --------------------------------------------------------------------------------
def _index_text(idx) -> str:
    return "[" + ",".join(str(int(i)) for i in idx) + "]"


def _check_order(indices, shape, check_order=True):
    """TF's validation of sparse indices: in bounds, in row-major order, none repeated."""
    prev = None
    for n, idx in enumerate(indices):
        if any(i < 0 or i >= d for i, d in zip(idx, shape)):
            raise InvalidArgumentError(
                None, None, f"indices[{n}] = {_index_text(idx)} is out of bounds: need 0 <= "
                f"index < {_index_text(shape)}")
        if prev is not None and check_order:
            t, p = tuple(int(i) for i in idx), tuple(int(i) for i in prev)
            if t == p:
                raise InvalidArgumentError(None, None,
                                           f"indices[{n}] = {_index_text(idx)} is repeated")
            if t < p:
                raise InvalidArgumentError(
                    None, None, f"indices[{n}] = {_index_text(idx)} is out of order. Many "
                    "sparse ops require sorted indices.\n    Use `tf.sparse.reorder` to "
                    "create a correctly ordered copy.\n\n")
        prev = idx


def _sparse_to_dense_kernel(indices, output_shape, values, default_value, validate_indices=True):
    shape = tuple(int(d) for d in np.asarray(output_shape).reshape(-1))
    out = np.full(shape, default_value, dtype=values.dtype)
    indices = np.asarray(indices).reshape(-1, len(shape)) if len(shape) else np.asarray(indices)
    vals = np.broadcast_to(values, (indices.shape[0],))
    _check_order(indices, shape, bool(validate_indices))
    for idx, v in zip(indices, vals):
        out[tuple(idx)] = v
    return out


def _sparse_to_dense_shape(indices, output_shape, values, default_value, **_):
    value = constant_value(output_shape)
    if value is not None:
        return TensorShape([int(d) for d in np.asarray(value).reshape(-1)]), values.dtype
    return _static_shape(output_shape), values.dtype


def _sparse_to_dense_grad(op, g):
    # d/d values: the gradient at each index; indices, shape and the default get none
    return None, None, bind(_gather_nd_op(), (g, op.inputs[0]), None), None


def _gather_nd_op():
    from .scatter_ops import GatherNd
    return GatherNd


SparseToDense = define("SparseToDense", ("sparse_indices", "output_shape", "sparse_values",
                                         "default_value"),
                       _sparse_to_dense_kernel, _sparse_to_dense_shape, _sparse_to_dense_grad,
                       T=(2, 3))


def to_dense(sp_input, default_value=None, validate_indices=True, name=None):
    """``tf.sparse.to_dense``: the dense tensor, zeros (or ``default_value``) elsewhere;
    indices out of order are refused, as TF refuses them."""
    _need_sparse(sp_input, "sparse.to_dense")
    if default_value is None:
        default_value = b"" if sp_input.dtype is _dt.string else 0
    default = convert.to_tensor(default_value, dtype=sp_input.dtype)
    return bind(SparseToDense, (sp_input.indices, sp_input.dense_shape, sp_input.values,
                                default), {"validate_indices": validate_indices},
                name or "SparseToDense")


def _need_sparse(x, api):
    if not isinstance(x, SparseTensor):
        raise TypeError(f"Input must be a SparseTensor, got {type(x).__name__} (tf.{api}).")


def _not_differentiable_yet(opname):
    def grad(op, *gs):
        raise NotImplementedError(f"tfgraph_edu does not differentiate {opname} yet (TF does): "
                                  "take the gradient through tf.sparse.to_dense instead.")
    return grad


# -- SparseReorder --------------------------------------------------------------------------------
def _reorder_kernel(indices, values, shape):
    indices = np.asarray(indices)
    if indices.shape[0] == 0:
        return indices, np.asarray(values)
    order = np.lexsort(indices.T[::-1])
    return indices[order], np.asarray(values)[order]


def _reorder_shape(indices, values, shape):
    return [(indices.shape, I64), (values.shape, values.dtype)]  # the same number of values


def _reorder_grad(op, g_indices, g_values):
    """Each input value gets the gradient of the place the sort moved it to (the sort
    applied to 0..n-1 says where each went)."""
    indices, _, shape = op.inputs
    positions = creation_ops.range_(shape_ops.shape(indices, out_type=I64)[0], dtype=I64)
    _, order = bind(SparseReorder, (indices, positions, shape), None, None)
    return None, indexing_ops.gather(g_values, shape_ops.invert_permutation(order)), None


SparseReorder = define("SparseReorder", ("input_indices", "input_values", "input_shape"),
                       _reorder_kernel, _reorder_shape, _reorder_grad, num_outputs=2)


def reorder(sp_input, name=None):
    """``tf.sparse.reorder``: the same SparseTensor with its indices in row-major order."""
    _need_sparse(sp_input, "sparse.reorder")
    ind, val = bind(SparseReorder, (sp_input.indices, sp_input.values, sp_input.dense_shape),
                    None, name or "SparseReorder")
    static = sp_input.shape  # as TF: a fully known shape becomes a constant dense_shape
    shape = (convert.to_tensor(np.array(static.as_list(), np.int64))
             if static.rank is not None and static.is_fully_defined() else sp_input.dense_shape)
    return SparseTensor(ind, val, shape)


# -- SparseConcat ---------------------------------------------------------------------------------
def _concat_kernel(*inputs, concat_dim=0, N=2):
    n = N
    inds, vals, shapes = inputs[:n], inputs[n:2 * n], inputs[2 * n:]
    shapes = [np.asarray(s).reshape(-1) for s in shapes]
    rank = len(shapes[0])
    for i, s in enumerate(shapes[1:], 1):
        if len(s) != rank:
            raise InvalidArgumentError(None, None, f"Ranks of all input tensors must match: "
                                                   f"expected {rank} but got {len(s)} at "
                                                   f"position {i}")
    dim = concat_dim + rank if concat_dim < 0 else concat_dim
    if not 0 <= dim < rank:
        raise InvalidArgumentError(None, None, f"Concat dimension must be in range [{-rank}, "
                                               f"{rank}), got {concat_dim}")
    for i, s in enumerate(shapes[1:], 1):
        for d in range(rank):
            if d != dim and s[d] != shapes[0][d]:
                raise InvalidArgumentError(
                    None, None, f"Input shapes must match: expected {shapes[0][d]} for "
                    f"dimension {d} but got {s[d]} at position {i}")
    offset, parts = 0, []
    for ind, s in zip(inds, shapes):
        ind = np.array(ind, dtype=np.int64).reshape(-1, rank)
        ind[:, dim] += offset
        offset += int(s[dim])
        parts.append(ind)
    out_shape = shapes[0].copy()
    out_shape[dim] = offset
    indices = np.concatenate(parts) if parts else np.zeros([0, rank], np.int64)
    values = np.concatenate([np.asarray(v) for v in vals])
    # TF's result is in row-major order when the inputs are
    order = np.argsort(_row_major_keys(indices, out_shape), kind="stable")
    return indices[order], values[order], out_shape.astype(np.int64)


def _row_major_keys(indices, shape):
    keys = np.zeros(len(indices), dtype=object)
    for d in range(indices.shape[1] if indices.ndim == 2 else 0):
        keys = keys * int(shape[d]) + indices[:, d].astype(object)
    return keys


def _concat_shape(*inputs, concat_dim=0, N=2):
    n = N
    inds, vals, shapes = inputs[:n], inputs[n:2 * n], inputs[2 * n:]
    ranks = {s.shape.dims[0] for s in shapes if s.shape.rank == 1 and s.shape.dims[0] is not None}
    ranks |= {i.shape.dims[1] for i in inds if i.shape.rank == 2 and i.shape.dims[1] is not None}
    if len(ranks) > 1:
        a, b = sorted(ranks)[:2]
        raise shape_error(f"Dimensions must be equal, but are {b} and {a}")
    rank = ranks.pop() if ranks else None
    dtypes = (I64, vals[0].dtype, I64)
    return _exact(_concat_kernel, inputs, {"concat_dim": concat_dim, "N": N}, dtypes) or [
        (TensorShape([None, rank]), I64), (TensorShape([None]), vals[0].dtype),
        (TensorShape([rank]), I64)]


SparseConcat = define("SparseConcat", ("inputs*",), _concat_kernel, _concat_shape,
                      _not_differentiable_yet("SparseConcat"), num_outputs=3, mixed_types=True,
                      attrs=("concat_dim", "N"))


def concat(axis, sp_inputs, expand_nonconcat_dims=False, name=None):
    """``tf.sparse.concat``: SparseTensors joined along ``axis`` (their other dims equal)."""
    if expand_nonconcat_dims:
        raise NotImplementedError("tfgraph_edu's tf.sparse.concat does not take "
                                  "expand_nonconcat_dims=True yet.")
    if not isinstance(sp_inputs, (list, tuple)) or not sp_inputs:
        raise TypeError("tf.sparse.concat needs a non-empty list of SparseTensors.")
    for s in sp_inputs:
        _need_sparse(s, "sparse.concat")
    n = len(sp_inputs)
    ins = ([s.indices for s in sp_inputs] + [s.values for s in sp_inputs]
           + [s.dense_shape for s in sp_inputs])
    ind, val, shape = bind(SparseConcat, tuple(ins), {"concat_dim": int(axis), "N": n},
                           name or "SparseConcat")
    out = SparseTensor(ind, val, shape)
    static = [s.shape for s in sp_inputs]  # as TF: the static shape when every input has one
    if all(s.is_fully_defined() for s in static) and len({s.rank for s in static}) == 1:
        dims = list(static[0].dims)
        ax = int(axis) + len(dims) if int(axis) < 0 else int(axis)
        if 0 <= ax < len(dims):
            dims[ax] = sum(s.dims[ax] for s in static)
            out._shape_default = TensorShape(dims)
    return out


# -- SparseAdd -------------------------------------------------------------------------------------
def _add_kernel(a_indices, a_values, a_shape, b_indices, b_values, b_shape, thresh):
    a_shape, b_shape = np.asarray(a_shape).reshape(-1), np.asarray(b_shape).reshape(-1)
    if len(a_shape) != len(b_shape):
        raise InvalidArgumentError(None, None, f"Operands do not have the same ranks; got "
                                               f"shapes: {a_shape.tolist()} and "
                                               f"{b_shape.tolist()}")
    for d, (x, y) in enumerate(zip(a_shape, b_shape)):
        if x != y:
            raise InvalidArgumentError(None, None, f"Operands' shapes do not match: got {x} "
                                                   f"and {y} for dimension {d}")
    sums: dict = {}
    for ind, val in ((a_indices, a_values), (b_indices, b_values)):
        for idx, v in zip(np.asarray(ind).reshape(-1, len(a_shape)), np.asarray(val)):
            key = tuple(int(i) for i in idx)
            sums[key] = sums[key] + v if key in sums else v
    keys = sorted(sums)
    thresh = np.asarray(thresh)
    keys = [k for k in keys if np.abs(sums[k]) >= thresh] if thresh > 0 else keys
    indices = np.array(keys, dtype=np.int64).reshape(-1, len(a_shape))
    values = np.array([sums[k] for k in keys], dtype=np.asarray(a_values).dtype)
    return indices, values, a_shape.astype(np.int64)


def _add_shape(a_indices, a_values, a_shape, b_indices, b_values, b_shape, thresh):
    rank = a_shape.shape.dims[0] if a_shape.shape.rank == 1 else None
    ins = (a_indices, a_values, a_shape, b_indices, b_values, b_shape, thresh)
    return _exact(_add_kernel, ins, {}, (I64, a_values.dtype, I64)) or [
        (TensorShape([None, rank]), I64), (TensorShape([None]), a_values.dtype),
        (a_shape.shape, I64)]


SparseAdd = define("SparseAdd", ("a_indices", "a_values", "a_shape", "b_indices", "b_values",
                                 "b_shape", "thresh"),
                   _add_kernel, _add_shape, _not_differentiable_yet("SparseAdd"), num_outputs=3,
                   mixed_types=True, attrs=())


def add(a, b, threshold=0, name=None):
    """``tf.sparse.add``: two SparseTensors summed (a SparseTensor; sums whose magnitude is
    below ``threshold`` dropped), or a SparseTensor and a dense tensor (a dense tensor)."""
    a_sparse, b_sparse = isinstance(a, SparseTensor), isinstance(b, SparseTensor)
    if not (a_sparse or b_sparse):
        raise TypeError("At least one input should be SparseTensor; do you mean to use tf.add?")
    if a_sparse and b_sparse:
        if a.dtype is not b.dtype:
            raise TypeError(f"tf.sparse.add: the SparseTensors' dtypes differ: "
                            f"{a.dtype.name} and {b.dtype.name}.")
        static = a.shape
        thresh = convert.to_tensor(threshold, dtype=a.dtype.real_dtype
                                   if hasattr(a.dtype, "real_dtype") else a.dtype)
        ind, val, shape = bind(SparseAdd, (a.indices, a.values, a.dense_shape, b.indices,
                                           b.values, b.dense_shape, thresh), None,
                               name or "SparseAdd")
        static.assert_is_compatible_with(b.shape)  # as TF, after the op: a graph raises here
        merged = static.merge_with(b.shape)
        if merged.rank is not None and merged.is_fully_defined():  # as TF: a constant
            shape = convert.to_tensor(np.array(merged.as_list(), np.int64))
        out = SparseTensor(ind, val, shape)
        return out
    sp, dense = (a, b) if a_sparse else (b, a)
    dense = convert.to_tensor(dense, dtype=sp.dtype)
    return math_ops.add(dense, _scatter_add(sp, dense), name=name)


def _scatter_add(sp, dense):
    """The sparse values at their places on zeros of the dense operand's shape."""
    from . import scatter_ops
    return scatter_ops.scatter_nd(sp.indices, sp.values, shape_ops.shape(dense, out_type=I64))


# -- SparseReduceSum -------------------------------------------------------------------------------
def _reduce_kernel(indices, values, shape, axes, keep_dims=False, reducer="sum"):
    shape = tuple(int(d) for d in np.asarray(shape).reshape(-1))
    dense = np.zeros(shape, dtype=np.asarray(values).dtype)
    if reducer == "max":
        seen = np.zeros(shape, dtype=bool)
        dense = np.full(shape, _lowest(dense.dtype), dtype=dense.dtype)
    for idx, v in zip(np.asarray(indices).reshape(-1, len(shape)), np.asarray(values)):
        if reducer == "sum":
            dense[tuple(idx)] += v
        else:
            dense[tuple(idx)] = max(dense[tuple(idx)], v) if seen[tuple(idx)] else v
            seen[tuple(idx)] = True
    axes = np.asarray(axes).reshape(-1)
    rank = len(shape)
    for a in axes:
        if not -rank <= a < rank:
            raise InvalidArgumentError(None, None, f"Invalid reduction dimension {int(a)}, for "
                                                   f"input with {rank} dimensions.")
    ax = tuple(sorted({int(a) % rank for a in axes})) if axes.size else tuple(range(rank))
    if reducer == "sum":
        out = dense.sum(axis=ax, keepdims=bool(keep_dims)).astype(dense.dtype)
    else:  # TF's SparseReduceMax: the stored values only; a slice with none gives 0
        none_seen = ~seen.any(axis=ax, keepdims=bool(keep_dims))
        out = dense.max(axis=ax, keepdims=bool(keep_dims)) if dense.size else dense.sum(
            axis=ax, keepdims=bool(keep_dims))
        out = np.where(none_seen, np.zeros_like(out), out)
    return np.asarray(out, dtype=dense.dtype)


def _lowest(dtype):
    return np.finfo(dtype).min if dtype.kind == "f" else np.iinfo(dtype).min


def _reduce_shape(indices, values, shape, axes, keep_dims=False, reducer="sum"):
    exact = _exact(_reduce_kernel, (indices, values, shape, axes),
                   {"keep_dims": keep_dims, "reducer": reducer}, (values.dtype,))
    return exact[0] if exact else (TensorShape(None), values.dtype)


SparseReduceSum = define("SparseReduceSum", ("input_indices", "input_values", "input_shape",
                                             "reduction_axes"),
                         lambda *a, keep_dims=False: _reduce_kernel(*a, keep_dims=keep_dims),
                         lambda *a, keep_dims=False: _reduce_shape(*a, keep_dims=keep_dims),
                         _not_differentiable_yet("SparseReduceSum"), T=(1,),
                         input_dtypes={3: _dt.int32}, attrs=("keep_dims",))
SparseReduceMax = define("SparseReduceMax", ("input_indices", "input_values", "input_shape",
                                             "reduction_axes"),
                         lambda *a, keep_dims=False: _reduce_kernel(*a, keep_dims=keep_dims,
                                                                    reducer="max"),
                         lambda *a, keep_dims=False: _reduce_shape(*a, keep_dims=keep_dims,
                                                                   reducer="max"),
                         _not_differentiable_yet("SparseReduceMax"), T=(1,),
                         input_dtypes={3: _dt.int32}, attrs=("keep_dims",))


def _reduce(opdef, api, sp_input, axis, keepdims, output_is_sparse, name):
    _need_sparse(sp_input, api)
    if output_is_sparse:
        raise NotImplementedError(f"tfgraph_edu's tf.{api} does not take output_is_sparse=True "
                                  "yet.")
    axes = [] if axis is None else axis
    axes = convert.to_tensor(axes, dtype=_dt.int32)
    out = bind(opdef, (sp_input.indices, sp_input.values, sp_input.dense_shape, axes),
               {"keep_dims": bool(keepdims)}, name or opdef.name)
    return out


def reduce_sum(sp_input, axis=None, keepdims=None, output_is_sparse=False, name=None):
    """``tf.sparse.reduce_sum``: the sum over ``axis`` (every axis by default), dense."""
    return _reduce(SparseReduceSum, "sparse.reduce_sum", sp_input, axis, keepdims,
                   output_is_sparse, name)


def reduce_max(sp_input, axis=None, keepdims=None, output_is_sparse=False, name=None):
    """``tf.sparse.reduce_max``: the maximum over ``axis``, implicit zeros included."""
    return _reduce(SparseReduceMax, "sparse.reduce_max", sp_input, axis, keepdims,
                   output_is_sparse, name)


# -- made of ordinary ops, as in TF ----------------------------------------------------------------
def expand_dims(sp_input, axis=None, name=None):
    """``tf.sparse.expand_dims``: a dimension of size 1 inserted at ``axis`` (-1: last)."""
    _need_sparse(sp_input, "sparse.expand_dims")
    rank = sp_input.dense_shape.shape.dims[0] if sp_input.dense_shape.shape.rank == 1 else None
    if rank is None:
        rank = shape_ops.shape(sp_input.dense_shape)[0]
    axis = -1 if axis is None else axis
    static_axis = axis if isinstance(axis, int) else None
    if isinstance(axis, int) and isinstance(rank, int) and axis > rank:
        raise InvalidArgumentError(None, None, f"Expected size[1] in [0, {rank}], but got "
                                               f"{axis}")  # TF's Slice error
    if not (isinstance(axis, int) or convert.is_tensor(axis)):
        raise TypeError("axis must be an int or tensor.")
    axis = convert.to_tensor(axis, dtype=_dt.int32)
    axis = indexing_ops.where(math_ops.greater_equal(axis, 0), axis, axis + rank + 1)
    n = shape_ops.shape(sp_input.indices)[0]
    zero_col = creation_ops.zeros(concat_ops.stack([n, 1]), dtype=I64)
    before = indexing_ops.slice_(sp_input.indices, concat_ops.stack([0, 0]),
                                 concat_ops.stack([-1, axis]))
    after = indexing_ops.slice_(sp_input.indices, concat_ops.stack([0, axis]), [-1, -1])
    indices = concat_ops.concat([before, zero_col, after], axis=1)
    shape_before = indexing_ops.slice_(sp_input.dense_shape, [0], concat_ops.stack([axis]))
    shape_after = indexing_ops.slice_(sp_input.dense_shape, concat_ops.stack([axis]), [-1])
    one = convert.to_tensor(np.array([1], np.int64))
    shape = concat_ops.concat([shape_before, one, shape_after], axis=0)
    out = SparseTensor(indices, sp_input.values, shape)
    if isinstance(rank, int) and out.shape.rank is None:  # the rank is known, as in TF
        dims = [None] * (rank + 1)
        if static_axis is not None and -rank - 1 <= static_axis <= rank:
            dims[static_axis % (rank + 1)] = 1
        out._shape_default = TensorShape(dims)
    return out


def from_dense(tensor, name=None):
    """``tf.sparse.from_dense``: the non-zero elements of a dense tensor."""
    tensor = convert.to_tensor(tensor)
    zero = convert.to_tensor(b"" if tensor.dtype is _dt.string else 0, dtype=tensor.dtype)
    indices = indexing_ops.where(math_ops.not_equal(tensor, zero))
    values = _gather_nd(tensor, indices)
    return SparseTensor(indices, values, shape_ops.shape(tensor, out_type=I64))


def _gather_nd(params, indices):
    from . import scatter_ops
    return scatter_ops.gather_nd(params, indices)


def map_values(op, *args, **kwargs):
    """``tf.sparse.map_values``: ``op`` applied to the values of the SparseTensor arguments
    (which must share their indices), the others passed as they are."""
    sparse = [a for a in list(args) + list(kwargs.values()) if isinstance(a, SparseTensor)]
    if not sparse:
        raise ValueError("No SparseTensor in argument list of map_values")
    first = sparse[0]

    def unwrap(a):
        return a.values if isinstance(a, SparseTensor) else a
    values = op(*[unwrap(a) for a in args], **{k: unwrap(v) for k, v in kwargs.items()})
    return SparseTensor(first.indices, values, first.dense_shape)


# -- SparseTensorDenseMatMul -----------------------------------------------------------------------
def _dims_text(shape) -> str:
    return ",".join(str(int(d)) for d in shape)


def _spmm_kernel(a_indices, a_values, a_shape, b, adjoint_a=False, adjoint_b=False):
    a_shape = np.asarray(a_shape).reshape(-1)
    b = np.asarray(b)
    if len(a_shape) != 2 or b.ndim != 2:
        raise InvalidArgumentError(None, None, "Tensor 'a_shape' is not a vector of length 2"
                                   if len(a_shape) != 2 else "Tensor 'b' is not a matrix")
    if adjoint_b:
        b = np.conj(b.T)
    rows_a, inner_a = (int(a_shape[1]), int(a_shape[0])) if adjoint_a else (
        int(a_shape[0]), int(a_shape[1]))
    if inner_a != b.shape[0]:
        raise InvalidArgumentError(
            None, None, f"Cannot multiply A and B because inner dimension does not match: "
            f"{inner_a} vs. {b.shape[0]}.  Did you forget a transpose?  Dimensions of A: "
            f"[{rows_a}, {inner_a}).  Dimensions of B: [{_dims_text(np.shape(b))}]")
    indices = np.asarray(a_indices).reshape(-1, 2)
    rows, cols = (indices[:, 1], indices[:, 0]) if adjoint_a else (indices[:, 0], indices[:, 1])
    for n, (i, k) in enumerate(zip(rows, cols)):  # TF checks each stored index (k, then m)
        if not 0 <= k < inner_a:
            raise InvalidArgumentError(None, None, f"k ({int(k)}) from index[{n},"
                                                   f"{0 if adjoint_a else 1}] out of bounds "
                                                   f"(>={inner_a})")
        if not 0 <= i < rows_a:
            raise InvalidArgumentError(None, None, f"m ({int(i)}) from index[{n},"
                                                   f"{1 if adjoint_a else 0}] out of bounds "
                                                   f"(>={rows_a})")
    values = np.asarray(a_values)
    if adjoint_a:
        values = np.conj(values)
    out = np.zeros((rows_a, b.shape[1]), dtype=np.result_type(values, b))
    np.add.at(out, rows, values[:, None] * b[cols])
    return out.astype(b.dtype, copy=False)


def _spmm_shape(a_indices, a_values, a_shape, b, adjoint_a=False, adjoint_b=False):
    shape = _static_shape(a_shape)
    if shape.rank is not None and shape.rank != 2:
        raise shape_error(f"Shape must be rank 2 but is rank {shape.rank}")
    if b.shape.rank is not None and b.shape.rank != 2:
        raise shape_error(f"Shape must be rank 2 but is rank {b.shape.rank}")
    a_dims = [None, None] if shape.rank is None else list(shape.dims)
    b_dims = [None, None] if b.shape.rank is None else list(b.shape.dims)
    if adjoint_a:
        a_dims.reverse()
    if adjoint_b:
        b_dims.reverse()
    if a_dims[1] is not None and b_dims[0] is not None and a_dims[1] != b_dims[0]:
        raise shape_error(f"Dimensions must be equal, but are {a_dims[1]} and {b_dims[0]}")
    return TensorShape([a_dims[0], b_dims[1]]), b.dtype


def _spmm_grad(op, g):
    """d/d values: each stored a[i, k] gets sum_j g[i, j] * b'[k, j]; d/d b: A' g (then
    transposed back when ``adjoint_b``), as TF's gradient computes them."""
    indices, values, a_shape, b = op.inputs
    adj_a, adj_b = op.get_attr("adjoint_a"), op.get_attr("adjoint_b")
    if b.dtype.is_complex:
        raise NotImplementedError("tfgraph_edu does not differentiate SparseTensorDenseMatMul "
                                  "of complex values yet (TF does).")
    b_grad = bind(SparseTensorDenseMatMul, (indices, values, a_shape, g),
                  {"adjoint_a": not adj_a, "adjoint_b": False}, None)
    if adj_b:
        b_grad = shape_ops.transpose(b_grad)
    rows = indexing_ops.gather(indices, 1 if adj_a else 0, axis=1)
    cols = indexing_ops.gather(indices, 0 if adj_a else 1, axis=1)
    b_eff = shape_ops.transpose(b) if adj_b else b
    from . import reduction_ops
    v_grad = reduction_ops.reduce_sum(math_ops.multiply(
        indexing_ops.gather(g, rows), indexing_ops.gather(b_eff, cols)), axis=1)
    return None, v_grad, None, b_grad


SparseTensorDenseMatMul = define(
    "SparseTensorDenseMatMul", ("a_indices", "a_values", "a_shape", "b"), _spmm_kernel,
    _spmm_shape, _spmm_grad, T=(1, 3), attrs=("adjoint_a", "adjoint_b"))


def sparse_dense_matmul(sp_a, b, adjoint_a=False, adjoint_b=False, name=None):
    """``tf.sparse.sparse_dense_matmul``: a SparseTensor (or dense) matrix times a dense (or
    SparseTensor) matrix, a dense result; with a SparseTensor second, TF's transposed form."""
    if isinstance(b, SparseTensor) and not isinstance(sp_a, SparseTensor):
        dense = convert.to_tensor(sp_a, dtype=b.dtype)
        out = bind(SparseTensorDenseMatMul, (b.indices, b.values, b.dense_shape, dense),
                   {"adjoint_a": not adjoint_b, "adjoint_b": not adjoint_a},
                   name or "SparseTensorDenseMatMul")
        return shape_ops.transpose(out)
    _need_sparse(sp_a, "sparse.sparse_dense_matmul")
    b = convert.to_tensor(b)
    with _scope(name or "SparseTensorDenseMatMul"):  # TF's op sits in a scope of its name
        return bind(SparseTensorDenseMatMul, (sp_a.indices, sp_a.values, sp_a.dense_shape, b),
                    {"adjoint_a": bool(adjoint_a), "adjoint_b": bool(adjoint_b)},
                    "SparseTensorDenseMatMul")




# -- SparseSlice -----------------------------------------------------------------------------------
def _slice_bounds(shape, start, size):
    shape = np.asarray(shape, np.int64).reshape(-1)
    start = np.asarray(start, np.int64).reshape(-1)
    size = np.asarray(size, np.int64).reshape(-1)
    rank = len(shape)
    for nm, v in (("start", start), ("size", size)):
        if len(v) != rank:
            raise InvalidArgumentError(None, None, f"Expected {nm} to be a vector of length "
                                                   f"{rank} but got length {len(v)}")
    return shape, start, size


def _slice_kernel(indices, values, shape, start, size):
    shape, start, size = _slice_bounds(shape, start, size)
    indices = np.asarray(indices, np.int64).reshape(-1, len(shape))
    keep = np.all((indices >= start) & (indices < start + size), axis=1)
    out_shape = np.maximum(np.minimum(start + size, shape) - start, 0)
    return ((indices[keep] - start).astype(np.int64), np.asarray(values)[keep],
            out_shape.astype(np.int64))


def _slice_shape(indices, values, shape, start, size):
    rank = shape.shape.dims[0] if shape.shape.rank == 1 else None
    return _exact(_slice_kernel, (indices, values, shape, start, size), {},
                  (I64, values.dtype, I64)) or [
        (TensorShape([None, rank]), I64), (TensorShape([None]), values.dtype),
        (TensorShape([rank]), I64)]


def _slice_grad(op, g_indices, g_values, g_shape):
    indices, _, _, start, _ = op.inputs
    return None, bind(SparseSliceGrad, (g_values, indices, start, op.outputs[0]), None,
                      None), None, None, None


SparseSlice = define("SparseSlice", ("indices", "values", "shape", "start", "size"),
                     _slice_kernel, _slice_shape, _slice_grad, num_outputs=3, mixed_types=True,
                     attrs=())


def _slice_grad_kernel(backprop_val_grad, input_indices, input_start, output_indices):
    """The sliced values' gradient put back at the input values it came from, zeros
    for the values the slice dropped."""
    input_indices = np.asarray(input_indices, np.int64)
    start = np.asarray(input_start, np.int64).reshape(-1)
    out = np.zeros(input_indices.shape[0], dtype=np.asarray(backprop_val_grad).dtype)
    where = {tuple(int(i) for i in idx): n for n, idx in enumerate(input_indices)}
    for g, idx in zip(np.asarray(backprop_val_grad), np.asarray(output_indices, np.int64)):
        out[where[tuple(int(i) for i in idx + start)]] = g
    return out


SparseSliceGrad = define(
    "SparseSliceGrad", ("backprop_val_grad", "input_indices", "input_start", "output_indices"),
    _slice_grad_kernel,
    lambda g, ind, start, out: (TensorShape([ind.shape.dims[0] if ind.shape.rank == 2
                                             else None]), g.dtype),
    None, mixed_types=True, attrs=())


def slice_(sp_input, start, size, name=None):
    """``tf.sparse.slice``: the values inside the box ``[start, start + size)``, their
    indices made relative to ``start``; the box is cut at the dense shape."""
    _need_sparse(sp_input, "sparse.slice")
    start = convert.to_tensor(start, dtype=I64)
    size = convert.to_tensor(size, dtype=I64)
    ind, val, shape = bind(SparseSlice, (sp_input.indices, sp_input.values,
                                         sp_input.dense_shape, start, size), None,
                           name or "SparseSlice")
    return SparseTensor(ind, val, shape)


# -- SparseDenseCwiseMul / Div ---------------------------------------------------------------------
def _cwise_dense_at(indices, shape, dense):
    """The dense operand at each sparse index, after broadcasting it to the sparse shape
    (dense to sparse only, as TF's kernel)."""
    shape = [int(d) for d in np.asarray(shape).reshape(-1)]
    dense = np.asarray(dense)
    ok = dense.ndim <= len(shape) and all(
        d in (1, s) for d, s in zip(dense.shape[::-1], shape[::-1]))
    if not ok:
        raise InvalidArgumentError(None, None, "SparseDenseBinaryOpShared broadcasts dense to "
                                               f"sparse only; got incompatible shapes: "
                                               f"[{_dims_text(shape)}] vs. "
                                               f"[{_dims_text(dense.shape)}]")
    full = np.broadcast_to(dense, shape)
    indices = np.asarray(indices, np.int64).reshape(-1, len(shape))
    return full[tuple(indices.T)] if len(shape) else np.broadcast_to(full, (len(indices),))


def _cwise_shape(sp_indices, sp_values, sp_shape, dense):
    return sp_values.shape, sp_values.dtype


def _cwise_grad(is_mul):
    def grad(op, g):
        indices, values, shape, dense = op.inputs
        full = shape_ops.broadcast_to(dense, shape)
        at = _gather_nd(full, indices)
        if is_mul:
            dx, dy_values = g * at, g * values
        else:
            dx, dy_values = g / at, -g * values / math_ops.square(at)
        from . import scatter_ops
        dy_full = scatter_ops.scatter_nd(indices, dy_values, shape)
        return None, dx, None, math_ops.reduce_to(dy_full, dense)
    return grad


SparseDenseCwiseMul = define(
    "SparseDenseCwiseMul", ("sp_indices", "sp_values", "sp_shape", "dense"),
    lambda i, v, s, d: np.asarray(v * _cwise_dense_at(i, s, d)).astype(np.asarray(v).dtype),
    _cwise_shape, _cwise_grad(True), T=(1, 3))
SparseDenseCwiseDiv = define(
    "SparseDenseCwiseDiv", ("sp_indices", "sp_values", "sp_shape", "dense"),
    lambda i, v, s, d: _cwise_div(np.asarray(v), np.asarray(d), _cwise_dense_at(i, s, d)),
    _cwise_shape, _cwise_grad(False), T=(1, 3))


def _cwise_div(x, dense, y):
    """TF refuses a dense operand holding a zero anywhere, floats too (its words, sic)."""
    if np.any(dense == 0):
        raise InvalidArgumentError(None, None, "SparseDenseCwiseDiv cannot divide by zero,but "
                                               "input dense tensor contains zero ")
    if x.dtype.kind in "iu":  # integer division truncates toward zero
        return (np.sign(x) * np.sign(y) * (np.abs(x) // np.abs(y))).astype(x.dtype)
    return (x / y).astype(x.dtype)


def _cwise(opdef, sp, other):
    other = convert.to_tensor(other, dtype=sp.dtype) if not convert.is_tensor(other) else (
        other)
    if other.dtype is not sp.dtype:
        raise ValueError(f"y: Tensor conversion requested dtype {sp.dtype.name} for Tensor "
                         f"with dtype {other.dtype.name}: {other!r}")
    values = bind(opdef, (sp.indices, sp.values, sp.dense_shape, other), None, opdef.name)
    return SparseTensor(sp.indices, values, sp.dense_shape)


# -- SparseReshape -------------------------------------------------------------------------------
def _reshape_kernel(input_indices, input_shape, new_shape):
    old = np.asarray(input_shape, np.int64).reshape(-1)
    new = np.asarray(new_shape, np.int64).reshape(-1).copy()
    unknown = [i for i, d in enumerate(new) if d == -1]
    if len(unknown) > 1:
        raise InvalidArgumentError(None, None, f"only one output dimension may be -1, not "
                                               f"both {unknown[0]} and {unknown[1]}")
    dense_size = int(np.prod(old)) if old.size else 1
    if unknown:
        known = int(np.prod([d for d in new if d != -1])) if len(new) > 1 else 1
        if known == 0 or dense_size % known:
            raise InvalidArgumentError(
                None, None, f"Input to reshape is a tensor with {dense_size} dense values, "
                f"but the requested shape requires a multiple of {known}. "
                f"input_shape=[{_dims_text(old)}] output_shape=[{_dims_text(new)}]")
        new[unknown[0]] = dense_size // known
    if int(np.prod(new)) != dense_size:
        raise InvalidArgumentError(
            None, None, f"Input to reshape is a tensor with {dense_size} dense values, but the "
            f"requested shape has {int(np.prod(new))}. input_shape=[{_dims_text(old)}] "
            f"output_shape=[{_dims_text(new)}]")
    indices = np.asarray(input_indices, np.int64).reshape(-1, len(old))
    flat = np.ravel_multi_index(indices.T, old) if len(old) else np.zeros(len(indices), int)
    out = np.stack(np.unravel_index(flat, new), axis=1) if len(new) else np.zeros(
        (len(indices), 0), np.int64)
    return out.astype(np.int64).reshape(len(indices), len(new)), new.astype(np.int64)


def _reshape_shape(input_indices, input_shape, new_shape):
    n = new_shape.shape.dims[0] if new_shape.shape.rank == 1 else None
    rows = input_indices.shape.dims[0] if input_indices.shape.rank == 2 else None
    return [(TensorShape([rows, n]), I64), (TensorShape([n]), I64)]


SparseReshape = define("SparseReshape", ("input_indices", "input_shape", "new_shape"),
                       _reshape_kernel, _reshape_shape, lambda op, gi, gs: (None, None, None),
                       num_outputs=2, mixed_types=True, attrs=())


def reshape(sp_input, shape, name=None):
    """``tf.sparse.reshape``: the same values at their places in a new dense shape (one -1
    inferred); the static shape is the new shape as far as it is known, as in TF."""
    _need_sparse(sp_input, "sparse.reshape")
    shape = convert.to_tensor(shape, dtype=I64)
    ind, dense_shape = bind(SparseReshape, (sp_input.indices, sp_input.dense_shape, shape),
                            None, name or "SparseReshape")
    out = SparseTensor(ind, sp_input.values, dense_shape)
    new = constant_value(shape)
    old = sp_input.shape
    if new is not None:
        dims = [int(d) for d in np.reshape(new, -1)]
        if -1 in dims and old.is_fully_defined() and dims.count(-1) == 1:
            rest = int(np.prod([d for d in dims if d != -1]))
            total = int(np.prod(old.as_list()))
            if rest and total % rest == 0:
                dims[dims.index(-1)] = total // rest
        out._shape_default = TensorShape([None if d == -1 else d for d in dims])
    return out


# -- SparseFillEmptyRows ------------------------------------------------------------------------
def _fill_kernel(indices, values, dense_shape, default_value):
    shape = np.asarray(dense_shape, np.int64).reshape(-1)
    indices = np.asarray(indices, np.int64).reshape(-1, len(shape))
    values = np.asarray(values)
    rows = int(shape[0]) if len(shape) else 0
    present = np.zeros(rows, bool)
    present[indices[:, 0]] = True
    empty = ~present
    extra = np.zeros((int(empty.sum()), len(shape)), np.int64)
    extra[:, 0] = np.nonzero(empty)[0]
    all_ind = np.concatenate([indices, extra])
    all_val = np.concatenate([values, np.full(len(extra), default_value, values.dtype)])
    order = np.lexsort(all_ind.T[::-1]) if len(all_ind) else np.zeros(0, int)
    reverse = np.argsort(order, kind="stable")[:len(indices)].astype(np.int64)
    return all_ind[order], all_val[order], empty, reverse


def _fill_shape(indices, values, dense_shape, default_value):
    exact = _exact(_fill_kernel, (indices, values, dense_shape, default_value), {},
                   (I64, values.dtype, _dt.bool, I64))
    if exact:
        return exact
    rank = indices.shape.dims[1] if indices.shape.rank == 2 else None
    rows = None
    known = constant_value(dense_shape)
    if known is not None and np.size(known):
        rows = int(np.reshape(known, -1)[0])
    return [(TensorShape([None, rank]), I64), (TensorShape([None]), values.dtype),
            (TensorShape([rows]), _dt.bool), (TensorShape([values.shape.dims[0]
                                                          if values.shape.rank else None]),
                                              I64)]


def _fill_grad(op, g_indices, g_values, g_empty, g_reverse):
    """d/d values: each input value's gradient is the output gradient where it went; d/d
    default: the gradients of the filled places (TF's SparseFillEmptyRowsGrad)."""
    from . import reduction_ops
    reverse = op.outputs[3]
    d_values = indexing_ops.gather(g_values, reverse)
    d_default = reduction_ops.reduce_sum(g_values) - reduction_ops.reduce_sum(d_values)
    return None, d_values, None, d_default


SparseFillEmptyRows = define(
    "SparseFillEmptyRows", ("indices", "values", "dense_shape", "default_value"),
    _fill_kernel, _fill_shape, _fill_grad, num_outputs=4, T=(1, 3))


def fill_empty_rows(sp_input, default_value, name=None):
    """``tf.sparse.fill_empty_rows``: each row with no value gets ``default_value`` at
    column 0; also returns which rows were empty."""
    _need_sparse(sp_input, "sparse.fill_empty_rows")
    default = convert.to_tensor(default_value, dtype=sp_input.dtype)
    ind, val, empty, _ = bind(SparseFillEmptyRows, (sp_input.indices, sp_input.values,
                                                    sp_input.dense_shape, default), None,
                              name or "SparseFillEmptyRows")
    return SparseTensor(ind, val, sp_input.dense_shape), empty


# -- SparseSparseMinimum / Maximum ----------------------------------------------------------------
def _minmax_kernel(a_indices, a_values, a_shape, b_indices, b_values, b_shape, pick):
    a_shape, b_shape = np.asarray(a_shape).reshape(-1), np.asarray(b_shape).reshape(-1)
    if a_shape.tolist() != b_shape.tolist():
        raise InvalidArgumentError(None, None, f"Operands do not have the same ranks; got "
                                               f"shapes: {a_shape.tolist()} and "
                                               f"{b_shape.tolist()}"
                                   if len(a_shape) != len(b_shape) else
                                   f"Operands' shapes do not match: got "
                                   f"{a_shape.tolist()} and {b_shape.tolist()}")
    rank = len(a_shape)
    a = {tuple(int(i) for i in k): v for k, v in zip(
        np.asarray(a_indices).reshape(-1, rank), np.asarray(a_values))}
    b = {tuple(int(i) for i in k): v for k, v in zip(
        np.asarray(b_indices).reshape(-1, rank), np.asarray(b_values))}
    dtype = np.asarray(a_values).dtype
    keys = sorted(set(a) | set(b))  # a value missing from one operand is its implicit zero
    vals = [pick(a.get(k, dtype.type(0)), b.get(k, dtype.type(0))) for k in keys]
    return (np.array(keys, np.int64).reshape(-1, rank), np.array(vals, dtype))


def _minmax_shape(a_indices, a_values, a_shape, b_indices, b_values, b_shape, pick=min):
    exact = _exact(_minmax_kernel, (a_indices, a_values, a_shape, b_indices, b_values,
                                    b_shape), {"pick": pick}, (I64, a_values.dtype))
    if exact:
        return exact
    rank = a_shape.shape.dims[0] if a_shape.shape.rank == 1 else None
    return [(TensorShape([None, rank]), I64), (TensorShape([None]), a_values.dtype)]


def _minmax_grad(name):
    def grad(op, *gs):  # TF 2.21's gradient function for it fails so
        raise TypeError(f"_{name}Grad() takes 2 positional arguments but 3 were given (TF "
                        f"2.21's gradient of {name} fails so: differentiate "
                        "tf.minimum/tf.maximum of the tf.sparse.to_dense tensors instead)")
    return grad


SparseSparseMinimum = define(
    "SparseSparseMinimum", ("a_indices", "a_values", "a_shape", "b_indices", "b_values",
                            "b_shape"),
    lambda *a: _minmax_kernel(*a, pick=min), lambda *a: _minmax_shape(*a, pick=min),
    _minmax_grad("SparseSparseMinimum"), num_outputs=2, T=(1, 4))
SparseSparseMaximum = define(
    "SparseSparseMaximum", ("a_indices", "a_values", "a_shape", "b_indices", "b_values",
                            "b_shape"),
    lambda *a: _minmax_kernel(*a, pick=max), lambda *a: _minmax_shape(*a, pick=max),
    _minmax_grad("SparseSparseMaximum"), num_outputs=2, T=(1, 4))


def _minmax(opdef, sp_a, sp_b, name):
    _need_sparse(sp_a, f"sparse.{opdef.name[12:].lower()}")
    _need_sparse(sp_b, f"sparse.{opdef.name[12:].lower()}")
    ind, val = bind(opdef, (sp_a.indices, sp_a.values, sp_a.dense_shape, sp_b.indices,
                            sp_b.values, sp_b.dense_shape), None, name or opdef.name)
    return SparseTensor(ind, val, sp_a.dense_shape)


def minimum(sp_a, sp_b, name=None):
    """``tf.sparse.minimum``: elementwise, over the union of the indices (a value one side
    lacks is 0)."""
    return _minmax(SparseSparseMinimum, sp_a, sp_b, name)


def maximum(sp_a, sp_b, name=None):
    """``tf.sparse.maximum``: elementwise, over the union of the indices (a value one side
    lacks is 0)."""
    return _minmax(SparseSparseMaximum, sp_a, sp_b, name)


# -- SparseSoftmax ------------------------------------------------------------------------------
def _softmax_kernel(sp_indices, sp_values, sp_shape):
    shape = np.asarray(sp_shape, np.int64).reshape(-1)
    if len(shape) < 2:
        raise InvalidArgumentError(None, None, f"Input should have rank >= 2, but received "
                                               f"shape: {' '.join(str(int(d)) for d in shape)}")
    indices = np.asarray(sp_indices, np.int64).reshape(-1, len(shape))
    values = np.asarray(sp_values)
    out = np.empty_like(values)
    groups: dict = {}
    for n, idx in enumerate(indices):  # one softmax per row of the last dimension
        groups.setdefault(tuple(int(i) for i in idx[:-1]), []).append(n)
    for members in groups.values():
        v = values[members]
        e = np.exp(v - v.max())
        out[members] = e / e.sum()
    return out


def _softmax_grad(op, g):
    """TF's: (g - the row sums of g * y) * y, the sums taken over the stored values."""
    indices, _, shape = op.inputs
    y = op.outputs[0]
    sums = bind(SparseReduceSum, (indices, g * y, shape, convert.to_tensor([-1], _dt.int32)),
                {"keep_dims": True}, None)
    at = _gather_nd(shape_ops.broadcast_to(sums, shape), indices)
    return None, (g - at) * y, None


SparseSoftmax = define("SparseSoftmax", ("sp_indices", "sp_values", "sp_shape"),
                       _softmax_kernel, lambda i, v, s: (v.shape, v.dtype), _softmax_grad,
                       T=(1,), dtypes=frozenset({_dt.float16, _dt.float32, _dt.float64}))


def softmax(sp_input, name=None):
    """``tf.sparse.softmax``: a softmax over the stored values of each row of the last
    dimension (the missing ones take no part)."""
    _need_sparse(sp_input, "sparse.softmax")
    values = bind(SparseSoftmax, (sp_input.indices, sp_input.values, sp_input.dense_shape),
                  None, name or "SparseSoftmax")
    return SparseTensor(sp_input.indices, values, sp_input.dense_shape)


# -- made of ordinary ops, as in TF ----------------------------------------------------------------
def retain(sp_input, to_retain):
    """``tf.sparse.retain``: the values (and their indices) where ``to_retain`` is True."""
    _need_sparse(sp_input, "sparse.retain")
    to_retain = convert.to_tensor(to_retain, dtype=_dt.bool)
    n, m = sp_input.values.shape, to_retain.shape
    if m.rank is not None and m.rank != 1:
        raise ValueError(f"Shape {m} must have rank 1")
    if n.rank == 1 and None not in (n.dims[0], m.dims[0]) and n.dims[0] != m.dims[0]:
        raise ValueError(f"Dimensions {n.dims[0]} and {m.dims[0]} are not compatible")
    where = shape_ops.reshape(indexing_ops.where(to_retain), [-1])
    return SparseTensor(indexing_ops.gather(sp_input.indices, where),
                        indexing_ops.gather(sp_input.values, where), sp_input.dense_shape)


def eye(num_rows, num_columns=None, dtype=_dt.float32, name=None):
    """``tf.sparse.eye``: ones on the diagonal of a ``num_rows`` x ``num_columns`` shape."""
    rows = convert.to_tensor(num_rows, dtype=I64)
    cols = rows if num_columns is None else convert.to_tensor(num_columns, dtype=I64)
    n = math_ops.minimum(rows, cols)
    diag = creation_ops.range_(n, dtype=I64)
    indices = concat_ops.stack([diag, diag], axis=1)
    values = creation_ops.ones(concat_ops.stack([n]), dtype=dtype)
    out = SparseTensor(indices, values, concat_ops.stack([rows, cols]))
    known = [constant_value(rows), constant_value(cols)]
    if all(k is not None for k in known):  # as TF: sizes known while tracing stay known
        out._shape_default = TensorShape([int(k) for k in known])
    return out


def reset_shape(sp_input, new_shape=None):
    """``tf.sparse.reset_shape``: the dense shape made the tightest one holding the indices,
    or ``new_shape`` (no smaller than the current one, checked eagerly)."""
    _need_sparse(sp_input, "sparse.reset_shape")
    from . import reduction_ops
    if new_shape is None:
        shape = reduction_ops.reduce_max(sp_input.indices, axis=0) + 1
        return SparseTensor(sp_input.indices, sp_input.values, shape)
    new_shape = convert.to_tensor(new_shape, dtype=I64)
    old, new = constant_value(sp_input.dense_shape), constant_value(new_shape)
    if old is not None and new is not None and np.any(np.asarray(new) < np.asarray(old)):
        # TF's words, its two shapes printed the other way round (sic)
        raise ValueError("Requested new_shape should have dimension sizes >= sp_input.shape.  "
                         f"Found new_shape ({np.asarray(old)}), sp_input.shape "
                         f"({np.asarray(new)}).")
    return SparseTensor(sp_input.indices, sp_input.values, new_shape)


def transpose(sp_input, perm=None, name=None):
    """``tf.sparse.transpose``: the dimensions permuted by ``perm`` (reversed by default),
    the indices then put back in row-major order."""
    _need_sparse(sp_input, "sparse.transpose")
    rank = sp_input.shape.rank
    if perm is None:
        if rank is None:
            raise NotImplementedError("tfgraph_edu's tf.sparse.transpose needs a known rank "
                                      "when perm is None.")
        perm = list(range(rank - 1, -1, -1))
    perm_t = convert.to_tensor(perm, dtype=_dt.int32)
    indices = shape_ops.transpose(indexing_ops.gather(shape_ops.transpose(sp_input.indices),
                                                      perm_t))
    dense_shape = indexing_ops.gather(sp_input.dense_shape, perm_t)
    out = reorder(SparseTensor(indices, sp_input.values, dense_shape))
    static = sp_input.shape
    perm_v = constant_value(perm_t)
    if static.rank is not None and perm_v is not None:
        out._shape_default = TensorShape([static.dims[int(p)] for p in np.reshape(perm_v, -1)])
    return out
