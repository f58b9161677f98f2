"""keras.mixed_precision as Keras 3 has it (guide mixed_precision, issue 25): dtype policies,
layers computing in float16 with float32 weights (autocast), LossScaleOptimizer.
Expected values recorded from TF 2.21 / Keras 3."""

import numpy as np
import pytest

import tfgraph_edu as tf
from tfgraph_edu import keras
from tfgraph_edu.keras import layers, mixed_precision


@pytest.fixture(autouse=True)
def _float32_after():
    yield
    mixed_precision.set_global_policy("float32")


def test_policies_print_and_name_their_dtypes():
    policy = mixed_precision.Policy("mixed_float16")
    # recorded from TF 2.21
    assert repr(policy) == str(policy) == '<DTypePolicy "mixed_float16">'
    assert (policy.name, policy.compute_dtype, policy.variable_dtype) == (
        "mixed_float16", "float16", "float32")
    assert mixed_precision.Policy is mixed_precision.DTypePolicy
    assert str(mixed_precision.global_policy()) == '<DTypePolicy "float32">'
    for name, compute in (("int32", "int32"), ("float64", "float64"), ("float16", "float16")):
        p = mixed_precision.Policy(name)
        assert (p.compute_dtype, p.variable_dtype) == (compute, compute)
    with pytest.raises(ValueError, match="Cannot convert 'foo' to a mixed precision "
                                         "DTypePolicy. Valid policies include 'mixed_float16'"):
        mixed_precision.Policy("foo")
    with pytest.raises(ValueError, match=r"Invalid `policy` argument. Expected the string name "
                                         r"of a policy \(such as 'mixed_float16'\)"):
        mixed_precision.set_global_policy(3)
    with pytest.raises(NotImplementedError, match="bfloat16"):
        mixed_precision.Policy("mixed_bfloat16")


def test_guide_cells_policy_and_layer_dtypes():
    mixed_precision.set_global_policy("mixed_float16")
    assert str(mixed_precision.global_policy()) == '<DTypePolicy "mixed_float16">'
    inputs = keras.Input(shape=(784,), name="digits")
    dense1 = layers.Dense(64, activation="relu", name="dense_1")
    x = dense1(inputs)
    # recorded from TF 2.21
    assert str(dense1.dtype_policy) == '<DTypePolicy "mixed_float16">'
    assert (dense1.dtype, dense1.compute_dtype, dense1.variable_dtype) == (
        "float32", "float16", "float32")
    assert repr(x).startswith("<KerasTensor shape=(None, 64), dtype=float16,")
    assert dense1.kernel.dtype == "float32"
    out = layers.Activation("softmax", dtype="float32", name="predictions")(x)
    assert repr(out).startswith("<KerasTensor shape=(None, 64), dtype=float32,")
    mixed_precision.set_global_policy("float32")
    assert str(layers.Dense(1).dtype_policy) == '<DTypePolicy "float32">'
    assert str(layers.Dense(3, dtype="float64").dtype_policy) == '<DTypePolicy "float64">'


@pytest.mark.parametrize("traced", [False, True])
def test_mixed_dense_computes_in_float16_with_float32_weights(traced):
    mixed_precision.set_global_policy("mixed_float16")
    d = layers.Dense(2, kernel_initializer="ones", bias_initializer="ones")
    call = tf.function(lambda x: d(x)) if traced else d
    y = call(tf.constant([[1.0, 2.0]]))
    assert y.dtype == tf.float16  # recorded from TF 2.21: [[4. 4.]] float16
    np.testing.assert_array_equal(y.numpy(), [[4., 4.]])
    assert d.kernel.dtype == "float32" and d.bias.dtype == "float32"
    assert call(tf.constant([[1.0, 2.0]], tf.float64)).dtype == tf.float16
    assert call(tf.constant([[1, 2]])).dtype == tf.float16
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(d(tf.constant([[1.0, 2.0]])))
    grads = tape.gradient(loss, d.trainable_variables)
    assert loss.dtype == tf.float16 and [g.dtype for g in grads] == [tf.float32, tf.float32]
    np.testing.assert_array_equal(grads[0].numpy(), [[1., 1.], [2., 2.]])
    np.testing.assert_array_equal(grads[1].numpy(), [1., 1.])


def test_weights_read_as_compute_dtype_inside_call_only():
    mixed_precision.set_global_policy("mixed_float16")
    seen = {}

    class L(layers.Layer):
        def build(self, shape):
            self.w = self.add_weight(shape=(2,), initializer="ones")
            self.w2 = self.add_weight(shape=(2,), initializer="ones", autocast=False)

        def call(self, x):
            seen.update(w=self.w.dtype, xw=(x * self.w).dtype,
                        conv=tf.convert_to_tensor(self.w).dtype, value=self.w.value.dtype,
                        w2=self.w2.dtype)
            return x * self.w
    layer = L()
    layer(tf.ones([2]))
    # recorded from TF 2.21: inside call the weight says float16 (autocast=False: float32)
    assert seen == {"w": "float16", "xw": tf.float16, "conv": tf.float16,
                    "value": tf.float16, "w2": "float32"}
    assert layer.w.dtype == "float32"
    model = keras.Sequential([layers.Dense(2), layers.Activation("softmax", dtype="float32")])
    assert model(tf.ones([1, 3])).dtype == tf.float32
    assert str(model.layers[1].dtype_policy) == '<DTypePolicy "float32">'


def test_loss_scale_optimizer_as_keras3():
    keras.backend.clear_session()  # the names below are a fresh process's (TF's run)
    opt = keras.optimizers.SGD(0.1)
    lso = mixed_precision.LossScaleOptimizer(opt, dynamic_growth_steps=2)
    assert lso.name == "loss_scale_optimizer" and lso.inner_optimizer is opt
    assert (lso.initial_scale, lso.dynamic_growth_steps) == (32768.0, 2)
    assert lso.learning_rate is opt.learning_rate and lso.iterations is opt.iterations
    v = tf.Variable([1.0, 2.0])
    with tf.GradientTape() as t:
        scaled = lso.scale_loss(tf.reduce_sum(v * v))
    g = t.gradient(scaled, [v])
    # recorded from TF 2.21
    assert float(scaled.numpy()) == 163840.0
    np.testing.assert_array_equal(g[0].numpy(), [65536., 131072.])
    lso.apply_gradients(zip(g, [v]))
    np.testing.assert_allclose(v.numpy(), [0.8, 1.6], rtol=1e-6)
    assert (float(lso.dynamic_scale.numpy()), int(lso.step_counter.numpy()),
            int(lso.iterations.numpy())) == (32768.0, 1, 1)
    assert [x.path for x in lso.variables] == [
        "loss_scale_optimizer/iteration", "loss_scale_optimizer/learning_rate",
        "loss_scale_optimizer/step_counter", "loss_scale_optimizer/dynamic_scale",
        "sgd/iteration", "sgd/learning_rate"]
    lso.apply_gradients(zip(g, [v]))  # the second finite step doubles the scale
    np.testing.assert_allclose(v.numpy(), [0.6, 1.2], rtol=1e-6)
    assert (float(lso.dynamic_scale.numpy()), int(lso.step_counter.numpy()),
            int(lso.iterations.numpy())) == (65536.0, 0, 2)
    lso.apply_gradients(zip([tf.constant([float("inf"), 1.])], [v]))  # skipped, halved
    np.testing.assert_allclose(v.numpy(), [0.6, 1.2], rtol=1e-6)
    assert (float(lso.dynamic_scale.numpy()), int(lso.step_counter.numpy()),
            int(lso.iterations.numpy())) == (32768.0, 0, 2)

    @tf.function
    def step():
        with tf.GradientTape() as t:
            scaled = lso.scale_loss(tf.reduce_sum(v * v))
        lso.apply_gradients(zip(t.gradient(scaled, [v]), [v]))
    step()
    np.testing.assert_allclose(v.numpy(), [0.48, 0.96], rtol=1e-6)
    assert (float(lso.dynamic_scale.numpy()), int(lso.step_counter.numpy()),
            int(lso.iterations.numpy())) == (32768.0, 1, 3)


def test_loss_scale_optimizer_keras2_names_are_gone():
    lso = mixed_precision.LossScaleOptimizer(keras.optimizers.RMSprop())
    assert float(lso.scale_loss(tf.constant(2.0)).numpy()) == 65536.0  # TF 2.21
    with pytest.raises(AttributeError, match="get_scaled_loss"):
        lso.get_scaled_loss(tf.constant(2.0))
    with pytest.raises(AttributeError, match="'str' object has no attribute "
                                             "'loss_scale_factor'"):
        mixed_precision.LossScaleOptimizer("sgd")


def test_keras_tensor_dtype_is_a_plain_string():
    mixed_precision.set_global_policy("mixed_float16")
    inputs = keras.Input(shape=(784,), name="digits")
    x = layers.Dense(64, activation="relu", name="dense_1")(inputs)
    # recorded from TF 2.21: KerasTensor.dtype is a str, so the guide's x.dtype.name raises
    assert type(inputs.dtype) is str and inputs.dtype == "float32"
    assert type(x.dtype) is str and x.dtype == "float16"
    with pytest.raises(AttributeError, match="'str' object has no attribute 'name'"):
        x.dtype.name  # noqa: B018
