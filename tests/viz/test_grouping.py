"""Grouping: gradient ops named as TensorFlow names them, and drawn one step further than the
names (and TensorBoard) go: inside the forward scope of the op they differentiate, in a
"gradient" frame; loss and optimiser in scopes of their own, Keras layers as scopes; the
gradient -> forward link.

The expected names were recorded once from TensorFlow 2.21 with Keras 3 (/work/venv-tf),
printing ``[op.name for op in f.get_concrete_function(...).graph.get_operations()]`` for the
programs below written with ``import tensorflow as tf``.
"""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

import tfgraph_edu as tf
from tfgraph_edu import labels
from tfgraph_edu.viz import dot as vdot
from tfgraph_edu.viz import scopes as vscopes
from tfgraph_edu.viz.gradients import forward_ops

from .helpers import cluster_block, clusters_of_nodes, has_node, node_attrs


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
    # drawn in the gradient frame inside the forward op's scope, not in a copy of the scope
    frame = cluster_block(dot, "cluster_layer/gradient_tape")
    assert 'class="tfg-grad"' in frame
    assert '"gradient_tape/layer/ReluGrad" [' in frame
    assert "cluster_layer/gradient_tape" in cluster_block(dot, "cluster_layer")
    assert 'subgraph "cluster_gradient_tape/layer"' not in dot


def test_forward_links_read_from_names_of_a_graph_without_a_record():
    graph = _ops_program()
    graph.gradient_of = {}  # as a graph read from a TensorFlow file
    links = forward_ops(graph)
    assert links["gradient_tape/layer/MatMul/MatMul_1"] == "layer/MatMul"
    assert links["gradient_tape/layer/ReluGrad"] == "layer/Relu"
    # and the drawing places them by those links too
    where = clusters_of_nodes(vdot.graph_to_dot(graph, collapse=set()))
    assert where["gradient_tape/layer/ReluGrad"] == "cluster_layer/gradient_tape"
    assert where["gradient_tape/layer/MatMul/MatMul_1"] == "cluster_layer/gradient_tape"


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
    for scope in ("sequential/dense", "sequential/dense_1", "mean_squared_error", "sgd"):
        assert f'subgraph "cluster_{scope}"' in dot
    # each gradient op of TF's list sits in the gradient frame of its forward op's scope
    where = clusters_of_nodes(dot)
    for name in expected:
        if name.startswith("gradient_tape/"):
            home = "/".join(name.split("/")[1:3]) if "sequential" in name else name.split("/")[1]
            assert where[name] == f"cluster_{home}/gradient_tape", (name, where[name])


def _gradient_clusters(dot: str) -> dict[str, str]:
    return {n: c for n, c in clusters_of_nodes(dot).items() if n.startswith("gradient_tape/")}


def test_every_gradient_op_of_an_mlp_step_is_drawn_inside_its_forward_scope():
    graph = _mlp_graph()
    links = forward_ops(graph)
    dot = vdot.graph_to_dot(graph, collapse=set())
    grads = _gradient_clusters(dot)
    assert len(grads) >= 20  # the step's whole backward pass is drawn
    for name, cluster in grads.items():
        forward = links.get(name)
        if name == "gradient_tape/ones_like":  # the seed: with the loss's gradients it starts
            assert forward is None and cluster == "cluster_mean_squared_error/gradient_tape"
            continue
        # by the link, not the name: the frame in the cluster of the forward op's scope
        assert "/" in forward, (name, forward)  # every forward op of this step has a scope
        assert cluster == f"cluster_{forward.rsplit('/', 1)[0]}/gradient_tape", (name, cluster)
    assert "cluster_gradient_tape" not in dot  # no gradient op left outside a forward scope
    # TF's real names stay the node ids (search finds them), drawn shorter inside the frame
    assert has_node(dot, "gradient_tape/sequential/dense/MatMul/MatMul")
    assert 'label="MatMul/MatMul' in node_attrs(dot, "gradient_tape/sequential/dense/MatMul/MatMul")
    titles = vscopes.node_ids(graph)
    assert titles["gradient_tape/sequential/dense/MatMul/MatMul"] == \
        "gradient_tape/sequential/dense/MatMul/MatMul"


def test_folding_a_layer_folds_its_gradients_with_it():
    graph = _mlp_graph()
    drawn: dict = {}
    dot = vdot.graph_to_dot(graph, collapse={"sequential/dense"}, drawn=drawn)
    assert drawn["gradient_tape/sequential/dense/ReluGrad"] == "sequential/dense"
    assert drawn["sequential/dense/MatMul"] == "sequential/dense"
    assert not has_node(dot, "gradient_tape/sequential/dense/ReluGrad")
    assert has_node(dot, "gradient_tape/sequential/dense_1/MatMul/MatMul")  # the other layer
    # the box says how many of its ops are the layer's gradient: ReluGrad, TF's add/Shape
    # and add/Shape_1 constants, add/Sum and its reduction_indices, add/Reshape, MatMul/MatMul
    # (of 5 forward ops and the placeholders of its 2 variables, named as TF names them: in
    # the layer's scope)
    assert 'label="sequential/dense (14 ops)\\n7 of them for the gradient"' in \
        node_attrs(dot, "sequential/dense"), node_attrs(dot, "sequential/dense")
    # the gradient frame alone folds into a box inside its layer, saying what it holds
    drawn = {}
    dot = vdot.graph_to_dot(graph, collapse={"sequential/dense/gradient_tape"}, drawn=drawn)
    assert drawn["gradient_tape/sequential/dense/ReluGrad"] == "sequential/dense/gradient_tape"
    box = node_attrs(dot, "sequential/dense/gradient_tape")
    assert "tfg-box" in box and "tfg-grad" in box and 'label="gradient (' in box
    assert clusters_of_nodes(dot)["sequential/dense/gradient_tape"] == "cluster_sequential/dense"
    ids = vscopes.cluster_ids(graph)
    assert ids["cluster_sequential/dense/gradient_tape"] == "sequential/dense/gradient_tape"


@pytest.mark.parametrize("lang", ["zh-Hant", "zh-Hans"])
def test_the_gradient_frame_is_named_in_the_learners_language(lang):
    dot = vdot.graph_to_dot(_mlp_graph(), collapse=set(), lang=lang)
    frame = cluster_block(dot, "cluster_sequential/dense/gradient_tape")
    assert f'label="{labels.label("svg_gradient", lang)}"' in frame
    assert labels.label("svg_gradient", lang) == "梯度"  # GLOSSARY.md: gradient


def _linreg_graph(scoped: bool):
    w = tf.Variable(tf.zeros([3, 1]), name="w")
    b = tf.Variable(0.0, name="b")

    @tf.function
    def step(x, y):
        with tf.GradientTape() as tape:
            if scoped:
                with tf.name_scope("model"):
                    pred = tf.matmul(x, w) + b
            else:
                pred = tf.matmul(x, w) + b
            loss = tf.reduce_mean(tf.square(pred - y))
        dw, db = tape.gradient(loss, [w, b])
        w.assign_sub(0.1 * dw)
        b.assign_sub(0.1 * db)
        return loss

    x, y = np.ones((8, 3), np.float32), np.ones((8, 1), np.float32)
    return step.get_concrete_function(tf.constant(x), tf.constant(y)).graph


def test_a_linear_regression_step_without_scopes_keeps_one_gradient_frame():
    dot = vdot.graph_to_dot(_linreg_graph(False), collapse=set())
    grads = _gradient_clusters(dot)
    assert "gradient_tape/MatMul/MatMul" in grads  # TF 2.21's name for the matmul's gradient
    assert set(grads.values()) == {"cluster_gradient_tape"}, grads
    assert "/gradient_tape\"" not in dot  # no frame inside another scope


# TF 2.21 names these gradient ops of the scoped step (printed once from TF, as above)
TF_LINREG_MODEL_GRADIENTS = ["gradient_tape/model/add/Sum", "gradient_tape/model/add/Reshape",
                             "gradient_tape/model/MatMul/MatMul"]


def test_a_linear_regression_step_with_a_scope_draws_its_gradients_in_it():
    graph = _linreg_graph(True)
    links = forward_ops(graph)
    grads = _gradient_clusters(vdot.graph_to_dot(graph, collapse=set()))
    for name in TF_LINREG_MODEL_GRADIENTS:
        assert grads[name] == "cluster_model/gradient_tape", (name, grads.get(name))
    assert grads["gradient_tape/sub/Neg"] == "cluster_gradient_tape"  # of the loss's sub
    for name, cluster in grads.items():  # the loss's gradients: its ops are in no scope
        home = links.get(name, "").rpartition("/")[0]
        assert cluster == (f"cluster_{home}/gradient_tape" if home else "cluster_gradient_tape")
    assert sum(c == "cluster_model/gradient_tape" for c in grads.values()) >= 2


def test_a_graph_written_by_tensorflow_draws_its_gradients_in_their_forward_scopes():
    pytest.importorskip("tensorboard", reason="the tf-files extra is not installed")
    from tfgraph_edu.viz import open_graph

    fixtures = os.path.join(os.path.dirname(__file__), "..", "fixtures", "real_tf")
    with open(os.path.join(fixtures, "facts.json")) as f:
        tf_names = json.load(f)["mlp_step"]["gradient_ops"]  # TF 2.21's, make_fixtures.py
    opened = open_graph(os.path.join(fixtures, "mlp_step.pb"))
    where = clusters_of_nodes(vdot.graph_to_dot(opened.graph, collapse=set()))
    assert len(tf_names) == 20
    for name in tf_names:  # no record in a file: placed by the names
        home = where[name].removeprefix("cluster_").removesuffix("/gradient_tape")
        assert where[name].endswith("/gradient_tape") and name.startswith(
            f"gradient_tape/{home}/"), (name, where[name])
    assert where["gradient_tape/sequential_1/dense_1/BiasAdd/BiasAddGrad"] == \
        "cluster_sequential_1/dense_1/gradient_tape"
    assert where["gradient_tape/sparse_categorical_crossentropy/Tile"] == \
        "cluster_sparse_categorical_crossentropy/gradient_tape"


def test_like_named_gradient_ops_fold_into_a_series_inside_their_frame():
    @tf.function(autograph=False)
    def f(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x
            with tf.name_scope("layer"):
                for _ in range(12):
                    y = tf.multiply(y, x)
        return tape.gradient(y, x)

    graph = f.get_concrete_function(tf.constant(1.0)).graph
    # gradient_tape/layer/Mul … Mul_23 (two per tf.multiply), drawn in layer's gradient frame
    assert "layer/gradient_tape/Mul, Mul_[1-23]" in vscopes.fold_members(graph)
    dot = vdot.graph_to_dot(graph, collapse={"layer/gradient_tape/Mul, Mul_[1-23]"})
    assert clusters_of_nodes(dot)["layer/gradient_tape/Mul, Mul_[1-23]"] == \
        "cluster_layer/gradient_tape"
