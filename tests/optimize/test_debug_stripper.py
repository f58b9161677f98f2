"""Grappler's debug_stripper option (the graph optimization guide, issue 25).

Expected outputs were recorded once from TensorFlow 2.21's run of the same program."""

import pytest

import tfgraph_edu as tf


@pytest.fixture
def stripper():
    tf.config.optimizer.set_experimental_options({"debug_stripper": True})
    yield
    tf.config.optimizer.set_experimental_options({"debug_stripper": False})


def test_debug_ops_do_nothing_when_stripped(stripper, capfd):
    @tf.function
    def f(x):
        tf.print("printed", x)
        tf.debugging.Assert(x > 100., [x])
        y = tf.debugging.check_numerics(x * 2., "Bad!")
        return y + 1.

    # TF 2.21: inf, then 3.0, and tf.print prints nothing
    assert repr(f(tf.constant(float("inf")))) == (
        "<tf.Tensor: shape=(), dtype=float32, numpy=inf>")
    assert float(f(tf.constant(1.)).numpy()) == 3.0
    assert "printed" not in capfd.readouterr().out


def test_off_by_default_checks_run():
    assert tf.config.optimizer.get_experimental_options().get("debug_stripper", False) is False

    @tf.function
    def g(x):
        return tf.debugging.check_numerics(x * 2., "Bad!")

    with pytest.raises(tf.errors.InvalidArgumentError):  # TF 2.21: InvalidArgumentError
        g(tf.constant(float("inf")))
