"""``tf.timestamp`` (the Timestamp op): seconds since the epoch, read whenever the op runs.

Expected kinds recorded from TF 2.21: ``tf.timestamp()`` is a float64 scalar whose
``numpy()`` is a ``numpy.float64``; traced, the graph holds one ``Timestamp`` op (TF adds
``Identity`` and its control-output ``NoOp``), and every call reads the clock again."""

from __future__ import annotations

import time

import numpy as np

import tfgraph_edu as tf


def test_eager_timestamp_is_a_float64_scalar_of_now():
    before = time.time()
    t = tf.timestamp()
    after = time.time()
    assert t.dtype == tf.float64 and t.shape == () and type(t.numpy()) is np.float64
    assert before <= float(t) <= after


def test_traced_timestamp_reads_the_clock_on_every_call():
    @tf.function
    def f():
        return tf.timestamp()

    first = f()
    time.sleep(0.02)
    second = f()
    assert float(second) - float(first) >= 0.015
    ops = [op.type for op in f.get_concrete_function().graph.get_operations()]
    assert ops.count("Timestamp") == 1


def test_printbar_of_the_course_formats_the_time_in_a_graph(capfd):
    # eat_tensorflow2_in_30_days' printbar(): hours, minutes and seconds of tf.timestamp()
    @tf.function
    def printbar():
        ts = tf.timestamp() % (24 * 60 * 60)
        hour = tf.cast(ts // 3600 + 8, tf.int32) % tf.constant(24)
        minute = tf.cast((ts % 3600) // 60, tf.int32)
        second = tf.cast(tf.floor(ts % 60), tf.int32)

        def fmt(m):
            if tf.strings.length(tf.strings.format("{}", m)) == 1:
                return tf.strings.format("0{}", m)
            return tf.strings.format("{}", m)

        tf.print("=" * 8 + tf.strings.join([fmt(hour), fmt(minute), fmt(second)],
                                           separator=":"))

    printbar()
    line = capfd.readouterr().err.strip()
    assert line.startswith("========") and len(line) == 16 and line[10] == line[13] == ":"


def test_floor_is_at_the_top_level():
    # recorded from TF 2.21: tf.floor is tf.math.floor; tf.floor([-1.5, 2.5]) -> [-2., 2.]
    assert tf.floor is tf.math.floor
    np.testing.assert_array_equal(tf.floor([-1.5, 2.5]).numpy(), [-2.0, 2.0])
