"""The guides' workloads and two AutoGraph loops, timed in one process.

Each row runs its versions interleaved over rounds and prints ratios (median and spread):
graph (tf.function) against hand-written numpy or plain Python, and eager against graph.
The numpy train step's gradient is derived by hand.
"""

from __future__ import annotations

# ruff: noqa: I001 - _measure is imported first: it sets the thread counts before numpy loads

from _measure import best_us, measure, ratio

import numpy as np

import tfgraph_edu as tf


def power_rows():
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
    return "power(x, 100), 10x10 int32", {"graph": lambda: graph(x, 100),
                                          "numpy": lambda: power_np(x_np, 100),
                                          "eager": lambda: power(x, 100)}, 20


def train_rows():
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
    return "linear regression train step, 32x5", {"graph": lambda: graph(X, Y),
                                                  "numpy": lambda: train_step_np(X_np, Y_np),
                                                  "eager": lambda: train_step(X, Y)}, 300


def relu_rows():
    def my_relu(x):
        return tf.maximum(0., x)

    x = tf.constant(5.5)
    x_np = np.float32(5.5)
    graph = tf.function(my_relu)
    return "my_relu, scalar (whole call)", {
        "graph": lambda: graph(x), "numpy": lambda: np.maximum(np.float32(0.0), x_np),
        "eager": lambda: my_relu(x)}, 3000


def collatz(n):
    x = n
    odd = 0
    for _ in tf.range(1000):
        if x % 2 == 0:
            x = x // 2
        else:
            x = 3 * x + 1
            odd += 1
    return x, odd


def collatz_python(n):
    x = n
    odd = 0
    for _ in range(1000):
        if x % 2 == 0:
            x = x // 2
        else:
            x = 3 * x + 1
            odd += 1
    return x, odd


def fizzbuzz(n):
    ta = tf.TensorArray(tf.int32, size=n)
    v = 0
    for i in tf.range(n):
        if i % 15 == 0:
            v = -3
        elif i % 3 == 0:
            v = -1
        elif i % 5 == 0:
            v = -2
        else:
            v = i
        ta = ta.write(i, v)
    return ta.stack()


def fizzbuzz_python(n):
    out = []
    for i in range(n):
        if i % 15 == 0:
            v = -3
        elif i % 3 == 0:
            v = -1
        elif i % 5 == 0:
            v = -2
        else:
            v = i
        out.append(v)
    return out


def loop_rows():
    c, f = tf.function(collatz), tf.function(fizzbuzz)
    n27, n1000 = tf.constant(27), tf.constant(1000)
    assert tuple(int(t) for t in c(n27)) == collatz_python(27)
    assert f(n1000).numpy().tolist() == fizzbuzz_python(1000)
    return [("Collatz, 1,000 iterations over tf.range", {
                "graph": lambda: c(n27), "python": lambda: collatz_python(27),
                "eager": lambda: collatz(n27)}, 5),
            ("fizzbuzz into a TensorArray, 1,000", {
                "graph": lambda: f(n1000), "python": lambda: fizzbuzz_python(1000),
                "eager": lambda: fizzbuzz(n1000)}, 5)]


def main() -> None:
    print(f"{'workload':40} {'graph µs':>9} {'ref µs':>9}   graph/reference            "
          "eager/graph")
    rows = [power_rows(), train_rows(), relu_rows(), *loop_rows()]
    for label, fns, number in rows:
        ref = "numpy" if "numpy" in fns else "python"
        eager = fns.pop("eager")
        t = measure(fns, number)
        te = measure({"eager": eager, "graph": fns["graph"]}, max(1, number // 10), repeats=3)
        print(f"{label:40} {best_us(t, 'graph')} {best_us(t, ref)}   "
              f"{ratio(t, 'graph', ref)} vs {ref:6}  {ratio(te, 'eager', 'graph')}")


if __name__ == "__main__":
    main()
