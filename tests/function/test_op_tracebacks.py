"""An op's traceback in TF's errors lists the frames that called the trace, then the
function's line (the function and graph optimization guides, issue 25).

The layouts checked here were recorded once from TensorFlow 2.21's messages for the same
programs (the frames of the test runner above them differ and are not compared)."""

import re

import pytest

import tfgraph_edu as tf


def _frames(text):
    return re.findall(r'File "([^"]+)", line \d+, in (\w+)', text)


def test_graph_execution_error_lists_the_callers_frames():
    @tf.function
    def simple_func(x):
        return tf.debugging.check_numerics(x * 2., "Bad!")

    def caller():
        return simple_func(tf.constant(float("inf")))

    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        caller()
    message = str(info.value)
    here = __file__.removesuffix("c")
    frames = [f for f in _frames(message) if f[0] == here]
    # TF 2.21: ... this test, then caller, then simple_func: each frame followed by a blank
    # line (where TF would print the code)
    assert [f[1] for f in frames][-3:] == [
        "test_graph_execution_error_lists_the_callers_frames", "caller", "simple_func"]
    assert re.search(r'in caller\n\n  File "[^"]+", line \d+, in simple_func\n\n', message)


def test_leaked_tensor_error_lists_where_the_trace_was_called():
    @tf.function
    def leaky_function(a):
        global leaked
        leaked = a + 1
        return leaked

    def first_call():
        return leaky_function(tf.constant(1))

    first_call()

    @tf.function
    def captures_leaked_tensor(b):
        return b + leaked

    with pytest.raises(TypeError) as info:
        captures_leaked_tensor(tf.constant(2))
    defined = str(info.value).split("was defined here:")[1]
    here = __file__.removesuffix("c")
    # TF 2.21: the frames under "was defined here:" end with first_call, then leaky_function
    assert [f[1] for f in _frames(defined) if f[0] == here][-2:] == [
        "first_call", "leaky_function"]
