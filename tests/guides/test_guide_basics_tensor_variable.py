"""What the basics, tensor and variable guides rely on, in our own short programs.

Printed forms are TensorFlow's documented formats; numbers come from numpy or by hand."""

from __future__ import annotations

import numpy as np
import pytest

import tfgraph_edu as tf


def test_tensor_prints_and_converts():
    m = tf.constant([[1, 2], [3, 4], [5, 6]], dtype=tf.float16)
    assert str(m) == ("tf.Tensor(\n[[1. 2.]\n [3. 4.]\n [5. 6.]], shape=(3, 2), "
                      "dtype=float16)")
    assert np.array(m).dtype == np.float16
    assert repr(tf.convert_to_tensor([1, 2, 3])) == \
        "<tf.Tensor: shape=(3,), dtype=int32, numpy=array([1, 2, 3], dtype=int32)>"
    assert repr(tf.reduce_sum([1, 2, 3])) == "<tf.Tensor: shape=(), dtype=int32, numpy=6>"


def test_shapes_indexing_and_reshape():
    t = tf.zeros([3, 2, 4, 5])
    assert (t.ndim, t.shape[0], t.shape[-1], int(tf.size(t).numpy())) == (4, 3, 5, 120)
    fib = tf.constant([0, 1, 1, 2, 3, 5, 8, 13, 21, 34])
    assert fib[::-1].numpy().tolist() == [34, 21, 13, 8, 5, 3, 2, 1, 1, 0]
    assert fib[2:7].numpy().tolist() == [1, 2, 3, 5, 8]
    cube = tf.reshape(tf.range(30), [3, 2, 5])
    assert cube[:, :, 4].numpy().tolist() == [[4, 9], [14, 19], [24, 29]]
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.reshape(cube, [7, -1])


def test_casts_truncate_and_broadcasting():
    t = tf.cast(tf.cast(tf.constant([2.2, 3.3, 4.4], dtype=tf.float64), tf.float16), tf.uint8)
    assert str(t) == "tf.Tensor([2 3 4], shape=(3,), dtype=uint8)"
    x = tf.reshape(tf.constant([1, 2, 3]), [3, 1])
    np.testing.assert_array_equal(tf.multiply(x, tf.range(1, 5)).numpy(),
                                  np.arange(1, 4)[:, None] * np.arange(1, 5))


def test_string_tensors_print_as_bytes():
    assert str(tf.constant("Gray wolf")) == "tf.Tensor(b'Gray wolf', shape=(), dtype=string)"
    assert str(tf.strings.to_number(tf.strings.split(tf.constant("1 10 100"), " "))) == \
        "tf.Tensor([  1.  10. 100.], shape=(3,), dtype=float32)"
    duck = tf.constant("アヒル 🦆")
    assert tf.strings.unicode_decode(duck, "UTF-8").numpy().tolist() == \
        [ord(c) for c in "アヒル 🦆"]


def test_gpu_check_takes_the_cpu_branch():
    assert not tf.config.list_physical_devices("GPU")


def test_variables_guide():
    tf.debugging.set_log_device_placement(True)
    v = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
    assert str(tf.math.argmax(v)) == "tf.Tensor([1 1], shape=(2,), dtype=int64)"
    b = tf.Variable([False, False, False, True])
    assert b.dtype == tf.bool
    c = tf.Variable([5 + 4j, 6 + 1j])
    assert c.dtype == tf.complex128 and c.numpy().tolist() == [5 + 4j, 6 + 1j]
    with tf.device("CPU:0"):
        a = tf.Variable([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    with tf.device("GPU:0"):  # soft placement: runs on the CPU
        k = a * tf.constant([[1.0, 2.0, 3.0]])
    assert k.numpy().tolist() == [[1.0, 4.0, 9.0], [4.0, 10.0, 18.0]]


def test_basics_quadratic_fit_with_a_dataset_loop():
    tf.random.set_seed(1)
    x = tf.cast(tf.linspace(-2, 2, 201), tf.float32)
    y = x ** 2 + 2 * x - 5 + tf.random.normal([201], stddev=0.1)
    w = tf.Variable([0.5, 0.5, 0.5])
    ds = tf.data.Dataset.from_tensor_slices((x, y)).shuffle(buffer_size=x.shape[0]).batch(32)
    for _ in range(60):
        for xb, yb in ds:
            with tf.GradientTape() as tape:
                pred = tf.tensordot(w, tf.stack([xb ** 2, xb, tf.ones_like(xb)]), axes=1)
                loss = tf.reduce_mean(tf.square(pred - yb))
            w.assign_sub(0.05 * tape.gradient(loss, w))
    np.testing.assert_allclose(w.numpy(), [1.0, 2.0, -5.0], atol=0.1)


def test_basics_keras_lambda_model_fits_and_saves(tmp_path):
    x = tf.cast(tf.linspace(-2, 2, 201), tf.float32)
    y = x ** 2 + 2 * x - 5
    model = tf.keras.Sequential([
        tf.keras.layers.Lambda(lambda v: tf.stack([v, v ** 2], axis=1)),
        tf.keras.layers.Dense(units=1, kernel_initializer=tf.random.normal)])
    model.compile(loss=tf.keras.losses.MSE, optimizer=tf.keras.optimizers.SGD(learning_rate=0.01))
    history = model.fit(x, y, epochs=100, batch_size=32, verbose=0)
    assert history.history["loss"][-1] < 0.05
    model.save(str(tmp_path / "my_new_model.keras"))
