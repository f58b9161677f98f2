"""The guides' workloads three ways, in one process: eager, graph (tf.function), numpy.

Prints per-call times and the ratios graph/numpy and eager/graph.  The numpy
versions are written by hand (hand-derived gradient for the train step).
"""

from __future__ import annotations

import timeit

import numpy as np

import tfgraph_edu as tf


def per_call(fn, number, repeat=7) -> float:
    fn()  # warm up (and trace)
    return min(timeit.repeat(fn, number=number, repeat=repeat)) / number


def power_workload():
    def power(x, y):
        result = tf.eye(10, dtype=tf.int32)
        for _ in range(y):
            result = tf.matmul(x, result)
        return result

    def power_np(x, y):
        result = np.eye(10, dtype=np.int32)
        for _ in range(y):
            result = x @ result
        return result

    tf.random.set_seed(0)
    x = tf.random.uniform([10, 10], minval=-1, maxval=2, dtype=tf.int32)
    x_np = x.numpy()
    graph = tf.function(power)
    return ("power(x, 100), 10x10 int32", lambda: power(x, 100), lambda: graph(x, 100),
            lambda: power_np(x_np, 100), 200)


def train_workload():
    rng = np.random.default_rng(0)
    X_np = rng.normal(size=(32, 5)).astype(np.float32)
    Y_np = rng.normal(size=(32, 1)).astype(np.float32)
    X, Y = tf.constant(X_np), tf.constant(Y_np)
    W, b = tf.Variable(tf.zeros([5, 1])), tf.Variable(tf.zeros([1]))

    def train_step(x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(tf.matmul(x, W) + b - y))
        gw, gb = tape.gradient(loss, [W, b])
        W.assign_sub(0.01 * gw)
        b.assign_sub(0.01 * gb)
        return loss

    state = {"W": np.zeros((5, 1), np.float32), "b": np.zeros(1, np.float32)}

    def train_step_np(x, y):
        err = x @ state["W"] + state["b"] - y
        loss = np.mean(np.square(err))
        g = (2.0 / err.size) * err
        state["W"] = state["W"] - np.float32(0.01) * (x.T @ g)
        state["b"] = state["b"] - np.float32(0.01) * g.sum(0)
        return loss

    graph = tf.function(train_step)
    return ("linear regression train step, 32x5", lambda: train_step(X, Y),
            lambda: graph(X, Y), lambda: train_step_np(X_np, Y_np), 2000)


def relu_workload():
    def my_relu(x):
        return tf.maximum(0., x)

    x = tf.constant(5.5)
    x_np = np.float32(5.5)
    graph = tf.function(my_relu)
    return ("my_relu, scalar", lambda: my_relu(x), lambda: graph(x),
            lambda: np.maximum(np.float32(0.0), x_np), 50000)


def main() -> None:
    print(f"{'workload':38} {'eager µs':>10} {'graph µs':>10} {'numpy µs':>10} "
          f"{'graph/numpy':>12} {'eager/graph':>12}")
    for make in (power_workload, train_workload, relu_workload):
        label, eager, graph, ref, number = make()
        t_e, t_g, t_n = per_call(eager, number // 10 or 1), per_call(graph, number), \
            per_call(ref, number)
        print(f"{label:38} {t_e * 1e6:10.1f} {t_g * 1e6:10.1f} {t_n * 1e6:10.1f} "
              f"{t_g / t_n:11.2f}x {t_e / t_g:11.2f}x")


if __name__ == "__main__":
    main()
