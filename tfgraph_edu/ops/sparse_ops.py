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

    def __mul__(self, other):
        """``sp * x``: each value times ``x`` (a scalar), as TF's SparseDenseCwiseMul does
        for a scalar; other dense operands are not implemented."""
        other_t = convert.to_tensor(other, dtype=self.dtype)
        if other_t.shape.rank != 0:
            raise NotImplementedError("tfgraph_edu's SparseTensor * tensor takes a scalar only "
                                      "(tf.sparse.SparseTensor.__mul__).")
        return SparseTensor(self._indices, math_ops.multiply(self._values, other_t),
                            self._dense_shape)

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


SparseReorder = define("SparseReorder", ("input_indices", "input_values", "input_shape"),
                       _reorder_kernel, _reorder_shape, _not_differentiable_yet("SparseReorder"),
                       num_outputs=2)


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
        merged = (static.merge_with(b.shape) if static.is_compatible_with(b.shape)
                  else TensorShape(None))
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
