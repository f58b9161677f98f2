"""The singular value decomposition TensorFlow's CPU kernel computes for small matrices
(layer 1, numpy only), so that ``tf.linalg.svd`` gives TF's signs of the singular vectors.

TF 2.21 runs Eigen's divide-and-conquer SVD, which hands a matrix of fewer than 16 columns to
a two-sided Jacobi SVD.  A singular vector's sign is not fixed by the mathematics; it follows
from that algorithm's steps, so they are taken here in the same order:

1. the matrix is divided by its largest absolute entry;
2. a non-square matrix is reduced to a square one by a Householder QR with column pivoting
   (of the matrix when it is tall, of its transpose when it is wide): the triangular factor
   is decomposed, the orthogonal factor and the permutation become the outer ``u`` / ``v``;
3. sweeps over the pairs ``(p, q)``, ``q < p``, diagonalize each 2x2 block whose
   off-diagonal entries are above ``2 eps`` times the largest diagonal entry: a rotation
   making the block symmetric, then the symmetric Jacobi rotation, applied on both sides;
4. a negative diagonal entry flips the sign of its column of ``u``; the values are sorted in
   descending order by a selection that swaps columns of ``u`` and ``v``.

The arithmetic is done in the input's precision; the last digits may differ from TF's (the
order of floating-point sums is numpy's), the signs do not.
"""

from __future__ import annotations

import numpy as np

MAX_COLUMNS = 16  # TF's kernel uses this algorithm below this many columns


def svd(a: np.ndarray, compute_uv: bool, full_matrices: bool):
    """(s, u, v) of one real matrix ``a`` (rows x cols, cols < MAX_COLUMNS), as TF's."""
    dtype = a.dtype
    rows, cols = a.shape
    k = min(rows, cols)
    if k == 0:
        return (np.zeros([0], dtype), np.eye(rows, rows if full_matrices else 0, dtype=dtype),
                np.eye(cols, cols if full_matrices else 0, dtype=dtype))
    scale = np.abs(a).max()
    if not np.isfinite(scale):
        nan = np.full([k], np.nan, dtype)
        return (nan, np.full([rows, rows if full_matrices else k], np.nan, dtype),
                np.full([cols, cols if full_matrices else k], np.nan, dtype))
    if scale == 0:
        scale = dtype.type(1)
    scaled = (a / scale).astype(dtype)
    if rows > cols:
        q, r, perm = _pivoted_qr(scaled, full_matrices)
        work, u, v = np.triu(r[:cols, :cols]), q, perm
    elif cols > rows:
        q, r, perm = _pivoted_qr(scaled.T.copy(), full_matrices)
        work, u, v = np.triu(r[:rows, :rows]).T.copy(), perm, q
    else:
        work, u, v = scaled.copy(), np.eye(rows, dtype=dtype), np.eye(cols, dtype=dtype)
    _jacobi_sweeps(work, u, v)
    s = np.empty([k], dtype)
    for i in range(k):
        d = work[i, i]
        s[i] = abs(d)
        if d < 0:
            u[:, i] = -u[:, i]
    s = (s * scale).astype(dtype)
    for i in range(k):  # selection sort, descending; the first largest wins ties
        pos = i + int(np.argmax(s[i:]))
        if s[pos] == 0:
            break
        if pos != i:
            s[[i, pos]] = s[[pos, i]]
            u[:, [i, pos]] = u[:, [pos, i]]
            v[:, [i, pos]] = v[:, [pos, i]]
    if not compute_uv:
        return s, None, None
    return s, u, v


def _pivoted_qr(a: np.ndarray, full: bool):
    """Householder QR with column pivoting of a tall (or square) matrix: (Q, R, P) with
    ``a P = Q R``; Q is rows x rows when ``full``, else rows x cols; P a permutation matrix."""
    dtype = a.dtype
    rows, cols = a.shape
    qr = a.copy()
    eps = np.finfo(dtype).eps
    norms_direct = np.array([np.linalg.norm(qr[:, j]) for j in range(cols)], dtype)
    norms = norms_direct.copy()
    threshold = np.sqrt(eps)
    transpositions, taus, vectors = [], [], []
    for k in range(cols):
        biggest = k + int(np.argmax(norms[k:]))
        transpositions.append(biggest)
        if biggest != k:
            qr[:, [k, biggest]] = qr[:, [biggest, k]]
            norms[[k, biggest]] = norms[[biggest, k]]
            norms_direct[[k, biggest]] = norms_direct[[biggest, k]]
        x = qr[k:, k]
        c0 = x[0]
        tail_sq = dtype.type(np.dot(x[1:], x[1:])) if x.size > 1 else dtype.type(0)
        if tail_sq <= np.finfo(dtype).tiny:
            tau, beta, essential = dtype.type(0), c0, np.zeros(x.size - 1, dtype)
        else:
            beta = dtype.type(np.sqrt(c0 * c0 + tail_sq))
            if c0 >= 0:
                beta = -beta
            essential = (x[1:] / (c0 - beta)).astype(dtype)
            tau = dtype.type((beta - c0) / beta)
        vec = np.concatenate([[dtype.type(1)], essential]).astype(dtype)
        qr[k, k] = beta
        qr[k + 1:, k] = 0
        if k + 1 < cols and tau != 0:  # I - tau v vᵀ on the columns to the right
            block = qr[k:, k + 1:]
            block -= tau * np.outer(vec, vec @ block)
        taus.append(tau)
        vectors.append(vec)
        for j in range(k + 1, cols):  # the columns' remaining norms, downdated
            if norms[j] != 0:
                t = abs(qr[k, j]) / norms[j]
                t = max((1 + t) * (1 - t), 0)
                t2 = t * (norms[j] / norms_direct[j]) ** 2
                if t2 <= threshold:
                    norms_direct[j] = np.linalg.norm(qr[k + 1:, j])
                    norms[j] = norms_direct[j]
                else:
                    norms[j] *= np.sqrt(t)
    q = np.eye(rows, rows if full else cols, dtype=dtype)
    for k in reversed(range(cols)):  # Q = H_0 H_1 ... applied to the identity's columns
        if taus[k] != 0:
            part = q[k:, :]
            part -= taus[k] * np.outer(vectors[k], vectors[k] @ part)
    perm = np.eye(cols, dtype=dtype)
    for k, t in enumerate(transpositions):
        if t != k:
            perm[:, [k, t]] = perm[:, [t, k]]
    return q, qr, perm


def _jacobi_sweeps(work: np.ndarray, u: np.ndarray, v: np.ndarray) -> None:
    """Two-sided Jacobi sweeps until ``work`` is diagonal, rotating ``u`` and ``v`` along."""
    dtype = work.dtype
    n = work.shape[0]
    tiny = np.finfo(dtype).tiny
    precision = 2 * np.finfo(dtype).eps
    max_diag = np.abs(np.diag(work)).max() if n else dtype.type(0)
    for _ in range(10_000):
        finished = True
        for p in range(1, n):
            for q in range(p):
                threshold = max(tiny, precision * max_diag)
                if abs(work[p, q]) <= threshold and abs(work[q, p]) <= threshold:
                    continue
                finished = False
                (lc, ls), (rc, rs) = _rotations_2x2(work, p, q)
                # the left rotation on rows p, q; its transpose on u's columns
                wp, wq = work[p, :].copy(), work[q, :].copy()
                work[p, :] = lc * wp + ls * wq
                work[q, :] = -ls * wp + lc * wq
                up, uq = u[:, p].copy(), u[:, q].copy()
                u[:, p] = lc * up + ls * uq
                u[:, q] = -ls * up + lc * uq
                # the right rotation on columns p, q of work and of v
                wp, wq = work[:, p].copy(), work[:, q].copy()
                work[:, p] = rc * wp - rs * wq
                work[:, q] = rs * wp + rc * wq
                vp, vq = v[:, p].copy(), v[:, q].copy()
                v[:, p] = rc * vp - rs * vq
                v[:, q] = rs * vp + rc * vq
                max_diag = max(max_diag, abs(work[p, p]), abs(work[q, q]))
        if finished:
            return


def _rotations_2x2(work, p, q):
    """((c, s) of the left rotation, (c, s) of the right one) making the 2x2 block
    ``[[w_pp, w_pq], [w_qp, w_qq]]`` diagonal."""
    dtype = work.dtype
    one = dtype.type(1)
    m00, m01, m10, m11 = work[p, p], work[p, q], work[q, p], work[q, q]
    t = m00 + m11
    d = m10 - m01
    if abs(d) < np.finfo(dtype).tiny:
        c1, s1 = one, dtype.type(0)
    else:  # a rotation making the block symmetric
        ratio = t / d
        tmp = np.sqrt(one + ratio * ratio)
        s1, c1 = one / tmp, ratio / tmp
    # that rotation applied on the left of the block
    a00, a01 = c1 * m00 + s1 * m10, c1 * m01 + s1 * m11
    a11 = -s1 * m01 + c1 * m11
    # the symmetric Jacobi rotation of [[a00, a01], [a01, a11]]
    deno = 2 * abs(a01)
    if deno < np.finfo(dtype).tiny:
        rc, rs = one, dtype.type(0)
    else:
        tau = (a00 - a11) / deno
        w = np.sqrt(tau * tau + one)
        tt = one / (tau + w) if tau > 0 else one / (tau - w)
        sign_t = one if tt > 0 else -one
        nn = one / np.sqrt(tt * tt + one)
        rs = -sign_t * (a01 / abs(a01)) * abs(tt) * nn
        rc = nn
    # left = rot1 * transpose(right): transpose of (c, s) is (c, -s)
    tc, ts = rc, -rs
    lc = c1 * tc - s1 * ts
    ls = c1 * ts + s1 * tc
    return (dtype.type(lc), dtype.type(ls)), (dtype.type(rc), dtype.type(rs))
