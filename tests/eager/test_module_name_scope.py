"""tf.Module.name_scope, tf.Module.with_name_scope and eager tf.name_scope naming variables,
against TF 2.21 (the names below are what TF 2.21 printed for the same code)."""

from __future__ import annotations

import tfgraph_edu as tf


class Dense(tf.Module):
    def __init__(self, n, name=None):
        super().__init__(name=name)
        with self.name_scope:
            self.w = tf.Variable(tf.ones([2, n]), name="w")

    @tf.Module.with_name_scope
    def __call__(self, x):
        return tf.matmul(x, self.w, name="mm")


def test_module_name_scope_names_variables():
    d = Dense(3, name="my_dense")
    assert d.name_scope.name == "my_dense/" and d.w.name == "my_dense/w:0"
    d2 = Dense(3)
    assert (d2.name, d2.name_scope.name, d2.w.name) == ("dense", "dense/", "dense/w:0")
    assert d(tf.ones([1, 2])).numpy().tolist() == [[2.0, 2.0, 2.0]]


def test_module_name_scope_nests_and_reenters():
    class Outer(tf.Module):
        def __init__(self):
            super().__init__(name="outer")
            with self.name_scope:
                self.inner = Dense(1, name="inner")
    o = Outer()
    assert (o.inner.w.name, o.inner.name_scope.name) == ("outer/inner/w:0", "outer/inner/")
    scope = o.name_scope
    for _ in range(2):  # the same object entered twice
        with scope as s:
            assert s == "outer/"


def test_with_name_scope_in_a_graph():
    d = Dense(3, name="my_dense")
    f = tf.function(lambda x: d(x))
    names = [op.name for op in f.get_concrete_function(tf.TensorSpec([1, 2])).graph
             .get_operations()]
    assert "my_dense/mm" in names  # TF: my_dense/mm


def test_eager_name_scope_nests_and_names_variables():
    # TF 2.21: 'a/', 'a/w:0', 'a/b/', 'a/b/Variable:0'; eager scopes are not made unique
    with tf.name_scope("a") as s:
        assert s == "a/" and tf.Variable(1.0, name="w").name == "a/w:0"
        with tf.name_scope("b") as s2:
            assert s2 == "a/b/" and tf.Variable(1.0).name == "a/b/Variable:0"
    with tf.name_scope("a") as s:
        assert s == "a/"
    assert tf.Variable(1.0, name="w").name == "w:0"
    assert tf.name_scope("q").name == "q"
