"""Central differences for the gradient tests of tests/ops (one helper, shared)."""

from __future__ import annotations

import numpy as np


def numeric_grad(f, x, eps=1e-3):
    """d f / d x by central differences, in float64, one element at a time."""
    x = np.asarray(x, np.float64)
    out = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        up, down = x.copy(), x.copy()
        up[i] += eps
        down[i] -= eps
        out[i] = (f(up) - f(down)) / (2 * eps)
    return out
