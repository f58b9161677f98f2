"""tf.IndexedSlices: the gradient of tf.gather (and of an embedding lookup) with respect to its
params, how it prints, becomes dense, is clipped, added, returned by a tf.function and applied
by the optimizers. Every expected value, text and error recorded from TF 2.21 (.venv-tf)."""

import numpy as np
import pytest

import tfgraph_edu as tf
from tfgraph_edu import errors


def _table():
    return tf.Variable([[1., 2.], [3., 4.], [5., 6.]])


def _grad(v, fn):
    with tf.GradientTape() as tape:
        y = fn(v)
    return tape.gradient(y, v)


def test_gather_gradient_is_indexed_slices_as_tf_prints_it():
    v = _table()
    g = _grad(v, lambda v: tf.reduce_sum(tf.gather(v, [0, 2, 0]) * 2.0))
    # recorded from TF 2.21
    assert type(g).__name__ == "IndexedSlices" and isinstance(g, tf.IndexedSlices)
    assert str(g) == (
        "IndexedSlices(indices=tf.Tensor([0 2 0], shape=(3,), dtype=int32), values=tf.Tensor(\n"
        "[[2. 2.]\n [2. 2.]\n [2. 2.]], shape=(3, 2), dtype=float32), dense_shape=tf.Tensor("
        "[3 2], shape=(2,), dtype=int32))")
    assert repr(g).startswith("<tensorflow.python.framework.indexed_slices.IndexedSlices "
                              "object at 0x")
    assert g.dtype is tf.float32 and g.shape.as_list() == [3, 2]
    assert g.device == "/job:localhost/replica:0/task:0/device:CPU:0"
    assert repr(g._type_spec) == ("IndexedSlicesSpec(TensorShape([3, 2]), tf.float32, tf.int32, "
                                  "tf.int32, TensorShape([3]))")
    with pytest.raises(AttributeError, match="Tensor.name is undefined when eager execution"):
        g.name  # noqa: B018
    with pytest.raises(AttributeError, match="'IndexedSlices' object has no attribute 'numpy'"):
        g.numpy()
    assert tf.is_tensor(g) and not isinstance(g, tf.Tensor)
    dense = tf.convert_to_tensor(g)
    assert repr(dense) == ("<tf.Tensor: shape=(3, 2), dtype=float32, numpy=\narray([[4., 4.],\n"
                           "       [0., 0.],\n       [2., 2.]], dtype=float32)>")
    assert float(tf.reduce_sum(g)) == 12.0  # an op given it makes it dense
    assert tf.multiply(g, 2.0).numpy().tolist() == [[8., 8.], [0., 0.], [4., 4.]]
    assert str(-g).startswith("IndexedSlices(indices=tf.Tensor([0 2 0], shape=(3,), "
                              "dtype=int32), values=tf.Tensor(\n[[-2. -2.]")
    with pytest.raises(TypeError, match=r"unsupported operand type\(s\) for \+: "
                                        "'IndexedSlices' and 'IndexedSlices'"):
        g + g


def test_which_gradients_are_indexed_slices():
    # recorded from TF 2.21: (type, str or dense value)
    v = _table()
    g = _grad(v, lambda v: tf.reduce_sum(tf.gather(v, [[1], [0]])))
    assert str(g) == (
        "IndexedSlices(indices=tf.Tensor([1 0], shape=(2,), dtype=int32), values=tf.Tensor(\n"
        "[[1. 1.]\n [1. 1.]], shape=(2, 2), dtype=float32), dense_shape=tf.Tensor([3 2], "
        "shape=(2,), dtype=int32))")
    g = _grad(v, lambda v: tf.reduce_sum(tf.gather(v, 1)))
    assert str(g) == (
        "IndexedSlices(indices=tf.Tensor([1], shape=(1,), dtype=int32), values=tf.Tensor([[1. 1.]]"
        ", shape=(1, 2), dtype=float32), dense_shape=tf.Tensor([3 2], shape=(2,), dtype=int32))")
    g = _grad(v, lambda v: tf.reduce_sum(tf.gather(v, tf.constant([1], tf.int64))))
    assert g.indices.dtype is tf.int64 and g.dense_shape.dtype is tf.int32
    for through in (tf.identity, lambda x: tf.cast(x, tf.float64)):
        g = _grad(v, lambda v, through=through: tf.reduce_sum(tf.gather(through(v), [1])))
        assert str(g) == (
            "IndexedSlices(indices=tf.Tensor([1], shape=(1,), dtype=int32), values=tf.Tensor("
            "[[1. 1.]], shape=(1, 2), dtype=float32), dense_shape=tf.Tensor([3 2], shape=(2,), "
            "dtype=int32))")
    assert v.sparse_read([1]).numpy().tolist() == [[3., 4.]]
    g = _grad(v, lambda v: tf.reduce_sum(v.sparse_read([1])))
    assert str(g) == (
        "IndexedSlices(indices=tf.Tensor([1], shape=(1,), dtype=int32), values=tf.Tensor([[1. 1.]]"
        ", shape=(1, 2), dtype=float32), dense_shape=tf.Tensor([3 2], shape=(2,), dtype=int32))")
    g = _grad(v, lambda v: tf.reduce_sum(tf.nn.embedding_lookup(v, [2])))
    assert isinstance(g, tf.IndexedSlices) and g.indices.numpy().tolist() == [2]
    w = tf.Variable([1., 2., 3.])
    g = _grad(w, lambda w: tf.reduce_sum(tf.gather(w, [1, 1])))
    assert str(g) == (
        "IndexedSlices(indices=tf.Tensor([1 1], shape=(2,), dtype=int32), values=tf.Tensor([1. "
        "1.], shape=(2,), dtype=float32), dense_shape=tf.Tensor([3], shape=(1,), dtype=int32))")
    # dense: a gather of a computed tensor, along another axis, a slice
    for fn, want in ((lambda v: tf.reduce_sum(tf.gather(v * 2., [1])),
                      [[0., 0.], [2., 2.], [0., 0.]]),
                     (lambda v: tf.reduce_sum(tf.gather(v, [1], axis=1)),
                      [[0., 1.], [0., 1.], [0., 1.]]),
                     (lambda v: tf.reduce_sum(v[1]), [[0., 0.], [1., 1.], [0., 0.]])):
        g = _grad(v, fn)
        assert not isinstance(g, tf.IndexedSlices) and g.numpy().tolist() == want


def test_gradients_added_as_tf_adds_them():
    v = _table()
    # recorded from TF 2.21: with a dense gradient the sum is dense
    g = _grad(v, lambda v: tf.reduce_sum(tf.gather(v, [1]))
              + tf.reduce_sum(tf.matmul(v, tf.ones([2, 1]))))
    assert not isinstance(g, tf.IndexedSlices)
    assert g.numpy().tolist() == [[1., 1.], [2., 2.], [1., 1.]]
    # recorded from TF 2.21: two IndexedSlices are concatenated in the order the tape's
    # gradients reach the variable (an op's gradient runs once all its users' have, first
    # ready first run): the shorter path first, whichever term comes first
    want = (
        "IndexedSlices(indices=tf.Tensor([1 2 0], shape=(3,), dtype=int32), values=tf.Tensor(\n"
        "[[1. 1.]\n [3. 3.]\n [3. 3.]], shape=(3, 2), dtype=float32), dense_shape=tf.Tensor("
        "[3 2], shape=(2,), dtype=int32))")
    g = _grad(v, lambda v: tf.reduce_sum(tf.gather(v, [1]))
              + tf.reduce_sum(tf.gather(v, [2, 0]) * 3.))
    assert str(g) == want
    g = _grad(v, lambda v: tf.reduce_sum(tf.gather(v, [2, 0]) * 3.)
              + tf.reduce_sum(tf.gather(v, [1])))
    assert str(g) == want
    assert tf.convert_to_tensor(g).numpy().tolist() == [[3., 3.], [1., 1.], [3., 3.]]


def test_constructor():
    # recorded from TF 2.21
    s = tf.IndexedSlices(tf.constant([[1., 2.]]), tf.constant([1]), tf.constant([3, 2]))
    assert s.shape.as_list() == [3, 2] and s.dtype is tf.float32
    assert s.values.numpy().tolist() == [[1., 2.]] and s.indices.numpy().tolist() == [1]
    assert tf.convert_to_tensor(s).numpy().tolist() == [[0., 0.], [1., 2.], [0., 0.]]
    assert str(tf.IndexedSlices(tf.constant([[1., 2.]]), tf.constant([1]), [3, 2])) == (
        "IndexedSlices(indices=tf.Tensor([1], shape=(1,), dtype=int32), values=tf.Tensor("
        "[[1. 2.]], shape=(1, 2), dtype=float32), dense_shape=[3, 2])")
    assert str(tf.IndexedSlices(np.array([[1., 2.]]), np.array([1]))) == (
        "IndexedSlices(indices=[1], values=[[1. 2.]])")
    no_shape = tf.IndexedSlices(tf.constant([[1., 2.]]), tf.constant([1]))
    assert no_shape.shape.rank is None
    with pytest.raises(ValueError, match="Tensor conversion requested for IndexedSlices for "
                                         "argument `value` without dense_shape: IndexedSlices"
                                         r"\(indices=tf.Tensor\(\[1\]"):
        tf.convert_to_tensor(no_shape)
    assert repr(tf.IndexedSlicesSpec([3, 2], tf.float32)) == (
        "IndexedSlicesSpec(TensorShape([3, 2]), tf.float32, tf.int64, None, TensorShape([None]))")


def test_clipping_uses_the_values():
    v = _table()
    g = _grad(v, lambda v: tf.reduce_sum(tf.gather(v, [0, 2, 0]) * 2.0))
    # recorded from TF 2.21: the norm of the values (a row named twice counts twice)
    clipped, norm = tf.clip_by_global_norm([g, tf.constant([1.0])], 1.0)
    assert float(norm) == 5.0
    assert str(clipped[0]) == (
        "IndexedSlices(indices=tf.Tensor([0 2 0], shape=(3,), dtype=int32), values=tf.Tensor(\n"
        "[[0.4 0.4]\n [0.4 0.4]\n [0.4 0.4]], shape=(3, 2), dtype=float32), dense_shape=tf."
        "Tensor([3 2], shape=(2,), dtype=int32))")
    assert clipped[1].numpy().tolist() == pytest.approx([0.2])
    assert float(tf.linalg.global_norm([g])) == pytest.approx(4.898979663848877, rel=1e-6)
    by_norm = tf.clip_by_norm(g, 1.0)
    assert isinstance(by_norm, tf.IndexedSlices)
    np.testing.assert_allclose(by_norm.values.numpy(), np.full((3, 2), 0.40824828), rtol=1e-6)


def test_in_and_out_of_tf_function():
    v = _table()

    @tf.function
    def grads():
        with tf.GradientTape() as tape:
            y = tf.reduce_sum(tf.gather(v, [0, 2]))
        return tape.gradient(y, v)

    # recorded from TF 2.21: an IndexedSlices leaves the function as itself
    assert str(grads()) == (
        "IndexedSlices(indices=tf.Tensor([0 2], shape=(2,), dtype=int32), values=tf.Tensor(\n"
        "[[1. 1.]\n [1. 1.]], shape=(2, 2), dtype=float32), dense_shape=tf.Tensor([3 2], "
        "shape=(2,), dtype=int32))")

    @tf.function
    def dense():
        with tf.GradientTape() as tape:
            y = tf.reduce_sum(tf.gather(v, [0, 2]))
        return tf.convert_to_tensor(tape.gradient(y, v))

    assert dense().numpy().tolist() == [[1., 1.], [0., 0.], [1., 1.]]

    @tf.function
    def twice(s):
        return tf.convert_to_tensor(s) * 2

    g = _grad(v, lambda v: tf.reduce_sum(tf.gather(v, [0, 2, 0]) * 2.0))
    assert twice(g).numpy().tolist() == [[8., 8.], [0., 0.], [4., 4.]]

    @tf.function
    def picked(x):
        return tf.reduce_sum(tf.gather(x, [1]))

    # recorded from TF 2.21: the gradient of a function call made under a tape outside it
    with tf.GradientTape() as tape:
        y = picked(v)
    assert str(tape.gradient(y, v)) == (
        "IndexedSlices(indices=tf.Tensor([1], shape=(1,), dtype=int32), values=tf.Tensor("
        "[[1. 1.]], shape=(1, 2), dtype=float32), dense_shape=tf.Tensor([3 2], shape=(2,), "
        "dtype=int32))")


def _train(optimizer, steps):
    w = _table()
    for _ in range(steps):
        with tf.GradientTape() as tape:
            y = tf.reduce_sum(tf.gather(w, [0, 2, 0]) * tf.constant([[1.], [2.], [3.]]))
        g = tape.gradient(y, w)
        assert isinstance(g, tf.IndexedSlices)
        optimizer.apply_gradients([(g, w)])
    return w.numpy()


def test_optimizers_apply_it_as_keras_3():
    # recorded from TF 2.21 with Keras 3: SGD subtracts row by row (0.59999996, not 0.6);
    # Adam and RMSprop square the values before adding rows up (1 + 9, not (1 + 3) ** 2)
    sgd = _train(tf.keras.optimizers.SGD(0.1), 1)
    assert sgd.tolist() == np.array([[0.59999996, 1.5999999], [3., 4.], [4.8, 5.8]],
                                    np.float32).tolist()
    want = {"adam": [[0.7470201253890991, 1.7470201253890991], [3.0, 4.0],
                     [4.800002098083496, 5.800002098083496]],
            "sgdm": [[-0.15999996662139893, 0.8400000333786011], [3.0, 4.0],
                     [4.420000076293945, 5.420000076293945]],
            "rms": [[0.30980944633483887, 1.3098093271255493], [3.0, 4.0],
                    [4.4543561935424805, 5.4543561935424805]]}
    made = {"adam": tf.keras.optimizers.Adam(0.1),
            "sgdm": tf.keras.optimizers.SGD(0.1, momentum=0.9),
            "rms": tf.keras.optimizers.RMSprop(0.1)}
    for name, opt in made.items():
        np.testing.assert_allclose(_train(opt, 2), want[name], rtol=1e-6, err_msg=name)


def test_embedding_layer_gradient():
    emb = tf.keras.layers.Embedding(4, 2)
    emb.build((None,))
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(emb(tf.constant([1, 3])))
    g = tape.gradient(y, emb.trainable_variables)[0]
    assert type(g).__name__ == "IndexedSlices"  # recorded from TF 2.21
    assert tf.convert_to_tensor(g).numpy().tolist() == [[0., 0.], [1., 1.], [0., 0.], [1., 1.]]
    tf.keras.backend.clear_session()  # layer names count from zero again for later tests


def test_variable_scatter_with_indexed_slices():
    v = _table()
    # recorded from TF 2.21
    out = v.scatter_add(tf.IndexedSlices(tf.constant([[1., 1.], [2., 2.]]), tf.constant([0, 0])))
    assert out.numpy().tolist() == [[4., 5.], [3., 4.], [5., 6.]]
    v.scatter_sub(tf.IndexedSlices(tf.constant([[1., 1.]]), tf.constant([2])))
    assert v.numpy().tolist() == [[4., 5.], [3., 4.], [4., 5.]]
    with pytest.raises(errors.InvalidArgumentError,
                       match=r"indices\[0\] = 5 is not in \[0, 3\) \[Op:ResourceScatterSub\]"):
        v.scatter_sub(tf.IndexedSlices(tf.constant([[1., 1.]]), tf.constant([5])))
    with pytest.raises(TypeError, match="Argument `sparse_delta` must be a `tf.IndexedSlices`."):
        v.scatter_sub(tf.constant([1.]))


def test_variable_scatter_methods():
    # handson-ml3 chapter 12 and the other scatter methods, recorded from TF 2.21
    v = tf.Variable([[1., 2., 3.], [4., 5., 6.]])
    sparse_delta = tf.IndexedSlices(values=[[1., 2., 3.], [4., 5., 6.]], indices=[1, 0])
    assert repr(v.scatter_update(sparse_delta)) == (
        "<tf.Variable 'UnreadVariable' shape=(2, 3) dtype=float32, numpy=\narray([[4., 5., 6.],"
        "\n       [1., 2., 3.]], dtype=float32)>")
    assert str(sparse_delta) == (
        "IndexedSlices(indices=[1, 0], values=[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])")
    want = {"scatter_mul": [[10.0, 6.0], [3.0, 4.0]],
            "scatter_div": [[0.10000000149011612, 0.6666666865348816], [3.0, 4.0]],
            "scatter_max": [[5.0, 3.0], [3.0, 4.0]], "scatter_min": [[1.0, 1.0], [3.0, 4.0]],
            "scatter_update": [[5.0, 1.0], [3.0, 4.0]]}
    for method, rows in want.items():
        w = tf.Variable([[1., 2.], [3., 4.]])
        delta = tf.IndexedSlices(tf.constant([[2., 3.], [5., 1.]]), tf.constant([0, 0]))
        assert getattr(w, method)(delta).numpy().tolist() == rows, method
