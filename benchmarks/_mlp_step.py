"""The MLP train step both browser benchmarks draw: two Dense layers, sparse categorical
cross-entropy, a GradientTape and SGD, as one source text.

``SOURCE`` defines ``f`` (the ``tf.function``) and its ``args`` and calls it once, with
``tf`` and ``np`` taken from the namespace it runs in: tensorboard_side_by_side.py runs it
with real TensorFlow and writes it as a notebook cell; viewer_in_browser.py runs it with
tfgraph_edu through :func:`mlp_train_step`.  Our own text, never read from a file.
"""

from __future__ import annotations

SOURCE = """\
model = tf.keras.Sequential([tf.keras.layers.Dense(16, activation='relu'),
                             tf.keras.layers.Dense(3)])
opt = tf.keras.optimizers.SGD(0.1)
loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)

@tf.function
def f(x, y):
    with tf.GradientTape() as tape:
        loss = loss_fn(y, model(x))
    grads = tape.gradient(loss, model.trainable_variables)
    opt.apply_gradients(zip(grads, model.trainable_variables))
    return loss

rng = np.random.default_rng(0)
args = (tf.constant(rng.random((8, 4), dtype=np.float32)), tf.constant(np.arange(8) % 3))
result = f(*args)
"""


def mlp_train_step(tf=None, filename: str = "<mlp_train_step>"):
    """The step's ``tf.function``, built with the module ``tf`` (tfgraph_edu when None) and
    called once.  The text is put in ``linecache`` under ``filename`` so that AutoGraph finds
    the function's source."""
    import linecache

    import numpy as np
    if tf is None:
        import tfgraph_edu as tf
    linecache.cache[filename] = (len(SOURCE), None, SOURCE.splitlines(True), filename)
    ns = {"tf": tf, "np": np}
    exec(compile(SOURCE, filename, "exec"), ns)  # noqa: S102 - SOURCE above, our own text
    return ns["f"]
