"""tfgraph_edu against real TensorFlow, JAX and numpy, in one process (``make bench-tf``).

Runs only in the separate environment ``make bench-tf`` creates (``.venv-tf``, with
``tensorflow-cpu`` and ``jax``); TensorFlow is never a dependency of tfgraph_edu.
Every figure is a ratio to tfgraph_edu's graph mode (its eager mode on the Keras-call,
Conv2D and MaxPool rows; median over interleaved rounds, spread in brackets); below 1 means
the other system is faster. ``--only TEXT`` measures only the rows whose label contains TEXT
(e.g. ``--only conv2d``).
"""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

from _measure import best_us, measure, ratio  # noqa: E402,I001 - first: it holds BLAS to one thread

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
import tensorflow as real_tf  # noqa: E402

import tfgraph_edu as ours  # noqa: E402


def mlp(tf, n=64):
    rng = np.random.default_rng(0)
    X = tf.constant(rng.normal(size=(n, 784)).astype(np.float32))
    Y = tf.constant(np.eye(10, dtype=np.float32)[rng.integers(0, 10, size=n)])
    W1 = tf.Variable(rng.normal(0, 0.05, size=(784, 256)).astype(np.float32))
    b1 = tf.Variable(np.zeros(256, np.float32))
    W2 = tf.Variable(rng.normal(0, 0.05, size=(256, 10)).astype(np.float32))
    b2 = tf.Variable(np.zeros(10, np.float32))

    def step(x, y):
        with tf.GradientTape() as tape:
            h = tf.nn.relu(tf.matmul(x, W1) + b1)
            logits = tf.matmul(h, W2) + b2
            loss = tf.reduce_mean(tf.square(tf.nn.softmax(logits) - y))
        grads = tape.gradient(loss, [W1, b1, W2, b2])
        for v, g in zip([W1, b1, W2, b2], grads):
            v.assign_sub(0.1 * g)
        return loss
    graph = tf.function(step)
    return lambda: graph(X, Y)


def linreg(tf):
    rng = np.random.default_rng(0)
    X = tf.constant(rng.normal(size=(32, 5)).astype(np.float32))
    Y = tf.constant(rng.normal(size=(32, 1)).astype(np.float32))
    W, b = tf.Variable(tf.zeros([5, 1])), tf.Variable(tf.zeros([1]))

    def step(x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(tf.matmul(x, W) + b - y))
        gw, gb = tape.gradient(loss, [W, b])
        W.assign_sub(0.01 * gw)
        b.assign_sub(0.01 * gb)
        return loss
    graph = tf.function(step)
    return lambda: graph(X, Y), lambda: step(X, Y)


def power(tf):
    def pw(x, y):
        result = tf.eye(10, dtype=tf.int32)
        for _ in range(y):
            result = tf.matmul(x, result)
        return result
    x = tf.constant(np.random.default_rng(0).integers(-1, 2, size=(10, 10)).astype(np.int32))
    graph = tf.function(pw)
    return lambda: graph(x, 100), lambda: pw(x, 100)


def collatz_fn(tf):
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
    graph = tf.function(collatz)
    n = tf.constant(27)
    return lambda: graph(n)


def fizzbuzz_fn(tf):
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
    graph = tf.function(fizzbuzz)
    n = tf.constant(1000)
    return lambda: graph(n)


def keras_fit(tf):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(256, 20)).astype(np.float32)
    y = rng.integers(0, 3, size=256).astype(np.int32)
    model = tf.keras.Sequential([tf.keras.layers.Dense(32, activation="relu"),
                                 tf.keras.layers.Dense(3)])
    model.compile(optimizer="sgd", loss=tf.keras.losses.SparseCategoricalCrossentropy(
        from_logits=True))
    return lambda: model.fit(x, y, batch_size=32, epochs=1, verbose=0)


def conv(tf, shape, filters, backward, pool=False):
    """Eager Conv2D (SAME, stride 1) or 2x2 MaxPool, forward or forward and both gradients."""
    rng = np.random.default_rng(0)
    x = tf.constant(rng.normal(size=shape).astype(np.float32))
    w = None if pool else tf.constant(rng.normal(size=filters).astype(np.float32))

    def forward():
        return tf.nn.max_pool2d(x, 2, 2, "VALID") if pool else tf.nn.conv2d(x, w, 1, "SAME")

    def both():
        with tf.GradientTape() as tape:
            tape.watch(x)
            if w is not None:
                tape.watch(w)
            y = forward()
        return tape.gradient(y, [x] if pool else [x, w])
    return both if backward else forward


def sequential_model(tf):
    """The guides' ``SequentialModel`` (function.ipynb): a Keras Model of Flatten, Dense(128, relu),
    Dropout and Dense(10), called eagerly on a [60, 28, 28] batch."""
    class SequentialModel(tf.keras.Model):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.flatten = tf.keras.layers.Flatten()
            self.dense_1 = tf.keras.layers.Dense(128, activation="relu")
            self.dropout = tf.keras.layers.Dropout(0.2)
            self.dense_2 = tf.keras.layers.Dense(10)

        def call(self, x):
            return self.dense_2(self.dropout(self.dense_1(self.flatten(x))))
    x = tf.constant(np.random.default_rng(0).uniform(size=(60, 28, 28)).astype(np.float32))
    model = SequentialModel()
    return lambda: model(x)


def small_sequential(tf):
    """A keras.Sequential of three small Dense layers called eagerly on a [8, 4] batch: the
    call's Python overhead, not its arithmetic."""
    model = tf.keras.Sequential([tf.keras.layers.Dense(16, activation="relu"),
                                 tf.keras.layers.Dense(16, activation="relu"),
                                 tf.keras.layers.Dense(2)])
    x = tf.constant(np.random.default_rng(0).normal(size=(8, 4)).astype(np.float32))
    return lambda: model(x)


def tracing(tf, n=2000):
    def unrolled(x):
        for _ in range(n):
            x = x * 1.0001 + 1.0
        return x
    x = tf.constant(0.0)
    return lambda: tf.function(unrolled, autograph=False).get_concrete_function(x)


def main() -> None:
    only = sys.argv[sys.argv.index("--only") + 1].lower() if "--only" in sys.argv else ""
    real_tf.config.threading.set_intra_op_parallelism_threads(1)  # one thread each, as numpy's
    real_tf.config.threading.set_inter_op_parallelism_threads(1)
    print(f"TensorFlow {real_tf.__version__}, JAX {jax.__version__}, numpy {np.__version__}")
    print(f"{'workload':34} {'ours µs':>10}   other / ours (median, spread)")
    pw_ours, pw_ours_eager = power(ours)
    pw_tf, pw_tf_eager = power(real_tf)
    xj = jnp.asarray(np.random.default_rng(0).integers(-1, 2, size=(10, 10)), jnp.int32)

    @jax.jit
    def pw_jax(x):
        r = jnp.eye(10, dtype=jnp.int32)
        for _ in range(100):
            r = x @ r
        return r
    lr_ours, lr_ours_eager = linreg(ours)
    lr_tf, lr_tf_eager = linreg(real_tf)
    rows = [
        ("power(x, 100), 10x10", {"ours": pw_ours, "tf.function": pw_tf, "TF eager": pw_tf_eager,
                                  "ours eager": pw_ours_eager,
                                  "jax.jit": lambda: pw_jax(xj).block_until_ready()}, 20),
        ("linear regression step", {"ours": lr_ours, "tf.function": lr_tf,
                                    "TF eager": lr_tf_eager, "ours eager": lr_ours_eager}, 100),
        ("MLP 784-256-10 step, batch 64", {"ours": mlp(ours), "tf.function": mlp(real_tf)}, 20),
        ("Collatz loop, 1,000 iterations", {"ours": collatz_fn(ours),
                                            "tf.function": collatz_fn(real_tf)}, 3),
        ("fizzbuzz into a TensorArray, 1,000", {"ours": fizzbuzz_fn(ours),
                                                "tf.function": fizzbuzz_fn(real_tf)}, 3),
        ("Keras fit, 1 epoch of 256", {"ours": keras_fit(ours), "tf.function": keras_fit(real_tf)},
         1),
        ("tracing 4,000 learner ops", {"ours": tracing(ours), "tf.function": tracing(real_tf)}, 1),
        ("Keras SequentialModel eager call", {"ours": sequential_model(ours),
                                              "TF eager": sequential_model(real_tf)}, 100),
        ("Keras Sequential 3 Dense, eager", {"ours": small_sequential(ours),
                                             "TF eager": small_sequential(real_tf)}, 200),
    ]
    small, large = ((32, 28, 28, 1), (3, 3, 1, 32)), ((1, 200, 200, 100), (3, 3, 100, 100))
    for label, args, number in [("Conv2D 32x28x28x1, 32 3x3", small, 20),
                                ("Conv2D 1x200x200x100, 100 3x3", large, 1)]:
        for part, backward in (("fwd", False), ("fwd+bwd", True)):
            rows.append((f"{label} {part}", {"ours": conv(ours, *args, backward),
                                             "TF eager": conv(real_tf, *args, backward)}, number))
    for part, backward in (("fwd", False), ("fwd+bwd", True)):
        args = ((32, 28, 28, 32), None, backward, True)
        rows.append((f"MaxPool 2x2, 32x28x28x32 {part}",
                     {"ours": conv(ours, *args), "TF eager": conv(real_tf, *args)}, 20))
    for label, fns, number in rows:
        if only not in label.lower():
            continue
        t = measure(fns, number, repeats=5)
        others = "  ".join(f"{k} {ratio(t, k, 'ours').strip()}" for k in fns if k != "ours")
        print(f"{label:34} {best_us(t, 'ours')}   {others}")


if __name__ == "__main__":
    main()
