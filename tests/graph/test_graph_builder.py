"""Building graphs directly with the GraphBuilder interpreter (tf.function sits on top)."""

from __future__ import annotations

import numpy as np
import pytest

import tfgraph_edu as tf
from tfgraph_edu.graph.graph import Graph, OperatorNotAllowedInGraphError
from tfgraph_edu.ops import graph_ops
from tfgraph_edu.ops._core import bind, using_interpreter
from tfgraph_edu.tracing.graph_builder import GraphBuilder


@pytest.fixture
def built():
    g = Graph()
    b = GraphBuilder(g)
    with using_interpreter(b):
        yield g, b


def test_symbolic_tensor_formats_and_tf_names(built):
    g, b = built
    x = b.placeholder(tf.int32, [], "x")
    y = x + 1
    z = x + y
    w = tf.greater(z, 2)
    assert str(x) == 'Tensor("x:0", shape=(), dtype=int32)'
    assert repr(y) == "<tf.Tensor 'add:0' shape=() dtype=int32>"
    assert z.name == "add_1:0"
    assert w.op.inputs[1].op.name == "Greater/y"
    assert [op.name for op in g.get_operations()] == [
        "x", "add/y", "add", "add_1", "Greater/y", "Greater"]
    assert not tf.executing_eagerly()
    g.verify()


def test_name_scopes_and_explicit_names(built):
    g, b = built
    x = b.placeholder(tf.float32, [None, 3], "x")
    with g.name_scope("layer"):
        y = tf.multiply(x, 2.0, name="scaled")
        s = tf.reduce_sum(y)
    with g.name_scope("layer"):
        t = tf.identity(s)
    assert y.name == "layer/scaled:0" and s.op.name == "layer/Sum"
    assert t.op.name == "layer_1/Identity"
    assert y.shape.as_list() == [None, 3] and s.shape.as_list() == []


def test_eager_values_are_captured_and_variables_by_handle(built):
    g, b = built
    with using_interpreter(None):  # made eagerly, outside the graph
        c = tf.constant(3.0)
    v = tf.Variable(1.0)
    x = b.placeholder(tf.float32, [], "x")
    y = x * c + v
    assert [outer for outer, _ in g.captures][0] is c
    assert g.variables == [v]
    read = y.op.inputs[1].op
    # as TF: the variable is read in the scope of the op it feeds
    assert read.type == "ReadVariableOp" and read.inputs[0].op.name == "add/ReadVariableOp/resource"


def test_graph_errors_name_the_node_and_shapes(built):
    g, b = built
    x = b.placeholder(tf.int32, [3], "x")
    with pytest.raises(ValueError, match=r"Incompatible shapes: \[3\] vs. \[4\] for "
                                         r"'\{\{node add\}\} = AddV2\[T=DT_INT32\]\(x, Const\)' "
                                         r"with input shapes: \[3\], \[4\]."):
        x + tf.constant([1, 2, 3, 4])
    with pytest.raises(TypeError, match="Input 'y' of 'AddV2' Op has type float32 that does not "
                                        "match type int32 of argument 'x'."):
        x + tf.constant(1.0)
    with pytest.raises(OperatorNotAllowedInGraphError, match="as a Python `bool`"):
        bool(x > 0)
    with pytest.raises(AttributeError, match="'SymbolicTensor' object has no attribute 'numpy'"):
        x.numpy()  # as in TensorFlow


def test_stateful_ops_are_chained_in_program_order(built):
    g, b = built
    v = tf.Variable(1.0)
    v.assign(2.0)
    r = v.read_value()  # as TF builds it: Read/ReadVariableOp, then an Identity
    assert r.op.type == "Identity" and r.op.inputs[0].op.name == "Read/ReadVariableOp"
    assign = next(op for op in g.get_operations() if op.type == "AssignVariableOp")
    assert assign in r.op.inputs[0].op.control_inputs


def test_as_graph_def_prints_tensorflow_text_format(built):
    g, b = built
    x = b.placeholder(tf.int32, [], "x")
    _ = x * 2
    # print(g.as_graph_def()) in TF 2.21 (a tf.Graph with tf.compat.v1.placeholder), recorded
    # once: attrs in the printout's order, producer 2474, no library
    assert str(g.as_graph_def()) == """\
node {
  name: "x"
  op: "Placeholder"
  attr {
    key: "shape"
    value {
      shape {
      }
    }
  }
  attr {
    key: "dtype"
    value {
      type: DT_INT32
    }
  }
}
node {
  name: "mul/y"
  op: "Const"
  attr {
    key: "value"
    value {
      tensor {
        dtype: DT_INT32
        tensor_shape {
        }
        int_val: 2
      }
    }
  }
  attr {
    key: "dtype"
    value {
      type: DT_INT32
    }
  }
}
node {
  name: "mul"
  op: "Mul"
  input: "x"
  input: "mul/y"
  attr {
    key: "T"
    value {
      type: DT_INT32
    }
  }
}
versions {
  producer: 2474
}
"""


def test_verify_rejects_malformed_graphs(built):
    g, b = built
    x = b.placeholder(tf.float32, [], "x")
    y = x + 1.0
    other = Graph()
    op = g.get_operation_by_name("add")
    op.inputs[0] = GraphBuilder(other).placeholder(tf.float32, [], "stray")
    with pytest.raises(ValueError, match="from another graph"):
        g.verify()
    op.inputs[0] = x
    g.verify()
    g.operations.reverse()
    with pytest.raises(ValueError, match="not defined before use"):
        g.verify()
    assert y.op is op


def test_noop_and_lookup(built):
    g, b = built
    n = bind(graph_ops.NoOp, ())
    assert n.type == "NoOp" and g.get_operation_by_name("NoOp") is n
    with pytest.raises(KeyError, match="refers to an Operation not in the graph"):
        g.get_operation_by_name("nope")
    with pytest.raises(ValueError, match="Tensor names must be of the form"):
        g.get_tensor_by_name("NoOp")


def test_python_numbers_next_to_a_tensor_become_consts_of_its_dtype():
    """A number's Const takes the other input's dtype, keeps the sign of a zero and NaN, and
    the same number next to tensors of other dtypes gives separate values."""
    @tf.function(autograph=False)
    def f(x, n):
        return [x * 0.0, x * -0.0, x + float("nan"), x * 3, n + 3, 3 - n, x * 1.5, x * 1.5]

    x, n = tf.constant(2.0), tf.constant(4, tf.int64)
    got = [t.numpy() for t in f(x, n)]
    assert [np.signbit(v) for v in got[:2]] == [False, True]
    assert np.isnan(got[2])
    assert [(v.item(), v.dtype) for v in got[3:]] == [
        (6.0, np.float32), (7, np.int64), (-1, np.int64), (3.0, np.float32), (3.0, np.float32)]
    consts = [op.get_attr("value") for op in f.get_concrete_function(x, n).graph.get_operations()
              if op.type == "Const"]
    assert [(c.item(), c.dtype) for c in consts if not np.isnan(c)] == [
        (0.0, np.float32), (-0.0, np.float32), (3.0, np.float32), (3, np.int64), (3, np.int64),
        (1.5, np.float32), (1.5, np.float32)]
    # TF 2.21's words in a graph (eagerly it says "Cannot convert 1.5 to EagerTensor ...")
    with pytest.raises(TypeError, match="Expected int64 passed to parameter 'y' of op 'Mul', got "
                       "1.5 of type 'float' instead. Error: Expected int64, but got 1.5 of type "
                       "'float'.$"):
        tf.function(lambda n: n * 1.5)(n)
    with pytest.raises(TypeError, match="Cannot convert 1.5 to EagerTensor of dtype int64"):
        n * 1.5
