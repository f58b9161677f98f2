"""Errors of classes TF's AutoGraph does not rebuild become ``StagingError`` (issue #23).

Every expected class and last line below was recorded by running the same function under
TensorFlow 2.21.0 (``/work/venv-tf``): the class TF raised and the last line of its message."""

import pytest

import tfgraph_edu as tf
from tfgraph_edu.autograph.errors import StagingError


class Plain(Exception):
    pass


class TwoArguments(Exception):
    def __init__(self, a, b):
        super().__init__(a, b)


def _zero(x):
    return x + 1 / 0


def _index(x):
    return x + [1][3]


def _value(x):
    return x + int("a")


def _plain(x):
    raise Plain("m")


def _two(x):
    raise TwoArguments("m", 2)


@pytest.mark.parametrize("fn, cls, last", [
    (_zero, "StagingError", "ZeroDivisionError: division by zero"),
    (_index, "StagingError", "IndexError: list index out of range"),
    (_value, "ValueError", "ValueError: invalid literal for int() with base 10: 'a'"),
    (_plain, "Plain", "Plain: m"),
    (_two, "StagingError", "TwoArguments: ('m', 2)"),
])
def test_the_class_tf_raises_while_tracing(fn, cls, last):
    with pytest.raises(Exception) as info:
        tf.function(fn)(tf.constant(1.0))
    assert type(info.value).__name__ == cls
    assert str(info.value).strip().splitlines()[-1].strip() == last


def test_a_tensor_recursion_is_a_staging_error_around_a_recursion_error():
    @tf.function
    def countdown(n):
        if n > 0:
            return countdown(n - 1)
        return 0

    with pytest.raises(StagingError) as info:  # TF 2.21: StagingError, not a RecursionError
        countdown(tf.constant(3))
    assert not isinstance(info.value, RecursionError)
    assert str(info.value).strip().splitlines()[-1].strip().startswith("RecursionError: ")
