"""Errors through the public API hide tfgraph_edu's own frames, as TF hides its own;
``tf.debugging.disable_traceback_filtering()`` shows them again."""

from __future__ import annotations

import os
import traceback

import pytest

import tfgraph_edu as tf

PACKAGE = os.path.dirname(os.path.abspath(tf.__file__)) + os.sep


def _internal_frames(exc) -> list[str]:
    return [f"{f.filename}:{f.lineno}" for f in traceback.extract_tb(exc.__traceback__)
            if f.filename.startswith(PACKAGE) and not f.filename.endswith("_traceback.py")]


def _user_frames(exc) -> list[int]:
    return [f.lineno for f in traceback.extract_tb(exc.__traceback__) if f.filename == __file__]


@tf.function
def _gather(x, i):
    return tf.gather(x, i)


@tf.function
def _bad_scope(x):
    with tf.name_scope("bad scope"):
        return x + 1


CASES = {
    "graph execution error": (lambda: _gather(tf.constant([1.0, 2.0]), tf.constant([5])),
                              tf.errors.InvalidArgumentError),
    "tracing error": (lambda: _bad_scope(tf.constant(1)), ValueError),
    "concrete function": (lambda: _gather.get_concrete_function(
        tf.constant([1.0, 2.0]), tf.constant([0]))(tf.constant([1.0, 2.0]), tf.constant([9])),
        tf.errors.InvalidArgumentError),
    "saved model": (lambda: tf.saved_model.load(os.devnull), tf.saved_model.SavedModelError),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_filtering_hides_internal_frames_and_can_be_disabled(case):
    call, cls = CASES[case]
    assert tf.debugging.is_traceback_filtering_enabled()
    with pytest.raises(cls) as info:
        call()
    filtered_message = str(info.value)
    assert _internal_frames(info.value) == []
    assert _user_frames(info.value), "the user's own line stays"
    tf.debugging.disable_traceback_filtering()
    try:
        assert not tf.debugging.is_traceback_filtering_enabled()
        with pytest.raises(cls) as info:
            call()
        assert _internal_frames(info.value), "unfiltered, the library's frames show"
        assert str(info.value) == filtered_message
    finally:
        tf.debugging.enable_traceback_filtering()
    assert tf.debugging.is_traceback_filtering_enabled()
