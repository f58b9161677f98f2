"""tf.function: tracing rules, concrete functions, signatures, errors - the guides' examples."""

from __future__ import annotations

import logging

import numpy as np
import pytest

import tfgraph_edu as tf
from tfgraph_edu.autograph.errors import StagingError


def test_my_relu_three_signatures_pretty_printed():
    @tf.function
    def my_relu(x):
        return tf.maximum(0., x)

    assert float(my_relu(tf.constant(5.5))) == 5.5
    assert my_relu([1, -1]).numpy().tolist() == [1.0, 0.0]
    assert my_relu(tf.constant([3., -3.])).numpy().tolist() == [3.0, 0.0]
    assert my_relu.experimental_get_tracing_count() == 3
    assert my_relu.pretty_printed_concrete_signatures() == """\
Input Parameters:
  x (POSITIONAL_OR_KEYWORD): TensorSpec(shape=(), dtype=tf.float32, name=None)
Output Type:
  TensorSpec(shape=(), dtype=tf.float32, name=None)
Captures:
  None

Input Parameters:
  x (POSITIONAL_OR_KEYWORD): List[Literal[1], Literal[-1]]
Output Type:
  TensorSpec(shape=(2,), dtype=tf.float32, name=None)
Captures:
  None

Input Parameters:
  x (POSITIONAL_OR_KEYWORD): TensorSpec(shape=(2,), dtype=tf.float32, name=None)
Output Type:
  TensorSpec(shape=(2,), dtype=tf.float32, name=None)
Captures:
  None"""
    my_relu(tf.constant([1., 2.]))  # same dtype and shape: no retrace
    assert my_relu.experimental_get_tracing_count() == 3


def test_get_mse_prints_once_then_every_call_when_run_eagerly(capsys):
    @tf.function
    def get_MSE(y_true, y_pred):
        print("Calculating MSE!")
        return tf.reduce_mean(tf.pow(y_true - y_pred, 2))

    y_true = tf.constant([1, 2, 3])
    y_pred = tf.constant([1, 1, 1])
    for _ in range(3):
        assert int(get_MSE(y_true, y_pred)) == 1
    assert capsys.readouterr().out == "Calculating MSE!\n"
    tf.config.run_functions_eagerly(True)
    try:
        assert tf.config.functions_run_eagerly()
        for _ in range(3):
            get_MSE(y_true, y_pred)
    finally:
        tf.config.run_functions_eagerly(False)
    assert capsys.readouterr().out == "Calculating MSE!\n" * 3
    assert get_MSE.experimental_get_tracing_count() == 1


def test_python_ints_retrace_by_value_with_reasons(capsys):
    @tf.function
    def tracing_function(x):
        print("Tracing!")
        return x

    tracing_function(5)
    tracing_function(5)
    tracing_function(6)
    assert capsys.readouterr().out == "Tracing!\nTracing!\n"
    assert tracing_function.experimental_get_tracing_count() == 2
    assert [e.reason for e in tracing_function.events.traces] == [
        "first call", "Python argument x changed from 5 to 6"]
    assert [e.traced for e in tracing_function.events.calls] == [True, False, True]


def test_shape_and_dtype_reasons():
    @tf.function
    def f(x):
        return x

    f(tf.constant([1, 2]))
    f(tf.constant([1, 2, 3]))
    f(tf.constant([1., 2., 3.]))
    assert [e.reason for e in f.events.traces][1:] == [
        "argument x: shape (3,) was not seen before",
        "argument x: dtype float32 was not seen before"]


def test_keys_normalise_defaults_and_keyword_order():
    @tf.function
    def f(a, b=2, *, c=3):
        return a + b + c

    f(tf.constant(1))
    f(tf.constant(1), 2)
    f(c=3, a=tf.constant(1))
    f(tf.constant(1), b=2, c=3)
    assert f.experimental_get_tracing_count() == 1
    f(tf.constant(1), c=4)
    assert f.experimental_get_tracing_count() == 2


def test_structures_objects_and_variables_in_keys():
    @tf.function
    def f(x):
        return tf.constant(0)

    class Thing:
        pass

    a, b = Thing(), Thing()
    f([tf.constant(1), 2])
    f([tf.constant(5), 2])  # same structure, same dtype/shape, same Python value
    assert f.experimental_get_tracing_count() == 1
    f({"k": tf.constant(1)})
    f(a)
    f(a)
    f(b)  # other objects: by identity
    assert f.experimental_get_tracing_count() == 4
    f(tf.Variable(1.0))
    f(tf.Variable(2.0))  # variables: by dtype and shape
    assert f.experimental_get_tracing_count() == 5
    f(np.zeros(3, np.float32))
    f(np.ones(3, np.float32))  # numpy arrays: like tensors
    assert f.experimental_get_tracing_count() == 6


def test_variables_as_arguments_are_inputs_not_frozen_captures():
    @tf.function
    def read(v):
        return v.read_value() * 1

    v1, v2 = tf.Variable(1.0), tf.Variable(2.0)
    assert float(read(v1)) == 1.0
    assert float(read(v2)) == 2.0
    v1.assign(5.0)
    assert float(read(v1)) == 5.0
    assert read.experimental_get_tracing_count() == 1


def test_captures_tensors_frozen_variables_live():
    c = tf.constant(10)
    v = tf.Variable(1)

    @tf.function
    def f():
        return c + v

    assert int(f()) == 11
    v.assign(5)
    assert int(f()) == 15
    cf = f.get_concrete_function()
    assert cf.captured_inputs[0] is c
    assert [x.dtype for x in cf.captured_inputs] == [tf.int32, tf.resource]
    assert cf.variables == [v]
    assert str(cf).endswith(
        "Captures:\n  add/x: TensorSpec(shape=(), dtype=tf.int32, name=None)\n"
        "  add/ReadVariableOp/resource: TensorSpec(shape=(), dtype=tf.resource, name=None)")


def test_assign_then_read_is_ordered():
    v = tf.Variable(1.0)

    @tf.function
    def f():
        v.assign(2.0)
        return v.read_value()

    for _ in range(3):
        assert float(f()) == 2.0
    ops = f.get_concrete_function().graph.get_operations()
    read = next(op for op in ops if op.type == "ReadVariableOp")
    assert [c.type for c in read.control_inputs] == ["AssignVariableOp"]


def test_non_strict_execution_skips_unused_pure_ops():
    def unused_return_eager(x):
        tf.gather(x, [1])
        return x

    @tf.function
    def unused_return_graph(x):
        tf.gather(x, [1])
        return x

    with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices\[0\] = 1 is not in"):
        unused_return_eager(tf.constant([0.0]))
    assert unused_return_graph(tf.constant([0.0])).numpy().tolist() == [0.0]


def test_graph_execution_error_names_node_and_user_line():
    @tf.function
    def bad(x):
        return tf.gather(x, [5])

    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        bad(tf.constant([1., 2.]))
    msg = str(info.value)
    assert msg.startswith("Graph execution error:\n\nDetected at node GatherV2 defined at")
    assert "test_function.py" in msg and "in bad" in msg
    assert "indices[0] = 5 is not in [0, 2)\n\t [[{{node GatherV2}}]] [Op:__inference_bad_" in msg


def test_power_loop_matches_eager():
    def power(x, y):
        result = tf.eye(10, dtype=tf.int32)
        for _ in range(y):
            result = tf.matmul(x, result)
        return result

    tf.random.set_seed(0)
    x = tf.random.uniform([10, 10], minval=-1, maxval=2, dtype=tf.int32)
    graph_power = tf.function(power)
    np.testing.assert_array_equal(graph_power(x, 10).numpy(), power(x, 10).numpy())
    ops = graph_power.get_concrete_function(x, 10).graph.get_operations()
    assert sum(op.type == "MatMul" for op in ops) == 10


def test_linear_regression_train_step_with_tape_in_graph():
    rng = np.random.default_rng(0)
    X = tf.constant(rng.normal(size=(32, 5)).astype(np.float32))
    Y = tf.constant(rng.normal(size=(32, 1)).astype(np.float32))

    def make():
        W, b = tf.Variable(tf.zeros([5, 1])), tf.Variable(tf.zeros([1]))

        def train_step(x, y):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(tf.matmul(x, W) + b - y))
            gw, gb = tape.gradient(loss, [W, b])
            W.assign_sub(0.1 * gw)
            b.assign_sub(0.1 * gb)
            return loss
        return train_step, W

    eager_step, We = make()
    graph_step, Wg = make()
    graph_step = tf.function(graph_step)
    for _ in range(5):
        le, lg = eager_step(X, Y), graph_step(X, Y)
        np.testing.assert_allclose(lg.numpy(), le.numpy(), rtol=1e-5)
    np.testing.assert_allclose(Wg.numpy(), We.numpy(), rtol=1e-5)
    assert graph_step.experimental_get_tracing_count() == 1


def test_input_signature_and_cast_error():
    @tf.function(input_signature=[tf.TensorSpec(shape=[None], dtype=tf.float32)])
    def g(x):
        return x * 2

    assert g(tf.constant([1., 2.])).numpy().tolist() == [2., 4.]
    assert g([1., 2., 3.]).numpy().tolist() == [2., 4., 6.]
    assert g.experimental_get_tracing_count() == 1
    # TF 2.21.0 (recorded): the spec as written, name=None
    with pytest.raises(TypeError, match=r"Can not cast TensorSpec\(shape=\(2,\), dtype=tf.int32, "
                                        r"name=None\) to TensorSpec\(shape=\(None,\), "
                                        r"dtype=tf.float32, name=None\)"):
        g(tf.constant([1, 2]))
    with pytest.raises(TypeError, match="Can not cast"):
        g(tf.constant([[1.0]]))
    with pytest.raises(TypeError, match="input_signature must be"):
        tf.function(lambda x: x, input_signature=[3])


def test_reduce_retracing_generalises_shapes():
    @tf.function(reduce_retracing=True)
    def h(x):
        return x + 1

    for n in (1, 2, 3, 4):
        h(tf.range(n))
    assert h.experimental_get_tracing_count() == 2
    assert h.concrete_functions[1].outputs[0].shape.as_list() == [None]


def test_get_concrete_function_with_specs_and_calling_it():
    @tf.function
    def f(x, n):
        return x * n

    cf = f.get_concrete_function(tf.TensorSpec([None], tf.float32), 3)
    assert cf(tf.constant([1., 2.])).numpy().tolist() == [3., 6.]
    assert f.get_concrete_function(tf.constant([5.]), 3) is cf
    assert cf.structured_input_signature == (
        (tf.TensorSpec([None], tf.float32, name="x"), 3), {})
    assert repr(cf) == ("<ConcreteFunction (x: TensorSpec(shape=(None,), dtype=tf.float32, "
                        "name=None), n: Literal[3]) -> TensorSpec(shape=(None,), "
                        f"dtype=tf.float32, name=None) at 0x{id(cf):X}>")
    assert [t.name for t in cf.inputs] == ["x:0"] and cf.outputs[0].op.type == "Identity"
    with pytest.raises(tf.errors.InvalidArgumentError, match="expected to be a float tensor but "
                                                             "is a int32 tensor"):
        cf(tf.constant([1, 2]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="traced for shape"):
        cf(tf.constant([[1.]]))
    with pytest.raises(TypeError, match="Binding inputs to tf.function failed due to `too many "
                                        "positional arguments`"):
        cf(tf.constant([1.]), 3, 4)


def test_variables_created_on_first_call_only():
    class Model:
        def __init__(self):
            self.v = None

        @tf.function
        def __call__(self, x):
            if self.v is None:
                self.v = tf.Variable(tf.ones([2]))
            return self.v * x

    m = Model()
    assert m(tf.constant([1., 2.])).numpy().tolist() == [1., 2.]
    assert m(tf.constant([3., 4.])).numpy().tolist() == [3., 4.]

    @tf.function
    def make_each_time(x):
        return tf.Variable(1.0) + x

    # as in TF: a first call that creates variables is traced again, and that trace
    # creates another one, so the very first call fails
    with pytest.raises(ValueError, match="tf.function only supports singleton tf.Variables "
                                         "created on the first call"):
        make_each_time(tf.constant(1.0))

    @tf.function
    def from_input(x):
        return tf.Variable(x)

    with pytest.raises(ValueError, match="tf.init_scope"):
        from_input(tf.constant(1.0))


def test_init_scope_runs_eagerly_inside_a_trace():
    seen = []

    @tf.function
    def f(x):
        with tf.init_scope():
            seen.append(tf.executing_eagerly())
        seen.append(tf.executing_eagerly())
        return x

    f(tf.constant(1))
    assert seen == [True, False]


def test_retracing_warning(caplog):
    @tf.function
    def f(x):
        return x

    with caplog.at_level(logging.WARNING, logger="tensorflow"):
        for i in range(5):
            f(i)
    assert len(caplog.records) == 1
    assert caplog.records[0].getMessage().startswith(
        f"5 out of the last 5 calls to {f.python_function!r} triggered tf.function retracing. "
        "Tracing is expensive")


def test_bad_arguments_and_leaks():
    @tf.function
    def f(x):
        return x

    with pytest.raises(TypeError, match="Argument `x` = {1, 2} has the unhashable type 'set'"):
        f({1, 2})
    with pytest.raises(TypeError, match="missing a required argument"):
        f()

    leak = []

    @tf.function
    def keep(x):
        leak.append(x + 1)
        return x

    keep(tf.constant(1))
    with pytest.raises(TypeError, match='being passed a "Graph" tensor'):
        leak[0] + 1

    @tf.function
    def use(x):
        return leak[0] + x

    with pytest.raises(TypeError, match="is out of scope and cannot be used here"):
        use(tf.constant(1))  # TF's class (the function guide catches TypeError)


def test_recursion_on_a_tensor_condition_is_explained():
    @tf.function
    def countdown(n):
        return countdown(n - 1)

    # TF 2.21 raises AutoGraph's StagingError around the RecursionError (issue #23)
    with pytest.raises(StagingError, match="RecursionError: .*keeps calling itself while it "
                                           "is being traced"):
        countdown(tf.constant(3))


def test_nested_functions_are_traced_into_the_same_graph():
    @tf.function
    def inner(x):
        return x * x

    @tf.function
    def outer(x):
        return inner(x) + 1

    assert int(outer(tf.constant(3))) == 10
    types = [op.type for op in outer.get_concrete_function(tf.constant(3)).graph.get_operations()]
    assert "Mul" in types and "AddV2" in types


def test_gradient_tape_inside_function():
    @tf.function
    def d_cube(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x * x * x
        return tape.gradient(y, x)

    assert float(d_cube(tf.constant(2.0))) == 12.0


def test_outputs_structures_and_python_values():
    @tf.function
    def f(x):
        return {"double": x * 2, "list": [x, 3], "none": None}

    out = f(tf.constant(1))
    assert int(out["double"]) == 2 and int(out["list"][0]) == 1
    # Python values come back as tensors, as in TensorFlow; None stays None
    assert isinstance(out["list"][1], tf.EagerTensor) and repr(out["list"][1]) == (
        "<tf.Tensor: shape=(), dtype=int32, numpy=3>")
    assert out["none"] is None


def test_methods_get_one_function_per_instance():
    class Counter:
        def __init__(self, k):
            self.k = k

        @tf.function
        def scale(self, x):
            return x * self.k

    a, b = Counter(2), Counter(3)
    assert int(a.scale(tf.constant(5))) == 10
    assert int(b.scale(tf.constant(5))) == 15


def test_name_scope_and_function_type():
    @tf.function
    def f(x):
        with tf.name_scope("layer"):
            y = tf.multiply(x, 2, name="scaled")
        return y

    cf = f.get_concrete_function(tf.constant(1))
    assert [op.name for op in cf.graph.get_operations()][:3] == ["x", "layer/scaled/y",
                                                                  "layer/scaled"]
    assert str(cf.function_type) == ("(x: TensorSpec(shape=(), dtype=tf.int32, name=None)) -> "
                                     "TensorSpec(shape=(), dtype=tf.int32, name=None)")
    assert f.python_function.__name__ == "f"
    with tf.name_scope("eager"):  # eagerly a no-op
        assert int(tf.constant(1) + 1) == 2


def test_names_given_to_kwargs_are_part_of_the_trace_key():
    # recorded from TF 2.21: h(a=t) -> 10.0, h(b=t) -> 1.0, traced twice
    @tf.function
    def h(**kwargs):
        return sum(kwargs.values()) if "a" in kwargs else kwargs["b"] * 0.1

    t = tf.constant(10.0)
    assert h(a=t).numpy() == 10.0
    assert h(b=t).numpy() == 1.0
    assert h.experimental_get_tracing_count() == 2
    assert h(a=t).numpy() == 10.0 and h.experimental_get_tracing_count() == 2


def test_jit_compile_says_there_is_no_xla():
    """TF 2.21 compiles with XLA and returns the same value (5.0, recorded once); here the
    graph runs as any other, and a warning says so instead of pretending."""
    with pytest.warns(UserWarning, match="no XLA compiler, so 'f' runs as an ordinary graph"):
        @tf.function(jit_compile=True)
        def f(x):
            return tf.reduce_sum(x * x)
    assert float(f(tf.constant([1.0, 2.0]))) == 5.0


def test_captured_variable_named_after_its_first_consumer():
    # recorded from TF 2.21: a captured variable's argument is named after the op that first
    # uses it (handson-ml3 12, cell 213 prints "assignaddvariableop_resource")
    a, b = tf.Variable(0), tf.Variable(0)

    @tf.function
    def f1():
        a.assign_add(1)
        b.assign_add(2)
        return a.assign_add(3, name="foo")

    @tf.function
    def f2():
        b.assign(1, name="setb")
        return a + 1

    @tf.function
    def f3():
        b.assign_sub(1)
        with tf.name_scope("outer"):
            return a * 2

    def names(f):
        return [x.name for x in f.get_concrete_function().function_def.signature.input_arg]
    assert names(f1) == ["assignaddvariableop_resource", "assignaddvariableop_1_resource"]
    assert names(f2) == ["setb_resource", "readvariableop_resource"]
    assert names(f3) == ["assignsubvariableop_resource", "outer_readvariableop_resource"]


def test_pretty_signature_of_a_function_without_parameters():
    # recorded from TF 2.21: nothing under "Input Parameters:", "None" under "Captures:"
    cf = tf.function(lambda: tf.constant(1)).get_concrete_function()
    assert cf.pretty_printed_signature() == (
        "Input Parameters:\nOutput Type:\n  TensorSpec(shape=(), dtype=tf.int32, name=None)\n"
        "Captures:\n  None")


def test_reads_and_captures_are_named_as_tf_names_them():
    # recorded from TF 2.21 (get_operations() names): a variable an operator is called on is
    # read first; one passed to an op is read in that op's scope; read_value() reads in a
    # scope Read, then an Identity; a captured placeholder is named after the op that first
    # uses it.  TF also ends each of these graphs with a NoOp (its control outputs), which
    # tfgraph_edu does not add.
    v, c = tf.Variable(2), tf.constant(3)

    def names(fn):
        return [op.name for op in tf.function(fn).get_concrete_function().graph.get_operations()]
    assert names(lambda: v * c) == ["ReadVariableOp/resource", "ReadVariableOp", "mul/y", "mul",
                                    "Identity"]
    assert names(lambda: c * v) == ["mul/x", "mul/ReadVariableOp/resource", "mul/ReadVariableOp",
                                    "mul", "Identity"]
    assert names(lambda: tf.identity(v) * c) == [
        "Identity/ReadVariableOp/resource", "Identity/ReadVariableOp", "Identity", "mul/y",
        "mul", "Identity_1"]

    def scoped():
        v.assign_add(1)
        with tf.name_scope("outer"):
            return v * c + v.read_value()
    assert names(scoped) == [
        "Const", "AssignAddVariableOp/resource", "AssignAddVariableOp", "outer/ReadVariableOp",
        "outer/mul/y", "outer/mul", "outer/Read/ReadVariableOp", "outer/Identity", "outer/add",
        "Identity"]
