"""A tensor made inside a loop body or branch and used outside it: TF's InaccessibleTensorError
(a tensor leaked from another, finished trace is TF's TypeError instead)."""

from __future__ import annotations

import pytest

import tfgraph_edu as tf


def test_a_loop_body_tensor_collected_in_a_python_list_is_inaccessible():
    @tf.function
    def squares(n):
        out = []
        for i in tf.range(n):
            out.append(i * i)
        return out

    with pytest.raises(tf.errors.InaccessibleTensorError) as info:
        squares(tf.constant(3))
    text = str(info.value)
    assert "is out of scope and cannot be used here" in text
    assert "while_body" in text and "tf.TensorArray" in text


def test_a_tensor_leaked_from_another_trace_is_a_type_error():
    leaked = []

    @tf.function
    def leaky(a):
        leaked.append(a + 1)
        return a + 2

    leaky(tf.constant(1))

    @tf.function
    def uses_it(b):
        return b + leaked[0]

    with pytest.raises(TypeError, match="is out of scope and cannot be used here"):
        uses_it(tf.constant(2))
