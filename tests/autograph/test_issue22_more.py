# ruff: noqa: B007, B011, B012 - the programs are the ones run under TF (unused targets, return in finally)
"""Issue #22, second part: more of AutoGraph's and tf.function's corners as TensorFlow 2.21
has them.  Every expected value, error class and message gist was recorded by running the
same code under real TensorFlow 2.21.0 (tf.function with AutoGraph on)."""

from __future__ import annotations

import logging

import numpy as np
import pytest

import tfgraph_edu as tf
from tfgraph_edu.autograph import conversion

ASSERTS = tf.autograph.experimental.Feature.ASSERT_STATEMENTS


# -- del and None in both branches of a tensor if --------------------------------------------
def del_in_both_branches(x):
    t = x + 1
    y = x
    if x > 0:
        del t
        y = y + 1
    else:
        del t
        y = y - 1
    return y


def del_in_both_branches_then_read(x):
    t = x + 1
    if x > 0:
        del t
    else:
        del t
    return t


def none_in_both_branches(x):
    y = x
    if x > 0:
        y = None
    else:
        y = None
    return y is None


def test_del_in_both_branches():
    # TF 2.21: 2 and -2; reading the name afterwards: ValueError "'t' must also be
    # initialized in the main branch"
    f = tf.function(del_in_both_branches)
    assert int(f(tf.constant(1))) == 2 and int(f(tf.constant(-1))) == -2
    with pytest.raises(ValueError, match="'t' must also be initialized in the main branch"):
        tf.function(del_in_both_branches_then_read)(tf.constant(1))


def del_in_both_branches_in_a_loop(a, b):
    c = a - b
    tmp = a + 1
    j = tf.constant(0)
    while j < 2:
        j += 1
        if a > b:
            del tmp
            c = c + 1
        else:
            del tmp
    return c


def test_del_in_both_branches_inside_a_tensor_loop():
    # TF 2.21: `del tmp` reads tmp, so tmp (defined before the loop) is loop state and the if
    # leaves it undefined: ValueError "'tmp' must also be initialized in the main branch"
    # (tfgraph_edu returned 3 before: Python's answer, silently)
    with pytest.raises(ValueError, match="'tmp' must also be initialized in the main branch"):
        tf.function(del_in_both_branches_in_a_loop)(tf.constant(4), tf.constant(3))


def test_none_in_both_branches_is_refused():
    # TF 2.21: ValueError "'y' is None at the end of the main branch." (tfgraph_edu returned
    # True before: silently)
    with pytest.raises(ValueError, match="'y' is None at the end of the main branch"):
        tf.function(none_in_both_branches)(tf.constant(1))


# -- return in finally, next() on a Python iterator --------------------------------------------
def return_in_finally(x):
    try:
        return x + 1
    finally:
        return x * 2


def tensor_return_in_try_then_finally(x):
    try:
        if x > 0:
            return x + 1
    finally:
        x = x * 2
    return x


def next_in_python_range(x):
    it = iter([1, 2, 3])
    s = x
    for _ in range(3):
        s = s + next(it)
    return s


def next_in_tf_range(x, n):
    it = iter([1, 2, 3])
    s = x
    for _ in tf.range(n):
        s = s + next(it)
    return s


def next_on_a_dataset(x):
    it = iter(tf.data.Dataset.range(5))
    s = tf.constant(0, tf.int64)
    for _ in range(3):
        s = s + next(it)
    return s


def test_return_in_finally_and_next_on_iterators():
    assert int(tf.function(return_in_finally)(tf.constant(3))) == 6  # TF 2.21: 6
    with pytest.raises(ValueError, match="the else branch must also have a return statement"):
        tf.function(tensor_return_in_try_then_finally)(tf.constant(3))
    assert int(tf.function(next_in_python_range)(tf.constant(3))) == 9  # TF 2.21: 9
    # TF 2.21: 5 (the tensor loop's body is traced once: next() runs once)
    assert int(tf.function(next_in_tf_range)(tf.constant(3), tf.constant(2))) == 5
    out = tf.function(next_on_a_dataset)(tf.constant(3))  # TF 2.21: int64 3
    assert out.dtype is tf.int64 and int(out) == 3


# -- assert statements --------------------------------------------------------------------------
def positive(x):
    assert x > 0, "x must be positive"
    return x + 1


def positive_no_message(x):
    assert x > 0
    return x + 1


def python_assert(x):
    assert 1 > 2, "py"
    return x


def tuple_message(x):
    assert x > 0, ("bad", x)
    return x


def test_assert_on_a_tensor_without_the_feature_is_a_python_bool():
    # TF 2.21: OperatorNotAllowedInGraphError for any input (the assert stays Python's)
    for v in (3, -3):
        with pytest.raises(tf.errors.OperatorNotAllowedInGraphError):
            tf.function(positive)(tf.constant(v))


def test_assert_statements_feature_makes_a_runtime_assert():
    f = tf.function(positive, experimental_autograph_options=ASSERTS)
    assert int(f(tf.constant(3))) == 4
    # TF 2.21: InvalidArgumentError "... assertion failed: [x must be positive]" at run time
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"assertion failed: \[x must be "
                                                             r"positive\]"):
        f(tf.constant(-3))
    g = tf.function(positive, experimental_autograph_options=(
        tf.autograph.experimental.Feature.ALL,))
    with pytest.raises(tf.errors.InvalidArgumentError):
        g(tf.constant(-3))
    # no message: TF 2.21 shows "assertion failed: [Assertion error]"
    h = tf.function(positive_no_message, experimental_autograph_options=ASSERTS)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"\[Assertion error\]"):
        h(tf.constant(-3))
    # a Python condition stays Python's AssertionError (TF 2.21: "AssertionError: py")
    with pytest.raises(AssertionError, match="py") as info:
        tf.function(python_assert, experimental_autograph_options=ASSERTS)(tf.constant(1))
    assert 'assert 1 > 2, "py"' in str(info.value)  # the user's line


def test_assert_with_a_non_literal_message_runs_as_is(caplog):
    # TF 2.21: "could not transform ... Cause: can only convert string messages for now",
    # then the Python assert on a tensor: OperatorNotAllowedInGraphError
    f = tf.function(tuple_message, experimental_autograph_options=ASSERTS)
    with caplog.at_level(logging.WARNING, logger="tensorflow"):
        with pytest.raises(tf.errors.OperatorNotAllowedInGraphError):
            f(tf.constant(-3))
    assert "can only convert string messages for now" in caplog.text


def test_to_graph_and_to_code_take_optional_features():
    code = tf.autograph.to_code(positive, experimental_optional_features=ASSERTS)
    # TF 2.21's text for these lines:
    assert "optional_features=ag__.Feature.ASSERT_STATEMENTS" in code
    assert "ag__.assert_stmt(ag__.ld(x) > 0, lambda: 'x must be positive')" in code
    assert "assert ag__.ld(x) > 0, 'x must be positive'" in tf.autograph.to_code(positive)
    g = tf.autograph.to_graph(positive, experimental_optional_features=ASSERTS)
    assert int(g(tf.constant(3))) == 4
    with pytest.raises(tf.errors.InvalidArgumentError):  # TF 2.21, eagerly and traced
        g(tf.constant(-3))
    with pytest.raises(tf.errors.InvalidArgumentError, match="x must be positive"):
        tf.function(g, autograph=False)(tf.constant(-3))
    plain = tf.autograph.to_graph(positive)
    with pytest.raises(AssertionError, match="x must be positive"):
        plain(tf.constant(-3))
    with pytest.raises(tf.errors.OperatorNotAllowedInGraphError):
        tf.function(plain, autograph=False)(tf.constant(-3))


# -- error texts -------------------------------------------------------------------------------
def only_in_a_python_if(x):
    if False:
        i = 1
    return i


def key_error(x):
    d = {"a": x}
    return d["b"]


def generator(x):
    yield x


def test_error_texts_tf_users_know():
    # TF 2.21: UnboundLocalError "'i' is used before assignment"
    with pytest.raises(UnboundLocalError, match="'i' is used before assignment"):
        tf.function(only_in_a_python_if)(tf.constant(1))
    # TF 2.21: KeyError whose str is the "in user code" block ending "KeyError: 'b'"
    with pytest.raises(KeyError) as info:
        tf.function(key_error)(tf.constant(1))
    text = str(info.value)
    assert text.startswith("in user code:") and text.rstrip().endswith("KeyError: 'b'")
    # TF 2.21: UnsupportedLanguageElementError (a NotImplementedError) "generators are not
    # supported" from to_code and to_graph
    for api in (tf.autograph.to_code, tf.autograph.to_graph):
        with pytest.raises(NotImplementedError, match="generators are not supported"):
            api(generator)
    with pytest.raises(TypeError, match="found return value of type generator"):
        tf.function(generator)(tf.constant(1))  # TF 2.21: TypeError, run as-is


# -- deep nesting --------------------------------------------------------------------------------
def _elif_chain(n):
    src = "def f(x):\n    if x == 0:\n        y = x\n"
    for k in range(1, n):
        src += f"    elif x == {k}:\n        y = x * {k}\n"
    return src + "    else:\n        y = -x\n    return y\n"


def _nested_ifs(n):
    src = "def f(x):\n    y = x\n"
    for k in range(n):
        src += "    " * (k + 1) + f"if x > {k}:\n" + "    " * (k + 2) + "y = y + 1\n"
    return src + "    return y\n"


def _define(src, tmp_path, name):
    path = tmp_path / f"{name}.py"
    path.write_text(src)
    namespace: dict = {}
    exec(compile(src, str(path), "exec"), namespace)  # noqa: S102 - the test's own program
    return namespace["f"]


@pytest.mark.parametrize("make,n,want", [(_elif_chain, 60, 59 * 59), (_nested_ifs, 60, 118)])
def test_deep_elif_chains_and_nested_ifs_convert(make, n, want, tmp_path):
    # TF 2.21 converts these (recorded: elif 60 -> 3481, nested 60 -> 118); tfgraph_edu
    # refused more than 40 levels before
    f = _define(make(n), tmp_path, f"{make.__name__}{n}")
    assert int(tf.function(f)(tf.constant(n - 1))) == want


def test_tf_s_deepest_elif_chain(tmp_path):
    # TF 2.21: 95 elifs convert (elif 95 -> 8836, elif 90 -> 7921); 96 do not: "could not
    # transform ... too many levels of indentation", run as-is.  Nested ifs: TF's to_code of
    # n nested ifs is as deep as that of n elifs (recorded at 5, 10 and 20), so 96 fail too
    assert conversion.convert(_define(_elif_chain(95), tmp_path, "elif95")) is not None
    with pytest.raises(conversion.ConversionError, match="too many levels of indentation"):
        conversion.convert(_define(_elif_chain(96), tmp_path, "elif96"))
    with pytest.raises(conversion.ConversionError, match="too many levels of indentation"):
        conversion.convert(_define(_nested_ifs(96), tmp_path, "nested96"))


def test_an_elif_chain_too_deep_for_python_runs_as_is(tmp_path, caplog):
    # TF 2.21 at 99 elifs: "could not transform ... too many levels of indentation", run as-is:
    # OperatorNotAllowedInGraphError; never a RecursionError of ours
    f = _define(_elif_chain(99), tmp_path, "elif99")
    with caplog.at_level(logging.WARNING, logger="tensorflow"):
        with pytest.raises(tf.errors.OperatorNotAllowedInGraphError):
            tf.function(f)(tf.constant(3))
    assert "too many levels of indentation" in conversion.unconverted_cause(f)


# -- auto-packing lists that hold tensors of another dtype ----------------------------------------
def test_autopacking_casts_to_the_dtype_asked_for():
    v32, s64 = tf.constant([1, 2], tf.int32), tf.constant(3, tf.int64)
    cases = [  # (function, arguments, TF 2.21's dtype and values)
        (lambda a, b: tf.concat((a, [b]), 0), (v32, s64), tf.int32, [1, 2, 3]),
        (lambda a, b: tf.concat(([b], a), 0), (v32, s64), tf.int32, [3, 1, 2]),
        (lambda a, b: tf.concat((a, [b, 5]), 0), (v32, s64), tf.int32, [1, 2, 3, 5]),
        (lambda a, b: tf.concat((a, [b]), 0), (tf.constant([1, 2], tf.int64), tf.constant(3)),
         tf.int64, [1, 2, 3]),
        (lambda a, b: tf.concat((a, [b]), 0), (tf.constant([1., 2.]),
                                               tf.constant(3.0, tf.float64)),
         tf.float32, [1., 2., 3.]),
        (lambda a, b: tf.tile(a, [b]), (v32, tf.constant(2, tf.int64)), tf.int32, [1, 2, 1, 2]),
        (lambda a, b: tf.reshape(a, [-1, b]), (v32, tf.constant(1, tf.int64)), tf.int32,
         [[1], [2]]),
    ]
    for fn, args, dtype, want in cases:
        out = tf.function(fn)(*args)
        assert out.dtype is dtype
        np.testing.assert_array_equal(out.numpy(), want)


def concat_over_a_dataset():
    out = tf.constant([0], tf.int32)
    for i in tf.data.Dataset.range(3):
        out = tf.concat((out, [i]), 0)
    return out


def test_autopacking_over_dataset_range():
    out = tf.function(concat_over_a_dataset)()  # TF 2.21: int32 [0, 0, 1, 2]
    assert out.dtype is tf.int32
    np.testing.assert_array_equal(out.numpy(), [0, 0, 1, 2])


def test_autopacking_refuses_mixed_dtypes_when_none_is_asked_for():
    a, b = tf.constant(1), tf.constant(3, tf.int64)
    # TF 2.21: TypeError "Cannot convert a list containing a tensor of dtype <dtype:
    # 'int64'> to <dtype: 'int32'> (Tensor is: ...)"
    with pytest.raises(TypeError, match="Cannot convert a list containing a tensor of dtype "
                                        "<dtype: 'int64'> to <dtype: 'int32'>"):
        tf.function(lambda a, b: tf.convert_to_tensor([a, b]))(a, b)
    with pytest.raises(TypeError, match="Cannot convert a list containing a tensor"):
        tf.function(lambda a, b: tf.zeros([a, b]))(tf.constant(2), tf.constant(2, tf.int64))
    # eagerly, TF 2.21: InvalidArgumentError "cannot compute Pack as input #1(zero-based) was
    # expected to be a int32 tensor but is a int64 tensor" (tfgraph_edu gave [1, 3] before)
    with pytest.raises(tf.errors.InvalidArgumentError, match="cannot compute Pack as input #1"):
        tf.convert_to_tensor([a, b])
    # TF 2.21: TypeError "Expected any non-tensor type, but got a tensor instead."
    with pytest.raises(TypeError, match="Expected any non-tensor type, but got a tensor"):
        tf.function(lambda a, b: tf.constant([a, b]))(a, b)


# -- composite values in graphs (more in test_composite_loop_state.py) ---------------------------
def sparse_loop_state(n):
    s = tf.SparseTensor(indices=[[0]], values=[1.], dense_shape=[3])
    for i in tf.range(n):
        s = tf.SparseTensor(indices=s.indices, values=s.values * 2., dense_shape=[3])
    return tf.sparse.to_dense(s)


def ragged_loop_state(n):
    r = tf.ragged.constant([[1, 2], [3]])
    for i in tf.range(n):
        r = r * 2
    return r


def test_sparse_and_ragged_loop_state():
    # TF 2.21 carries both: [4., 0., 0.] and <tf.RaggedTensor [[4, 8], [12]]>, and returns a
    # SparseTensor from a tf.function
    np.testing.assert_array_equal(tf.function(sparse_loop_state)(tf.constant(2)).numpy(),
                                  [4., 0., 0.])
    assert tf.function(ragged_loop_state)(tf.constant(2)).to_list() == [[4, 8], [12]]
    out = tf.function(lambda: tf.SparseTensor(indices=[[0, 0]], values=[1.],
                                              dense_shape=[2, 2]))()
    assert out.dense_shape.numpy().tolist() == [2, 2]
    # eagerly they are Python's loops, as in TF
    np.testing.assert_array_equal(sparse_loop_state(tf.constant(2)).numpy(), [4., 0., 0.])


# -- an if's branches are checked in TF's order: main right after it is traced ----------------
RETURN_FLAG = False


def returns_under_a_python_flag(x):
    if x > 0:
        if RETURN_FLAG:
            return 1
    else:
        if RETURN_FLAG:
            return 2
    return 3


def return_in_nested_tensor_loops_of_an_elif(a, b):
    c = a - b
    if a < ((3 * b) - a):
        b += 1
    elif b > 1:
        for i1 in tf.range(b % 4):
            for i2 in tf.range(1):
                return a, b, c
    else:
        c = a % 97
    return a, b, c


def test_main_branch_is_checked_before_the_else_branch_is_traced():
    # TF 2.21: both raise "the main branch must also have a return statement." (the else
    # branch, which would fail too, is never traced)
    with pytest.raises(ValueError, match="^in user code:(.|\n)*the main branch must also have"):
        tf.function(returns_under_a_python_flag)(tf.constant(-5))
    with pytest.raises(ValueError, match="the main branch must also have a return statement"):
        tf.function(return_in_nested_tensor_loops_of_an_elif)(tf.constant(-5), tf.constant(2))
