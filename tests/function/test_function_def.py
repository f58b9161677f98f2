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
