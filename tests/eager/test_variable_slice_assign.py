"""``v[key].assign(value)`` and ``Variable.scatter_nd_update/add/sub`` against TF 2.21
(values and messages printed by TF 2.21 for the same code)."""

from __future__ import annotations

import pytest

import tfgraph_edu as tf

IAE = tf.errors.InvalidArgumentError


def test_slice_assign_eager():
    v = tf.Variable([[1, 2, 3], [4, 5, 6]])
    assert v[0, 1:].assign([7, 8]).numpy().tolist() == [[1, 7, 8], [4, 5, 6]]
    assert v[1].assign(5).numpy().tolist() == [[1, 7, 8], [5, 5, 5]]  # broadcast, as TF
    assert v[..., ::2].assign([[0, 0], [1, 1]]).numpy().tolist() == [[0, 7, 0], [1, 5, 1]]
    assert v.numpy().tolist() == [[0, 7, 0], [1, 5, 1]]
    assert repr(v[0, 1:].assign([3, 3])) == (
        "<tf.Variable 'UnreadVariable' shape=(2, 3) dtype=int32, numpy=\n"
        "array([[0, 3, 3],\n       [1, 5, 1]], dtype=int32)>")
    with pytest.raises(IAE, match=r"Cannot broadcast input shape \[3\] into final shape \[2\]"):
        v[0, 1:].assign([7, 8, 9])
    with pytest.raises(IAE, match="slice index 5 of dimension 0 out of bounds."):
        v[5].assign([1, 1, 1])


def test_slice_assign_in_function():
    fv = tf.Variable([1.0, 2.0, 3.0])

    @tf.function
    def ff():
        return fv[1:].assign([5.0, 6.0])
    assert ff().numpy().tolist() == [1.0, 5.0, 6.0]
    ops = [n.op for n in ff.get_concrete_function().graph.as_graph_def().node]
    assert "ResourceStridedSliceAssign" in ops and "StridedSlice" in ops


def test_a_tensor_has_no_assign():
    with pytest.raises(AttributeError, match="object has no attribute 'assign'"):
        getattr(tf.constant([1, 2])[0:1], "assign")  # noqa: B009
    v = tf.Variable([1, 2])
    with pytest.raises(AttributeError, match="object has no attribute 'assign_add'"):
        getattr(v[0:1], "assign_add")  # noqa: B009


def test_variable_scatter_nd():
    w = tf.Variable([1.0, 2.0, 3.0, 4.0])
    assert w.scatter_nd_update([[1], [3]], [10.0, 20.0]).numpy().tolist() == [
        1.0, 10.0, 3.0, 20.0]
    assert w.scatter_nd_add([[1]], [1.0]).numpy().tolist() == [1.0, 11.0, 3.0, 20.0]
    assert w.scatter_nd_sub([[0]], [1.0]).numpy().tolist() == [0.0, 11.0, 3.0, 20.0]
    with pytest.raises(IAE, match=r"indices\[0\] = \[9\] does not index into shape \[4\]"):
        w.scatter_nd_update([[9]], [1.0])
    assert w.numpy().tolist() == [0.0, 11.0, 3.0, 20.0]

    @tf.function
    def f():
        return w.scatter_nd_add([[2]], [1.0])
    assert f().numpy().tolist() == [0.0, 11.0, 4.0, 20.0]
