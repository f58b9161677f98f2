"""The small API the guides call: strings, devices, linalg and nn composites, py_function.

Expected values are TensorFlow's documented results or numpy computed independently.
"""

from __future__ import annotations

import numpy as np
import pytest

import tfgraph_edu as tf


# -- strings -------------------------------------------------------------------------------
def test_plus_concatenates_string_tensors_eagerly_and_traced():
    a = tf.constant("Gray")
    assert repr(a + tf.constant(" wolf")) == \
        "<tf.Tensor: shape=(), dtype=string, numpy=b'Gray wolf'>"
    assert (a + "!").numpy() == b"Gray!"

    @tf.function
    def shout(s):
        return s + "!"

    assert shout(tf.constant(["a", "b"])).numpy().tolist() == [b"a!", b"b!"]


def test_string_tensor_in_input_signature():
    @tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.string)])
    def greet(name):
        return tf.strings.join(["Hello, ", name])

    assert greet(tf.constant("world")).numpy() == b"Hello, world"
    with pytest.raises((TypeError, ValueError)):
        greet(tf.constant(1.0))


def test_strings_namespace():
    assert tf.strings.length(tf.constant(["ab", "héllo"])).numpy().tolist() == [2, 6]
    assert tf.strings.length("héllo", unit="UTF8_CHAR").numpy() == 5
    assert tf.strings.upper("Gray wolf").numpy() == b"GRAY WOLF"
    assert tf.strings.lower("Gray Wolf").numpy() == b"gray wolf"
    assert tf.strings.split("Gray wolf  runs").numpy().tolist() == [b"Gray", b"wolf", b"runs"]
    n = tf.strings.to_number(tf.constant(["1", "2.5"]))
    assert n.dtype == tf.float32 and n.numpy().tolist() == [1.0, 2.5]
    assert tf.strings.as_string(tf.constant([1, 2])).numpy().tolist() == [b"1", b"2"]
    assert tf.strings.format("x={}", tf.constant([1, 2, 3])).numpy() == b"x=[1 2 3]"
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="StringToNumberOp could not correctly convert string: abc"):
        tf.strings.to_number("abc")


# -- shapes, eye, devices, complex ------------------------------------------------------------
def test_reduce_prod_of_a_tensor_shape():
    assert tf.reduce_prod(tf.zeros([3, 2, 4, 5]).shape).numpy() == 120
    with pytest.raises(ValueError, match="partially known TensorShape"):
        tf.reduce_prod(tf.TensorShape([None, 3]))


def test_eye_of_any_shape():
    np.testing.assert_array_equal(tf.eye(2, 3).numpy(), np.eye(2, 3, dtype=np.float32))
    np.testing.assert_array_equal(tf.eye(3, 2, batch_shape=[2]).numpy(),
                                  np.broadcast_to(np.eye(3, 2), (2, 3, 2)))


def test_devices_name_the_cpu():
    assert tf.config.list_physical_devices("GPU") == []
    cpu = tf.config.list_physical_devices("CPU")
    assert repr(cpu) == "[PhysicalDevice(name='/physical_device:CPU:0', device_type='CPU')]"
    with tf.device("CPU:0"):
        v = tf.Variable(1.0)
    assert v.device == "/job:localhost/replica:0/task:0/device:CPU:0"


def test_experimental_run_functions_eagerly_is_the_same_switch(caplog):
    seen = []

    @tf.function
    def f(x):
        seen.append(1)
        return x

    tf.config.experimental_run_functions_eagerly(True)
    try:
        f(tf.constant(1))
        f(tf.constant(1))
    finally:
        tf.config.experimental_run_functions_eagerly(False)
    assert len(seen) == 2
    assert not tf.config.functions_run_eagerly()
    # TF warns (once per process) that the experimental name is deprecated
    from tfgraph_edu.eager import context
    context._WARNED_EXPERIMENTAL[0] = False
    tf.config.experimental_run_functions_eagerly(False)
    assert any("experimental_run_functions_eagerly" in r.getMessage()
               and "is deprecated" in r.getMessage() for r in caplog.records)


def test_complex_variable_prints_as_tf():
    v = tf.Variable([5 + 4j, 6 + 1j])
    assert v.dtype == tf.complex128
    assert repr(v).endswith("shape=(2,) dtype=complex128, numpy=array([5.+4.j, 6.+1.j])>")


# -- math composites, checked against numpy ------------------------------------------------------
def test_linspace_norm_tensordot_einsum():
    x = tf.linspace(-2, 2, 201)
    assert x.dtype == tf.float64 and x.shape == (201,)
    np.testing.assert_allclose(x.numpy(), np.linspace(-2, 2, 201))
    assert tf.linspace(0.0, 1.0, 3).dtype == tf.float32
    np.testing.assert_allclose(tf.norm([3.0, 4.0]).numpy(), 5.0)
    m = np.arange(6, dtype=np.float32).reshape(2, 3)
    np.testing.assert_allclose(tf.norm(m, axis=1).numpy(), np.linalg.norm(m, axis=1), rtol=1e-6)
    np.testing.assert_allclose(tf.norm(m, ord=1).numpy(), np.abs(m).sum())
    w = np.array([1.0, 2.0, 3.0], np.float32)
    xs = np.stack([m[0], m[0] ** 2, np.ones(3, np.float32)])
    np.testing.assert_allclose(tf.tensordot(w, xs, axes=1).numpy(), np.tensordot(w, xs, 1))
    np.testing.assert_allclose(tf.einsum("ij,kj->ik", m, m).numpy(), m @ m.T)


def test_solve_and_inverse_with_gradients():
    a = np.array([[3.0, 1.0], [1.0, 2.0]])
    b = np.array([[9.0], [8.0]])
    np.testing.assert_allclose(tf.linalg.solve(a, b).numpy(), [[2.0], [3.0]])
    av = tf.Variable(a)
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.linalg.inv(av))
    # d sum(A^-1) / dA = -(A^-T 1 1^T A^-T)
    ainv = np.linalg.inv(a)
    np.testing.assert_allclose(tape.gradient(y, av).numpy(),
                               -(ainv.T @ np.ones((2, 2)) @ ainv.T))


def test_cross_entropies_match_numpy():
    logits = np.array([[2.0, 1.0, 0.1], [0.5, 2.5, 0.3]], np.float32)
    labels = np.array([0, 1])
    logp = logits - np.log(np.exp(logits).sum(1, keepdims=True))
    want = -logp[np.arange(2), labels]
    np.testing.assert_allclose(tf.nn.sparse_softmax_cross_entropy_with_logits(
        labels=labels, logits=logits).numpy(), want, rtol=1e-6)
    np.testing.assert_allclose(tf.nn.softmax_cross_entropy_with_logits(
        labels=np.eye(3, dtype=np.float32)[labels], logits=logits).numpy(), want, rtol=1e-6)
    z = np.array([0.0, 1.0], np.float32)
    x = np.array([-3.0, 2.0], np.float32)
    sig = 1 / (1 + np.exp(-x))
    np.testing.assert_allclose(tf.nn.sigmoid_cross_entropy_with_logits(labels=z, logits=x).numpy(),
                               -(z * np.log(sig) + (1 - z) * np.log(1 - sig)), rtol=1e-5)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Received a label value of 3"):
        tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[3, 0], logits=logits)


def test_clip_by_norm():
    np.testing.assert_allclose(tf.clip_by_norm([3.0, 4.0], 1.0).numpy(), [0.6, 0.8])
    np.testing.assert_allclose(tf.clip_by_norm([0.3, 0.4], 1.0).numpy(), [0.3, 0.4])


# -- py_function / numpy_function ------------------------------------------------------------------
def test_py_function_calls_python_on_every_graph_run():
    calls = []

    def double(x):
        calls.append(type(x).__name__)
        return x * 2

    @tf.function
    def f(x):
        return tf.py_function(double, [x], tf.float32) + 1.0

    assert f(tf.constant(1.0)).numpy() == 3.0
    assert f(tf.constant(2.0)).numpy() == 5.0
    assert calls == ["EagerTensor", "EagerTensor"]
    graph = f.get_concrete_function(tf.constant(1.0)).graph
    assert "EagerPyFunc" in [op.type for op in graph.get_operations()]


def test_numpy_function_gets_arrays_and_several_outputs():
    @tf.function
    def f(x):
        a, b = tf.numpy_function(lambda v: (v + 1, (v * 2).astype(np.int32)), [x],
                                 [tf.float32, tf.int32])
        return a, b

    a, b = f(tf.constant([1.0, 2.0]))
    assert a.numpy().tolist() == [2.0, 3.0] and b.numpy().tolist() == [2, 4]


def test_py_function_with_wrong_result_dtype_raises():
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.numpy_function(lambda v: v.astype(np.float64), [tf.constant(1.0)], tf.float32)


def test_gradient_through_an_op_without_one_raises_lookup_error():
    image = tf.Variable([[[0.5, 0.0, 0.0]]])
    delta = tf.Variable(0.1)
    with tf.GradientTape() as tape:
        new_image = tf.image.adjust_contrast(image, delta)
    np.testing.assert_allclose(new_image.numpy(), [[[0.5, 0.0, 0.0]]])
    with pytest.raises(LookupError, match="gradient registry has no entry for: AdjustContrastv2"):
        tape.gradient(new_image, [image, delta])


# -- ragged and sparse, strings split into rows -----------------------------------------------
def test_ragged_constant_prints_and_converts_as_tf():
    rt = tf.ragged.constant([[0, 1, 2, 3], [4, 5], [6, 7, 8], [9]])
    assert repr(rt) == "<tf.RaggedTensor [[0, 1, 2, 3], [4, 5], [6, 7, 8], [9]]>"
    assert rt.shape.as_list() == [4, None]
    assert rt.row_splits.numpy().tolist() == [0, 4, 6, 9, 10]
    assert rt.to_tensor().numpy().tolist() == [[0, 1, 2, 3], [4, 5, 0, 0], [6, 7, 8, 0],
                                               [9, 0, 0, 0]]
    with pytest.raises(ValueError, match="non-rectangular"):
        tf.constant([[0, 1], [2]])


def test_string_batches_split_into_ragged_rows():
    words = tf.strings.split(tf.constant(["Gray wolf", "Quick brown fox"]))
    assert repr(words) == "<tf.RaggedTensor [[b'Gray', b'wolf'], [b'Quick', b'brown', b'fox']]>"
    chars = tf.strings.unicode_decode(tf.constant(["aé", "🦆"]), "UTF-8")
    assert chars.to_list() == [[97, 233], [129414]]
    assert tf.strings.bytes_split("Duck").numpy().tolist() == [b"D", b"u", b"c", b"k"]
    assert tf.io.decode_raw(tf.constant("Duck"), tf.uint8).numpy().tolist() == \
        list(b"Duck")

    @tf.function
    def inside(s):
        return tf.strings.split(s)

    with pytest.raises(NotImplementedError, match="RaggedTensor"):
        inside(tf.constant(["a b", "c"]))


def test_sparse_tensor_to_dense():
    sp = tf.sparse.SparseTensor(indices=[[0, 0], [1, 2]], values=[1, 2], dense_shape=[3, 4])
    assert str(sp).startswith("SparseTensor(indices=tf.Tensor(\n[[0 0]\n [1 2]], shape=(2, 2), "
                              "dtype=int64), values=tf.Tensor([1 2], shape=(2,), dtype=int32)")
    dense = np.zeros((3, 4), np.int32)
    dense[0, 0], dense[1, 2] = 1, 2
    np.testing.assert_array_equal(tf.sparse.to_dense(sp).numpy(), dense)
