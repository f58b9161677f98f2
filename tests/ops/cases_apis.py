"""Registry cases for the ordering, scatter, counting and SVD ops (``tf.sort``,
``tf.math.top_k``, ``tf.unique``, ``tf.searchsorted``, ``tf.scatter_nd``, ...).

References are written with numpy and plain Python loops, independently of the kernels.
"""

from __future__ import annotations

import numpy as np

import tfgraph_edu as tf

from .cases import Case, f32, i32

# distinct values, so that gradients through an order are defined
_X = np.array([[0.3, -1.2, 2.5, 0.9], [1.1, 0.2, -0.4, 1.7], [-2.0, 0.5, 0.1, -0.6]],
              np.float32)


def _top_k_ref(x, k):
    idx = np.array([sorted(range(x.shape[-1]), key=lambda j: (-row[j], j))[:int(k)]
                    for row in x.reshape(-1, x.shape[-1])]).reshape(x.shape[:-1] + (int(k),))
    return np.take_along_axis(x, idx, -1), idx.astype(np.int32)


def _unique_ref(x):
    seen: list = []
    for v in x.tolist():
        if v not in seen:
            seen.append(v)
    return np.array(seen, x.dtype), np.array([seen.index(v) for v in x.tolist()], np.int32)


def _bound_ref(s, v, right):
    out = np.zeros(v.shape, np.int32)
    for r in range(v.shape[0]):
        for c in range(v.shape[1]):
            out[r, c] = sum(1 for e in s[r] if (e <= v[r, c] if right else e < v[r, c]))
    return out


def _scatter_ref(base, idx, upd, op):
    out = base.copy()
    d = idx.shape[-1]
    for row, u in zip(idx.reshape(-1, d), upd.reshape((-1,) + base.shape[d:])):
        key = tuple(int(i) for i in row)
        out[key] = u if op == "set" else out[key] + (u if op == "add" else -u)
    return out


def _extreme_ref(base, idx, upd, pick):
    out = base.copy()
    for row, u in zip(idx[:, 0].tolist(), upd.tolist()):
        out[row] = [pick(a, b) for a, b in zip(out[row].tolist(), u)]
    return out


_IDX = i32(3, 0, 3).reshape(3, 1)
_UPD = f32(3, 2)
_BASE = f32(4, 2)
_SORTED = np.array([[-3.0, -1.0, 2.0, 10.0], [0.0, 1.0, 1.0, 3.0]], np.float32)
_VALS = np.array([[-1.0, 2.5, 11.0], [1.0, -5.0, 3.0]], np.float32)

APIS_CASES = {
    "TopKV2": [Case([_X, np.int32(2)], _top_k_ref, {"sorted": True}, grad=(0,)),
               Case([i32(3, 1, 3, 2), np.int32(4)], _top_k_ref, {"sorted": True})],
    "Unique": [Case([i32(1, 1, 2, 4, 4, 7, 2)], _unique_ref, {"out_idx": tf.int32})],
    "UniqueWithCounts": [Case([i32(1, 1, 2, 4, 4, 7, 2)], lambda x: _unique_ref(x) + (
        i32(2, 2, 2, 1),), {"out_idx": tf.int32})],
    "LowerBound": [Case([_SORTED, _VALS], lambda s, v: _bound_ref(s, v, False),
                        {"out_type": tf.int32})],
    "UpperBound": [Case([_SORTED, _VALS], lambda s, v: _bound_ref(s, v, True),
                        {"out_type": tf.int32})],
    "ScatterNd": [Case([_IDX, _UPD, i32(4, 2)],
                       lambda i, u, s: _scatter_ref(np.zeros((4, 2), np.float32), i, u, "add"),
                       grad=(1,))],
    "TensorScatterUpdate": [Case([_BASE, i32(2, 0).reshape(2, 1), _UPD[:2]],
                                 lambda t, i, u: _scatter_ref(t, i, u, "set"), grad=(0, 2))],
    "TensorScatterAdd": [Case([_BASE, _IDX, _UPD], lambda t, i, u: _scatter_ref(t, i, u, "add"),
                              grad=(0, 2))],
    "TensorScatterSub": [Case([_BASE, i32(1, 1, 2, 0).reshape(2, 2), np.float32([5.0, 7.0])],
                              lambda t, i, u: _scatter_ref(t, i, u, "sub"), grad=(0, 2))],
    "TensorScatterMax": [Case([_BASE, _IDX, _UPD], lambda t, i, u: _extreme_ref(t, i, u, max),
                              grad=(0, 2))],
    "TensorScatterMin": [Case([_BASE, _IDX, _UPD], lambda t, i, u: _extreme_ref(t, i, u, min),
                              grad=(0, 2))],
    "GatherNd": [Case([_BASE, i32(1, 3, 1).reshape(3, 1)], lambda p, i: p[[1, 3, 1]],
                      grad=(0,)),
                 Case([_BASE, i32(1, 0, 3, 1).reshape(2, 2)],
                      lambda p, i: np.array([p[1, 0], p[3, 1]]), grad=(0,))],
}

APIS_CASES.update({
    "Roll": [Case([_X, i32(1, -1), i32(0, 1)],
                  lambda x, s, a: np.concatenate([x[-1:], x[:-1]])[:, [1, 2, 3, 0]], grad=(0,)),
             Case([i32(0, 1, 2, 3), np.int32(3), np.int32(0)], lambda x, s, a: i32(1, 2, 3, 0))],
    "DenseBincount": [
        Case([i32(1, 1, 2, 4, 9), np.int32(6), np.zeros([0], np.int32)],
             lambda a, n, w: i32(0, 2, 1, 0, 1, 0), {"binary_output": False}),
        Case([i32(1, 1, 2, 0).reshape(2, 2), np.int32(3), np.float32([0.5, 1, 2, 4]).reshape(2, 2)],
             lambda a, n, w: np.float32([[0, 1.5, 0], [4, 0, 2]]), {"binary_output": False}),
        Case([i32(3, 3, 0), np.int32(4), np.zeros([0], np.int32)],
             lambda a, n, w: i32(1, 0, 0, 1), {"binary_output": True})],
    "L2Loss": [Case([_X], lambda x: np.float32(sum(v * v for v in x.ravel().tolist()) / 2),
                    grad=(0,))],
    # singular values as the square roots of the eigenvalues of AᵀA (u and v, whose signs are
    # LAPACK's choice, are checked in tests/api/test_svd.py)
    "Svd": [Case([_X], lambda x: (np.sqrt(np.sort(np.linalg.eigvalsh(
        x.astype(np.float64).T @ x.astype(np.float64)))[::-1][:3]).astype(np.float32),
        np.zeros([0], np.float32), np.zeros([0], np.float32)),
        {"compute_uv": False, "full_matrices": False}, grad=(0,))],
})


def _set_ref(a, b, op):
    """Rows of sorted elements as (indices, values, dense_shape), by plain Python."""
    rows = []
    for ra, rb in zip(a.tolist(), b.tolist()):
        sa, sb = set(ra), set(rb)
        rows.append(sorted({"intersection": sa & sb, "union": sa | sb, "a-b": sa - sb}[op]))
    idx = [[i, j] for i, r in enumerate(rows) for j in range(len(r))]
    return (np.array(idx, np.int64).reshape(-1, 2), np.array([v for r in rows for v in r],
                                                             a.dtype),
            np.array([len(rows), max(map(len, rows))], np.int64))


_SA, _SB = i32(1, 2, 3, 4, 5, 5).reshape(2, 3), i32(2, 3, 9, 5, 6, 4).reshape(2, 3)
APIS_CASES.update({
    "DenseToDenseSetOperation": [
        Case([_SA, _SB], lambda a, b, op=op: _set_ref(a, b, op),
             {"set_operation": op, "validate_indices": True})
        for op in ("intersection", "union", "a-b")],
    "SetSize": [Case([np.array([[0, 0], [0, 1], [1, 0], [0, 2]], np.int64), i32(3, 3, 1, 7),
                      np.array([2, 3], np.int64)], lambda i, v, s: i32(2, 1),
                     {"validate_indices": True})],
    "CheckNumerics": [Case([_X], lambda x: x, {"message": "m"}, grad=(0,))],
    "DivNoNan": [Case([_X[:2], np.float32([[0.5, 0.0, -2.0, 4.0], [1.5, 3.0, 0.0, -1.0]])],
                      lambda x, y: np.array([[a / b if b else 0.0 for a, b in zip(r, q)]
                                             for r, q in zip(x.tolist(), y.tolist())],
                                            np.float32), grad=(0,)),
                 # no zero divisor: the function is smooth in y there
                 Case([_X[:1], np.float32([[0.5, 1.0, -2.0, 4.0]])], lambda x, y: x / y,
                      grad=(0, 1))],
})

APIS_TESTED_ELSEWHERE: dict[str, str] = {}

# tf.sparse's ops (ops/sparse_ops.py); expected values recorded from TF 2.21 (tf.sparse.concat,
# add, reorder, reduce_sum, reduce_max of indices [[0, 0], [1, 2]], values [1, 2], shape [3, 4])
_SP_I = np.array([[0, 0], [1, 2]], np.int64)
_SP_S = np.array([3, 4], np.int64)


def _v(*values):
    return np.array(values, np.float32)


APIS_CASES.update({
    "SparseConcat": [Case([_SP_I, _SP_I, _v(1, 2), _v(1, 2), _SP_S, _SP_S],
                          lambda *a: (np.array([[0, 0], [1, 2], [3, 0], [4, 2]], np.int64),
                                      _v(1, 2, 1, 2), np.array([6, 4], np.int64)),
                          {"concat_dim": 0, "N": 2})],
    "SparseAdd": [Case([_SP_I, _v(1, 2), _SP_S, _SP_I, _v(1, 2), _SP_S, np.float32(0)],
                       lambda *a: (_SP_I, _v(2, 4), _SP_S))],
    "SparseReorder": [Case([np.array([[1, 2], [0, 0]], np.int64), _v(2, 1), _SP_S],
                           lambda *a: (_SP_I, _v(1, 2)))],
    "SparseReduceSum": [Case([_SP_I, _v(1, 2), _SP_S, i32(0)], lambda *a: _v(1, 0, 2, 0),
                             {"keep_dims": False})],
    "SparseReduceMax": [Case([_SP_I, _v(1, 2), _SP_S, i32(1)], lambda *a: _v(1, 2, 0),
                             {"keep_dims": False})],
})

# tf.sparse ops added for the sparse_tensor guide; expected values recorded from TF 2.21
# (tf.sparse.sparse_dense_matmul, tf.sparse.slice and its gradient, sp * dense, sp / dense)
_SPC_I = np.array([[0, 1], [1, 0], [2, 2]], np.int64)
_SPC_S = np.array([3, 3], np.int64)
_SPC_D = np.array([[1., 2., 3.], [4., 5., 6.], [7., 8., 9.]], np.float32)
_SLICE_I = np.array([[2, 4], [3, 3], [3, 4], [4, 3], [4, 4], [5, 4]], np.int64)
_SLICE_OUT = np.array([[0, 0], [0, 1], [1, 0], [1, 1]], np.int64)

APIS_CASES.update({
    "SparseTensorDenseMatMul": [Case(
        [np.array([[0, 1], [1, 0], [1, 1]], np.int64), _v(13, 15, 17),
         np.array([2, 2], np.int64), np.array([[4.], [6.]], np.float32)],
        lambda *a: np.array([[78.], [162.]], np.float32),
        {"adjoint_a": False, "adjoint_b": False}, grad=(1, 3))],
    "SparseSlice": [Case([_SLICE_I, _v(1, 1, 1, 1, 1, 1), np.array([8, 5], np.int64),
                          np.array([3, 3], np.int64), np.array([2, 5], np.int64)],
                         lambda *a: (_SLICE_OUT, _v(1, 1, 1, 1), np.array([2, 2], np.int64)))],
    "SparseSliceGrad": [Case([_v(1, 2, 3, 4), _SLICE_I, np.array([3, 3], np.int64),
                              _SLICE_OUT], lambda *a: _v(0, 1, 2, 3, 4, 0))],
    "SparseDenseCwiseMul": [Case([_SPC_I, _v(1, -2, 3), _SPC_S, _SPC_D],
                                 lambda *a: _v(2, -8, 27), grad=(1, 3))],
    "SparseDenseCwiseDiv": [Case([_SPC_I, _v(1, -2, 3), _SPC_S, _SPC_D],
                                 lambda *a: _v(0.5, -0.5, 0.33333334), grad=(1, 3))],
})

# tf.sparse.reshape, fill_empty_rows, minimum, maximum (raw ops; recorded from TF 2.21)
_MM = [np.array([[0, 0], [1, 1]], np.int64), _v(1, 5), np.array([2, 2], np.int64),
       np.array([[0, 0], [0, 1]], np.int64), _v(3, -2), np.array([2, 2], np.int64)]
_MM_I = np.array([[0, 0], [0, 1], [1, 1]], np.int64)
APIS_CASES.update({
    "SparseReshape": [Case([_SPC_I, _SPC_S, np.array([9], np.int64)],
                           lambda *a: (np.array([[1], [3], [8]], np.int64),
                                       np.array([9], np.int64)))],
    "SparseFillEmptyRows": [Case(
        [np.array([[0, 1], [2, 2]], np.int64), _v(1, 3), _SPC_S, np.float32(0)],
        lambda *a: (_SPC_I, _v(1, 0, 3), np.array([False, True, False]),
                    np.array([0, 2], np.int64)), grad=(1,))],
    "SparseSparseMinimum": [Case(list(_MM), lambda *a: (_MM_I, _v(1, -2, 0)))],
    "SparseSparseMaximum": [Case(list(_MM), lambda *a: (_MM_I, _v(3, 0, 5)))],
})
APIS_CASES["SparseSoftmax"] = [Case(  # recorded from TF 2.21
    [np.array([[0, 0], [0, 2], [1, 1]], np.int64), _v(1, 2, 3), np.array([2, 3], np.int64)],
    lambda *a: _v(0.2689414322376251, 0.7310585975646973, 1.0), grad=(1,))]
# helper "apis" (issue 25): ops whose tests compare with values recorded from TF 2.21
APIS_TESTED_ELSEWHERE.update({
    "StringToHashBucketFast": "tests/api/test_strings_hash.py (TF's buckets)",
    "StringToHashBucketStrong": "tests/api/test_strings_hash.py (TF's buckets)",
    "UnicodeEncode": "tests/api/test_strings_unicode.py",
    "UnicodeTranscode": "tests/api/test_strings_unicode.py",
    "ResourceStridedSliceAssign": "tests/eager/test_variable_slice_assign.py",
    "ResourceScatterNdUpdate": "tests/eager/test_variable_slice_assign.py",
    "ResourceScatterNdAdd": "tests/eager/test_variable_slice_assign.py",
    "ResourceScatterNdSub": "tests/eager/test_variable_slice_assign.py",
    "ResourceScatterAdd": "tests/gradients/test_indexed_slices.py",
    "ResourceScatterSub": "tests/gradients/test_indexed_slices.py",
    "ResourceScatterUpdate": "tests/gradients/test_indexed_slices.py",
    "ResourceScatterMul": "tests/gradients/test_indexed_slices.py",
    "ResourceScatterDiv": "tests/gradients/test_indexed_slices.py",
    "ResourceScatterMax": "tests/gradients/test_indexed_slices.py",
    "ResourceScatterMin": "tests/gradients/test_indexed_slices.py",
})
