"""tf.data as the guides use it: sources, transformations, eager and traced iteration.

Expected values are plain Python computations of TF's documented semantics.
"""

from __future__ import annotations

import numpy as np
import pytest

import tfgraph_edu as tf


def values(ds):
    return [v.tolist() if isinstance(v, np.ndarray) else
            tuple(x.tolist() if isinstance(x, np.ndarray) else x for x in v)
            if isinstance(v, tuple) else v for v in ds.as_numpy_iterator()]


def test_range_repr_and_values():
    ds = tf.data.Dataset.range(5)
    assert repr(ds) == ("<_RangeDataset element_spec="
                        "TensorSpec(shape=(), dtype=tf.int64, name=None)>")
    assert values(ds) == [0, 1, 2, 3, 4]
    assert values(tf.data.Dataset.range(2, 9, 3)) == [2, 5, 8]
    first = next(iter(ds))
    assert repr(first) == "<tf.Tensor: shape=(), dtype=int64, numpy=0>"


def test_from_tensor_slices_tuple_and_dict():
    ds = tf.data.Dataset.from_tensor_slices(([1, 2, 3], [[1.0], [2.0], [3.0]]))
    assert repr(ds.element_spec) == ("(TensorSpec(shape=(), dtype=tf.int32, name=None), "
                                     "TensorSpec(shape=(1,), dtype=tf.float32, name=None))")
    assert values(ds) == [(1, [1.0]), (2, [2.0]), (3, [3.0])]
    d = tf.data.Dataset.from_tensor_slices({"a": [1, 2], "b": ["x", "y"]})
    got = list(d.as_numpy_iterator())
    assert got == [{"a": 1, "b": b"x"}, {"a": 2, "b": b"y"}]
    with pytest.raises(ValueError):
        tf.data.Dataset.from_tensor_slices(([1, 2], [1, 2, 3]))


def test_from_tensors_is_one_element():
    ds = tf.data.Dataset.from_tensors([1, 2, 3])
    assert len(ds) == 1 and values(ds) == [[1, 2, 3]]


def test_batch_partial_and_drop_remainder():
    ds = tf.data.Dataset.range(7)
    assert values(ds.batch(3)) == [[0, 1, 2], [3, 4, 5], [6]]
    assert ds.batch(3).element_spec.shape.as_list() == [None]
    assert values(ds.batch(3, drop_remainder=True)) == [[0, 1, 2], [3, 4, 5]]
    assert ds.batch(3, drop_remainder=True).element_spec.shape.as_list() == [3]
    assert len(ds.batch(3)) == 3


def test_shuffle_is_a_permutation_reproducible_with_a_seed_and_reshuffles():
    ds = tf.data.Dataset.range(20).shuffle(20, seed=7)
    a, b = values(ds), values(ds)
    assert sorted(a) == list(range(20)) and sorted(b) == list(range(20))
    assert a != b  # reshuffle_each_iteration=True by default
    again = tf.data.Dataset.range(20).shuffle(20, seed=7)
    assert values(again) == a
    fixed = tf.data.Dataset.range(20).shuffle(20, seed=7, reshuffle_each_iteration=False)
    assert values(fixed) == values(fixed)


def test_small_shuffle_buffer_only_moves_elements_locally():
    out = values(tf.data.Dataset.range(100).shuffle(2, seed=1))
    assert sorted(out) == list(range(100))
    # with a buffer of 2, element i can come out no earlier than position i - 1
    assert all(pos >= v - 1 for pos, v in enumerate(out))


def test_map_traces_its_function_once():
    traces = []

    def square(x):
        traces.append(1)
        return x * x

    ds = tf.data.Dataset.range(4).map(square)
    assert values(ds) == [0, 1, 4, 9]
    assert values(ds) == [0, 1, 4, 9]
    assert len(traces) == 1
    assert repr(ds).startswith("<_MapDataset element_spec=TensorSpec(shape=(), dtype=tf.int64")


def test_map_over_tuples_unpacks_and_filter_keeps_matches():
    ds = tf.data.Dataset.from_tensor_slices(([1, 2, 3], [10, 20, 30]))
    assert values(ds.map(lambda a, b: a + b)) == [11, 22, 33]
    assert values(tf.data.Dataset.range(10).filter(lambda x: x % 3 == 0)) == [0, 3, 6, 9]
    with pytest.raises(TypeError, match="length is unknown"):
        len(tf.data.Dataset.range(10).filter(lambda x: x > 2))


def test_repeat_take_skip_enumerate_zip_concatenate():
    ds = tf.data.Dataset.range(3)
    assert values(ds.repeat(2)) == [0, 1, 2, 0, 1, 2]
    assert values(ds.repeat().take(7)) == [0, 1, 2, 0, 1, 2, 0]
    assert ds.repeat().cardinality().numpy() == tf.data.INFINITE_CARDINALITY
    with pytest.raises(TypeError, match="infinite"):
        len(ds.repeat())
    assert values(ds.skip(1)) == [1, 2]
    assert values(ds.enumerate(start=5)) == [(5, 0), (6, 1), (7, 2)]
    assert values(tf.data.Dataset.zip((ds, tf.data.Dataset.range(10, 20)))) == \
        [(0, 10), (1, 11), (2, 12)]
    assert values(ds.concatenate(tf.data.Dataset.range(7, 9))) == [0, 1, 2, 7, 8]
    assert values(ds.prefetch(tf.data.AUTOTUNE)) == [0, 1, 2]
    assert values(ds.cache()) == [0, 1, 2]


def test_from_generator_calls_the_generator_for_every_pass():
    def gen():
        yield from ([1, 2], [3, 4])

    ds = tf.data.Dataset.from_generator(gen, output_signature=tf.TensorSpec([2], tf.int32))
    assert values(ds) == [[1, 2], [3, 4]] and values(ds) == [[1, 2], [3, 4]]
    old_style = tf.data.Dataset.from_generator(gen, output_types=tf.int32)
    assert values(old_style) == [[1, 2], [3, 4]]


def test_for_over_dataset_in_tf_function_is_one_graph_loop():
    ds = tf.data.Dataset.range(1, 6)

    @tf.function
    def total(d):
        s = tf.constant(0, tf.int64)
        for x in d:
            s += x
        return s

    assert total(ds).numpy() == 15
    graph = total.get_concrete_function(ds).graph
    types = [op.type for op in graph.get_operations()]
    assert "While" in types or "StatelessWhile" in types
    assert "MakeIterator" in types


def test_graph_loop_over_batches_with_partial_last_batch_and_break():
    ds = tf.data.Dataset.from_tensor_slices(np.arange(10, dtype=np.float32)).batch(4)

    @tf.function
    def sums():
        ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
        i = 0
        for batch in ds:
            ta = ta.write(i, tf.reduce_sum(batch))
            i += 1
        return ta.stack()

    np.testing.assert_allclose(sums().numpy(), [6.0, 22.0, 17.0])

    @tf.function
    def first_over(limit):
        out = tf.constant(-1, tf.int64)
        for x in tf.data.Dataset.range(100):
            if x * x > limit:
                out = x
                break
        return out

    assert first_over(tf.constant(50, tf.int64)).numpy() == 8


def test_shuffled_dataset_reshuffles_on_every_call_of_the_function():
    ds = tf.data.Dataset.range(30).shuffle(30, seed=3)

    @tf.function
    def collect():
        ta = tf.TensorArray(tf.int64, size=30)
        i = 0
        for x in ds:
            ta = ta.write(i, x)
            i += 1
        return ta.stack()

    a, b = collect().numpy().tolist(), collect().numpy().tolist()
    assert sorted(a) == list(range(30)) and sorted(b) == list(range(30)) and a != b


def test_training_loop_over_dataset_learns():
    rng = np.random.default_rng(0)
    x = rng.normal(size=200).astype(np.float32)
    y = 3.0 * x + 2.0
    ds = tf.data.Dataset.from_tensor_slices((x, y)).shuffle(200, seed=0).batch(20)
    w, b = tf.Variable(0.0), tf.Variable(0.0)

    @tf.function
    def step(xb, yb):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(w * xb + b - yb))
        gw, gb = tape.gradient(loss, [w, b])
        w.assign_sub(0.1 * gw)
        b.assign_sub(0.1 * gb)

    def epoch():
        for xb, yb in ds:
            step(xb, yb)

    for _ in range(30):
        epoch()
    assert abs(w.numpy() - 3.0) < 1e-2 and abs(b.numpy() - 2.0) < 1e-2


def test_next_on_a_dataset_iterator_inside_tf_function_consumes_each_call():
    ds = tf.data.Dataset.from_tensor_slices([1, 2, 3])
    iterator = iter(ds)

    @tf.function
    def consume(it):
        return next(it)

    assert [consume(iterator).numpy() for _ in range(3)] == [1, 2, 3]
    with pytest.raises(tf.errors.OutOfRangeError):
        consume(iterator)
    eager = iter(ds)
    assert next(eager).numpy() == 1 and eager.get_next().numpy() == 2


def test_for_over_a_started_iterator_in_tf_function_continues_from_there():
    it = iter(tf.data.Dataset.range(5))
    next(it)

    @tf.function
    def rest(i):
        s = tf.constant(0, tf.int64)
        for x in i:
            s += x
        return s

    assert rest(it).numpy() == 1 + 2 + 3 + 4


def test_graph_names_the_pipeline_of_a_looped_dataset():
    ds = tf.data.Dataset.range(6).map(lambda x: x * 2).batch(2)

    @tf.function
    def total():
        s = tf.constant(0, tf.int64)
        for b in ds:
            s += tf.reduce_sum(b)
        return s

    assert total().numpy() == 30
    graph = total.get_concrete_function().graph
    const = next(op for op in graph.get_operations() if op.name == "dataset")
    assert const.get_attr("value").description == "Range -> Map -> Batch"


def test_map_returning_a_list_gives_a_tuple_and_unbatch_of_unknown_shapes():
    # recorded from TF 2.21: a list returned at the top is a tuple; inner lists are tensors
    ds = tf.data.Dataset.range(3)
    spec = tf.TensorSpec([], tf.int64)
    assert ds.map(lambda x: [x, x * 2]).element_spec == (spec, spec)
    first = next(iter(ds.map(lambda x: [x, x * 2]).skip(1)))
    assert isinstance(first, tuple) and [int(v) for v in first] == [1, 2]
    assert ds.map(lambda x: ([x], {"a": [x, x]})).element_spec == (
        tf.TensorSpec([1], tf.int64), {"a": tf.TensorSpec([2], tf.int64)})
    # py_function with a tuple Tout returns a list: the data_performance guide's map
    pf = ds.map(lambda x: tf.py_function(lambda a: (a, a), inp=[x], Tout=(tf.int64, tf.int64)))
    unknown = tf.TensorSpec(None, tf.int64)
    assert pf.element_spec == (unknown, unknown)
    batched = pf.batch(2, drop_remainder=True)
    assert batched.element_spec == (unknown, unknown)
    assert batched.unbatch().element_spec == (unknown, unknown)
    assert [tuple(int(v) for v in e) for e in batched.unbatch()] == [(0, 0), (1, 1)]
    with pytest.raises(ValueError, match="Cannot unbatch an input with scalar components."):
        tf.data.Dataset.range(3).unbatch()
