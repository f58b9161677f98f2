"""A tape builds no gradient MatMul for an input it did not watch (issue 23).

``matmul(x, W)`` with only ``W`` watched: TF 2.21's tape leaves out the gradient of ``x``,
so a traced training step has one gradient MatMul, not two. The expected op names and
values below were recorded once by running the same functions under TensorFlow 2.21.
"""

import numpy as np

import tfgraph_edu as tf


def _matmuls(fn, x):
    graph = fn.get_concrete_function(x).graph
    return [op.name for op in graph.get_operations() if op.type == "MatMul"]


def _setup():
    W = tf.Variable(tf.ones([3, 2]))
    x = tf.constant(np.arange(12, dtype=np.float32).reshape(4, 3))
    return W, x


def test_only_the_watched_input_gets_a_gradient_matmul():
    W, x = _setup()

    @tf.function
    def only_w(x):
        with tf.GradientTape() as tape:
            y = tf.reduce_sum(tf.matmul(x, W))
        return tape.gradient(y, W)

    # TF 2.21: ['MatMul', 'gradient_tape/MatMul/MatMul'], [[18, 18], [22, 22], [26, 26]]
    assert _matmuls(only_w, x) == ["MatMul", "gradient_tape/MatMul/MatMul"]
    np.testing.assert_allclose(only_w(x).numpy(), [[18, 18], [22, 22], [26, 26]])


def test_both_inputs_watched_get_both_gradients():
    W, x = _setup()

    @tf.function
    def both(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(tf.matmul(x, W))
        return tape.gradient(y, [x, W])

    # TF 2.21: three MatMuls; dx all 2.0, dW as above
    assert _matmuls(both, x) == ["MatMul", "gradient_tape/MatMul/MatMul",
                                 "gradient_tape/MatMul/MatMul_1"]
    dx, dW = both(x)
    np.testing.assert_allclose(dx.numpy(), np.full((4, 3), 2.0))
    np.testing.assert_allclose(dW.numpy(), [[18, 18], [22, 22], [26, 26]])


def test_skipping_the_first_input_with_a_transpose():
    _, x = _setup()
    ones = np.ones((2, 3), np.float32)

    @tf.function
    def only_x(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(tf.matmul(tf.constant(ones), x, transpose_b=True))
        return tape.gradient(y, x)

    # TF 2.21: ['MatMul', 'gradient_tape/MatMul/MatMul'], dx all 2.0
    assert _matmuls(only_x, x) == ["MatMul", "gradient_tape/MatMul/MatMul"]
    np.testing.assert_allclose(only_x(x).numpy(), np.full((4, 3), 2.0))


def test_eager_gradient_unchanged_by_the_skip():
    W, x = _setup()
    with tf.GradientTape(persistent=True) as tape:
        y = tf.reduce_sum(tf.matmul(x, W))
    np.testing.assert_allclose(tape.gradient(y, W).numpy(), [[18, 18], [22, 22], [26, 26]])
    assert tape.gradient(y, x) is None  # x was never watched: TF 2.21 says None too
