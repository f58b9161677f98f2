"""``tf.print`` of objects that are not tensors: TF prints their ``repr`` (issue 25, a SILENT
cell of the Chinese course eat_tensorflow2_in_30_days, 4-3: a NumPy array inside a
``tf.function``)."""

import sys

import numpy as np

import tfgraph_edu as tf


class A:
    def __repr__(self):
        return "A-repr"

    def __str__(self):
        return "A-str"


def _printed(capsys, fn):
    fn()
    return capsys.readouterr().out


def test_numpy_values_print_as_their_repr_eagerly(capsys):
    out = _printed(capsys, lambda: (
        tf.print(1.5, "s", [1, "a"], {"k": np.float32(2)}, (1, 2), None, True,
                 output_stream=sys.stdout),
        tf.print([tf.constant(1), np.int64(2)], np.array(["a", "b"]), np.array(3.5),
                 output_stream=sys.stdout),
        tf.print({"a": np.array([1.5])}, [[np.array(1)]], A(), [A()], output_stream=sys.stdout),
        tf.print({}, [], "{}", np.array([]), {"a": tf.constant([1, 2])},
                 output_stream=sys.stdout)))
    # recorded from TF 2.21 with NumPy 2 (tf.print to stderr; the same text). A NumPy scalar
    # prints as its repr, which NumPy 1 writes without the type (2.0, not np.float32(2.0))
    f32, i64 = repr(np.float32(2)), repr(np.int64(2))
    assert out == (
        f"1.5 s [1, 'a'] {{'k': {f32}}} (1, 2) None True\n"
        f"[1, {i64}] array(['a', 'b'], dtype='<U1') array(3.5)\n"
        "{'a': array([1.5])} [[array(1)]] A-repr [A-repr]\n"
        "{} [] {} array([], dtype=float64) {'a': [1 2]}\n")


def test_a_numpy_array_inside_a_function_prints_its_repr_at_every_call(capsys):
    @tf.function
    def f(x):
        a = np.arange(6.).reshape(2, 3) / 7
        tf.print(x, a, np.array([1, 2], dtype=np.int32), output_stream=sys.stdout)

    out = _printed(capsys, lambda: (f(tf.constant(1)), f(tf.constant(2))))
    # recorded from TF 2.21
    assert out == (
        "1 array([[0.        , 0.14285714, 0.28571429],\n"
        "       [0.42857143, 0.57142857, 0.71428571]]) array([1, 2], dtype=int32)\n"
        "2 array([[0.        , 0.14285714, 0.28571429],\n"
        "       [0.42857143, 0.57142857, 0.71428571]]) array([1, 2], dtype=int32)\n")


def test_tensors_still_print_as_tf_print_formats_them(capsys):
    out = _printed(capsys, lambda: tf.print(tf.constant([[1.5, 2.0]]), tf.constant("t"),
                                            output_stream=sys.stdout))
    assert out == "[[1.5 2]] \"t\"\n"  # recorded from TF 2.21
