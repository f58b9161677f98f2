"""ONNX export: the exported graph runs in onnxruntime, outside tfgraph_edu, with the same
results; ops without an ONNX counterpart are named in the error."""

from __future__ import annotations

import numpy as np
import pytest

import tfgraph_edu as tf


def test_a_keras_model_runs_in_onnxruntime(tmp_path):
    import onnxruntime as ort
    tf.random.set_seed(0)
    model = tf.keras.Sequential([tf.keras.layers.Flatten(),
                                 tf.keras.layers.Dense(16, activation="relu"),
                                 tf.keras.layers.Dense(4), ])

    @tf.function
    def predict(x):
        logits = model(x)
        return tf.nn.softmax(logits) * 1.0 + tf.reduce_mean(logits, axis=1, keepdims=True)

    x = np.random.default_rng(0).normal(size=(5, 2, 3)).astype(np.float32)
    cf = predict.get_concrete_function(tf.TensorSpec([None, 2, 3], tf.float32))
    tf.onnx.export(cf, tmp_path / "model.onnx")
    session = ort.InferenceSession(str(tmp_path / "model.onnx"),
                                   providers=["CPUExecutionProvider"])
    (got,) = session.run(None, {session.get_inputs()[0].name: x})
    np.testing.assert_allclose(got, predict(tf.constant(x)).numpy(), rtol=1e-5, atol=1e-6)
    assert session.get_inputs()[0].shape[0] == "d0"  # the batch dimension stayed open


def test_ops_without_an_onnx_counterpart_are_named(tmp_path):
    @tf.function
    def f(x):
        tf.print(x)
        return tf.random.normal([2]) + x

    with pytest.raises(ValueError, match="no ONNX counterpart in tfgraph_edu's exporter: "
                                         "PrintV2, RandomStandardNormal, StringFormat"):
        tf.onnx.export(f.get_concrete_function(tf.constant([1.0, 2.0])), tmp_path / "f.onnx")


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.float32])
def test_floor_division_runs_in_onnxruntime_like_numpy(tmp_path, dtype):
    import onnxruntime as ort

    @tf.function
    def f(a, b):
        return a // b

    rng = np.random.default_rng(1)
    a = rng.integers(-50, 50, size=200).astype(dtype)
    b = rng.integers(1, 9, size=200).astype(dtype) * rng.choice([-1, 1], size=200).astype(dtype)
    cf = f.get_concrete_function(tf.TensorSpec([None], dtype), tf.TensorSpec([None], dtype))
    tf.onnx.export(cf, tmp_path / "floordiv.onnx")
    session = ort.InferenceSession(str(tmp_path / "floordiv.onnx"),
                                   providers=["CPUExecutionProvider"])
    names = [i.name for i in session.get_inputs()]
    (got,) = session.run(None, dict(zip(names, (a, b))))
    assert got.dtype == dtype
    np.testing.assert_array_equal(got, np.floor_divide(a, b))  # numpy floors, as TF does
