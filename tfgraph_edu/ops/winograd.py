"""Winograd's minimal filtering F(4x4, 3x3): the 3x3, stride-1 convolutions of big layers (layer 1).

A 3x3 convolution over a 6x6 input tile gives a 4x4 output tile.  Written as
``Y = A^T [(G g G^T) * (B^T d B)] A`` (``*`` elementwise) it needs 36 products per tile and
channel pair instead of 144: the input tiles and the filter are moved into a 36-point
"transform" space, each of the 36 points is one matrix product over the channels
(``(tiles, C) @ (C, CO)``), and the 36 results are moved back.  The transforms are small dense
matrix products too, so a layer is a handful of BLAS calls; tiles are taken in chunks that
keep the buffers under ``CHUNK_BYTES``.

The filter's gradient uses the same identity with the roles of ``A`` and ``G`` swapped
(the transposition principle): ``dW = G^T [sum over tiles (B^T d B) * (A dY A^T)] G``.

The transforms round in float32, so results differ from a direct sum by up to a few 1e-6 of
the output's largest value (TF's oneDNN: about 1e-6; measured in tests and the README);
``nn_ops`` uses this only for float32 layers large enough that nobody reads their last
digits, and the direct patch-matrix product otherwise.
"""

from __future__ import annotations

import numpy as np

M, R = 4, 3          # output tile, filter size
ALPHA = M + R - 1    # input tile (6)
CHUNK_BYTES = 4 << 20     # about what a core's L2 cache holds: the steps of a chunk stay in it

# The Toom-Cook matrices of the interpolation points 0, 1, -1, 1/2, -2 and infinity; with 1/2 in
# place of the usual 2, the float32 rounding of the transforms is about three times smaller
# (Barabasz et al., 2018).  Exact identity, checked in tests: for every input index t, output
# index i and filter index j, sum over s of AT[i, s] G[s, j] BT[s, t] is 1 if t == i + j, else 0.
_BT = np.array([[1, -3 / 2, -2, 3 / 2, 1, 0], [0, -1, 1 / 2, 5 / 2, 1, 0],
                [0, 1, -5 / 2, 1 / 2, 1, 0], [0, -2, -1, 2, 1, 0],
                [0, 1 / 2, -1, -1 / 2, 1, 0], [0, 1, -3 / 2, -2, 3 / 2, 1]], np.float64)
_G = np.array([[1, 0, 0], [1 / 3, 1 / 3, 1 / 3], [-1 / 3, 1 / 3, -1 / 3],
               [-16 / 15, -8 / 15, -4 / 15], [1 / 15, -2 / 15, 4 / 15], [0, 0, 1]], np.float64)
_AT = np.array([[1, 1, 1, 1, 1, 0], [0, 1, -1, 1 / 2, -2, 0], [0, 1, 1, 1 / 4, 4, 0],
                [0, 1, -1, 1 / 8, -8, 1]], np.float64)
# 2-D transforms as one matrix on flattened tiles: (B^T d B) flattened = kron(B^T, B^T) d.
_BB = np.kron(_BT, _BT).astype(np.float32)      # 36 x 36, input tiles
_AA = np.kron(_AT, _AT).astype(np.float32)      # 16 x 36, back to output tiles
_AA_T = np.ascontiguousarray(_AA.T)             # 36 x 16, output-gradient tiles
_GG_T = np.kron(_G, _G).T.copy()                # 9 x 36, back to the filter (float64)


def _tiles(oh, ow):
    return -(-oh // M), -(-ow // M)


def _fit(a, rows, cols):
    """``a`` (N, H, W, C) zero-padded at the bottom/right to at least rows x cols."""
    dh, dw = max(rows - a.shape[1], 0), max(cols - a.shape[2], 0)
    return np.pad(a, ((0, 0), (0, dh), (0, dw), (0, 0))) if dh or dw else a


def _bands(n, th, tw, channels):
    """(image, first tile row, last tile row) chunks whose 36-point buffers fit CHUNK_BYTES."""
    per_row = ALPHA * ALPHA * tw * channels * 4
    rows = max(1, CHUNK_BYTES // per_row)
    return [(b, t, min(t + rows, th)) for b in range(n) for t in range(0, th, rows)]


def _input_points(xq, b, t0, t1, tw, c):
    """B^T d B of the 6x6 tiles of tile rows t0..t1 of image b: (36, tiles, C) float32."""
    nt = (t1 - t0) * tw
    d = np.empty((ALPHA, ALPHA, t1 - t0, tw, c), np.float32)
    top = t0 * M
    for i in range(ALPHA):
        for j in range(ALPHA):
            d[i, j] = xq[b, top + i:top + i + M * (t1 - t0 - 1) + 1:M, j:j + M * (tw - 1) + 1:M]
    return (_BB @ d.reshape(ALPHA * ALPHA, -1)).reshape(ALPHA * ALPHA, nt, c)


def conv3x3(xp, w, oh, ow):
    """VALID 3x3 stride-1 convolution of padded float32 ``xp`` (N, >=OH+2, >=OW+2, C) by ``w``."""
    n, c, co = xp.shape[0], xp.shape[3], w.shape[3]
    th, tw = _tiles(oh, ow)
    xq = _fit(xp, th * M + 2, tw * M + 2)
    u = np.einsum("pi,ijkl,qj->pqkl", _G, w.astype(np.float64), _G)
    u = u.astype(np.float32).reshape(ALPHA * ALPHA, c, co)
    out = np.empty((n, th * M, tw * M, co), np.float32)
    for b, t0, t1 in _bands(n, th, tw, max(c, co)):
        prod = np.matmul(_input_points(xq, b, t0, t1, tw, c), u)       # (36, tiles, CO)
        y = (_AA @ prod.reshape(ALPHA * ALPHA, -1)).reshape(M, M, t1 - t0, tw, co)
        for i in range(M):
            for j in range(M):
                out[b, t0 * M + i:t1 * M:M, j::M] = y[i, j]
    return out[:, :oh, :ow]


def filter_grad3x3(xp, dy):
    """The 3x3 filter's gradient of a VALID stride-1 convolution of padded float32 ``xp``."""
    n, c = xp.shape[0], xp.shape[3]
    _, oh, ow, co = dy.shape
    th, tw = _tiles(oh, ow)
    xq = _fit(xp, th * M + 2, tw * M + 2)
    gq = _fit(dy, th * M, tw * M)
    acc = np.zeros((ALPHA * ALPHA, c, co), np.float32)
    for b, t0, t1 in _bands(n, th, tw, max(c, co)):
        v = _input_points(xq, b, t0, t1, tw, c)                           # (36, tiles, C)
        g = np.empty((M, M, t1 - t0, tw, co), np.float32)
        for i in range(M):
            for j in range(M):
                g[i, j] = gq[b, t0 * M + i:t1 * M:M, j::M]
        gp = (_AA_T @ g.reshape(M * M, -1)).reshape(ALPHA * ALPHA, -1, co)  # (36, tiles, CO)
        acc += np.matmul(v.transpose(0, 2, 1), gp)
    dw = _GG_T @ acc.reshape(ALPHA * ALPHA, -1).astype(np.float64)
    return dw.reshape(R, R, c, co).astype(np.float32)
