"""``@tf.py_function(Tout=...)`` and ``tf.numpy_function(Tout=...)`` as decorators (TF 2.21;
the tf.function guide uses one).  Expected output recorded once from TensorFlow 2.21.0 running
the same program."""

import tfgraph_edu as tf


def test_decorated_py_function_runs_at_every_call(capsys):
    @tf.py_function(Tout=tf.float32)
    def py_plus(x, y):
        print("Executing eagerly.")
        return x + y

    @tf.function
    def tf_wrapper(x, y):
        print("Tracing.")
        return py_plus(x, y)

    assert tf_wrapper(tf.constant(1.0), tf.constant(2.0)).numpy() == 3.0
    assert tf_wrapper(tf.constant(1.0), tf.constant(2.0)).numpy() == 3.0
    out = py_plus(tf.constant(1.0), tf.constant(5.0))
    assert out.dtype == tf.float32 and out.numpy() == 6.0
    # TF 2.21 prints exactly this
    assert capsys.readouterr().out == ("Tracing.\nExecuting eagerly.\nExecuting eagerly.\n"
                                       "Executing eagerly.\n")


def test_numpy_function_as_a_decorator():
    double = tf.numpy_function(Tout=tf.int64)(lambda a: a * 2)
    assert double(tf.constant([1, 2], tf.int64)).numpy().tolist() == [2, 4]  # TF 2.21


def test_a_function_run_for_its_effect_returns_nothing(capsys):
    # TF 2.21: tf.py_function(lambda: None, [], ()) is [] (the data performance guide sleeps
    # in one inside a map)
    assert list(tf.py_function(lambda: None, [], ())) == []

    @tf.function
    def f(s):
        tf.py_function(lambda: print("effect"), [], ())
        return s

    ds = tf.data.Dataset.range(2).map(f)
    assert [int(x) for x in ds] == [0, 1]
    assert capsys.readouterr().out.count("effect") == 2
