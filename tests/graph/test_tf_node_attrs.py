"""A node's attrs as TF's NodeDef carries them: its type attrs from the inputs (``Tidx``,
``Tparams``, ``Tshape``...) and its registered defaults (``grad_a``, ``data_format``...),
derived from TF 2.21's op registry kept as data (``graph/tf_ops.json``).  Every expectation
below was recorded from real TF 2.21's ``as_graph_def()`` of the same function."""

from __future__ import annotations

import tfgraph_edu as tf
from tfgraph_edu.graph.printers import node_attrs

TF_2_21 = {
    "Sum": {"T": "float32", "Tidx": "int32", "keep_dims": False},
    "GatherV2": {"Taxis": "int32", "Tindices": "int32", "Tparams": "float32", "batch_dims": 0},
    "transpose": {"T": "float32", "Tperm": "int32"},
    "MatMul": {"T": "float32", "grad_a": False, "grad_b": False, "transpose_a": False,
               "transpose_b": False},
    "Reshape": {"T": "float32", "Tshape": "int32"},
    "Conv2D": {"T": "float32", "data_format": "NHWC", "dilations": [1, 1, 1, 1],
               "explicit_paddings": [], "padding": "SAME", "strides": [1, 1, 1, 1],
               "use_cudnn_on_gpu": True},
    "range": {"Tidx": "int32"},
    "ArgMax": {"T": "float32", "Tidx": "int32", "output_type": "int64"},
    "Tile": {"T": "float32", "Tmultiples": "int32"},
}


def _plain(v):
    if hasattr(v, "enum_name"):
        return v.name
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    return v


def test_node_attrs_are_tf_nodedefs():
    @tf.function
    def f(x):
        a = tf.reduce_sum(x, 1)
        b = tf.gather(x, [0, 1])
        c = tf.matmul(x, tf.transpose(x))
        d = tf.reshape(x, [-1])
        e = tf.nn.conv2d(tf.reshape(x, [1, 4, 6, 1]), tf.ones([2, 2, 1, 1]), 1, "SAME")
        return a, b, c, d, e, tf.range(3), tf.argmax(x, 1), tf.tile(x, [1, 2])

    graph = f.get_concrete_function(tf.TensorSpec([4, 6], tf.float32)).graph
    got = {op.name: {k: _plain(v) for k, v in node_attrs(op).items()}
           for op in graph.get_operations() if op.name in TF_2_21}
    assert got == TF_2_21


def test_the_graph_def_printout_carries_them():
    @tf.function
    def f(x):
        return tf.reduce_sum(x, 0)

    text = str(f.get_concrete_function(tf.TensorSpec([3], tf.float32)).graph.as_graph_def())
    assert 'key: "Tidx"\n    value {\n      type: DT_INT32' in text
