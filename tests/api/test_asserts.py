"""tf.debugging.assert_* and tf.debugging.Assert against TensorFlow 2.21.

Every message below was printed by TensorFlow 2.21 (run once under real TensorFlow).  Eagerly
a failed check raises at once; inside tf.function a check on constants is decided while
tracing, and one on a function's arguments is an Assert op (state "check") that raises when
the graph runs."""

from __future__ import annotations

import pytest

import tfgraph_edu as tf
from tfgraph_edu.ops import REGISTRY

IAE = tf.errors.InvalidArgumentError

EAGER = [  # (call, error class, TF 2.21's whole message)
    (lambda: tf.debugging.assert_less([1., 5.], [3., 4.]), IAE,
     "Condition x < y did not hold.\nIndices of first 1 different values:\n[[1]]\n"
     "Corresponding x values:\n[5.]\nCorresponding y values:\n[4.]\nFirst 2 elements of x:\n"
     "[1. 5.]\nFirst 2 elements of y:\n[3. 4.]"),
    (lambda: tf.debugging.assert_less([1, 5], [3, 4], message="boom"), IAE,
     "boom\nCondition x < y did not hold.\nIndices of first 1 different values:\n[[1]]\n"
     "Corresponding x values:\n[5]\nCorresponding y values:\n[4]\nFirst 2 elements of x:\n"
     "[1 5]\nFirst 2 elements of y:\n[3 4]"),
    (lambda: tf.debugging.assert_less(tf.range(10), 5, summarize=2), IAE,
     "Condition x < y did not hold.\nFirst 2 elements of x:\n[0 1]\nFirst 1 elements of y:\n[5]"),
    (lambda: tf.debugging.assert_greater([1, 5], [3, 4]), IAE,
     "Condition x > y did not hold.\nIndices of first 1 different values:\n[[0]]\n"
     "Corresponding x values:\n[1]\nCorresponding y values:\n[3]\nFirst 2 elements of x:\n"
     "[1 5]\nFirst 2 elements of y:\n[3 4]"),
    (lambda: tf.debugging.assert_equal(1, 2), IAE,
     "Condition x == y did not hold.\nFirst 1 elements of x:\n[1]\nFirst 1 elements of y:\n[2]"),
    (lambda: tf.debugging.assert_equal([[1, 2], [3, 4]], [[1, 0], [0, 4]]), IAE,
     "Condition x == y did not hold.\nIndices of first 2 different values:\n[[0 1]\n [1 0]]\n"
     "Corresponding x values:\n[2 3]\nCorresponding y values:\n[0 0]\nFirst 3 elements of x:\n"
     "[1 2 3]\nFirst 3 elements of y:\n[1 0 0]"),
    (lambda: tf.assert_less(2, 1), IAE,
     "Condition x < y did not hold.\nFirst 1 elements of x:\n[2]\nFirst 1 elements of y:\n[1]"),
    (lambda: tf.debugging.assert_near([1., 2.], [1., 2.1]), IAE,
     "Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. Summarized data: b''\n"
     "b'x and y not equal to tolerance rtol = tf.Tensor(1.1920929e-06, shape=(), "
     "dtype=float32), atol = tf.Tensor(1.1920929e-06, shape=(), dtype=float32)'\n"
     "b'x (shape=(2,) dtype=float32) = '\n1.0, 2.0\nb'y (shape=(2,) dtype=float32) = '\n1.0, 2.1"),
    (lambda: tf.debugging.assert_non_negative([1., -2., 3., 4., 5., 6.]), IAE,
     "\nCondition x >= 0 did not hold element-wise:\nx (shape=(6,) dtype=float32) = \n"
     "['1.0', '-2.0', '3.0', '...']"),
    (lambda: tf.debugging.assert_non_negative([1., -2.], message="m"), IAE,
     "m.  \nCondition x >= 0 did not hold element-wise:\nx (shape=(2,) dtype=float32) = \n"
     "['1.0', '-2.0']"),
    (lambda: tf.debugging.assert_rank(tf.constant([1, 2]), 2, message="m"), ValueError,
     "m.  Tensor  must have rank 2.  Received rank 1, shape (2,)"),
    (lambda: tf.debugging.assert_shapes([(tf.zeros([2, 3]), ("N", "D")),
                                         (tf.zeros([3]), ("N",))], message="mm"), ValueError,
     "mm.  Specified by tensor shape=(2, 3) dtype=float32 dimension 0.  Tensor shape=(3,) "
     "dtype=float32 dimension 0 must have size 2.  Received size 3, shape (3,)"),
    (lambda: tf.debugging.assert_shapes([(tf.zeros([2, 3]), ("N",))]), ValueError,
     "Tensor  must have rank in (0, 1).  Received rank 2, shape (2, 3)"),
    (lambda: tf.debugging.assert_shapes([(tf.zeros([2, 3]), (2, 4))]), ValueError,
     "Specified explicitly.  Tensor shape=(2, 3) dtype=float32 dimension 1 must have size 4.  "
     "Received size 3, shape (2, 3)"),
    (lambda: tf.debugging.assert_less_equal([1, 5], [3, 4]), IAE,
     "Condition x <= y did not hold.\nIndices of first 1 different values:\n[[1]]\n"
     "Corresponding x values:\n[5]\nCorresponding y values:\n[4]\nFirst 2 elements of x:\n"
     "[1 5]\nFirst 2 elements of y:\n[3 4]"),
    (lambda: tf.debugging.assert_greater_equal([1, 5], [3, 4]), IAE,
     "Condition x >= y did not hold.\nIndices of first 1 different values:\n[[0]]\n"
     "Corresponding x values:\n[1]\nCorresponding y values:\n[3]\nFirst 2 elements of x:\n"
     "[1 5]\nFirst 2 elements of y:\n[3 4]"),
    (lambda: tf.debugging.assert_none_equal([1, 5], [1, 4]), IAE,
     "Condition x != y did not hold.\nIndices of first 1 different values:\n[[0]]\n"
     "Corresponding x values:\n[1]\nCorresponding y values:\n[1]\nFirst 2 elements of x:\n"
     "[1 5]\nFirst 2 elements of y:\n[1 4]"),
    (lambda: tf.debugging.assert_positive([1, 0, 3]), IAE,
     "\nCondition x > 0 did not hold element-wise:\nx (shape=(3,) dtype=int32) = \n"
     "['1', '0', '3']"),
    (lambda: tf.debugging.assert_negative([-1, 0]), IAE,
     "\nCondition x < 0 did not hold element-wise:\nx (shape=(2,) dtype=int32) = \n['-1', '0']"),
    (lambda: tf.debugging.assert_non_positive([-1, 2]), IAE,  # no newline: TF 2.21's text
     "\nCondition x <= 0 did not hold element-wise:x (shape=(2,) dtype=int32) = \n['-1', '2']"),
    (lambda: tf.debugging.Assert(False, ["a", tf.constant([1.5, 2.0, 3.0, 4.0])]), IAE,
     "Expected 'False' to be true. Summarized data: b'a'\n1.5, 2.0, 3.0, ..."),
]


@pytest.mark.parametrize("i", range(len(EAGER)))
def test_eager_failures_say_what_tensorflow_says(i):
    fn, cls, text = EAGER[i]
    with pytest.raises(cls) as info:
        fn()
    assert str(info.value).split(" [Op:")[0] == text


def test_passing_checks_return_none_eagerly():
    assert tf.debugging.assert_less([1, 2], [3, 4]) is None
    assert tf.debugging.assert_near([1., 2.], [1., 2.0000001]) is None
    assert tf.debugging.assert_rank(tf.constant([1]), 1) is None
    assert tf.debugging.assert_non_negative([1, 2]) is None
    assert tf.debugging.assert_shapes([(tf.zeros([2, 3]), ("N", "D")),
                                       (tf.zeros([2]), ("N",))]) is None


GRAPH = [  # (check on the arguments x, y; TF 2.21's message when the graph runs)
    (lambda x, y: tf.debugging.assert_less(x, y), [1., 5.], [3., 4.],
     "assertion failed: [Condition x < y did not hold element-wise:] [x (x:0) = ] [1 5] "
     "[y (y:0) = ] [3 4]"),
    (lambda x, y: tf.debugging.assert_less(x, y, message="boom"), [1., 5.], [3., 4.],
     "assertion failed: [boom] [Condition x < y did not hold element-wise:] [x (x:0) = ] [1 5] "
     "[y (y:0) = ] [3 4]"),
    (lambda x, y: tf.debugging.assert_less(x, y), [float(v) for v in range(10)], [5.] * 10,
     "assertion failed: [Condition x < y did not hold element-wise:] [x (x:0) = ] [0 1 2...] "
     "[y (y:0) = ] [5 5 5...]"),
    (lambda x, y: tf.debugging.assert_greater(x, y), [1., 5.], [3., 4.],
     "assertion failed: [Condition x > y did not hold element-wise:] [x (x:0) = ] [1 5] "
     "[y (y:0) = ] [3 4]"),
    (lambda x, y: tf.debugging.assert_equal(x, y), [1., 5.], [1., 4.],
     "assertion failed: [Condition x == y did not hold element-wise:] [x (x:0) = ] [1 5] "
     "[y (y:0) = ] [1 4]"),
    (lambda x, y: tf.debugging.assert_near(x, y), [1., 2.], [1., 2.1],
     'assertion failed: [] [x and y not equal to tolerance rtol = Tensor("assert_near/rtol:0", '
     'shape=(), dtype=float32), atol = Tensor("assert_near/atol:0", shape=(), dtype=float32)] '
     "[x (x:0) = ] [1 2] [y (y:0) = ] [1 2.1]"),
    (lambda x, y: tf.debugging.assert_non_negative(x), [1., -2.], [0., 0.],
     "assertion failed: [] [Condition x >= 0 did not hold element-wise:] [x (x:0) = ] [1 -2]"),
]


@pytest.mark.parametrize("i", range(len(GRAPH)))
def test_in_a_graph_an_assert_op_fails_when_it_runs(i):
    check, a, b, text = GRAPH[i]

    @tf.function
    def f(x, y):
        op = check(x, y)
        assert op.type == "Assert" and REGISTRY["Assert"].state == "check"
        return tf.constant(0)
    with pytest.raises(IAE) as info:
        f(tf.constant(a), tf.constant(b))
    assert text in str(info.value)


@pytest.mark.parametrize("check,a,b", [
    (tf.debugging.assert_less, [1., 2.], [3., 4.]),
    (tf.debugging.assert_greater, [5., 6.], [3., 4.]),
    (tf.debugging.assert_equal, [1., 2.], [1., 2.]),
    (tf.debugging.assert_near, [1., 2.], [1., 2.0000001]),
    (lambda x, y: tf.debugging.assert_non_negative(x), [0., 2.], [0., 0.]),
])
def test_in_a_graph_a_check_that_holds_runs_quietly(check, a, b):
    @tf.function
    def f(x, y):
        check(x, y)
        return x + y
    assert f(tf.constant(a), tf.constant(b)).shape == [2]


def test_checks_on_constants_fail_while_tracing_as_in_tensorflow():
    # TF 2.21 raises these while tracing (InvalidArgumentError / ValueError, "in user code")
    with pytest.raises(IAE, match=r"Condition x < y did not hold element-wise:\s+"
                                  r"x \(assert_less/x:0\) = \s+\[1\. 5\.\]"):
        tf.function(lambda: tf.debugging.assert_less([1., 5.], [3., 4.]))()
    with pytest.raises(ValueError, match=r"Tensor assert_rank/x:0 must have rank 2\.  "
                                         r"Received rank 1, shape \(2,\)"):
        tf.function(lambda: tf.debugging.assert_rank([1, 2], 2))()
    with pytest.raises(ValueError, match=r"Specified by tensor zeros:0 dimension 0\.  Tensor "
                                         r"zeros_1:0 dimension 0 must have size 2"):
        tf.function(lambda: tf.debugging.assert_shapes([(tf.zeros([2, 3]), ("N", "D")),
                                                         (tf.zeros([3]), ("N",))]))()


@pytest.mark.parametrize("check,text", [
    (lambda: tf.debugging.assert_less_equal([1, 5], [3, 4]),
     "Condition x <= y did not hold element-wise:\nx (assert_less_equal/x:0) = \n[1 5]\n"
     "y (assert_less_equal/y:0) = \n[3 4]\n"),
    (lambda: tf.debugging.assert_positive([1, 0, 3]),
     "\nCondition x > 0 did not hold element-wise:\nx (assert_positive/x:0) = \n[1 0 3]\n"),
    (lambda: tf.debugging.assert_non_positive([-1, 2]),
     "\nCondition x <= 0 did not hold element-wise:x (assert_non_positive/x:0) = \n[-1  2]\n"),
])
def test_static_failures_while_tracing_carry_tensorflows_text(check, text):
    # TF 2.21 prints the same lines, each indented under "in user code"
    with pytest.raises(IAE) as info:
        tf.function(check)()
    assert str(info.value).endswith(text)


def test_more_run_time_checks():
    @tf.function
    def g(x, y):
        tf.debugging.assert_less_equal(x, y)
        tf.debugging.assert_none_equal(x, y + 1)
        tf.debugging.assert_positive(x)
        return x
    # TF 2.21's messages for these three calls
    with pytest.raises(IAE, match=r"assertion failed: \[Condition x <= y did not hold "
                                  r"element-wise:\] \[x \(x:0\) = \] \[1 5\] "
                                  r"\[y \(y:0\) = \] \[3 4\]"):
        g(tf.constant([1., 5.]), tf.constant([3., 4.]))
    with pytest.raises(IAE, match=r"assertion failed: \[\] \[Condition x > 0 did not hold "
                                  r"element-wise:\] \[x \(x:0\) = \] \[0 1\]"):
        g(tf.constant([0., 1.]), tf.constant([0., 1.]))
    assert g(tf.constant([1., 2.]), tf.constant([3., 4.])).shape == [2]


def test_assert_rank_of_an_unknown_rank_checks_at_run_time():
    @tf.function(input_signature=[tf.TensorSpec(None)])
    def h(x):
        tf.debugging.assert_rank(x, 2)
        return x
    # TF 2.21: "assertion failed: [] [Tensor x:0 must have rank] [2] [Received shape: ] [1]"
    with pytest.raises(IAE, match=r"assertion failed: \[\] \[Tensor x:0 must have rank\] \[2\] "
                                  r"\[Received shape: \] \[1\]"):
        h(tf.constant([1.]))
    assert h(tf.zeros([1, 1])).shape == [1, 1]


@pytest.mark.parametrize("values,what", [([1.0, float("nan")], "NaN"),
                                         ([float("inf"), 1.0], "Inf"),
                                         ([float("nan"), -float("inf")], "Inf and NaN")])
def test_check_numerics_as_tensorflow_2_21(values, what):
    # TF 2.21: "bad : Tensor had NaN values" (Inf, Inf and NaN), eagerly and at run time;
    # eagerly after "{{function_node __wrapped__CheckNumerics_device_/job:localhost/replica:0/
    # task:0/device:CPU:0}} " (recorded from TF 2.21.0)
    with pytest.raises(IAE, match=r"^\{\{function_node __wrapped__CheckNumerics_device_[^}]*"
                                  f"}}}} bad : Tensor had {what} values"):
        tf.debugging.check_numerics(tf.constant(values), "bad")

    @tf.function
    def f(x):
        return tf.debugging.check_numerics(x, "bad") * 2
    with pytest.raises(IAE, match=f"bad : Tensor had {what} values"):
        f(tf.constant(values))
    assert f(tf.constant([1.0, 2.0])).numpy().tolist() == [2.0, 4.0]


def test_check_numerics_checks_the_gradient_too():
    # TF 2.21: "Not a number (NaN) or infinity (Inf) values detected in gradient. b'm' :
    # Tensor had Inf values"; a finite gradient passes through: [3, 3]
    x = tf.constant([1.0, 0.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.sqrt(tf.debugging.check_numerics(x, "m")))
    with pytest.raises(IAE, match=r"values detected in gradient\. b'm' : Tensor had Inf values"):
        tape.gradient(y, x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.debugging.check_numerics(x, "m") * 3.0)
    assert tape.gradient(y, x).numpy().tolist() == [3.0, 3.0]
