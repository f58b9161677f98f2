"""Per-op overhead of eager tfgraph_edu over calling numpy directly.

Each row times the same small computation both ways in this one process
(best of several repeats of many calls) and prints the time per call, the
overhead in microseconds, and the ratio.  Target: under 3 µs per op above numpy.
"""

from __future__ import annotations

import timeit

import numpy as np

import tfgraph_edu as tf


def per_call(fn, number=20000, repeat=7) -> float:
    return min(timeit.repeat(fn, number=number, repeat=repeat)) / number


def main() -> None:
    a_np = np.random.default_rng(0).normal(size=(10, 10)).astype(np.float32)
    b_np = np.random.default_rng(1).normal(size=(10, 10)).astype(np.float32)
    a, b = tf.constant(a_np), tf.constant(b_np)
    s_np, s = np.float32(1.5), tf.constant(1.5)
    rows = [
        ("a + b (AddV2, 10x10)", lambda: a_np + b_np, lambda: a + b),
        ("tf.multiply (Mul, 10x10)", lambda: np.multiply(a_np, b_np), lambda: tf.multiply(a, b)),
        ("a * 2.0 (Python scalar)", lambda: a_np * np.float32(2.0), lambda: a * 2.0),
        ("tf.matmul (MatMul, 10x10)", lambda: np.matmul(a_np, b_np), lambda: tf.matmul(a, b)),
        ("tf.nn.relu (Relu, 10x10)", lambda: np.maximum(a_np, np.float32(0)),
         lambda: tf.nn.relu(a)),
        ("tf.exp (Exp, scalar)", lambda: np.exp(s_np), lambda: tf.exp(s)),
        ("tf.reduce_sum (Sum, 10x10)", lambda: np.sum(a_np), lambda: tf.reduce_sum(a)),
    ]
    print(f"{'op':32} {'numpy µs':>9} {'eager µs':>9} {'overhead µs':>12} {'ratio':>7}")
    worst = 0.0
    for label, ref, ours in rows:
        t_np, t_tf = per_call(ref), per_call(ours)
        over = (t_tf - t_np) * 1e6
        worst = max(worst, over)
        print(f"{label:32} {t_np * 1e6:9.2f} {t_tf * 1e6:9.2f} {over:12.2f} {t_tf / t_np:6.2f}x")
    print(f"largest overhead: {worst:.2f} µs per op (target < 3 µs)")


if __name__ == "__main__":
    main()
