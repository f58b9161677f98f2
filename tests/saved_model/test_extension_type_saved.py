"""Extension types in a SavedModel's functions (arguments and results), as the extension
type guide saves them; expected values recorded from TF 2.21 (the same programs run under
real TensorFlow)."""

from collections.abc import Mapping

import numpy as np
import pytest

import tfgraph_edu as tf


class Graphish(tf.experimental.ExtensionType):
    __name__ = "datap_test.Graphish"
    weights: tf.Tensor
    labels: Mapping[str, tf.Tensor]
    scale: int
    kind: tf.DType


class Masked(tf.experimental.BatchableExtensionType):
    __name__ = "datap_test.Masked"
    values: tf.Tensor
    mask: tf.Tensor

    class Spec:
        def __init__(self, shape, dtype=tf.float32):
            self.values = tf.TensorSpec(shape, dtype)
            self.mask = tf.TensorSpec(shape, tf.bool)


def _graphish(scale=3, w=None):
    return Graphish(tf.constant([1., 2.]) if w is None else w,
                    {"b": tf.constant([1, 2]), "a": tf.constant([3])}, scale, tf.int32)


class _GraphModule(tf.Module):
    def __init__(self):
        super().__init__()
        self.v = tf.Variable(2.0)

    @tf.function
    def f(self, g):
        return (Graphish(g.weights * self.v * g.scale, {k: v + 1 for k, v in g.labels.items()},
                         g.scale + 1, g.kind), tf.reduce_sum(g.weights))


def test_extension_type_in_and_out(tmp_path):
    m = _GraphModule()
    m.f(_graphish())
    tf.saved_model.save(m, str(tmp_path))
    loaded = tf.saved_model.load(str(tmp_path))
    out, total = loaded.f(_graphish())
    # recorded from TF 2.21
    assert type(out) is Graphish
    assert out.weights.numpy().tolist() == [6.0, 12.0]
    assert {k: v.numpy().tolist() for k, v in out.labels.items()} == {"b": [2, 3], "a": [4]}
    assert out.scale == 4 and out.kind == tf.int32 and float(total) == 3.0
    with pytest.raises(ValueError, match="Could not find matching concrete function"):
        loaded.f(_graphish(scale=4))  # another value of a non-tensor field: not saved
    w = tf.constant([1., 2.])
    with tf.GradientTape() as tape:
        tape.watch(w)
        o, _ = loaded.f(_graphish(w=w))
        y = tf.reduce_sum(o.weights ** 2)
    np.testing.assert_allclose(tape.gradient(y, w).numpy(), [72.0, 144.0])


def test_the_guides_custom_module(tmp_path):
    class CustomModule(tf.Module):
        def __init__(self, variable_value):
            super().__init__()
            self.v = tf.Variable(variable_value)

        @tf.function
        def grow(self, x: Masked):
            return Masked(x.values * self.v, x.mask)

    module = CustomModule(100.0)
    module.grow.get_concrete_function(Masked.Spec(shape=None, dtype=tf.float32))
    tf.saved_model.save(module, str(tmp_path))
    loaded = tf.saved_model.load(str(tmp_path))
    out = loaded.grow(Masked([1., 2, 3], [False, True, False]))
    # recorded from TF 2.21: <MaskedTensor [_, np.float32(200.0), _]>
    assert type(out) is Masked
    assert out.values.numpy().tolist() == [100.0, 200.0, 300.0]
    assert out.mask.numpy().tolist() == [False, True, False]
    with pytest.raises(ValueError, match="Could not find matching concrete function"):
        loaded.grow(Masked([1, 2, 3], [False, True, False]))  # int32 values: not saved
    with pytest.raises(ValueError, match="Could not find matching concrete function"):
        loaded.grow(tf.constant([1., 2.]))


def test_registered_names_are_checked():
    # recorded from TF 2.21: the same name for another class, and a name without a project
    with pytest.raises(ValueError, match="Name datap_test.Masked.Spec has already been "
                                         "registered for class"):
        class Other(tf.experimental.ExtensionType):
            __name__ = "datap_test.Masked"
            v: tf.Tensor
    with pytest.raises(ValueError, match="Registered name must have the form "
                                         r"'\{project_name\}.\{type_name\}'"):
        class Bad(tf.experimental.ExtensionType):
            __name__ = "bad name!"
            v: tf.Tensor
