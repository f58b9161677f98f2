"""A tf.function holds the *Python* variables it closes over weakly, as TensorFlow's FuncGraph
does, but the value it captured lives on with the function: in TensorFlow 2.21 a call after
the last reference to a closed-over variable went away still reads that variable (the
official guide's "deleting tf.Variables between Function calls" example prints 12 for
``traced_f(4)`` after ``external_var = tf.Variable(4)``, where older guide text promised a
``FailedPreconditionError``).  Only ``ConcreteFunction.variables`` refuses then, with TF's
AssertionError.

Every expected value below was recorded by running the same snippet under TensorFlow 2.21.0
with Keras 3.15.1."""

import gc
import weakref

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


def test_the_guide_example_reads_the_old_variable_after_its_name_is_rebound():
    # TF 2.21 printed: tf.Tensor(12, shape=(), dtype=int32) for traced_f(4) and for f(4)
    f, holder = _closing_over(3)
    concrete = f.get_concrete_function(4)
    assert concrete(4).numpy() == 12
    holder["v"] = tf.Variable(4)  # the only reference to the first variable goes away
    gc.collect()
    for call in (lambda: concrete(4), lambda: f(4)):  # the Function reuses that graph
        out = call()
        assert out.dtype == tf.int32 and out.numpy() == 12


def test_the_function_does_not_keep_the_python_variable_alive_but_keeps_its_value():
    # TF 2.21: weakref to the variable is dead after gc, yet g(2.0) -> 2.0 (2.0 * old 1.0)
    f, holder = _closing_over(1.0)
    f(2.0)
    ref = weakref.ref(holder.pop("v"))
    gc.collect()
    assert ref() is None
    assert f(2.0).numpy() == 2.0


def test_variables_of_a_function_whose_variable_was_deleted_is_an_assertion_error():
    # TF 2.21: AssertionError "Called a function referencing variables which have been
    # deleted. This likely means that function-local variables were created ..."
    f, holder = _closing_over(1.0)
    concrete = f.get_concrete_function(2.0)
    assert len(concrete.variables) == 1
    holder.pop("v")
    gc.collect()
    assert concrete(2.0).numpy() == 2.0
    with pytest.raises(AssertionError, match="referencing variables which have been deleted"):
        concrete.variables  # noqa: B018


def test_a_variable_passed_as_argument_is_not_captured():
    @tf.function
    def g(v):
        return v * 2

    assert g(tf.Variable(2)).numpy() == 4
    gc.collect()
    assert g(tf.Variable(3)).numpy() == 6  # a new variable each call: nothing was deleted
