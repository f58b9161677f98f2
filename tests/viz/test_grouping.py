"""Grouping as TensorFlow names it: gradient ops under the forward scope they differentiate,
loss and optimiser in scopes of their own, Keras layers as scopes; the gradient -> forward link.

The expected names were recorded once from TensorFlow 2.21 with Keras 3 (/work/venv-tf),
printing ``[op.name for op in f.get_concrete_function(...).graph.get_operations()]`` for the
programs below written with ``import tensorflow as tf``.
"""

from __future__ import annotations

import numpy as np

import tfgraph_edu as tf
from tfgraph_edu.viz import dot as vdot
from tfgraph_edu.viz.gradients import forward_ops

from .helpers import cluster_block, node_attrs


def _ops_program():
    @tf.function
    def f(x, y):
        with tf.GradientTape() as tape:
            tape.watch([x, y])
            with tf.name_scope("layer"):
                a = x * y
                b = tf.multiply(a, y)
                c = a + b
                d = tf.add(c, y)
                e = d / y
                g = tf.square(e)
                h = tf.matmul(tf.reshape(g, [1, 2]), tf.reshape(y, [2, 1]))
                k = tf.nn.relu(h) - tf.exp(h)
                s = tf.reduce_sum(k)
        return tape.gradient(s, [x, y])
    return f.get_concrete_function(tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0])).graph


# TF 2.21: the gradient ops of the program above whose op types our gradients make too
TF_GRADIENT_NAMES = {
    "gradient_tape/layer/sub/Neg",  # of the operator x - y: under the op's own name
    "gradient_tape/layer/ReluGrad",  # of tf.nn.relu: under the scope it was made in
    "gradient_tape/layer/MatMul/MatMul",
    "gradient_tape/layer/MatMul/MatMul_1",
    "gradient_tape/layer/truediv/RealDiv",
    "gradient_tape/layer/truediv/Neg",
    "gradient_tape/layer/truediv/RealDiv_1",
    "gradient_tape/layer/truediv/RealDiv_2",
    "gradient_tape/layer/mul/Mul",
    "gradient_tape/layer/mul/Mul_1",
}


def test_gradient_ops_are_named_under_the_forward_scope_as_tf_names_them():
    names = {op.name for op in _ops_program().operations}
    assert TF_GRADIENT_NAMES <= names
    # tf.multiply opens no scope of its own in TF: its gradients sit in the scope
    assert "gradient_tape/layer/Mul_1/Mul" not in names


def test_a_gradient_op_links_to_its_forward_op():
    graph = _ops_program()
    links = forward_ops(graph)
    assert links["gradient_tape/layer/MatMul/MatMul"] == "layer/MatMul"
    assert links["gradient_tape/layer/ReluGrad"] == "layer/Relu"
    assert links["gradient_tape/layer/truediv/Neg"] == "layer/truediv"
    assert "layer/MatMul" not in links  # forward ops have no link
    dot = vdot.graph_to_dot(graph, collapse=set())
    assert "tfg-grad" in node_attrs(dot, "gradient_tape/layer/ReluGrad")
    assert 'class="tfg-grad"' in cluster_block(dot, "cluster_gradient_tape/layer")


def test_forward_links_read_from_names_of_a_graph_without_a_record():
    graph = _ops_program()
    graph.gradient_of = {}  # as a graph read from a TensorFlow file
    links = forward_ops(graph)
    assert links["gradient_tape/layer/MatMul/MatMul_1"] == "layer/MatMul"
    assert links["gradient_tape/layer/ReluGrad"] == "layer/Relu"


# TF 2.21, an MLP train step (Sequential of Dense(8, relu) and Dense(1), MeanSquaredError,
# SGD(0.1), the model and optimiser built before tracing).  TF's layer scopes read
# sequential_1/dense_1 and sequential_1/dense_1_2 there (Keras 3 uses each name once more in
# the graph while building); ours read sequential/dense and sequential/dense_1: mapped below.
TF_MLP_NAMES = [
    "sequential_1/dense_1/MatMul", "sequential_1/dense_1/Relu", "sequential_1/dense_1_2/MatMul",
    "mean_squared_error/sub", "mean_squared_error/Square", "mean_squared_error/Mean",
    "gradient_tape/mean_squared_error/sub/Neg",
    "gradient_tape/sequential_1/dense_1_2/MatMul/MatMul",
    "gradient_tape/sequential_1/dense_1_2/MatMul/MatMul_1",
    "gradient_tape/sequential_1/dense_1/ReluGrad",
    "gradient_tape/sequential_1/dense_1/MatMul/MatMul",
    "sgd/AssignSubVariableOp", "sgd/AssignSubVariableOp_1", "sgd/AssignSubVariableOp_2",
    "sgd/AssignSubVariableOp_3",
]
_KERAS_BUILD_SUFFIX = {"sequential_1": "sequential", "dense_1": "dense", "dense_1_2": "dense_1"}


def _mlp_graph():
    tf.keras.backend.clear_session()  # names as in a fresh TF session (the recording's)
    model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(8, activation="relu"),
                                 tf.keras.layers.Dense(1)])
    loss_fn = tf.keras.losses.MeanSquaredError()
    opt = tf.keras.optimizers.SGD(0.1)

    @tf.function
    def train_step(x, y):
        with tf.GradientTape() as tape:
            loss = loss_fn(y, model(x, training=True))
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    x, y = np.zeros((2, 4), np.float32), np.zeros((2, 1), np.float32)
    return train_step.get_concrete_function(tf.constant(x), tf.constant(y)).graph


def test_an_mlp_train_step_has_tfs_scopes_for_layers_loss_gradients_and_optimiser():
    graph = _mlp_graph()
    names = {op.name for op in graph.operations}
    expected = {"/".join(_KERAS_BUILD_SUFFIX.get(p, p) for p in n.split("/"))
                for n in TF_MLP_NAMES}
    assert expected <= names, sorted(expected - names)
    links = forward_ops(graph)
    assert links["gradient_tape/sequential/dense/ReluGrad"] == "sequential/dense/Relu"
    assert links["gradient_tape/mean_squared_error/sub/Neg"] == "mean_squared_error/sub"
    dot = vdot.graph_to_dot(graph, collapse=set())
    grads = cluster_block(dot, "cluster_gradient_tape")
    # the gradient frame mirrors the forward scopes: sequential > dense inside it
    assert "cluster_gradient_tape/sequential/dense" in grads
    for scope in ("sequential/dense", "mean_squared_error", "sgd"):
        assert f'subgraph "cluster_{scope}"' in dot
