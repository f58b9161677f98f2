"""tf.pad with a fill value (op PadV2) and tf.saved_model.save options / trace-on-save."""

import numpy as np
import pytest

import tfgraph_edu as tf


def test_pad_with_constant_values_fills_borders():
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    got = tf.pad(x, [[1, 0], [0, 1]], constant_values=-1.5).numpy()
    want = np.array([[-1.5, -1.5, -1.5], [1.0, 2.0, -1.5], [3.0, 4.0, -1.5]], np.float32)
    np.testing.assert_array_equal(got, want)


def test_pad_fill_value_may_be_a_tensor_and_int():
    got = tf.pad(tf.constant([1, 2]), [[2, 1]], constant_values=tf.constant(7))
    assert got.numpy().tolist() == [7, 7, 1, 2, 7]
    assert got.dtype == tf.int32


def test_pad_v2_gradient_is_the_inner_slice():
    v = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.pad(v * 3.0, [[1, 1], [2, 0]], constant_values=5.0))
    np.testing.assert_array_equal(tape.gradient(y, v).numpy(), np.full((2, 2), 3.0))


def test_pad_op_types_in_a_graph():
    @tf.function
    def f(a):
        return tf.pad(a, [[0, 1]], constant_values=2.0), tf.pad(a, [[1, 0]])

    types = [op.type for op in f.get_concrete_function(tf.constant([1.0])).graph.get_operations()]
    assert "PadV2" in types and "Pad" in types
    a, b = f(tf.constant([1.0]))
    assert a.numpy().tolist() == [1.0, 2.0] and b.numpy().tolist() == [0.0, 1.0]


def test_pad_constant_values_must_be_scalar():
    with pytest.raises(tf.errors.InvalidArgumentError, match="constant_values must be a scalar"):
        tf.pad(tf.constant([1.0]), [[1, 1]], constant_values=tf.constant([1.0, 2.0]))


class _Doubler(tf.Module):
    @tf.function(input_signature=[tf.TensorSpec(None)])
    def double(self, x):
        return 2.0 * x


def test_save_traces_a_never_called_function_with_input_signature(tmp_path):
    m = _Doubler()
    tf.saved_model.save(m, str(tmp_path / "m"), options=tf.saved_model.SaveOptions())
    loaded = tf.saved_model.load(str(tmp_path / "m"))
    assert loaded.double(tf.constant([1.0, 4.0])).numpy().tolist() == [2.0, 8.0]


def test_save_options_default_keeps_custom_gradients(tmp_path):
    @tf.custom_gradient
    def halve_grad(y):
        return y, lambda dy: dy * 0.5

    class M(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec(None)])
        def f(self, x):
            return halve_grad(x)

    opts = tf.saved_model.SaveOptions(experimental_custom_gradients=True)
    assert opts.experimental_custom_gradients is True
    tf.saved_model.save(M(), str(tmp_path / "m"), options=opts)
    loaded = tf.saved_model.load(str(tmp_path / "m"))
    v = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        out = loaded.f(v * v)
    assert tape.gradient(out, v).numpy() == pytest.approx(3.0)  # 0.5 * 2v


def test_save_options_must_be_save_options(tmp_path):
    with pytest.raises(TypeError):
        tf.saved_model.save(_Doubler(), str(tmp_path / "m"), options={"a": 1})


class _Scaled(tf.Module):
    def __init__(self):
        super().__init__()
        self.scale = tf.Variable([1.0, 2.0, 3.0], name="scale")

    @tf.function
    def __call__(self, x):
        return tf.reduce_sum(tf.convert_to_tensor(x) * self.scale)


def test_saved_model_has_tf_folders_and_a_variables_checkpoint(tmp_path):
    m = _Scaled()
    m(tf.constant([1.0, 1.0, 1.0]))
    tf.saved_model.save(m, str(tmp_path / "m"))
    names = set(p.name for p in (tmp_path / "m").iterdir())
    assert {"assets", "variables"} <= names
    assert sorted(p.name for p in (tmp_path / "m" / "variables").iterdir()) == [
        "variables.data-00000-of-00001", "variables.index"]
    listed = dict(tf.train.list_variables(str(tmp_path / "m" / "variables" / "variables")))
    assert listed["scale/.ATTRIBUTES/VARIABLE_VALUE"] == [3]
    got = tf.train.load_variable(str(tmp_path / "m" / "variables" / "variables"),
                                 "scale/.ATTRIBUTES/VARIABLE_VALUE")
    assert got.tolist() == [1.0, 2.0, 3.0]


def test_save_a_function_traced_with_python_lists(tmp_path):
    m = _Scaled()
    assert m([1.0, 1.0, 1.0]).numpy() == 6.0  # traced with a list of Python floats
    tf.saved_model.save(m, str(tmp_path / "m"))  # TF saves it (the list is part of the trace)
    assert (tmp_path / "m" / "variables" / "variables.index").exists()


def test_load_a_function_traced_with_python_lists(tmp_path):
    m = _Scaled()
    m([1.0, 1.0, 1.0])
    tf.saved_model.save(m, str(tmp_path / "m"))
    loaded = tf.saved_model.load(str(tmp_path / "m"))
    assert loaded([1.0, 1.0, 1.0]).numpy() == 6.0
    with pytest.raises(ValueError, match="Could not find matching concrete function"):
        loaded([1.0, 1.0, 2.0])  # never traced with these values: TF 2.21 raises this too
    with pytest.raises(ValueError, match="Could not find matching concrete function"):
        loaded((1.0, 1.0, 1.0))  # a tuple is not the list it was traced with
