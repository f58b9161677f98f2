"""Small linear algebra the guides touch: inv, det, solve, einsum, tensordot, norm, and
``tf.eye``, ``tf.linalg.diag``/``diag_part``/``matrix_transpose`` (layer 1).

Square-matrix ops work on the last two dimensions of a batch, as TensorFlow's do.
``tensordot`` and ``norm`` are composites of public ops, so they need no gradient of their own.
"""

from __future__ import annotations

import numpy as np

from .. import dtypes as _dt
from ..errors import InvalidArgumentError
from ..shapes import TensorShape
from . import convert, creation_ops, jacobi_svd, math_ops, pad_ops, reduction_ops, shape_ops
from ._core import bind, define, shape_error
from ._rules import fmt, no_cpu_kernel

F = _dt.FLOATS


def _square_shape(x, **_):
    s = x.shape
    if s.rank is not None:
        if s.rank < 2:
            raise shape_error(f"Input must have rank >= 2, got {s.rank}")
        a, b = s.dims[-2:]
        if a is not None and b is not None and a != b:
            raise shape_error(f"Input matrices must be squares, got {a} != {b}")
    return s, x.dtype


def _mT(x):
    return matrix_transpose(x)


def _mm(a, b):
    return math_ops.matmul(a, b)


def _inv_kernel(x, adjoint=False):
    try:
        out = np.linalg.inv(np.swapaxes(x, -1, -2) if adjoint else x)
    except np.linalg.LinAlgError:
        raise InvalidArgumentError(None, None, "Input is not invertible.") from None
    return out.astype(x.dtype, copy=False)


def _inv_grad(op, g):
    ainv = op.outputs[0]
    return (math_ops.negative(_mm(_mT(ainv), _mm(g, _mT(ainv)))),)


MatrixInverse = define("MatrixInverse", ("input",), _inv_kernel, _square_shape, _inv_grad,
                       T=(0,), dtypes=F)


def inv(input, adjoint=False, name=None):  # noqa: A002 - TensorFlow's argument name
    """The inverse of each square matrix in ``input`` (op ``MatrixInverse``)."""
    return bind(MatrixInverse, (input,), {"adjoint": bool(adjoint)}, name)


def _det_shape(x):
    s, dt = _square_shape(x)
    return (TensorShape(s.dims[:-2]) if s.rank is not None else TensorShape(None)), dt


def _det_grad(op, g):
    a, det = op.inputs[0], op.outputs[0]
    scale = shape_ops.expand_dims(shape_ops.expand_dims(math_ops.multiply(g, det), -1), -1)
    return (math_ops.multiply(scale, _mT(inv(a))),)


MatrixDeterminant = define("MatrixDeterminant", ("input",),
                           lambda x: np.asarray(np.linalg.det(x)).astype(x.dtype),
                           _det_shape, _det_grad, T=(0,), dtypes=F)


def det(input, name=None):  # noqa: A002
    """The determinant of each square matrix (op ``MatrixDeterminant``)."""
    return bind(MatrixDeterminant, (input,), None, name)


def _solve_kernel(a, b, adjoint=False):
    try:
        out = np.linalg.solve(np.swapaxes(a, -1, -2) if adjoint else a, b)
    except np.linalg.LinAlgError:
        raise InvalidArgumentError(None, None, "Input matrix is not invertible.") from None
    return out.astype(a.dtype, copy=False)


def _solve_shape(a, b, adjoint=False):
    _square_shape(a)
    sa, sb = a.shape, b.shape
    if sb.rank is not None and sb.rank < 2:
        raise shape_error(f"Input rhs must have rank >= 2, got {sb.rank}")
    if sa.rank is not None and sb.rank is not None:
        n, m = sa.dims[-2], sb.dims[-2]
        if n is not None and m is not None and n != m:
            raise shape_error(f"Input matrix and right-hand side must have the same number of "
                              f"rows: {fmt(sa)} vs. {fmt(sb)}")
    return sb, b.dtype


def _solve_grad(op, g):
    a, x = op.inputs[0], op.outputs[0]
    adjoint = op.get_attr("adjoint")
    gb = bind(MatrixSolve, (a, g), {"adjoint": not adjoint})
    ga = math_ops.negative(_mm(x, _mT(gb)) if adjoint else _mm(gb, _mT(x)))
    return ga, gb


MatrixSolve = define("MatrixSolve", ("matrix", "rhs"), _solve_kernel, _solve_shape, _solve_grad,
                     T=(0, 1), dtypes=F)


def solve(matrix, rhs, adjoint=False, name=None):
    """X with ``matrix @ X = rhs`` for each square matrix (op ``MatrixSolve``)."""
    return bind(MatrixSolve, (matrix, rhs), {"adjoint": bool(adjoint)}, name)


# -- einsum --------------------------------------------------------------------------------------
def _parse(equation: str):
    eq = equation.replace(" ", "")
    if "..." in eq:
        raise NotImplementedError("tfgraph_edu's tf.einsum does not take ellipses ('...').")
    if "->" in eq:
        ins, out = eq.split("->")
    else:
        ins = eq
        letters = "".join(ins.split(","))
        out = "".join(sorted(c for c in set(letters) if letters.count(c) == 1))
    return ins.split(","), out


def _einsum_shape(*inputs, equation, N=1):
    subs, out = _parse(equation)
    if len(subs) != len(inputs):
        raise shape_error(f"Expected {len(subs)} inputs but got: {len(inputs)}")
    sizes: dict[str, int | None] = {}
    for sub, x in zip(subs, inputs):
        if x.shape.rank is None:
            continue
        if x.shape.rank != len(sub):
            raise shape_error(f"Expected input {subs.index(sub)} to have rank {len(sub)} but "
                              f"got: {x.shape.rank}")
        for c, d in zip(sub, x.shape.dims):
            if d is not None and sizes.get(c) not in (None, d):
                raise shape_error(f"Expected dimension {sizes[c]} at axis of the input shaped "
                                  f"{fmt(x.shape)} but got dimension {d}")
            if d is not None:
                sizes[c] = d
    return TensorShape([sizes.get(c) for c in out]), inputs[0].dtype


def _einsum_grad(op, g):
    subs, out = _parse(op.get_attr("equation"))
    grads = []
    for i, sub in enumerate(subs):
        others = [s for j, s in enumerate(subs) if j != i]
        available = set(out).union(*others) if others else set(out)
        if len(set(sub)) != len(sub) or not set(sub) <= available:
            raise NotImplementedError(
                f"tfgraph_edu has no gradient for einsum {op.get_attr('equation')!r}: an index "
                f"of operand {i} is repeated or summed over that operand alone.")
        eq = ",".join([out] + others) + "->" + sub
        operands = [g] + [op.inputs[j] for j in range(len(subs)) if j != i]
        grads.append(bind(Einsum, tuple(operands), {"equation": eq, "N": len(operands)}))
    return tuple(grads)


# TF 2.21's CPU kernels of Einsum (its OpDef allows every number type)
EINSUM_KERNELS = (_dt.int64, _dt.int32, _dt.float16, _dt.float32, _dt.float64, _dt.complex64,
                  _dt.complex128)
_EINSUM_NP = frozenset(d.np_dtype for d in EINSUM_KERNELS)


def _einsum_kernel(*xs, equation, N=1):
    if xs and xs[0].dtype not in _EINSUM_NP:
        raise no_cpu_kernel("Einsum", xs[0].dtype, EINSUM_KERNELS)
    return np.asarray(np.einsum(equation, *xs))


Einsum = define("Einsum", ("inputs*",), _einsum_kernel, _einsum_shape, _einsum_grad,
                dtypes=_dt.NUMERIC)


def _expand_ellipsis(equation: str, inputs) -> str:
    """``...`` written out as letters the equation does not use, right-aligned over each
    input's leading dimensions (its rank must be known)."""
    eq = equation.replace(" ", "")
    ins, arrow, out = eq.partition("->")
    subs = ins.split(",")
    ranks = [convert.to_tensor(x).shape.rank for x in inputs]
    if len(ranks) != len(subs) or any(r is None for s, r in zip(subs, ranks) if "..." in s):
        raise NotImplementedError("tfgraph_edu's tf.einsum takes ellipses ('...') only for "
                                  "inputs of known rank.")
    counts = [r - (len(s) - 3) if "..." in s else 0 for s, r in zip(subs, ranks)]
    free = [c for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ" if c not in eq][:max(counts, default=0)]
    k = len(free)
    subs = [s.replace("...", "".join(free[k - n:])) for s, n in zip(subs, counts)]
    if arrow:
        out = out.replace("...", "".join(free))
    else:
        letters = "".join(s for s in ins.replace("...", "").split(","))
        out = "".join(free) + "".join(sorted(c for c in set(letters) if letters.count(c) == 1))
    return ",".join(subs) + "->" + out


def einsum(equation, *inputs, name=None):
    """Tensor contraction by Einstein summation (op ``Einsum``); ``...`` is written out as
    letters for inputs of known rank."""
    if "..." in equation:
        equation = _expand_ellipsis(equation, inputs)
    _parse(equation)
    return bind(Einsum, tuple(inputs), {"equation": equation.replace(" ", ""),
                                        "N": len(inputs)}, name)


# -- composites ----------------------------------------------------------------------------------
def tensordot(a, b, axes, name=None):
    """Sums products over ``axes`` (an int, or two lists), as reshape + matmul + reshape."""
    a, b = convert.matching_tensors(a, b)
    ra, rb = a.shape.rank, b.shape.rank
    if ra is None or rb is None or not (a.shape.is_fully_defined() and b.shape.is_fully_defined()):
        raise NotImplementedError("tfgraph_edu's tf.tensordot needs fully known shapes.")
    if isinstance(axes, int):
        if axes < 0:
            raise ValueError(f"'axes' must be at least 0, got {axes}.")
        a_axes, b_axes = list(range(ra - axes, ra)), list(range(axes))
    else:
        a_axes, b_axes = axes
        a_axes = [a_axes] if isinstance(a_axes, int) else list(a_axes)
        b_axes = [b_axes] if isinstance(b_axes, int) else list(b_axes)
        a_axes, b_axes = [x % ra for x in a_axes], [x % rb for x in b_axes]
    sa, sb = a.shape.as_list(), b.shape.as_list()
    for i, j in zip(a_axes, b_axes):
        if sa[i] != sb[j]:
            raise ValueError(f"Dimension {i} in a {sa} and dimension {j} in b {sb} must be "
                             "equal to be contracted.")
    free_a = [i for i in range(ra) if i not in a_axes]
    free_b = [i for i in range(rb) if i not in b_axes]
    k = int(np.prod([sa[i] for i in a_axes])) if a_axes else 1
    ma = int(np.prod([sa[i] for i in free_a])) if free_a else 1
    nb = int(np.prod([sb[i] for i in free_b])) if free_b else 1
    a2 = shape_ops.reshape(shape_ops.transpose(a, free_a + a_axes), [ma, k])
    b2 = shape_ops.reshape(shape_ops.transpose(b, b_axes + free_b), [k, nb])
    out_shape = [sa[i] for i in free_a] + [sb[i] for i in free_b]
    return shape_ops.reshape(math_ops.matmul(a2, b2), out_shape, name=name)


def norm(tensor, ord="euclidean", axis=None, keepdims=None, name=None):  # noqa: A002
    """Vector norms (euclidean/2, 1, inf) over ``axis`` (all elements when None), and the
    Frobenius norm of matrices; built from public ops so gradients follow."""
    x = convert.to_tensor(tensor)
    keep = bool(keepdims)
    if ord in ("euclidean", 2, 2.0, "fro"):
        if ord == "fro" and (axis is None or not isinstance(axis, (list, tuple))):
            if axis is not None:
                raise ValueError(f"'ord' must be a supported vector norm, got {ord}.")
        return math_ops.sqrt(reduction_ops.reduce_sum(math_ops.multiply(x, x), axis=axis,
                                                      keepdims=keep), name=name)
    if isinstance(axis, (list, tuple)) and len(axis) == 2:
        raise NotImplementedError("tfgraph_edu's tf.norm computes matrix norms for 'fro' and "
                                  "'euclidean' only.")
    if ord in (1, 1.0):
        return reduction_ops.reduce_sum(math_ops.abs(x), axis=axis, keepdims=keep, name=name)
    if ord == np.inf:
        return reduction_ops.reduce_max(math_ops.abs(x), axis=axis, keepdims=keep, name=name)
    if isinstance(ord, (int, float)) and ord > 0:
        p = float(ord)
        s = reduction_ops.reduce_sum(math_ops.pow(math_ops.abs(x), p), axis=axis, keepdims=keep)
        return math_ops.pow(s, 1.0 / p, name=name)
    raise ValueError(f"'ord' must be a supported vector norm, got {ord}.")


# -- MatrixDiag, MatrixDiagPart, eye, matrix_transpose --------------------------------------------
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
        return matrix_diag(creation_ops.ones(dims, dtype=dtype, name="eye/ones"),
                           name=name or "eye/diag")
    # a rectangular identity: the square one of the smaller side, padded with zeros
    n = min(num_rows, num_columns)
    square = matrix_diag(creation_ops.ones(batch + [n], dtype=dtype, name="eye/ones"),
                         name="eye/diag")
    paddings = [[0, 0]] * len(batch) + [[0, num_rows - n], [0, num_columns - n]]
    return pad_ops.pad(square, paddings, name=name or "eye/pad")


def matrix_transpose(a, name="matrix_transpose", conjugate=False):
    """Swaps the last two dimensions of ``a``."""
    a = convert.to_tensor(a)
    r = a.shape.rank
    if r is None or r < 2:
        raise ValueError(f"Argument `a` should be a (batch) matrix with rank >= 2.  Received "
                         f"`a` = {a!r} with shape: {a.shape}")
    perm = list(range(r - 2)) + [r - 1, r - 2]
    return shape_ops.transpose(a, perm, name=name)



# -- Svd (tf.linalg.svd) --------------------------------------------------------------------------
def _svd_kernel(x, compute_uv=True, full_matrices=False):
    x = np.asarray(x)
    if x.ndim < 2:
        raise InvalidArgumentError(None, None, f"Input tensor 0 must have rank >= 2, got {x.ndim}")
    if x.dtype.kind == "f" and x.shape[-1] < jacobi_svd.MAX_COLUMNS:
        return _jacobi_svd_batch(x, compute_uv, full_matrices)
    if not compute_uv:
        empty = np.zeros([0], x.dtype)
        return np.linalg.svd(x, compute_uv=False).astype(x.dtype), empty, empty
    u, s, vh = np.linalg.svd(x, full_matrices=full_matrices)
    return s.astype(x.dtype), u.astype(x.dtype), np.swapaxes(vh, -1, -2).conj().astype(x.dtype)


def _jacobi_svd_batch(x, compute_uv, full_matrices):
    """TF's kernel for matrices of fewer than 16 columns (``jacobi_svd``), matrix by matrix:
    its signs of the singular vectors."""
    *batch, m, n = x.shape
    k = min(m, n)
    s = np.empty([*batch, k], x.dtype)
    u = np.empty([*batch, m, m if full_matrices else k], x.dtype)
    v = np.empty([*batch, n, n if full_matrices else k], x.dtype)
    for index in np.ndindex(*batch):
        s[index], ui, vi = jacobi_svd.svd(x[index], compute_uv, full_matrices)
        if compute_uv:
            u[index], v[index] = ui, vi
    if not compute_uv:
        empty = np.zeros([0], x.dtype)
        return s, empty, empty
    return s, u, v


def _svd_shape(x, compute_uv=True, full_matrices=False):
    if x.shape.rank is None:
        return [(TensorShape(None), x.dtype)] * 3
    if x.shape.rank < 2:
        raise shape_error(f"Shape must be at least rank 2 but is rank {x.shape.rank}")
    *batch, m, n = x.shape.dims
    k = None if m is None or n is None else min(m, n)
    if not compute_uv:
        return [(TensorShape(batch + [k]), x.dtype)] + [(TensorShape([0]), x.dtype)] * 2
    return [(TensorShape(batch + [k]), x.dtype),
            (TensorShape(batch + [m, m if full_matrices else k]), x.dtype),
            (TensorShape(batch + [n, n if full_matrices else k]), x.dtype)]


def _svd_grad(op, gs, gu, gv):
    """Reverse mode of the reduced SVD ``A = U S Vᵀ`` (real matrices; Townsend, 2016):
    ``Ā = U (J S + diag(S̄) + S K) Vᵀ + (I - U Uᵀ) Ū S⁻¹ Vᵀ + U S⁻¹ V̄ᵀ (I - V Vᵀ)`` with
    ``J = F ∘ (UᵀŪ - ŪᵀU)``, ``K = F ∘ (VᵀV̄ - V̄ᵀV)``, ``F_ij = 1 / (s_j² - s_i²)`` off the
    diagonal.  Singular vectors are defined only for distinct, non-zero singular values."""
    a = op.inputs[0]
    s, u, v = op.outputs
    if not op.get_attr("compute_uv"):
        s, u, v = svd(a, full_matrices=False)
        gu = gv = None
    elif op.get_attr("full_matrices"):
        m, n = a.shape.dims[-2:]
        if m is None or n is None or m != n:
            raise NotImplementedError("tfgraph_edu implements the gradient of tf.linalg.svd "
                                      "with full_matrices=True for square matrices only.")
    gs = creation_ops.zeros_like(s) if gs is None else gs
    ut, vt = _mT(u), _mT(v)
    core = matrix_diag(gs)
    if gu is not None or gv is not None:
        s2 = math_ops.square(s)
        eye = matrix_diag(creation_ops.ones_like(s))
        diff = math_ops.subtract(shape_ops.expand_dims(s2, -2), shape_ops.expand_dims(s2, -1))
        f = math_ops.multiply(math_ops.divide(creation_ops.ones_like(diff),
                                              math_ops.add(diff, eye)),
                              math_ops.subtract(creation_ops.ones_like(eye), eye))
        s_mat, s_inv = matrix_diag(s), matrix_diag(math_ops.divide(creation_ops.ones_like(s), s))
    extra = None
    if gu is not None:
        utgu = _mm(ut, gu)
        j = math_ops.multiply(f, math_ops.subtract(utgu, _mT(utgu)))
        core = math_ops.add(core, _mm(j, s_mat))
        proj = math_ops.subtract(gu, _mm(u, utgu))  # (I - U Uᵀ) Ū
        extra = _mm(_mm(proj, s_inv), vt)
    if gv is not None:
        vtgv = _mm(vt, gv)
        k = math_ops.multiply(f, math_ops.subtract(vtgv, _mT(vtgv)))
        core = math_ops.add(core, _mm(s_mat, k))
        proj = math_ops.subtract(gv, _mm(v, vtgv))  # (I - V Vᵀ) V̄
        term = _mm(_mm(u, s_inv), _mT(proj))
        extra = term if extra is None else math_ops.add(extra, term)
    grad = _mm(_mm(u, core), vt)
    return (grad if extra is None else math_ops.add(grad, extra),)


Svd = define("Svd", ("input",), _svd_kernel, _svd_shape, _svd_grad, T=(0,), dtypes=F,
             num_outputs=3)


def svd(tensor, full_matrices=False, compute_uv=True, name=None):
    """``tf.linalg.svd``: ``s`` (descending) or ``(s, u, v)`` with ``tensor = u diag(s) vᴴ``,
    in TensorFlow's order (op ``Svd``).  Real matrices of fewer than 16 columns are
    decomposed as TF's CPU kernel does (``jacobi_svd``: its signs of the singular vectors);
    others through LAPACK (numpy), whose signs may differ from TF's."""
    s, u, v = bind(Svd, (tensor,), {"compute_uv": bool(compute_uv),
                                    "full_matrices": bool(full_matrices)}, name)
    return (s, u, v) if compute_uv else s
