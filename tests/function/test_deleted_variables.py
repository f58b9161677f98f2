"""A tf.function holds the variables it closes over weakly, as TensorFlow's FuncGraph does
(its ``variables`` docstring: "functions keep only weak references to variables. Calling the
function after a variable it accesses has been deleted is an error"); the error is the
ReadVariableOp kernel's FailedPreconditionError ("Could not find variable ...")."""

import gc

import pytest

import tfgraph_edu as tf


def _closing_over(value):
    holder = {"v": tf.Variable(value)}

    @tf.function
    def f(x):
        return x * holder["v"]

    return f, holder


def test_a_live_variable_keeps_working_and_is_read_at_each_call():
    f, holder = _closing_over(3)
    concrete = f.get_concrete_function(4)
    assert concrete(4).numpy() == 12
    holder["v"].assign(5)
    assert concrete(4).numpy() == 20 and f(4).numpy() == 20


def test_calling_after_the_variable_was_deleted_is_failed_precondition():
    f, holder = _closing_over(3)
    concrete = f.get_concrete_function(4)
    assert concrete(4).numpy() == 12
    holder["v"] = tf.Variable(4)  # the only reference to the first variable goes away
    gc.collect()
    for call in (lambda: concrete(4), lambda: f(4)):  # the Function reuses that graph
        with pytest.raises(tf.errors.FailedPreconditionError,
                           match="Could not find variable .* has been deleted"):
            call()


def test_the_function_does_not_keep_the_variable_alive():
    import weakref
    f, holder = _closing_over(1.0)
    f(2.0)
    ref = weakref.ref(holder.pop("v"))
    gc.collect()
    assert ref() is None


def test_a_variable_passed_as_argument_is_not_captured():
    @tf.function
    def g(v):
        return v * 2

    assert g(tf.Variable(2)).numpy() == 4
    gc.collect()
    assert g(tf.Variable(3)).numpy() == 6  # a new variable each call: nothing was deleted
