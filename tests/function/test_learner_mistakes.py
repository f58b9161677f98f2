"""Things a learner passes to tf.function that are unusual or wrong: each works as in
TensorFlow or fails with TensorFlow's error class and a clear message - never a hang, a
RecursionError from deep inside, or an internal traceback."""

from __future__ import annotations

import collections
import warnings

import numpy as np
import pytest

import tfgraph_edu as tf
from tfgraph_edu.autograph.errors import StagingError
from tfgraph_edu.errors import OperatorNotAllowedInGraphError

Point = collections.namedtuple("Point", "x y")


# -- input_signature with structures --------------------------------------------------------


def test_input_signature_with_a_namedtuple_and_a_dict():
    @tf.function(input_signature=[Point(tf.TensorSpec([], tf.float32),
                                        tf.TensorSpec([2], tf.float32)),
                                  {"scale": tf.TensorSpec([], tf.int32)}])
    def f(p, d):
        return p.x + p.y, d["scale"] * 2

    total, scale = f(Point(tf.constant(1.0), tf.constant([1.0, 2.0])), {"scale": tf.constant(3)})
    assert total.numpy().tolist() == [2.0, 3.0] and int(scale) == 6
    total, scale = f(Point(1.0, [10.0, 20.0]), {"scale": 4})  # Python values are converted
    assert total.numpy().tolist() == [11.0, 21.0] and int(scale) == 8
    assert f.experimental_get_tracing_count() == 1
    args, kwargs = f.get_concrete_function().structured_input_signature
    assert args == (Point(tf.TensorSpec([], tf.float32, name="p_0"),
                          tf.TensorSpec([2], tf.float32, name="p_1")),
                    {"scale": tf.TensorSpec([], tf.int32, name="d_scale")}) and kwargs == {}
    with pytest.raises(TypeError, match="Binding inputs to tf.function failed due to `Can not "
                                        "cast"):
        f((1.0, [1.0, 2.0]), {"scale": 4})  # a plain tuple is not a Point
    with pytest.raises(TypeError, match="Binding inputs to tf.function failed"):
        f(Point(1.0, [1.0, 2.0]), {"other": 4})


def test_input_signature_must_be_a_sequence():
    with pytest.raises(TypeError, match="input_signature must be either a tuple or a list"):
        tf.function(lambda x: x, input_signature=tf.TensorSpec([], tf.float32))


# -- builtins and numpy functions -----------------------------------------------------------


def test_numpy_ufunc_raises_tensorflows_not_implemented_error():
    f = tf.function(np.square)
    with pytest.raises(NotImplementedError, match="(?s)Cannot convert a symbolic tf.Tensor to a "
                                                  "numpy array.*Use tf.square instead"):
        f(tf.constant([1.0, 2.0]))


def test_builtins():
    assert float(tf.function(abs)(tf.constant(-1.5))) == 1.5
    assert int(tf.function(len)(tf.constant([1, 2, 3]))) == 3
    assert str(tf.function(max)(1, 2)) == "tf.Tensor(2, shape=(), dtype=int32)"
    with pytest.raises(OperatorNotAllowedInGraphError, match="(?s)tf.function\\(max\\).*Use "
                                                             "tf.reduce_max or tf.maximum"):
        tf.function(max)(tf.constant(1), tf.constant(2))
    with pytest.raises(TypeError, match="tf.function expects a callable"):
        tf.function(3)


# -- arguments that cannot become a trace key -----------------------------------------------


@pytest.fixture
def identity():
    @tf.function
    def f(x):
        return tf.constant(0)

    return f


def test_self_referential_arguments(identity):
    loop = []
    loop.append(loop)
    with pytest.raises(ValueError, match="Argument `x` is nested more than 100 levels deep "
                                         "\\(or contains itself\\)"):
        identity(loop)
    cycle = {}
    cycle["again"] = cycle
    with pytest.raises(ValueError, match="contains itself"):
        identity(cycle)


def test_very_deep_arguments(identity):
    deep = 1
    for _ in range(5000):
        deep = [deep]
    with pytest.raises(ValueError, match="nested more than 100 levels deep"):
        identity(deep)
    shallow = 1
    for _ in range(90):
        shallow = (shallow,)
    assert int(identity(shallow)) == 0  # deep but within the limit: fine


def test_a_returned_structure_that_contains_itself():
    loop = []
    loop.append(loop)

    @tf.function
    def f():
        return loop

    with pytest.raises(ValueError, match="nested more than 100 levels deep"):
        f()


# -- recursion ------------------------------------------------------------------------------


def test_recursion_with_a_python_stop_condition(capsys):
    @tf.function
    def recursive_fn(n):
        if n > 0:
            print("tracing")
            return recursive_fn(n - 1)
        else:
            return 1

    assert str(recursive_fn(5)) == "tf.Tensor(1, shape=(), dtype=int32)"
    assert capsys.readouterr().out == "tracing\n" * 5
    with pytest.raises(StagingError) as info:  # TF's class around a RecursionError (#23)
        recursive_fn(60)
    message = str(info.value)
    assert "called itself more than 50 levels deep" in message
    assert "Its arguments are Python values" in message
    assert "condition on a tensor" not in message


def test_recursion_on_a_tensor_is_blamed_on_the_tensor():
    @tf.function
    def recursive_fn(n):
        if n > 0:
            return recursive_fn(n - 1)
        else:
            return 1

    with pytest.raises(StagingError, match="a condition on a tensor is only known when the "
                                           "graph runs"):
        recursive_fn(tf.constant(5))


# -- functions that cannot be graphs ---------------------------------------------------------


def test_generator_and_async_functions_are_refused():
    @tf.function
    def numbers(x):
        yield x

    @tf.function
    async def later(x):
        return x

    @tf.function
    async def stream(x):
        yield x

    cases = ((numbers, "generator"), (later, "coroutine"), (stream, "async_generator"))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no "coroutine was never awaited"
        for f, type_name in cases:
            with pytest.raises(TypeError) as info:
                f(tf.constant(1))
            message = str(info.value)
            assert message.startswith(
                "To be compatible with tf.function, Python functions must return zero or more "
                "Tensors or ExtensionTypes or None values; in compilation of "
                f"{f.python_function}, found return value of type {type_name}, which is not a "
                "Tensor or ExtensionType.")
            assert "a graph cannot pause and resume" in message


# -- variables as arguments -----------------------------------------------------------------


def test_one_variable_twice_and_two_variables_trace_apart():
    @tf.function
    def f(a, b):
        return a.read_value() * 10 + b.read_value()

    v, w = tf.Variable(1.0), tf.Variable(2.0)
    # plain Python arithmetic gives the expected values
    assert [float(f(v, v)), float(f(v, w)), float(f(w, v)), float(f(w, w))] == [
        1.0 * 10 + 1.0, 1.0 * 10 + 2.0, 2.0 * 10 + 1.0, 2.0 * 10 + 2.0]
    assert f.experimental_get_tracing_count() == 2  # (0, 0) and (0, 1), as TF's alias ids
    f(tf.Variable(3.0, trainable=False), w)
    assert f.experimental_get_tracing_count() == 3  # trainability is part of the type
