"""ConcreteFunction.function_def against TF 2.21: the text below is what TF 2.21 printed for
the same function (its generated name replaced by NAME)."""

from __future__ import annotations

import tfgraph_edu as tf

TF_TEXT = (
    'signature {\n'
    '  name: "NAME"\n'
    '  input_arg {\n'
    '    name: "x"\n'
    '    type: DT_FLOAT\n'
    '  }\n'
    '  output_arg {\n'
    '    name: "identity"\n'
    '    type: DT_FLOAT\n'
    '  }\n'
    '}\n'
    'node_def {\n'
    '  name: "mul/y"\n'
    '  op: "Const"\n'
    '  attr {\n'
    '    key: "value"\n'
    '    value {\n'
    '      tensor {\n'
    '        dtype: DT_FLOAT\n'
    '        tensor_shape {\n'
    '        }\n'
    '        float_val: 2\n'
    '      }\n'
    '    }\n'
    '  }\n'
    '  attr {\n'
    '    key: "dtype"\n'
    '    value {\n'
    '      type: DT_FLOAT\n'
    '    }\n'
    '  }\n'
    '}\n'
    'node_def {\n'
    '  name: "mul"\n'
    '  op: "Mul"\n'
    '  input: "x"\n'
    '  input: "mul/y:output:0"\n'
    '  attr {\n'
    '    key: "T"\n'
    '    value {\n'
    '      type: DT_FLOAT\n'
    '    }\n'
    '  }\n'
    '}\n'
    'node_def {\n'
    '  name: "Identity"\n'
    '  op: "Identity"\n'
    '  input: "mul:z:0"\n'
    '  attr {\n'
    '    key: "T"\n'
    '    value {\n'
    '      type: DT_FLOAT\n'
    '    }\n'
    '  }\n'
    '}\n'
    'ret {\n'
    '  key: "identity"\n'
    '  value: "Identity:output:0"\n'
    '}\n'
    'attr {\n'
    '  key: "_construction_context"\n'
    '  value {\n'
    '    s: "kEagerRuntime"\n'
    '  }\n'
    '}\n'
    'arg_attr {\n'
    '  key: 0\n'
    '  value {\n'
    '    attr {\n'
    '      key: "_user_specified_name"\n'
    '      value {\n'
    '        s: "x"\n'
    '      }\n'
    '    }\n'
    '    attr {\n'
    '      key: "_output_shapes"\n'
    '      value {\n'
    '        list {\n'
    '          shape {\n'
    '            dim {\n'
    '              size: 2\n'
    '            }\n'
    '          }\n'
    '        }\n'
    '      }\n'
    '    }\n'
    '  }\n'
    '}\n'
)


def test_function_def_text_and_fields():
    def g(x):
        return x * 2
    cf = tf.function(g, autograph=False).get_concrete_function(tf.TensorSpec([2], tf.float32))
    fd = cf.function_def
    assert str(fd).replace(fd.signature.name, "NAME") == TF_TEXT
    assert fd.signature.name == cf.name
    assert [a.name for a in fd.signature.input_arg] == ["x"]
    assert [a.name for a in fd.signature.output_arg] == ["identity"]
    assert fd.ret == {"identity": "Identity:output:0"}
    assert [n.op for n in fd.node_def] == ["Const", "Mul", "Identity"]


def test_an_input_arg_prints_as_tfs_argdef():
    @tf.function
    def plus_one(x):
        return x + 1.0

    arg = plus_one.get_concrete_function(tf.constant(1.0)).function_def.signature.input_arg[0]
    # recorded from TF 2.21: print(arg) and repr(arg) give the ArgDef's text form
    assert str(arg) == repr(arg) == 'name: "x"\ntype: DT_FLOAT\n'


def test_a_signature_prints_as_tfs_opdef():
    @tf.function
    def tf_cube(x):
        return x ** 3

    sig = tf_cube.get_concrete_function(tf.constant(2.0)).function_def.signature
    # recorded from TF 2.21: repr(concrete_function.function_def.signature)
    # (handson-ml3 chapter 12 printed a stand-in repr without an error)
    assert repr(sig).replace(sig.name, "NAME") == (
        'name: "NAME"\ninput_arg {\n  name: "x"\n  type: DT_FLOAT\n}\n'
        'output_arg {\n  name: "identity"\n  type: DT_FLOAT\n}\n')
    assert str(sig) == repr(sig)


def test_a_captured_variable_is_named_after_the_op_that_first_uses_it():
    counter = tf.Variable(0)

    @tf.function
    def increment(c=1):
        return counter.assign_add(c)

    v = tf.Variable(1.0)

    @tf.function
    def scale(x):
        v.assign(v * x)
        return x

    sig = increment.get_concrete_function().function_def.signature
    # recorded from TF 2.21: print(signature) (handson-ml3 12's increment) and the input
    # args of a function whose first use of the variable is a read
    assert str(sig).replace(sig.name, "NAME") == (
        'name: "NAME"\ninput_arg {\n  name: "assignaddvariableop_resource"\n'
        '  type: DT_RESOURCE\n}\noutput_arg {\n  name: "identity"\n  type: DT_INT32\n}\n'
        'is_stateful: true\ncontrol_output: "AssignAddVariableOp"\n'
        'control_output: "ReadVariableOp"\n')
    assert str(sig.input_arg[0]) == 'name: "assignaddvariableop_resource"\ntype: DT_RESOURCE\n'
    scale_sig = scale.get_concrete_function(tf.constant(1.0)).function_def.signature
    assert [a.name for a in scale_sig.input_arg] == ["x", "readvariableop_resource"]
    assert scale_sig.control_output == ["AssignVariableOp", "ReadVariableOp"]
    assert increment().numpy() == 1 and counter.numpy() == 1


def test_legacy_random_ops_are_no_control_outputs():
    @tf.function
    def noisy(x):
        return x + tf.random.uniform([2])

    sig = noisy.get_concrete_function(tf.constant(1.0)).function_def.signature
    # recorded from TF 2.21: stateful, no control_output (RandomUniform is left unordered)
    assert sig.is_stateful and sig.control_output == []
    assert "control_output" not in str(sig)


def test_a_const_from_a_python_default_prints_as_a_tensor():
    counter = tf.Variable(0)

    @tf.function
    def increment(c=1):
        return counter.assign_add(c)

    node = increment.get_concrete_function().graph.as_graph_def().node[0]
    # recorded from TF 2.21: print(graph.as_graph_def().node[0]) (the value was printed as
    # a string attr, s: "1", without an error)
    assert str(node) == (
        'name: "Const"\nop: "Const"\nattr {\n  key: "value"\n  value {\n    tensor {\n'
        '      dtype: DT_INT32\n      tensor_shape {\n      }\n      int_val: 1\n    }\n'
        '  }\n}\nattr {\n  key: "dtype"\n  value {\n    type: DT_INT32\n  }\n}\n')


def test_a_signature_lists_args_outputs_and_control_outputs():
    # recorded from TF 2.21
    v = tf.Variable(1)

    @tf.function
    def inc(a, b):
        v.assign_add(a)
        return a + b, tf.cast(a, tf.float32)

    sig = inc.get_concrete_function(tf.constant(1), tf.constant(2)).function_def.signature
    assert str(sig).replace(sig.name, "NAME") == (
        'name: "NAME"\ninput_arg {\n  name: "a"\n  type: DT_INT32\n}\n'
        'input_arg {\n  name: "b"\n  type: DT_INT32\n}\n'
        'input_arg {\n  name: "assignaddvariableop_resource"\n  type: DT_RESOURCE\n}\n'
        'output_arg {\n  name: "identity"\n  type: DT_INT32\n}\n'
        'output_arg {\n  name: "identity_1"\n  type: DT_FLOAT\n}\n'
        'is_stateful: true\ncontrol_output: "AssignAddVariableOp"\n')
    assert sig.control_output == ["AssignAddVariableOp"]


def test_control_outputs_are_the_stateful_ops_but_random_ones():
    # recorded from TF 2.21: sorted names; a legacy random op runs only when needed
    v = tf.Variable(1.0)

    def control(f, *args):
        return f.get_concrete_function(*args).function_def.signature.control_output

    def writes():
        v.assign(2.0)
        v.assign_add(1.0)
        tf.print(1)
        return v + 1

    def loop(x):
        for i in tf.range(3):  # noqa: B007
            v.assign_add(1.0)
        return x

    def scoped(x):
        with tf.name_scope("s"):
            v.assign_add(1.0, name="myadd")
        return x
    assert control(tf.function(lambda: v + 1)) == ["ReadVariableOp"]
    assert control(tf.function(writes)) == [
        "AssignAddVariableOp", "AssignVariableOp", "PrintV2", "ReadVariableOp"]
    assert control(tf.function(lambda: tf.random.uniform([2]))) == []
    assert control(tf.function(loop), tf.constant(1)) == ["while"]
    assert control(tf.function(scoped), tf.constant(1)) == ["s/myadd"]
    body = [fd for fd in tf.function(loop).get_concrete_function(tf.constant(1)).graph
            .as_graph_def().library.function if "body" in fd.signature.name][0]
    assert body.signature.control_output == ["while/AssignAddVariableOp"]
    assert 'control_ret {\n  key: "while/AssignAddVariableOp"\n' in str(body)
