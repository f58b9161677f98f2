"""Per-op cost of eager tfgraph_edu against numpy's own call, in one process.

Each row times the same small computation both ways, interleaved over rounds, and
prints the median ratio eager/numpy with its spread.  Target: at most 3x numpy for
``a * 2.0``, ``tf.exp``, ``tf.reduce_sum`` on 4 elements and ``tf.matmul`` on 4x4.
"""

from __future__ import annotations

# ruff: noqa: I001 - _measure is imported first: it sets the thread counts before numpy loads

from _measure import best_us, measure, ratio

import numpy as np

import tfgraph_edu as tf


def main() -> None:
    rng = np.random.default_rng(0)
    v_np = rng.normal(size=4).astype(np.float32)
    m_np = rng.normal(size=(4, 4)).astype(np.float32)
    a_np = rng.normal(size=(10, 10)).astype(np.float32)
    b_np = rng.normal(size=(10, 10)).astype(np.float32)
    v, m, a, b = tf.constant(v_np), tf.constant(m_np), tf.constant(a_np), tf.constant(b_np)
    rows = [
        ("a * 2.0 (Mul, 4)", lambda: v_np * 2.0, lambda: v * 2.0),
        ("tf.exp (Exp, 4)", lambda: np.exp(v_np), lambda: tf.exp(v)),
        ("tf.reduce_sum (Sum, 4)", lambda: np.sum(v_np), lambda: tf.reduce_sum(v)),
        ("tf.matmul (MatMul, 4x4)", lambda: np.matmul(m_np, m_np), lambda: tf.matmul(m, m)),
        ("a + b (AddV2, 10x10)", lambda: a_np + b_np, lambda: a + b),
        ("tf.nn.relu (Relu, 10x10)", lambda: np.maximum(a_np, np.float32(0)),
         lambda: tf.nn.relu(a)),
        ("tf.matmul (MatMul, 10x10)", lambda: np.matmul(a_np, b_np), lambda: tf.matmul(a, b)),
    ]
    print(f"{'op':28} {'numpy µs':>9} {'eager µs':>9}   eager/numpy median (spread)")
    for label, ref, ours in rows:
        t = measure({"numpy": ref, "eager": ours}, number=5000)
        print(f"{label:28} {best_us(t, 'numpy')} {best_us(t, 'eager')}   "
              f"{ratio(t, 'eager', 'numpy')}")


if __name__ == "__main__":
    main()
