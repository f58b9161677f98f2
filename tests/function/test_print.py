"""tf.print: TensorFlow's formatting, stderr, and printing on every call of a graph."""

from __future__ import annotations

import sys

import tfgraph_edu as tf


def test_eager_print_goes_to_stderr_with_tf_formatting(capsys):
    tf.print("x:", tf.constant([1, 2, 3]), [tf.constant(1.5), "a"], {"k": tf.range(10)})
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == "x: [1 2 3] [1.5, 'a'] {'k': [0 1 2 ... 7 8 9]}\n"


def test_float_and_matrix_formats(capsys):
    tf.print(tf.constant(0.1), tf.constant([1.0, 2.5]), tf.constant("hi"), sep="|",
             output_stream=sys.stdout)
    tf.print(tf.reshape(tf.range(4), [2, 2]), output_stream=sys.stdout, end="!\n")
    tf.print(tf.reshape(tf.range(64), [8, 8]), summarize=1, output_stream=sys.stdout)
    assert capsys.readouterr().out == (
        '0.1|[1 2.5]|"hi"\n'  # TensorFlow 2.21 quotes a string tensor among other inputs
        "[[0 1]\n [2 3]]!\n"
        "[[0 ... 7]\n ...\n [56 ... 63]]\n")


def test_print_in_a_function_runs_every_call_python_print_only_when_tracing(capsys):
    @tf.function
    def f(x):
        print("Tracing with", x)
        tf.print("Executing with", x)
        return x + 1

    f(tf.constant(1))
    f(tf.constant(2))
    captured = capsys.readouterr()
    assert captured.out == 'Tracing with Tensor("x:0", shape=(), dtype=int32)\n'
    assert captured.err == "Executing with 1\nExecuting with 2\n"


def test_print_runs_though_nothing_uses_it_and_in_program_order(capsys):
    v = tf.Variable(0)

    @tf.function
    def g():
        tf.print("before", v)
        v.assign_add(1)
        tf.print("after", v)

    g()
    assert capsys.readouterr().err == "before 0\nafter 1\n"


def test_braces_in_text_are_kept(capsys):
    tf.print("{}", tf.constant(1), output_stream=sys.stdout)
    assert capsys.readouterr().out == "{} 1\n"


def test_unknown_stream_is_an_error():
    import pytest
    with pytest.raises(ValueError, match="Unsupported output stream"):
        tf.print(1, output_stream=42)


def test_strings_and_bools_print_as_tensorflow_prints_them(capsys):
    tf.print(tf.constant(True), tf.constant([True, False]), tf.constant([b"a\x00", 'x"y']),
             output_stream=sys.stdout)
    tf.print(tf.constant("h\u00e9\n"), output_stream=sys.stdout)  # one string: as it is
    # TensorFlow 2.21 gives these two lines
    assert capsys.readouterr().out == '1 [1 0] ["a\\000" "x\\"y"]\nh\u00e9\n\n'
