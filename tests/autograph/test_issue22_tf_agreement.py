"""Issue #22: AutoGraph agrees with TensorFlow, never a silent answer.

Every expected value, error class and message gist below was recorded by running the same
function under real TensorFlow 2.21.0 (``tf.function`` with AutoGraph on)."""

from __future__ import annotations

import pytest

import tfgraph_edu as tf

# -- a return that depends on a tensor inside a Python loop ---------------------------------------
# TF makes every variable an `if` on a tensor sets a tensor (even `do_return = True` set in both
# branches), so the loop's "stop when returned" test becomes a tensor: a Python loop refuses it.


def return_in_both_branches_in_python_for(x):
    for i in range(3):
        if x > i:
            return x
        else:
            return -x
    return 0


def return_then_return_in_python_for(x):
    for i in range(3):
        if x > i:
            return x
        return 5
    return 0


def nested_return_in_python_for(x):
    for i in range(3):
        if i == 1:
            if x > 0:
                return x
            return -x
    return 0


def return_in_python_for_over_one_item(x):
    for i in [1]:
        if x > i:
            return x
        return -x


def break_in_both_branches_in_python_for(x):
    r = 0
    for i in range(3):
        if x > i:
            r = x
            break
        else:
            break
    return r


@pytest.mark.parametrize("fn", [return_in_both_branches_in_python_for,
                                return_then_return_in_python_for,
                                nested_return_in_python_for,
                                return_in_python_for_over_one_item,
                                break_in_both_branches_in_python_for])
def test_a_tensor_return_or_break_in_a_python_for_is_refused(fn):
    # TF 2.21: NotImplementedError "break and return statements which depend on a TF condition
    # are not supported in Python for loops. Did you intend to make it a TF loop?"
    # (tfgraph_edu returned x here before: Python's answer, silently)
    with pytest.raises(NotImplementedError, match="depend on a TF condition are not supported in "
                                                  "Python for loops") as info:
        tf.function(fn)(tf.constant(1))
    assert "for i in" in str(info.value)  # the user's line


def return_in_python_while_true(x):
    while True:
        if x > 0:
            return x
        return -x


def test_a_tensor_return_in_a_python_while_is_refused():
    # TF 2.21: NotImplementedError "The condition of while loop started as non-Tensor, then
    # changed to Tensor. This may happen either because variables changed type, ..."
    with pytest.raises(NotImplementedError, match="started as non-Tensor, then changed to Tensor"):
        tf.function(return_in_python_while_true)(tf.constant(1))


def return_in_one_branch_in_python_for(x):
    for i in range(3):
        if x > i:
            return x
    return -x


def test_a_return_in_one_branch_of_a_tensor_if_in_a_python_for():
    # TF 2.21: ValueError "the else branch must also have a return statement."
    with pytest.raises(ValueError, match="the else branch must also have a return statement"):
        tf.function(return_in_one_branch_in_python_for)(tf.constant(1))


def test_equal_python_values_leave_a_tensor_if_as_tensors():
    # TF 2.21 prints "SymbolicTensor SymbolicTensor": both names are outputs of the cond
    seen = []

    @tf.function
    def f(x):
        if x > 0:
            a, b = 1, 2
        else:
            a, b = 1, 3
        seen.append((tf.is_tensor(a), tf.is_tensor(b)))
        return a + b

    assert int(f(tf.constant(1))) == 3  # TF: 3
    assert seen == [(True, True)]
