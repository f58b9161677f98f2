"""``tf.queue.FIFOQueue`` eagerly (course material, issue 25: handson-ml3 12, four cells).
Expected values and errors recorded from TF 2.21."""

import pytest

import tfgraph_edu as tf


def test_the_notebook_sequence():
    q = tf.queue.FIFOQueue(3, [tf.int32, tf.string], shapes=[(), ()])
    assert q.enqueue([10, b"windy"]) is None
    q.enqueue([15, b"sunny"])
    assert repr(q.size()) == "<tf.Tensor: shape=(), dtype=int32, numpy=2>"
    assert repr(q.dequeue()) == ("[<tf.Tensor: shape=(), dtype=int32, numpy=10>, "
                                 "<tf.Tensor: shape=(), dtype=string, numpy=b'windy'>]")
    assert q.enqueue_many([[13, 16], [b"cloudy", b"rainy"]]) is None
    assert repr(q.dequeue_many(3)) == (
        "[<tf.Tensor: shape=(3,), dtype=int32, numpy=array([15, 13, 16], dtype=int32)>, "
        "<tf.Tensor: shape=(3,), dtype=string, numpy=array([b'sunny', b'cloudy', b'rainy'], "
        "dtype=object)>]")
    assert q.dtypes == [tf.int32, tf.string] and q.names is None
    assert [s.as_list() for s in q.shapes] == [[], []]
    assert not bool(q.is_closed())


def test_one_component_without_shapes():
    q1 = tf.queue.FIFOQueue(2, tf.float32)
    q1.enqueue(1.5)
    q1.enqueue([2])  # a list is the list of components: one, the number 2
    assert [float(q1.dequeue()), float(q1.dequeue())] == [1.5, 2.0]
    q1.enqueue_many([[3., 4.]])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="require the components to have specified shapes"):
        q1.dequeue_many(2)
    assert float(q1.dequeue()) == 3.0


def test_closed_queues():
    q1 = tf.queue.FIFOQueue(2, tf.float32)
    q1.close()
    assert bool(q1.is_closed())
    with pytest.raises(tf.errors.OutOfRangeError,
                       match=r"is closed and has insufficient elements \(requested 1, "
                             r"current size 0\)"):
        q1.dequeue()
    with pytest.raises(tf.errors.CancelledError, match="is closed"):
        q1.enqueue(1.)


def test_shapes_names_and_dtypes():
    q2 = tf.queue.FIFOQueue(5, [tf.int32], shapes=[(2,)])
    q2.enqueue_many([[[1, 2], [3, 4]]])
    assert q2.dequeue_many(2).numpy().tolist() == [[1, 2], [3, 4]]
    with pytest.raises(ValueError, match=r"Shapes \(3,\) and \(2,\) are incompatible"):
        q2.enqueue([[1, 2, 3]])
    qd = tf.queue.FIFOQueue(5, [tf.int32, tf.float32], names=["a", "b"])
    qd.enqueue({"a": 1, "b": 2.})
    out = qd.dequeue()
    assert sorted(out) == ["a", "b"] and int(out["a"]) == 1 and float(out["b"]) == 2.0
    with pytest.raises(TypeError, match="Cannot convert 1.5 to EagerTensor of dtype int32"):
        tf.queue.FIFOQueue(5, [tf.int32]).enqueue(1.5)


def test_where_tf_would_wait_forever_it_stops_and_says_so():
    q = tf.queue.FIFOQueue(1, [tf.int32], shapes=[()])
    q.enqueue(1)
    with pytest.raises(NotImplementedError, match="would wait"):
        q.enqueue(2)
    q.dequeue()
    with pytest.raises(NotImplementedError, match="would wait"):
        q.dequeue()


def test_inside_a_function_it_is_refused_by_name():
    q = tf.queue.FIFOQueue(2, tf.int32)

    @tf.function
    def f():
        q.enqueue(1)
        return 0
    with pytest.raises(NotImplementedError, match="FIFOQueue.enqueue runs eagerly only"):
        f()


def test_one_element_of_a_string_tensor_is_a_tensor():
    t = tf.constant([b"a", b"b"])
    # recorded from TF 2.21
    assert repr(t[0]) == "<tf.Tensor: shape=(), dtype=string, numpy=b'a'>"
    assert tf.stack([t[1], t[0]]).numpy().tolist() == [b"b", b"a"]
    assert repr(tf.constant([["x"]])[0, 0]) == "<tf.Tensor: shape=(), dtype=string, numpy=b'x'>"
