"""tf.RaggedTensor of any ragged rank, its factories, indexing, printing and the ragged
versions of TF's ops, eagerly and inside tf.function.  Every expected value was recorded
from TF 2.21 (/work/main/.venv-tf), not from tfgraph_edu."""

import numpy as np
import pytest

import tfgraph_edu as tf


def rt3():
    return tf.ragged.constant([[[1, 2, 3], [4]], [[5], [], [6]], [[7]], [[8, 9], [10]]])


def test_nested_structure_and_printing():
    rt = rt3()
    assert rt.ragged_rank == 2 and rt.shape == tf.TensorShape([4, None, None])
    assert rt.nested_row_splits[1].numpy().tolist() == [0, 3, 4, 5, 5, 6, 7, 9, 10]
    # recorded from TF 2.21
    assert str(rt[:, -1:]) == "<tf.RaggedTensor [[[4]],\n\n [[6]],\n\n [[7]],\n\n [[10]]]>"
    assert str(rt[:, 1:3]) == "<tf.RaggedTensor [[[4]], [[], [6]], [], [[10]]]>"
    p = tf.ragged.constant([[['I', 'have', 'a', 'cat'], ['His', 'name', 'is', 'Mat']],
                            [['Do', 'you', 'want', 'to', 'come', 'visit'],
                             ["I'm", 'free', 'tomorrow']]])
    assert str(p) == (  # recorded from TF 2.21
        "<tf.RaggedTensor [[[b'I', b'have', b'a', b'cat'], [b'His', b'name', b'is', b'Mat']],\n"
        " [[b'Do', b'you', b'want', b'to', b'come', b'visit'],\n"
        "  [b\"I'm\", b'free', b'tomorrow']]]>")
    m = tf.RaggedTensor.from_row_splits(
        values=[[1, 3], [0, 0], [1, 3], [5, 3], [3, 3], [1, 2]], row_splits=[0, 3, 4, 6])
    assert str(m) == ("<tf.RaggedTensor [[[1, 3],\n  [0, 0],\n  [1, 3]], [[5, 3]], [[3, 3],\n"
                      "                      [1, 2]]]>")
    assert m.shape == tf.TensorShape([3, None, 2]) and m.ragged_rank == 1
    u = tf.RaggedTensor.from_uniform_row_length(
        tf.RaggedTensor.from_row_splits(list(range(10, 20)), [0, 3, 5, 9, 10]), 2)
    assert str(u) == ("<tf.RaggedTensor [[[10, 11, 12], [13, 14]],\n"
                      " [[15, 16, 17, 18], [19]]]>")
    assert u.shape == tf.TensorShape([2, 2, None]) and u.ragged_rank == 2
    d = tf.ragged.constant([[3, 1, 4, 1], [], [5, 9, 2], [6], []])
    assert repr(d.numpy()) == (
        "array([array([3, 1, 4, 1], dtype=int32), array([], dtype=int32),\n"
        "       array([5, 9, 2], dtype=int32), array([6], dtype=int32),\n"
        "       array([], dtype=int32)], dtype=object)")


def test_constant_options_and_errors():
    # recorded from TF 2.21
    assert tf.ragged.constant([[[1, 2], [3, 4]], [[5, 6]]], ragged_rank=1).shape == \
        tf.TensorShape([2, None, 2])
    assert tf.ragged.constant([[[1, 2], [3, 4]], [[5, 6]]], inner_shape=(2,)).shape == \
        tf.TensorShape([2, None, 2])
    e = tf.ragged.constant([[], []])
    assert e.dtype == tf.float32 and e.shape == tf.TensorShape([2, None])
    assert tf.ragged.constant([[1, 2], [3]], dtype=tf.float32).dtype == tf.float32
    for bad in ([[1, [2]], [3]], [[[1, 2]], [3]], ["A", ["B", "C"]]):
        with pytest.raises(ValueError, match="all scalar values must have the same nesting"):
            tf.ragged.constant(bad)
    with pytest.raises(ValueError, match="mixed types"):
        tf.ragged.constant([["one", "two"], [3, 4]])


def test_indexing():
    rt = rt3()
    # recorded from TF 2.21
    assert rt[3, 0].numpy().tolist() == [8, 9]
    assert rt[1:3].to_list() == [[[5], [], [6]], [[7]]]
    assert rt[::2].to_list() == [[[1, 2, 3], [4]], [[7]]]
    q = tf.ragged.constant([['Who', 'is'], ['What', 'is', 'the', 'weather'], ['Goodnight']])
    assert str(q[1, 2]) == "tf.Tensor(b'the', shape=(), dtype=string)"
    assert q[:, -2:].to_list() == [[b'Who', b'is'], [b'the', b'weather'], [b'Goodnight']]
    with pytest.raises(ValueError, match="Cannot index into an inner ragged dimension"):
        rt[:, 0]


def test_factories():
    # recorded from TF 2.21
    assert tf.RaggedTensor.from_value_rowids([1, 2, 3], [0, 0, 2], nrows=4).to_list() == \
        [[1, 2], [], [3], []]
    assert tf.RaggedTensor.from_row_starts([1, 2, 3], [0, 2]).to_list() == [[1, 2], [3]]
    assert tf.RaggedTensor.from_row_limits([1, 2, 3], [2, 3]).to_list() == [[1, 2], [3]]
    assert tf.RaggedTensor.from_tensor([[1, 0], [2, 3]], lengths=[1, 2]).to_list() == \
        [[1], [2, 3]]
    assert tf.RaggedTensor.from_tensor([[1, 3, -1, -1], [2, -1, -1, -1], [4, 5, 8, 9]],
                                       padding=-1).to_list() == [[1, 3], [2], [4, 5, 8, 9]]
    n = tf.RaggedTensor.from_nested_row_splits(list(range(10, 20)),
                                               ([0, 1, 1, 5], [0, 3, 3, 5, 9, 10]))
    assert n.to_list() == [[[10, 11, 12]], [], [[], [13, 14], [15, 16, 17, 18], [19]]]
    with pytest.raises(tf.errors.InvalidArgumentError, match="do not form a valid"):
        tf.RaggedTensor.from_row_splits([1, 2, 3], [0, 2, 2])


def test_conversions():
    rt = rt3()
    # recorded from TF 2.21
    assert rt.bounding_shape().numpy().tolist() == [4, 3, 3]
    assert rt.to_tensor().numpy().tolist() == [
        [[1, 2, 3], [4, 0, 0], [0, 0, 0]], [[5, 0, 0], [0, 0, 0], [6, 0, 0]],
        [[7, 0, 0], [0, 0, 0], [0, 0, 0]], [[8, 9, 0], [10, 0, 0], [0, 0, 0]]]
    assert rt.to_sparse().indices.numpy().tolist() == [
        [0, 0, 0], [0, 0, 1], [0, 0, 2], [0, 1, 0], [1, 0, 0], [1, 2, 0], [2, 0, 0],
        [3, 0, 0], [3, 0, 1], [3, 1, 0]]
    assert rt.merge_dims(0, 1).to_list() == [[1, 2, 3], [4], [5], [], [6], [7], [8, 9], [10]]
    assert rt.merge_dims(1, 2).to_list() == [[1, 2, 3, 4], [5, 6], [7], [8, 9, 10]]
    s = tf.ragged.constant([['Hi'], ['Welcome', 'to', 'the', 'fair'], ['Have', 'fun']])
    assert s.to_tensor(default_value='', shape=[None, 10]).shape == tf.TensorShape([3, 10])


def test_ops_dispatch():
    rt = rt3()
    # recorded from TF 2.21
    assert tf.reverse(rt, [1]).to_list() == [[[4], [1, 2, 3]], [[6], [], [5]], [[7]],
                                             [[10], [8, 9]]]
    assert tf.reverse(rt, [2]).to_list() == [[[3, 2, 1], [4]], [[5], [], [6]], [[7]],
                                             [[9, 8], [10]]]
    assert tf.concat([rt, rt], axis=2).to_list() == [
        [[1, 2, 3, 1, 2, 3], [4, 4]], [[5, 5], [], [6, 6]], [[7, 7]],
        [[8, 9, 8, 9], [10, 10]]]
    cols = tf.ragged.constant([[1, 2], [3], []])
    assert tf.reduce_sum(cols, axis=0).numpy().tolist() == [4, 2]
    assert tf.reduce_max(cols, axis=0).numpy().tolist() == [3, 2]
    assert str(tf.reduce_mean(cols, axis=0)) == "tf.Tensor([2. 2.], shape=(2,), dtype=float64)"
    assert tf.reduce_sum(tf.ragged.constant([[1, 2], [3]]), axis=[0, 1]).numpy() == 6
    with pytest.raises(NotImplementedError, match="across rows"):  # TF: [[5, 2], [3]]
        tf.reduce_sum(rt3(), axis=0)
    digits = tf.ragged.constant([[3, 1, 4, 1], [], [5, 9, 2], [6], []])
    assert str(tf.reduce_mean(digits, axis=1)) == (
        "tf.Tensor([2.25              nan 5.33333333 6.                nan], shape=(5,), "
        "dtype=float64)")
    assert tf.tile(digits, [1, 2]).to_list() == [[3, 1, 4, 1, 3, 1, 4, 1], [],
                                                 [5, 9, 2, 5, 9, 2], [6, 6], []]
    assert tf.concat([digits, [[5, 3]]], axis=0).to_list()[-1] == [5, 3]
    assert tf.strings.length(tf.ragged.constant([["ab", "c"], []])).to_list() == [[2, 1], []]
    assert tf.where(tf.ragged.constant([[True, False], [True]]),
                    tf.ragged.constant([[1, 2], [3]]),
                    tf.ragged.constant([[10, 20], [30]])).to_list() == [[1, 20], [3]]
    assert tf.gather(tf.ragged.constant([[1, 2], [3], [4, 5, 6]]), [2, 0]).to_list() == \
        [[4, 5, 6], [1, 2]]
    assert tf.nn.embedding_lookup(tf.constant([[0., 1], [2, 3], [4, 5]]),
                                  tf.ragged.constant([[0, 2], [1]])).to_list() == \
        [[[0.0, 1.0], [4.0, 5.0]], [[2.0, 3.0]]]
    assert tf.map_fn(tf.math.square, tf.ragged.constant([[1, 2], [3]])).to_list() == \
        [[1, 4], [9]]
    assert tf.ragged.map_flat_values(tf.ones_like, tf.ragged.constant([[1, 2], [3]])
                                     ).to_list() == [[1, 1], [1]]
    assert str(tf.ragged.range(0, [3, 4], 2)) == "<tf.RaggedTensor [[0, 2],\n [0, 2]]>"
    assert tf.ragged.range([0, 5, 8], [3, 3, 12]).to_list() == [[0, 1, 2], [], [8, 9, 10, 11]]
    assert tf.ragged.boolean_mask(
        [[1, 2, 3], [4, 5, 6], [7, 8, 9]],
        [[True, False, True], [False, False, False], [True, False, False]]).to_list() == \
        [[1, 3], [], [7]]


def test_broadcasting_and_errors():
    # recorded from TF 2.21
    x = tf.ragged.constant([[[[1], [2]], [], [[3]], [[4]]], [[[5], [6]], [[7]]]],
                           ragged_rank=2)
    assert (x + tf.constant([10, 20, 30])).to_list() == [
        [[[11, 21, 31], [12, 22, 32]], [], [[13, 23, 33]], [[14, 24, 34]]],
        [[[15, 25, 35], [16, 26, 36]], [[17, 27, 37]]]]
    y = tf.ragged.constant([[10, 87, 12], [19, 53], [12, 32]])
    assert (y + [[1000], [2000], [3000]]).to_list() == [[1010, 1087, 1012], [2019, 2053],
                                                        [3012, 3032]]
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tf.ragged.constant([[1, 2, 3], [4], [5, 6]]) + tf.ragged.constant(
            [[10, 20], [30, 40], [50]])
    assert str(e.value) == ("Condition x == y did not hold.\nIndices of first 2 different "
                            "values:\n[[1]\n [3]]\nCorresponding x values:\n[3 6]\n"
                            "Corresponding y values:\n[2 5]\nFirst 3 elements of x:\n[0 3 4]\n"
                            "First 3 elements of y:\n[0 2 4]")
    with pytest.raises(tf.errors.InvalidArgumentError, match="Corresponding x values:\n"
                       r"\[ 4  8 12\]"):
        tf.ragged.constant([[1, 2], [3, 4, 5, 6], [7]]) + tf.constant(
            [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]])


def test_dynamic_ragged_shape():
    rt = tf.ragged.constant([[1], [2, 3, 4], [], [5, 6]])
    s = tf.shape(rt)
    # recorded from TF 2.21
    assert repr(s) == "<DynamicRaggedShape lengths=[4, (1, 3, 0, 2)] num_row_partitions=1>"
    assert repr(s[0]) == "<tf.Tensor: shape=(), dtype=int32, numpy=4>"
    with pytest.raises(ValueError, match="Index 1 is not uniform"):
        s[1]
    assert repr(s[:1]) == "<DynamicRaggedShape lengths=[4] num_row_partitions=0>"
    assert tf.reshape(tf.constant([['a', 'b'], ['c', 'd'], ['e', 'f']]), s).to_list() == \
        [[b'a'], [b'b', b'c', b'd'], [], [b'e', b'f']]
    assert str(tf.zeros(s)) == "<tf.RaggedTensor [[0.0], [0.0, 0.0, 0.0], [], [0.0, 0.0]]>"
    assert repr(tf.experimental.DynamicRaggedShape.from_lengths([4, (2, 1, 0, 8), 12])) == \
        "<DynamicRaggedShape lengths=[4, (2, 1, 0, 8), 12] num_row_partitions=1>"
    assert repr(tf.experimental.DynamicRaggedShape(
        row_partitions=[tf.experimental.RowPartition.from_row_lengths([5, 3, 2])],
        inner_shape=[10, 8])) == \
        "<DynamicRaggedShape lengths=[3, (5, 3, 2), 8] num_row_partitions=1>"


def test_in_tf_function():
    @tf.function(input_signature=[tf.RaggedTensorSpec([None, None], tf.int32)])
    def f(x):
        return (tf.concat([x, tf.reverse(x, [1])], 1), x[:, :2], tf.reduce_sum(x, axis=1),
                x[1:], tf.ragged.range(x.row_lengths()))
    a, b, c, d, r = f(tf.ragged.constant([[1, 2], [3], [4, 5, 6]]))
    # recorded from TF 2.21
    assert a.to_list() == [[1, 2, 2, 1], [3, 3], [4, 5, 6, 6, 5, 4]]
    assert b.to_list() == [[1, 2], [3], [4, 5]]
    assert c.numpy().tolist() == [3, 3, 15]
    assert d.to_list() == [[3], [4, 5, 6]] and r.to_list() == [[0, 1], [0], [0, 1, 2]]
    assert repr(f.get_concrete_function().structured_input_signature) == \
        "((RaggedTensorSpec(TensorShape([None, None]), tf.int32, 1, tf.int64),), {})"

    @tf.function
    def nested(x):
        return x[:, 1:3] + 1
    assert nested(rt3()).to_list() == [[[5]], [[], [7]], [], [[11]]]


def test_gradient_through_ragged_reductions():
    def loss(v):
        r = tf.RaggedTensor.from_row_splits(v * v, [0, 2, 2, 5])
        return (tf.reduce_sum(tf.reduce_mean(r, axis=1)[::2] * tf.constant([1., 3.]))
                + tf.reduce_sum(tf.reduce_max(r, axis=1)[::2]))

    x0 = np.array([1., 2., 3., 4., 5.], np.float32)
    x = tf.Variable(x0)
    with tf.GradientTape() as t:
        y = loss(x)
    g = t.gradient(y, x).numpy()
    # recorded from TF 2.21 for this very loss: [1, 6, 6, 8, 20] (value 81.5)
    assert np.allclose(g, [1.0, 6.0, 6.0, 8.0, 20.0])
    eps = 1e-2
    num = [(loss(tf.constant(x0 + eps * np.eye(5, dtype=np.float32)[i])).numpy()
            - loss(tf.constant(x0 - eps * np.eye(5, dtype=np.float32)[i])).numpy()) / (2 * eps)
           for i in range(5)]
    assert np.allclose(g, num, rtol=1e-2, atol=1e-2)


def test_equality_as_tf():
    rt = tf.ragged.constant([[1, 2], [3]])
    # recorded from TF 2.21: elementwise, None and other rows give a plain bool
    assert (rt == 2).to_list() == [[False, True], [False]]
    assert (rt != 2).to_list() == [[True, False], [True]]
    assert (rt == None) is False and (rt != None) is True  # noqa: E711 - TF's operator
    assert (rt == tf.ragged.constant([[1], [3]])) is False
    with pytest.raises(TypeError, match="RaggedTensor is unhashable"):
        hash(rt)


def test_saved_model_with_ragged_argument_and_result(tmp_path):
    class Grower(tf.Module):
        def __init__(self):
            super().__init__()
            self.v = tf.Variable(100.0)

        @tf.function
        def grow(self, x):
            return x * self.v

    m = Grower()
    m.grow.get_concrete_function(tf.RaggedTensorSpec(shape=[None, None], dtype=tf.float32))
    tf.saved_model.save(m, str(tmp_path / "m"))
    loaded = tf.saved_model.load(str(tmp_path / "m"))
    # recorded from TF 2.21
    assert repr(loaded.grow(tf.ragged.constant([[1.0, 4.0, 3.0], [2.0]]))) == \
        "<tf.RaggedTensor [[100.0, 400.0, 300.0], [200.0]]>"
    with pytest.raises(ValueError, match=r"RaggedTensorSpec\(TensorShape\(\[None, None\]\), "
                       r"tf.float32, 1, tf.int64\)"):
        loaded.grow(tf.constant([1.0]))


def test_dense_left_operand_gives_way_to_ragged():
    rt = tf.ragged.constant([[1, 2], [3]])
    # recorded from TF 2.21
    assert (tf.constant([[10], [20]]) + rt).to_list() == [[11, 12], [23]]
    assert (tf.constant(2) * rt).to_list() == [[2, 4], [6]]
    assert (tf.constant([[10], [20]]) < rt).to_list() == [[False, False], [False]]
    assert (tf.constant(2) == rt).to_list() == [[False, True], [False]]
