"""TensorFlow's ops on ``tf.RaggedTensor`` arguments: the ragged versions TF dispatches to
(layer 1).

TensorFlow gives its public ops a dispatch: called with a ``RaggedTensor``, ``tf.add``,
``tf.reduce_mean``, ``tf.concat``, ``tf.strings.length``... run a ragged version.  Here the
same: ``install()`` (run once when ``tfgraph_edu.ops`` is imported, before the public
namespaces import the functions) wraps each such function of its op module so that a call
with a ragged argument goes to the version below, and any other call goes straight on.
Elementwise ops broadcast as TF does (``elementwise``); an op with a ragged argument that has
no ragged version here raises NotImplementedError naming it (``convert.to_tensor``).
"""

from __future__ import annotations

import functools

import numpy as np

from .. import dtypes as _dt
from ..errors import InvalidArgumentError
from . import convert, math_ops, ragged_rows, shape_ops

I64 = _dt.int64
is_ragged = ragged_rows.is_ragged


# -- elementwise ops, with TF's broadcasting ---------------------------------------------------
def _eager(*ts) -> bool:
    return all(hasattr(t, "numpy") for t in ts)


def _splits_error(a, b):
    """TF's ``assert_equal`` message for two splits vectors that differ."""
    if a.shape != b.shape:
        return InvalidArgumentError(None, None, "Condition x == y did not hold.\n"
                                    "First 1 elements of x:\n[False]\n"
                                    "First 1 elements of y:\n[ True]")
    diff = np.nonzero(a != b)[0][:3]
    return InvalidArgumentError(
        None, None, "Condition x == y did not hold.\n"
        f"Indices of first {diff.size} different values:\n{diff[:, None]}\n"
        f"Corresponding x values:\n{a[diff]}\nCorresponding y values:\n{b[diff]}\n"
        f"First 3 elements of x:\n{a[:3]}\nFirst 3 elements of y:\n{b[:3]}")


def _check_same_splits(x_splits, y_splits):
    """Raise TF's error when two ragged operands' rows differ (eagerly; in a graph through an
    ``Assert`` op, as TF)."""
    for a, b in zip(x_splits, y_splits):
        if a is b:
            continue
        if _eager(a, b):
            an, bn = a.numpy(), b.numpy()
            if an.shape != bn.shape or (an != bn).any():
                raise _splits_error(an, bn)
        else:
            from .check_ops import assert_equal
            assert_equal(a, b)


def _as_flat(rt, t):
    """A dense operand ``t`` broadcast against ragged ``rt``, as a tensor that broadcasts
    against ``rt.flat_values`` (TF's rules: dims facing ragged ones must be 1, or the dense
    tensor must have those very rows)."""
    k = rt.flat_values.shape.rank - 1
    r = rt.ragged_rank
    m = t.shape.rank
    if m is None:
        raise NotImplementedError("tfgraph_edu broadcasts a RaggedTensor with tensors of known "
                                  "rank only yet.")
    if m <= k:
        return t
    if m > 1 + r + k:
        raise ValueError(f"Unable to broadcast: dimension size mismatch in dimension "
                         f"{m - (1 + r + k)}. The rank of the dense operand ({m}) is larger "
                         f"than the rank of the ragged operand ({1 + r + k}).")
    outer = t.shape.dims[:m - k]  # dims facing the rows and ragged dims (the last of them)
    inner = t.shape.dims[m - k:]
    facing_ragged = outer[1:] if len(outer) == 1 + r else outer
    if all(d == 1 for d in facing_ragged):
        if len(outer) == 1 + r and outer[0] != 1:
            # one value per row, repeated along each row: gathered by the rows of every level
            x = shape_ops.reshape(t, [-1] + [d if d is not None else -1 for d in inner])
            if _eager(x, rt.row_splits):
                n, want = int(x.shape[0]), int(rt.nrows().numpy())
                if n != want:
                    raise _splits_error(np.zeros(n + 1, np.int64), np.zeros(want + 1, np.int64))
            for splits in rt.nested_row_splits:
                x = ragged_rows.gather_rows(x, ragged_rows.value_rowids(splits))
            return x
        return shape_ops.reshape(t, [d if d is not None else -1 for d in inner]) if inner \
            else shape_ops.reshape(t, [])
    # a dense dim facing a ragged one: TF makes the dense tensor ragged (uniform rows) and
    # checks that its rows are the ragged operand's
    if len(outer) != 1 + r or not _eager(t, *rt.nested_row_splits):
        raise NotImplementedError("tfgraph_edu broadcasts a dense tensor against a ragged "
                                  "dimension eagerly, with all dimensions given, only yet.")
    from .ragged_ops import RaggedTensor
    dense_rt = RaggedTensor.from_tensor(t, ragged_rank=r)
    mine = [s.numpy() for s in rt.nested_row_splits]
    theirs = [s.numpy() for s in dense_rt.nested_row_splits]
    for a, b in zip(theirs, mine):
        if a.shape != b.shape or (a != b).any():
            raise _splits_error(a, b)
    return dense_rt.flat_values


def elementwise(fn, args, **kwargs):
    """``fn`` (an elementwise op) on ``args``, some of them ragged: the result has the rows of
    the ragged ones."""
    base = next(a for a in args if is_ragged(a))
    dtype = base.dtype
    flats = []
    for a in args:
        if is_ragged(a):
            if a is not base:
                if a.ragged_rank != base.ragged_rank:
                    raise NotImplementedError("tfgraph_edu combines RaggedTensors of one "
                                              "ragged_rank only yet.")
                _check_same_splits(base.nested_row_splits, a.nested_row_splits)
            flats.append(a.flat_values)
        else:
            t = a if convert.is_tensor(a) else convert.to_tensor(a, dtype_hint=dtype)
            flats.append(_as_flat(base, t))
    return base.with_flat_values(fn(*flats, **kwargs))


# -- elementwise ops, at the op: a RaggedTensor input reaches ``_core.bind``, whose failure
# hook runs the op on the flat values (no wrapper, so a dense call costs nothing more) ------
ELEMENTWISE_OPS = frozenset({
    "AddV2", "Add", "Sub", "Mul", "RealDiv", "Div", "FloorDiv", "FloorMod", "Pow", "Maximum",
    "Minimum", "Equal", "NotEqual", "Less", "LessEqual", "Greater", "GreaterEqual",
    "LogicalAnd", "LogicalOr", "SquaredDifference", "DivNoNan", "Atan2", "Abs", "Neg",
    "Square", "Sqrt", "Rsqrt", "Exp", "Log", "Log1p", "Sin", "Cos", "Tan", "Tanh", "Sigmoid",
    "Sign", "Cast", "Round", "Ceil", "Floor", "Reciprocal", "Inv", "IsNan", "IsInf",
    "IsFinite", "LogicalNot", "ZerosLike", "OnesLike", "Identity", "StopGradient", "Relu",
    "Relu6", "Softplus", "Softsign", "Elu", "Selu", "LeakyRelu", "Erf", "Expm1", "Asin",
    "Acos", "Atan", "Sinh", "Cosh", "StringLength", "StringUpper", "StringLower",
    "StringToNumber", "AsString", "Substr", "StringToHashBucketFast", "SelectV2",
    "StringJoin", "ClipByValue",
})


def op_hook(opdef, inputs, attrs, name):
    """``_core.bind``'s second chance: an elementwise op with RaggedTensor inputs."""
    if opdef.name not in ELEMENTWISE_OPS or not any(type(a) in _TYPES for a in inputs):
        return NotImplemented
    from ._core import bind
    return elementwise(lambda *flats: bind(opdef, flats, attrs, name), tuple(inputs))


# -- the ragged versions of TF's ops -----------------------------------------------------------
def _unary(fn):
    def ragged(x, *args, **kwargs):
        return x.with_flat_values(fn(x.flat_values, *args, **kwargs))
    return ragged


def _binary(fn):
    def ragged(x, y, *args, **kwargs):
        return elementwise(lambda a, b: fn(a, b, *args, **kwargs), (x, y))
    return ragged


def _ragged_where(condition, x=None, y=None, name=None):
    if x is None and y is None:
        raise NotImplementedError("tfgraph_edu's tf.where(condition) with a RaggedTensor "
                                  "condition is not implemented yet.")
    from .indexing_ops import where
    return elementwise(lambda c, a, b: where(c, a, b), (condition, x, y))


def _axis_list(axis, rank):
    if axis is None:
        return None
    axes = list(axis) if isinstance(axis, (list, tuple)) else [axis]
    out = []
    for a in axes:
        a = int(a.numpy()) if hasattr(a, "numpy") else a
        if not isinstance(a, (int, np.integer)):
            raise NotImplementedError("tfgraph_edu reduces a RaggedTensor over constant axes "
                                      "only yet.")
        if rank is None and a < 0:
            raise ValueError("axis may only be negative if rank is statically known.")
        a = a + rank if a < 0 else a
        if rank is not None and not 0 <= a < rank:
            raise ValueError(f"axis={a} out of bounds: expected {-rank}<=axis<{rank}")
        out.append(int(a))
    return sorted(set(out), reverse=True)


def _segment(kind, values, splits):
    if ragged_rows.is_ragged(values):  # rows of rows: column by column within each row
        from .ragged_ops import RaggedTensor
        reduced, out_splits = _across_rows(kind, values, splits)
        return RaggedTensor(reduced, out_splits)
    ids = ragged_rows.value_rowids(splits)
    n = math_ops.subtract(shape_ops.shape(splits, out_type=I64)[0], convert.constant(1, I64))
    return _segment_ids(kind, values, ids, n)


def _segment_ids(kind, values, ids, n):
    from . import segment_ops
    from .indexing_ops import unsorted_segment_sum
    if kind == "sum":
        return unsorted_segment_sum(values, ids, n)
    if kind == "max":
        return segment_ops.unsorted_segment_max(values, ids, n)
    if kind == "min":
        return segment_ops.unsorted_segment_min(values, ids, n)
    raise NotImplementedError(f"tfgraph_edu's tf.reduce_{kind} over a ragged dimension is "
                              "not implemented yet.")


def _across_rows(kind, inner, outer_splits):
    """The rows of ragged ``inner`` reduced column by column within each group of rows that
    ``outer_splits`` makes: (reduced values, splits: one row per group, as long as its
    longest row), as TF reduces across a ragged dimension."""
    if ragged_rows.is_ragged(inner.values):
        raise NotImplementedError("tfgraph_edu reduces a RaggedTensor across rows only when "
                                  "the values below them have one ragged dimension yet.")
    from . import segment_ops
    s = inner.row_splits
    inner_rows = ragged_rows.value_rowids(s)  # the inner row of every value
    group_of_row = ragged_rows.value_rowids(outer_splits)
    groups = math_ops.subtract(shape_ops.shape(outer_splits, out_type=I64)[0],
                               convert.constant(1, I64))
    lengths = math_ops.subtract(s[1:], s[:-1])
    widths = math_ops.maximum(segment_ops.unsorted_segment_max(lengths, group_of_row, groups),
                              convert.constant(0, I64))
    out_splits = ragged_rows.splits_from_lengths(widths)
    col = math_ops.subtract(_range64(s[-1]), _gather(s, inner_rows))
    seg = math_ops.add(_gather(out_splits, _gather(group_of_row, inner_rows)), col)
    return _segment_ids(kind, inner.values, seg, out_splits[-1]), out_splits


def _reduce_columns(kind, rt):
    """``rt`` reduced across its rows (axis 0): one result per column, as many columns as
    the longest row (TF's)."""
    one_group = convert.constant([0], I64)
    from .concat_ops import concat
    splits = concat([one_group, shape_ops.reshape(rt.nrows(), [1])], 0)
    values, _ = _across_rows(kind, rt, splits)
    return values


def _reduce_one(kind, rt, axis):
    """``rt`` reduced over one axis (>= 1)."""
    if not is_ragged(rt):
        return _DENSE_REDUCE[kind](rt, axis=axis)
    if axis == 1:
        return _segment(kind, rt.values, rt.row_splits)
    return rt.with_values(_reduce_one(kind, rt.values, axis - 1))


def _dense_reducers():
    from . import reduction_ops as r
    return {"sum": r.reduce_sum, "max": r.reduce_max, "min": r.reduce_min,
            "prod": r.reduce_prod, "all": r.reduce_all, "any": r.reduce_any}


_DENSE_REDUCE: dict = {}


def _ragged_reduce(kind):
    def ragged(input_tensor, axis=None, keepdims=False, name=None):
        if not _DENSE_REDUCE:
            _DENSE_REDUCE.update(_dense_reducers())
        rt = input_tensor
        if keepdims:
            raise NotImplementedError("tfgraph_edu reduces a RaggedTensor with keepdims=False "
                                      "only yet.")
        axes = _axis_list(axis, rt.shape.rank)
        if kind == "mean":
            total = _ragged_reduce("sum")(rt, axis)
            ones = rt.with_flat_values(math_ops.cast(_ones_like(rt.flat_values), total.dtype))
            count = _ragged_reduce("sum")(ones, axis)
            return elementwise(math_ops.truediv, (total, count)) if is_ragged(total) else \
                math_ops.truediv(total, count)
        if kind in ("all", "any"):
            raise NotImplementedError(f"tfgraph_edu's tf.reduce_{kind} of a RaggedTensor is "
                                      "not implemented yet.")
        if axes is None:
            return _DENSE_REDUCE[kind](rt.flat_values)
        out = rt
        for a in axes:
            if a == 0:
                if not is_ragged(out):
                    out = _DENSE_REDUCE[kind](out, axis=0)
                    continue
                out = _reduce_columns(kind, out)
                continue
            out = _reduce_one(kind, out, a)
        return out
    return ragged


def _ones_like(t):
    from .creation_ops import ones_like
    return ones_like(t)


def _ragged_concat(values, axis, name="concat"):
    values = list(values)
    base = next(v for v in values if is_ragged(v))
    from .ragged_ops import RaggedTensor
    rank = base.shape.rank
    axis = axis + rank if axis < 0 and rank is not None else axis
    rts = []
    for v in values:
        if is_ragged(v):
            rts.append(v)
        else:
            t = convert.to_tensor(v, dtype_hint=base.dtype)
            if not _eager(t):
                raise NotImplementedError("tfgraph_edu's tf.concat of a RaggedTensor with a "
                                          "dense tensor runs eagerly only yet.")
            rts.append(RaggedTensor.from_tensor(t, ragged_rank=base.ragged_rank))
    if any(r.ragged_rank != base.ragged_rank for r in rts):
        raise NotImplementedError("tfgraph_edu concatenates RaggedTensors of one ragged_rank "
                                  "only yet.")
    if len(rts) == 1:
        return rts[0]
    if axis == 0:
        return ragged_rows.concat_rows(rts)
    if axis == 1:
        # row i of the result: row i of each input, one after another
        n = len(rts)
        lengths = [r.row_lengths() for r in rts]
        from .concat_ops import concat, stack
        total_len = math_ops.add_n(lengths) if n > 1 else lengths[0]
        splits = ragged_rows.splits_from_lengths(total_len)
        # position of every value of input j in the result
        positions = []
        before = None
        for j, r in enumerate(rts):
            rows = r.value_rowids()
            within = math_ops.subtract(
                _range64(r.row_splits[-1]), _gather(r.row_splits, rows))
            start = _gather(splits, rows)
            if before is not None:
                start = math_ops.add(start, _gather(before, rows))
            positions.append(math_ops.add(start, within))
            before = lengths[j] if before is None else math_ops.add(before, lengths[j])
        del stack
        from .sort_ops import argsort
        order = argsort(concat(positions, 0), stable=True)
        vals = ragged_rows.concat_rows([r.values for r in rts])
        return RaggedTensor(ragged_rows.gather_rows(vals, order), splits)
    return rts[0].with_values(_ragged_concat([r.values for r in rts], axis - 1))


def _range64(n):
    from .creation_ops import range_
    return range_(0, n, dtype=I64)


def _gather(x, idx):
    from .indexing_ops import gather
    return gather(x, idx)


def _ragged_stack(values, axis=0, name="stack"):
    values = list(values)
    if axis != 0:
        raise NotImplementedError("tfgraph_edu's tf.stack of RaggedTensors takes axis=0 "
                                  "only yet.")
    from .ragged_ops import RaggedTensor
    rts = [v if is_ragged(v) else RaggedTensor.from_tensor(convert.to_tensor(v))
           if convert.to_tensor(v).shape.rank > 1 else convert.to_tensor(v) for v in values]
    if all(not is_ragged(v) for v in rts):  # 1-D rows: a 2-D ragged tensor
        lengths = [shape_ops.shape(v, out_type=I64)[0] for v in rts]
        from .concat_ops import concat, stack
        return RaggedTensor(concat(rts, 0), ragged_rows.splits_from_lengths(stack(lengths)))
    n = len(rts)
    nrows = [r.nrows() for r in rts]
    from .concat_ops import stack
    outer = ragged_rows.splits_from_lengths(stack(nrows))
    del n
    return RaggedTensor(ragged_rows.concat_rows(rts), outer)


def _ragged_reverse(tensor, axis, name=None):
    axes = _axis_list(axis, tensor.shape.rank)
    out = tensor
    for a in axes:
        out = _reverse_one(out, a)
    return out


def _reverse_one(rt, axis):
    from .ragged_ops import RaggedTensor
    if not is_ragged(rt):
        return shape_ops.reverse(rt, [axis])
    if axis == 0:
        n = rt.nrows()
        idx = math_ops.subtract(math_ops.subtract(n, convert.constant(1, I64)), _range64(n))
        return ragged_rows.gather_rows(rt, idx)
    if axis == 1:
        rows = rt.value_rowids()
        s = rt.row_splits
        # value j of row r goes to s[r] + s[r+1] - 1 - j
        idx = math_ops.subtract(math_ops.subtract(
            math_ops.add(_gather(s[:-1], rows), _gather(s[1:], rows)),
            convert.constant(1, I64)), _range64(s[-1]))
        return RaggedTensor(ragged_rows.gather_rows(rt.values, idx), s)
    return rt.with_values(_reverse_one(rt.values, axis - 1))


def _ragged_tile(input, multiples, name=None):  # noqa: A002
    from ._core import constant_value
    known = constant_value(convert.to_tensor(multiples))
    if known is None:
        raise NotImplementedError("tfgraph_edu's tf.tile of a RaggedTensor takes constant "
                                  "multiples only yet.")
    mult = [int(v) for v in np.ravel(known)]
    rt = input
    if rt.ragged_rank != 1 or rt.flat_values.shape.rank != 1 or len(mult) != 2:
        raise NotImplementedError("tfgraph_edu's tf.tile of a RaggedTensor takes 2-D ragged "
                                  "tensors only yet.")
    from .ragged_ops import RaggedTensor
    if mult[0] != 1:
        rt = ragged_rows.gather_rows(rt, math_ops.floormod(
            _range64(math_ops.multiply(rt.nrows(), convert.constant(mult[0], I64))),
            rt.nrows()))
    if mult[1] == 1:
        return rt
    lengths = rt.row_lengths()
    k = convert.constant(mult[1], I64)
    splits = ragged_rows.splits_from_lengths(math_ops.multiply(lengths, k))
    rows = ragged_rows.value_rowids(splits)
    within = math_ops.subtract(_range64(splits[-1]), _gather(splits, rows))
    length = _gather(lengths, rows)
    idx = math_ops.add(_gather(rt.row_splits, rows), math_ops.floormod(within, length))
    return RaggedTensor(ragged_rows.gather_rows(rt.values, idx), splits)


def _ragged_gather(params, indices, validate_indices=None, axis=None, batch_dims=0,
                   name=None):
    from .indexing_ops import gather
    if batch_dims or axis not in (None, 0):
        raise NotImplementedError("tfgraph_edu's tf.gather with a RaggedTensor takes axis=0 "
                                  "and batch_dims=0 only yet.")
    if is_ragged(indices):
        return indices.with_flat_values(_ragged_gather(params, indices.flat_values))
    idx = convert.to_tensor(indices)
    if idx.shape.rank != 1:
        raise NotImplementedError("tfgraph_edu's tf.gather of a RaggedTensor takes a vector "
                                  "of indices only yet.")
    if is_ragged(params):
        return ragged_rows.gather_rows(params, idx)
    return gather(params, idx)


def _embedding_lookup(params, ids, max_norm=None, name=None):
    from .nn_ops import embedding_lookup
    return ids.with_flat_values(embedding_lookup(params, ids.flat_values, max_norm=max_norm))


def _ragged_string_join(inputs, separator="", name=None):
    from .string_ops import join
    return elementwise(lambda *flats: join(list(flats), separator=separator), tuple(inputs))


def map_fn(fn, elems, dtype=None, parallel_iterations=None, back_prop=True,
                   swap_memory=False, infer_shape=True, name=None, fn_output_signature=None):
    """``tf.map_fn`` over a RaggedTensor's rows (eagerly: each row, then the results
    stacked as TF stacks them)."""
    if not is_ragged(elems) or not _eager(*elems._ag_components()):
        raise NotImplementedError("tfgraph_edu's tf.map_fn over a RaggedTensor runs eagerly "
                                  "over one ragged tensor only yet.")
    rows = [fn(row) for row in elems]
    sig = fn_output_signature if fn_output_signature is not None else dtype
    if sig is None or hasattr(sig, "_ragged_rank"):
        # TF: without a signature the output is like the input: ragged rows
        return _ragged_stack(rows)
    from .concat_ops import stack
    return stack([convert.to_tensor(r) for r in rows])


def _ragged_add_n(inputs, name=None):
    inputs = list(inputs)
    out = inputs[0]
    for x in inputs[1:]:
        out = elementwise(math_ops.add, (out, x))
    return out


def _ragged_size(input, out_type=_dt.int32, name=None):  # noqa: A002
    from .reduction_ops import reduce_sum
    del reduce_sum
    return math_ops.cast(shape_ops.size(input.flat_values, out_type=I64), out_type)


def _ragged_rank_of(input, name=None):  # noqa: A002
    return convert.constant(input.shape.rank, _dt.int32)


def _ragged_shape_api(name):
    def ragged(*args, **kwargs):
        from . import ragged_shape
        if name == "shape":
            return ragged_shape.shape_of(*args, **kwargs)
        first = args[0] if args else next(iter(kwargs.values()))
        if name == "reshape" and is_ragged(first):
            shape = args[1] if len(args) > 1 else kwargs["shape"]
            if type(shape) not in _TYPES:  # TF: the values in row-major order, reshaped
                return shape_ops.reshape._dense_version(first.flat_values, shape)
        if is_ragged(first):
            raise NotImplementedError(f"tfgraph_edu's tf.{name} of a RaggedTensor is not "
                                      "implemented yet.")
        return getattr(ragged_shape, name)(*args, **kwargs)
    return ragged


_BINARY = ("add", "subtract", "multiply", "truediv", "divide", "floordiv", "floormod", "pow",
           "maximum", "minimum", "equal", "not_equal", "less", "less_equal", "greater",
           "greater_equal", "logical_and", "logical_or", "logical_xor", "squared_difference",
           "divide_no_nan", "atan2")
_UNARY = ("abs", "negative", "square", "sqrt", "rsqrt", "exp", "log", "log1p", "sin", "cos",
          "tan", "tanh", "sigmoid", "sign", "cast", "round", "ceil", "floor", "reciprocal",
          "is_nan", "is_inf", "is_finite", "logical_not", "zeros_like", "ones_like",
          "identity", "stop_gradient", "relu", "softplus", "elu", "length", "lower", "upper",
          "to_number", "as_string", "substr", "to_hash_bucket_fast", "to_hash_bucket_strong",
          "to_hash_bucket", "regex_replace", "strip", "unicode_script", "erf", "expm1",
          "asin", "acos", "atan", "sinh", "cosh", "imag", "real", "conj", "angle", "bitcast",
          "saturate_cast", "clip_by_value", "nan_to_num", "softsign", "selu", "gelu",
          "leaky_relu", "relu6")
# elementwise APIs that look at their inputs before binding their op: wrapped (the others
# reach ``op_hook`` through ``_core.bind``)
_WRAPPED_ELEMENTWISE = ("truediv", "divide", "divide_no_nan", "cast", "saturate_cast",
                        "zeros_like", "ones_like")
_SPECIAL = {
    "where": _ragged_where,
    "reduce_sum": _ragged_reduce("sum"), "reduce_max": _ragged_reduce("max"),
    "reduce_min": _ragged_reduce("min"), "reduce_mean": _ragged_reduce("mean"),
    "reduce_prod": _ragged_reduce("prod"), "reduce_all": _ragged_reduce("all"),
    "reduce_any": _ragged_reduce("any"),
    "concat": _ragged_concat, "stack": _ragged_stack, "reverse": _ragged_reverse,
    "tile": _ragged_tile, "gather": _ragged_gather, "embedding_lookup": _embedding_lookup,
    "join": _ragged_string_join, "size": _ragged_size, "rank": _ragged_rank_of,
    "add_n": _ragged_add_n,
    **{name: _ragged_shape_api(name) for name in ("shape", "reshape", "fill", "zeros", "ones")},
}
_LIST_ARG = {"concat", "stack", "join", "add_n"}


_TYPES: set = set()  # RaggedTensor, DynamicRaggedShape (set by install)


def _has_ragged(args, kwargs, listy):
    types = _TYPES
    for a in args:
        if type(a) in types:
            return True
        if listy and isinstance(a, (list, tuple)) and any(type(v) in types for v in a):
            return True
    for a in kwargs.values():
        if type(a) in types:
            return True
        if listy and isinstance(a, (list, tuple)) and any(type(v) in types for v in a):
            return True
    return False


def _wrap(name, dense, ragged):
    """``dense`` with a check for ragged arguments made of C-level set operations (the
    elementwise ops need none: ``op_hook``)."""
    types = _TYPES
    disjoint = types.isdisjoint

    if name in _LIST_ARG:  # the tensors come as a list: the first argument
        @functools.wraps(dense)
        def api(*args, **kwargs):
            first = args[0] if args else kwargs.get("values", kwargs.get("inputs", ()))
            if (disjoint(map(type, first)) if type(first) in (list, tuple)
                    else type(first) not in types) and (
                    not kwargs or not _has_ragged((), kwargs, True)):
                return dense(*args, **kwargs)
            return ragged(*args, **kwargs)
    else:
        @functools.wraps(dense)
        def api(*args, **kwargs):
            if disjoint(map(type, args)) and (not kwargs or disjoint(map(type, kwargs.values()))):
                return dense(*args, **kwargs)
            return ragged(*args, **kwargs)
    api._ragged_version = ragged
    api._dense_version = dense
    return api


def _ragged_for(name, fn):
    if name in _SPECIAL:
        return _SPECIAL[name]
    if name in _BINARY:
        return _binary(fn)
    if name in _UNARY:
        return _unary(fn)
    return None


_INSTALLED: list = []


def install():
    """Wrap the functions of the op modules that have a ragged version, and put the
    wrappers where the ``tf`` namespaces already hold them (once, when ``ops`` is
    imported)."""
    if _INSTALLED:
        return
    _INSTALLED.append(True)
    import sys

    from . import (
        concat_ops,
        creation_ops,
        indexing_ops,
        math_extra_ops,
        nn_ops,
        reduction_ops,
        string_hash_ops,
        string_ops,
    )
    from .ragged_ops import RaggedTensor
    from .ragged_shape import DynamicRaggedShape
    _TYPES.update((RaggedTensor, DynamicRaggedShape))
    from ._core import _composite_hook
    _composite_hook.append(op_hook)
    modules = (math_ops, math_extra_ops, reduction_ops, concat_ops, shape_ops, indexing_ops,
               creation_ops, string_ops, string_hash_ops, nn_ops)
    wrapped = {}
    for mod in modules:
        for name in (*_WRAPPED_ELEMENTWISE, *_SPECIAL):
            fn = getattr(mod, name, None)
            if fn is None or not callable(fn) or getattr(fn, "_dense_version", None):
                continue
            if getattr(fn, "__module__", None) != mod.__name__:
                continue  # an import from another module: wrapped there
            ragged = _ragged_for(name, fn)
            if ragged is not None:
                wrapped[id(fn)] = _wrap(name, fn, ragged)
                setattr(mod, name, wrapped[id(fn)])
    # the public names: tf.add, tf.math.add, tf.strings.length, ... (namespace modules only;
    # the engine's own imports keep calling the ops directly)
    spaces = [m for n, m in list(sys.modules.items()) if m is not None and (
        n == "tfgraph_edu" or n.startswith("tfgraph_edu._api."))]
    for space in spaces:
        for key, value in list(vars(space).items()):
            w = wrapped.get(id(value))
            if w is not None and not key.startswith("_"):
                setattr(space, key, w)
