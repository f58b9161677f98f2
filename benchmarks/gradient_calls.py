"""A training step's forward and gradient: plain eager ops against a tf.function model
called eagerly under the tape (recorded as one op, gradient from its backward function).

The model is a 3-layer MLP on a batch of 64; the step is `with tape: loss = model(x)` then
`tape.gradient(loss, variables)`.  Printed: time per step each way and the ratio, all
measured in this process.
"""

from __future__ import annotations

import time

import numpy as np

import tfgraph_edu as tf


def make_model(seed=0):
    rng = np.random.default_rng(seed)
    sizes = [32, 64, 64, 10]
    ws = [tf.Variable(rng.normal(size=(a, b)).astype(np.float32) * 0.1)
          for a, b in zip(sizes, sizes[1:])]
    bs = [tf.Variable(np.zeros(b, np.float32)) for b in sizes[1:]]

    def forward(x):
        h = x
        for i, (w, b) in enumerate(zip(ws, bs)):
            h = tf.matmul(h, w) + b
            if i < len(ws) - 1:
                h = tf.nn.relu(h)
        return tf.reduce_mean(tf.square(h))
    return forward, ws + bs


def step_time(forward, variables, x, repeats=200) -> float:
    def step():
        with tf.GradientTape() as tape:
            loss = forward(x)
        return tape.gradient(loss, variables)
    for _ in range(5):
        step()
    start = time.perf_counter()
    for _ in range(repeats):
        step()
    return (time.perf_counter() - start) / repeats


def main():
    x = tf.constant(np.random.default_rng(1).normal(size=(64, 32)).astype(np.float32))
    forward, variables = make_model()
    eager = step_time(forward, variables, x)
    traced = step_time(tf.function(forward), variables, x)
    print(f"eager step:                       {eager * 1e6:8.1f} us")
    print(f"tf.function model under the tape: {traced * 1e6:8.1f} us")
    print(f"speed-up of the traced step:      {eager / traced:8.2f}x")


if __name__ == "__main__":
    main()
