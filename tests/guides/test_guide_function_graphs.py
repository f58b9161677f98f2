"""What intro_to_graphs, function and the AutoGraph guide rely on that this branch adds:
string arguments, datasets and their iterators in tf.function, the tracing protocol's base
class, Keras layers inside functions."""

from __future__ import annotations

import os

import numpy as np
import pytest

import tfgraph_edu as tf


def test_double_traces_once_per_dtype_including_strings():
    traced = []

    @tf.function
    def double(a):
        traced.append(a.dtype)
        return a + a

    assert double(tf.constant(1)).numpy() == 2
    assert double(tf.constant(1.1)).numpy() == pytest.approx(2.2)
    assert double(tf.constant("a")).numpy() == b"aa"
    assert double(tf.constant("b")).numpy() == b"bb"
    assert traced == [tf.int32, tf.float32, tf.string]
    strings = double.get_concrete_function(tf.TensorSpec(shape=[], dtype=tf.string))
    assert strings(tf.constant("c")).numpy() == b"cc"


def test_trace_type_base_class_is_subclassable():
    class FruitType(tf.types.experimental.TraceType):
        def __init__(self, kind):
            self.kind = kind

        def is_subtype_of(self, other):
            return type(other) is FruitType and self.kind is other.kind

        def most_specific_common_supertype(self, others):
            return self if all(self == o for o in others) else None

        def __eq__(self, other):
            return type(other) is FruitType and self.kind == other.kind

        def __hash__(self):
            return hash(self.kind)

    # the guide's class has no placeholder_value: TensorFlow 2.21 refuses to create it with
    # "Can't instantiate abstract class FruitType with abstract method placeholder_value"
    # (Python 3.11's abc wording; 3.12+ says "without an implementation for abstract method
    # 'placeholder_value'": the message is Python's, in TensorFlow and here)
    with pytest.raises(TypeError, match="abstract method '?placeholder_value"):
        FruitType(int)
    with pytest.raises(TypeError):
        tf.types.experimental.TraceType()  # abstract, as in TensorFlow

    class Fruit:
        def __tf_tracing_type__(self, context):
            return CompleteFruitType(type(self))

    class CompleteFruitType(FruitType):
        def placeholder_value(self, placeholder_context):
            return Fruit()

    seen = []

    @tf.function
    def weight(fruit, x):
        seen.append(fruit)
        return x * 2

    apple = Fruit()
    assert weight(apple, tf.constant(2)).numpy() == 4 and weight(Fruit(), 3).numpy() == 6
    # as in TF 2.21: traced once per Python value of x, and the traced function sees the
    # placeholder value, never the argument itself
    assert len(seen) == 2 and all(type(f) is Fruit and f is not apple for f in seen)


def test_dataset_loop_graph_does_not_grow_with_the_data():
    @tf.function
    def train(dataset):
        loss = tf.constant(0)
        for x, y in dataset:
            loss += tf.abs(y - x)
        return loss

    def nodes(arg):
        return len(train.get_concrete_function(arg).graph.as_graph_def().node)

    small = tf.data.Dataset.from_generator(lambda: [(1, 1)] * 3, (tf.int32, tf.int32))
    big = tf.data.Dataset.from_generator(lambda: [(1, 1)] * 10, (tf.int32, tf.int32))
    assert nodes(small) == nodes(big)
    assert nodes([(1, 1)] * 3) < nodes([(1, 1)] * 10)  # a Python list unrolls
    pairs = tf.data.Dataset.from_generator(lambda: [(1, 4), (2, 2)], (tf.int32, tf.int32))
    assert train(pairs).numpy() == 3


def test_keras_layers_inside_functions_and_lstm_cell():
    conv = tf.keras.layers.Conv2D(4, 3)

    @tf.function
    def conv_fn(image):
        return conv(image)

    image = tf.ones([1, 6, 6, 2])
    np.testing.assert_allclose(conv_fn(image).numpy(), conv(image).numpy(), rtol=1e-5)
    cell = tf.keras.layers.LSTMCell(5)
    state = [tf.zeros([3, 5])] * 2

    @tf.function
    def step(x, s):
        return cell(x, s)

    out_graph, _ = step(tf.ones([3, 4]), state)
    out_eager, _ = cell(tf.ones([3, 4]), state)
    np.testing.assert_allclose(out_graph.numpy(), out_eager.numpy(), rtol=1e-5)


def test_mnist_style_pipeline_trains_inside_one_function(tmp_path, monkeypatch):
    rng = np.random.default_rng(0)
    x = rng.integers(0, 256, (300, 28, 28), dtype=np.uint8)
    y = (x[:, 14, :10].argmax(1)).astype(np.uint8)
    os.makedirs(tmp_path / "datasets")
    np.savez(tmp_path / "datasets" / "mnist.npz", x_train=x, y_train=y, x_test=x[:5],
             y_test=y[:5])
    monkeypatch.setenv("KERAS_HOME", str(tmp_path))
    (xt, yt), _ = tf.keras.datasets.mnist.load_data()
    assert xt.shape == (300, 28, 28)

    def prepare(a, b):
        return tf.cast(a, tf.float32) / 255.0, tf.cast(b, tf.int64)

    model = tf.keras.Sequential((
        tf.keras.layers.Reshape(target_shape=(28 * 28,), input_shape=(28, 28)),
        tf.keras.layers.Dense(10)))
    model.build()
    optimizer = tf.keras.optimizers.Adam()
    compute_loss = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    accuracy = tf.keras.metrics.SparseCategoricalAccuracy()

    def train_one_step(xb, yb):  # as the guide does: the tape lives in a helper
        with tf.GradientTape() as tape:
            logits = model(xb)
            loss = compute_loss(yb, logits)
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        accuracy(yb, logits)
        return loss

    @tf.function
    def train():
        ds = tf.data.Dataset.from_tensor_slices((xt, yt)).map(prepare).take(300).batch(100)
        step = 0
        for xb, yb in ds:
            step += 1
            train_one_step(xb, yb)
        return step

    assert train().numpy() == 3
    assert 0.0 <= float(accuracy.result()) <= 1.0
    monkeypatch.setenv("KERAS_HOME", str(tmp_path / "nowhere"))
    with pytest.raises(OSError, match="does not download"):
        tf.keras.datasets.mnist.load_data()
