"""graph_to_dot: node kinds, edges, scopes, control-flow clusters, collapsing, highlights."""

from __future__ import annotations

import re

import pytest

import tfgraph_edu as tf
from tfgraph_edu import viz
from tfgraph_edu.viz import dot as vdot
from tfgraph_edu.viz.dot import KINDS, graph_to_dot

from .helpers import cluster_block, edges, has_node, node_attrs, rename_parts

needs_dot = pytest.mark.skipif(not viz.dot_available(), reason="Graphviz's dot is not installed")


def _fill(kind: str) -> str:
    return f'fillcolor="{KINDS[kind][1]}"'


def _shape(kind: str) -> str:
    return f"shape={KINDS[kind][0]} "


@pytest.fixture(scope="module")
def example():
    """The example of the brief: a variable, a scope, an If, a While and a print."""
    v = tf.Variable(1.0)
    c = tf.constant([3.0, 4.0])

    @tf.function
    def f(x):
        with tf.name_scope("layer"):
            y = tf.nn.relu(x * 2.0 + v)
        if tf.reduce_sum(y) > 0:
            y = y * 2.0
        i = tf.constant(0)
        while i < 3:
            i += 1
            y = y + c
        tf.print(y)
        return y

    cf = f.get_concrete_function(tf.constant([1.0, 2.0]))
    return cf, graph_to_dot(cf.graph, collapse=set())


def test_each_kind_of_op_has_its_own_shape_and_colour(example):
    _, dot = example
    # (the captured c is "while/input_4" in TF 2.21 too: input 4 of the While)
    expect = {"x": "input", "layer/add/ReadVariableOp/resource": "variable",
              "while/input_4": "captured", "layer/mul/y": "constant", "layer/mul": "op",
              "layer/Relu": "op", "layer/add/ReadVariableOp": "state", "cond": "control_flow",
              "while": "control_flow", "PrintV2": "io", "StringFormat": "io"}
    for name, kind in expect.items():
        attrs = node_attrs(dot, name)
        assert _shape(kind) in attrs and _fill(kind) in attrs, (name, kind, attrs)
    assert len({(shape, fill) for shape, fill, _, _ in KINDS.values()}) == len(KINDS)


def test_one_label_per_node_with_the_type_only_when_the_name_does_not_say_it(example):
    _, dot = example
    # inside the cluster "layer", the node says "mul": its cluster says the rest
    assert node_attrs(dot, "layer/mul").startswith('label="mul" ')
    assert node_attrs(dot, "Sum").startswith('label="Sum" ')
    assert node_attrs(dot, "cond").startswith('label="cond\\nStatelessIf"')
    assert node_attrs(dot, "Identity").startswith('label="Identity" ')
    # a constant is a small box showing its value
    const = node_attrs(dot, "layer/mul/y")
    assert const.startswith('label="2.0" ') and "fontsize=8" in const
    assert node_attrs(dot, "x").startswith('label="x" ')


def test_one_font_family_for_nodes_edges_and_clusters(example):
    _, dot = example
    fonts = set(re.findall(r'fontname="([^"]*)"', dot))
    assert fonts == {vdot.FONT}
    assert f'graph [fontname="{vdot.FONT}"' in dot  # cluster titles too


def test_long_names_are_shortened_in_labels_but_kept_in_ids():
    long = "n" * 20_000

    @tf.function
    def f(x):
        return tf.multiply(x, 2.0, name=long)

    graph = f.get_concrete_function(tf.constant(1.0)).graph
    dot = graph_to_dot(graph)
    attrs = node_attrs(dot, long)  # the id is the whole name
    label = re.match(r'label="([^"]*)"', attrs).group(1)
    assert len(label) < vdot.NAME_LIMIT + 10 and label.startswith("nnn") and "…" in label


def test_inputs_from_outside_are_drawn_as_such(example):
    _, dot = example
    variable = node_attrs(dot, "layer/add/ReadVariableOp/resource")
    # a variable is drawn under its own name, not its placeholder's
    assert variable.startswith('label="Variable\\nvariable" ') and "dashed" in variable
    captured = node_attrs(dot, "while/input_4")
    assert "shape=invhouse" in captured and "captured float32 (2,)" in captured
    assert "dashed" in captured
    # inside a branch, the placeholder of a value of the outer graph gets an edge from it; it
    # is a port named as the learner named the value (y), not as the engine named it
    # (the placeholder is named in the scope of the op reading it, as TF names it: mul/)
    port = node_attrs(dot, "cond/then/mul/layer_relu")
    assert port.startswith('label="y" ') and "tfg-port tfg-input" in port
    assert ("layer/Relu", "cond/then/mul/layer_relu") in [e[:2] for e in edges(dot)]


def test_a_variable_passed_as_an_argument_is_a_variable_input():
    @tf.function
    def f(x, var):
        var.assign_add(x)
        tf.print(x)
        return var.read_value() * x

    graph = f.get_concrete_function(tf.constant(1.0), tf.Variable(1.0)).graph
    dot = graph_to_dot(graph)
    attrs = node_attrs(dot, "var")
    assert _shape("variable") in attrs and "variable (argument)" in attrs
    assert _fill("state") in node_attrs(dot, "AssignAddVariableOp")
    # the automatic ordering of stateful ops shows as dashed control edges
    control = [(a, b) for a, b, attrs in edges(dot) if "style=dashed" in attrs]
    assert ("AssignAddVariableOp", "PrintV2") in control
    assert ("PrintV2", "Read/ReadVariableOp") in control  # read_value() reads in scope Read
    data = {(a, b): attrs for a, b, attrs in edges(dot) if "style" not in attrs}
    assert data[("var", "AssignAddVariableOp")] == 'xlabel="resource ()" class="tfg-dtype"'


def test_data_edges_carry_dtype_and_shape(example):
    _, dot = example
    found = {(a, b): attrs for a, b, attrs in edges(dot)}
    assert found[("x", "layer/mul")] == 'xlabel="float32 (2,)" class="tfg-dtype"'
    assert found[("Const", "Sum")] == "arrowsize=0.5"  # a constant: its value
    assert found[("Greater", "cond")] == 'xlabel="bool ()" class="tfg-dtype"'
    assert found[("StringFormat", "PrintV2")] == 'xlabel="string ()" class="tfg-dtype"'
    # an op with several outputs: the output index comes first
    # (y is output 2 of the While, after TF's loop counter and limit, before i, which only
    # the iterations use: "while:2" in TF 2.21)
    assert found[("while", "Identity")] == 'xlabel=":2 float32 (2,)" class="tfg-dtype"'
    assert found[("layer/add/ReadVariableOp", "PrintV2")].startswith("style=dashed")


def test_an_input_used_twice_draws_two_edges():
    graph = tf.function(lambda x: x * x).get_concrete_function(tf.constant(2.0)).graph
    assert [e[:2] for e in edges(graph_to_dot(graph))].count(("x", "mul")) == 2


def test_scopes_are_nested_clusters():
    @tf.function
    def f(x):
        with tf.name_scope("outer"):
            with tf.name_scope("inner"):  # "outer" has no ops of its own
                x = x + 1.0
            with tf.name_scope("other"):
                x = x * 2.0
        return x - 1.0

    dot = graph_to_dot(f.get_concrete_function(tf.constant(1.0)).graph)
    outer = cluster_block(dot, "cluster_outer")
    inner = cluster_block(dot, "cluster_outer/inner")
    assert inner in outer and cluster_block(dot, "cluster_outer/other") in outer
    assert 'label="inner"' in inner and has_node(inner, "outer/inner/add")
    # an op's own constant ("add/y") stays beside its op, not in a cluster of its own
    assert "cluster_outer/inner/add" not in dot and has_node(inner, "outer/inner/add/y")
    assert "cluster_sub" not in dot and not has_node(outer, "sub")
    # the scope tree: every cluster is opened and closed once, nested in order
    assert dot.count("subgraph ") == 3 and dot.count("{") == dot.count("}")


def test_if_and_while_are_clusters_holding_their_bodies_above_the_op(example):
    cf, dot = example
    frame = cluster_block(dot, "cluster_cond")
    then = cluster_block(dot, "cluster_cond/then")
    other = cluster_block(dot, "cluster_cond/else")
    assert has_node(frame, "cond") and then in frame and other in frame
    assert 'label="cond · StatelessIf"' in frame
    assert re.search(r'label="then: cond_true_\d+"', then)
    assert has_node(then, "cond/then/mul") and has_node(then, "cond/then/mul/y")
    assert not has_node(other, "cond/then/mul")
    loop = cluster_block(dot, "cluster_while")
    assert re.search(r'label="cond: while_cond_\d+"', cluster_block(dot, "cluster_while/cond"))
    body = cluster_block(dot, "cluster_while/body")
    assert body in loop and has_node(body, "while/body/add_1") and has_node(loop, "while")
    found = {(a, b): attrs for a, b, attrs in edges(dot)}
    assert (found[("while/body/add_1", "while/body/Identity_2")]
            == 'xlabel="float32 (2,)" class="tfg-dtype"')


def test_outer_tensors_flow_into_the_body_inputs_and_body_outputs_into_the_op():
    @tf.function
    def f(x):
        if tf.reduce_sum(x) > 0:
            x = x * 2.0
        for i in tf.range(3):
            x = x + tf.cast(i, tf.float32)
        return x

    graph = f.get_concrete_function(tf.constant([1.0, 2.0])).graph
    dot = graph_to_dot(graph)
    found = {(a, b): attrs for a, b, attrs in edges(dot)}
    cond = graph.get_operation_by_name("cond")
    loop = graph.get_operation_by_name("while")
    # the If: its condition goes to the op's node, x into both branches' placeholders
    assert ("Greater", "cond") in found and ("x", "cond") not in found
    then, other = cond.get_attr("then_branch"), cond.get_attr("else_branch")
    # (a body's nodes are named under their op, "cond/mul" as in TF; drawn in its cluster,
    # their ids leave that prefix out: "cond/then/mul")
    for label, fn in (("then", then), ("else", other)):
        inside = f"cond/{label}/{fn.inputs[0].op.name.removeprefix('cond/')}"
        assert found[("x", inside)] == 'xlabel="float32 (2,)" class="tfg-dtype"'
        out = f"cond/{label}/{fn.outputs[0].op.name.removeprefix('cond/')}"
        assert found[(out, "cond")] == 'xlabel="float32 (2,)" class="tfg-dtype"'
    # the While: each loop input feeds cond and body; body outputs come back to the op
    body, test = loop.get_attr("body"), loop.get_attr("cond")

    def rel(t):
        return t.op.name.removeprefix("while/")
    n_loop = len(body.loop_var_names)
    assert n_loop == 4  # TF's loop counter and limit (not drawn), AutoGraph's counter and x
    for i, t in enumerate(loop.inputs):
        for label, fn in (("body", body), ("cond", test)):
            if i < 2:
                assert not any(a == t.op.name or b.endswith(rel(fn.inputs[i]))
                               for a, b in found), (t.op.name, label)
                continue
            # loop variables feed both; a captured value only the graph that uses it (the
            # other one's input for it, "unused_capture", is not drawn)
            used = i < n_loop or any(fn.inputs[i] is u for op in fn.graph.operations
                                     for u in op.inputs)
            edge = (t.op.name, f"while/{label}/{rel(fn.inputs[i])}")
            assert (edge in found) == used, edge
    assert (f"while/body/{rel(body.outputs[3])}", "while") in found
    assert "style=dashed" in found[(f"while/cond/{rel(test.outputs[0])}", "while")]
    assert not any(b == "while" and a in {t.op.name for t in loop.inputs} for a, b in found)
    # collapsed, a body is one box that the outer tensors flow into and out of
    boxed = graph_to_dot(graph, collapse={"while/body"})
    pairs = [e[:2] for e in edges(boxed)]
    outer = {t.op.name for t in loop.inputs}
    assert any(a in outer and b == "while/body" for a, b in pairs)
    assert ("while/body", "while") in pairs
    # and a whole control-flow op collapses to its node, with its inputs as plain edges
    whole = graph_to_dot(graph, collapse={"while"})
    assert "cluster_while" not in whole and "peripheries=2" in node_attrs(whole, "while")
    assert any(a in outer and b == "while" for a, b in [e[:2] for e in edges(whole)])
    assert vdot.cluster_ids(graph)["cluster_while"] == "while"


def test_nested_control_flow_draws_nested_bodies():
    @tf.function
    def f(x):
        for _ in tf.range(3):
            if x > 0:
                x = x - 1.0
            else:
                x = x + 1.0
        return x

    graph = f.get_concrete_function(tf.constant(5.0)).graph
    loop = next(op for op in graph.operations if "While" in op.type)
    inner_if = next(op for op in loop.get_attr("body").graph.operations if "If" in op.type)
    assert inner_if.name == f"{loop.name}/cond"  # TF's name; drawn as "cond" in the body
    inner = "cond"
    dot = graph_to_dot(graph)
    body = cluster_block(dot, f"cluster_{loop.name}/body")
    branch = f"cluster_{loop.name}/body/{inner}/then"
    assert cluster_block(dot, branch) in body
    # and the nested bodies can be collapsed by their path
    folded = graph_to_dot(graph, collapse={f"{loop.name}/body/{inner}/then"})
    assert "subgraph " + vdot.quote(branch) not in folded
    assert "shape=folder" in node_attrs(folded, f"{loop.name}/body/{inner}/then")
    ids = vdot.cluster_ids(graph)
    assert ids[branch] == f"{loop.name}/body/{inner}/then"


def test_collapse_draws_a_scope_as_one_box_and_reroutes_edges():
    @tf.function
    def f(x):
        with tf.name_scope("encoder"):
            with tf.name_scope("dense"):
                x = x * 2.0 + 1.0
            x = tf.nn.relu(x)
        return x - 1.0

    graph = f.get_concrete_function(tf.constant([1.0, 2.0])).graph
    dot = graph_to_dot(graph, collapse={"encoder"})
    assert not any(has_node(dot, op.name) for op in graph.operations if "encoder/" in op.name)
    assert node_attrs(dot, "encoder").startswith('label="encoder (5 ops)" shape=folder')
    assert "cluster_encoder" not in dot
    found = {(a, b): attrs for a, b, attrs in edges(dot)}
    assert found[("x", "encoder")] == 'xlabel="float32 (2,)" class="tfg-dtype"'
    assert found[("encoder", "sub")] == 'xlabel="float32 (2,)" class="tfg-dtype"'
    assert not any(a == b for a, b, _ in edges(dot))
    # a nested scope collapses inside its parent's cluster
    dot = graph_to_dot(graph, collapse={"encoder/dense"})
    assert has_node(cluster_block(dot, "cluster_encoder"), "encoder/dense")
    assert ("encoder/dense", "encoder/Relu") in [e[:2] for e in edges(dot)]
    assert "encoder/dense (4 ops)" in node_attrs(dot, "encoder/dense")
    # and a body of control flow collapses to a box joined to its op
    g2 = tf.function(lambda x: tf.cond(x > 0, lambda: x * 2.0, lambda: x)).get_concrete_function(
        tf.constant(1.0)).graph
    dot = graph_to_dot(g2, collapse={"cond/then"})
    assert "cluster_cond/then" not in dot and "cluster_cond/else" in dot
    assert re.search(r'label="then: cond_true_\d+\\n\d ops" shape=folder',
                     node_attrs(dot, "cond/then"))


def test_big_graphs_start_with_top_level_scopes_collapsed():
    @tf.function
    def big(x):
        with tf.name_scope("encoder"):
            for _ in range(30):
                x = x * 1.5 + 1.0
        with tf.name_scope("decoder"):
            for _ in range(30):
                with tf.name_scope("step"):
                    x = x * 0.5 - 1.0
        return x

    graph = big.get_concrete_function(tf.constant(1.0)).graph
    assert len(graph.operations) > vdot.COLLAPSE_ABOVE
    assert vdot.top_scopes(graph) == {"encoder", "decoder"}
    dot = graph_to_dot(graph)
    assert "encoder (120 ops)" in dot and "decoder (120 ops)" in dot
    assert dot.count("shape=folder") == 2 and "subgraph" not in dot
    assert ("encoder", "decoder") in [e[:2] for e in edges(dot)]
    assert ("decoder", "Identity") in [e[:2] for e in edges(dot)]
    # an explicit collapse (even an empty one) wins over the default
    assert "shape=folder" not in graph_to_dot(graph, collapse=set(), paged=False)
    partly = graph_to_dot(graph, collapse={"encoder"})
    assert "cluster_decoder/step_29" in partly and "encoder (120 ops)" in partly


def test_small_graphs_with_a_big_loop_body_start_with_the_body_collapsed():
    @tf.function(autograph=False)
    def f(x):
        def body(i, x):
            for _ in range(60):
                x = x * 1.5 + 1.0
            return i + 1, x
        return tf.while_loop(lambda i, x: i < 3, body, [tf.constant(0), x])[1]

    graph = f.get_concrete_function(tf.constant(1.0)).graph
    loop = next(op for op in graph.operations if "While" in op.type)
    assert len(graph.operations) < vdot.COLLAPSE_ABOVE
    assert f"{loop.name}/body" in vdot.default_collapse(graph)
    dot = graph_to_dot(graph)
    assert "shape=folder" in node_attrs(dot, f"{loop.name}/body")
    assert f"cluster_{loop.name}/cond" in dot


def test_highlight_outlines_nodes_and_collapsed_boxes():
    @tf.function
    def f(x):
        with tf.name_scope("s"):
            y = x * 1.0
        return y + tf.sin(x) + tf.sin(x)

    graph = f.get_concrete_function(tf.constant(1.0)).graph
    marks = {"Sin_1": "removed", "Sin": "replaced", "s/mul": "folded", "add": "added",
             "add_1": "hoisted"}
    dot = graph_to_dot(graph, highlight=marks)
    for name, change in marks.items():
        attrs = node_attrs(dot, name)
        assert f'color="{vdot.HIGHLIGHTS[change][0]}" penwidth=3' in attrs, (name, attrs)
    assert 'style="filled,dashed"' in node_attrs(dot, "Sin_1")  # removed: dashed outline
    assert "penwidth" not in node_attrs(dot, "x")
    boxed = graph_to_dot(graph, highlight=marks, collapse={"s"})
    attrs = node_attrs(boxed, "s")
    assert "1 changed" in attrs and vdot.HIGHLIGHTS["folded"][0] in attrs
    assert "1 changed" not in graph_to_dot(graph, collapse={"s"})


def test_highlight_from_an_optimisation_report():
    @tf.function
    def f(x):
        a = tf.sin(x) + tf.sin(x)  # common subexpression: Sin_1 goes, Sin does its work
        tf.exp(x)  # unused: pruned
        return a * 1.0  # x * 1 is x

    cf = f.get_concrete_function(tf.constant([1.0, 2.0]))
    before = vdot.highlight_from_report(cf.optimization_report, cf.graph)
    assert before["Sin_1"] == "removed" and before["Exp"] == "removed"
    after = vdot.highlight_from_report(cf.optimization_report, cf.optimized_graph)
    names = {op.name for op in cf.optimized_graph.operations}
    assert set(after) <= names and "Sin_1" not in after
    assert after["Sin"] == "replaced"
    picture = viz.show_graph(cf, optimized=True)
    assert picture.graph is cf.optimized_graph and picture.highlight == after
    assert vdot.HIGHLIGHTS["replaced"][0] in node_attrs(picture.dot, "Sin")


def test_hoisted_loop_work_is_highlighted_outside_the_loop():
    @tf.function
    def f(x, w):
        s = tf.zeros([3])
        for _ in tf.range(4):
            s += tf.reduce_sum(w * 2.0) * x
        return s

    cf = f.get_concrete_function(tf.constant([1., 2., 3.]), tf.constant([1., 1.]))
    marks = vdot.highlight_from_report(cf.optimization_report, cf.optimized_graph)
    hoisted = [name for name, kind in marks.items() if kind == "hoisted"]
    assert hoisted and all("/hoisted/" in name for name in hoisted)
    dot = graph_to_dot(cf.optimized_graph, highlight=marks)
    assert vdot.HIGHLIGHTS["hoisted"][0] in node_attrs(dot, hoisted[0])


def test_title_and_determinism(example):
    cf, dot = example
    again = graph_to_dot(cf.graph, collapse=set())
    assert again == dot
    titled = graph_to_dot(cf.graph, title='f "traced"')
    assert titled.rstrip().endswith('label="f \\"traced\\""; labelloc=t;\n}')
    assert not re.search(r"0x[0-9a-fA-F]{4,}", dot)  # no addresses


def test_the_same_function_traced_twice_draws_the_same_picture():
    def body(x):
        with tf.name_scope("layer"):
            y = tf.nn.relu(x * 2.0)
        if tf.reduce_sum(y) > 0:
            y = y * 2.0
        tf.print(y)
        return y

    dots = []
    for _ in range(2):
        cf = tf.function(body).get_concrete_function(tf.constant([1.0]))
        # the only difference: the functions' unique numbers (cond_true_3 / cond_true_4)
        dots.append(re.sub(r"(cond_(?:true|false))_\d+", r"\1_N", graph_to_dot(cf.graph)))
    assert dots[0] == dots[1]


def test_node_ids_and_cluster_ids_map_svg_titles_back():
    @tf.function
    def f(x):
        with tf.name_scope("a\\b"):
            x = x + 1.0
        if x > 0:
            x = x * 2.0
        return x

    graph = f.get_concrete_function(tf.constant(1.0)).graph
    ids = vdot.node_ids(graph)
    assert ids["a\\\\b/add"] == "a\\b/add" and ids["x"] == "x" and ids["a\\\\b"] == "a\\b"
    assert ids["cond/then"] == "cond/then" and ids["cond/then/mul"] == "cond/then/mul"
    clusters = vdot.cluster_ids(graph)
    assert clusters["cluster_a\\\\b"] == "a\\b" and clusters["cluster_cond/then"] == "cond/then"


@needs_dot
def test_every_picture_of_these_tests_renders(example):
    _, dot = example
    svg = viz.to_svg(dot)
    # layer, the two frames, then, else, cond and body
    assert svg.startswith("<svg") and svg.count('class="cluster"') == 7
    # the SVG titles of the nodes are the node ids
    assert "<title>cond/then/mul</title>" in svg and "<title>layer/Relu</title>" in svg


def test_like_named_ops_of_one_type_form_a_series_with_their_constants():
    @tf.function(autograph=False)
    def f(x):
        with tf.name_scope("chain"):
            for _ in range(10):
                x = x * 1.5
        return tf.sin(x)

    graph = f.get_concrete_function(tf.constant(1.0)).graph
    ops = graph.operations
    names = {op.name for op in ops}
    series = vdot.series_of(ops, [vdot.scope_of(op.name, names) for op in ops])
    members = {ops[i].name for i, s in series.items()}
    expected = {"chain/mul"} | {f"chain/mul_{i}" for i in range(1, 10)}
    assert members == expected | {f"{n}/y" for n in expected}  # their constants join them
    assert set(series.values()) == {"chain/mul, mul_[1-9]"}
    # a small graph draws them all unless asked; folded, the series is one box in its scope
    assert "shape=folder" not in graph_to_dot(graph)
    folded = graph_to_dot(graph, collapse={"chain/mul, mul_[1-9]"})
    box = node_attrs(folded, "chain/mul, mul_[1-9]")
    assert box.startswith('label="mul, mul_[1-9]\\n10 × Mul (20 ops)" shape=folder')
    assert has_node(cluster_block(folded, "cluster_chain"), "chain/mul, mul_[1-9]")
    assert ("chain/mul, mul_[1-9]", "Sin") in [e[:2] for e in edges(folded)]
    assert vdot.node_ids(graph)["chain/mul, mul_[1-9]"] == "chain/mul, mul_[1-9]"
    # fewer than SERIES_MIN like-named ops are no series
    small = tf.function(lambda x: x * 2.0 * 3.0, autograph=False).get_concrete_function(
        tf.constant(1.0)).graph
    assert vdot.series_of(small.operations, [""] * len(small.operations)) == {}


def test_hostile_names_are_escaped_and_shortened_in_clusters_and_bodies():
    name = "\x00\x1b[31m" + "é" * 20_000

    @tf.function
    def f(x):
        with tf.name_scope("Hx"):
            if x > 0:
                x = tf.multiply(x, 2.0, name="Hx")
        return x

    graph = f.get_concrete_function(tf.constant(1.0)).graph
    rename_parts(graph, {"Hx": name})  # TF's rules refuse it at build time: put in afterwards
    dot = graph_to_dot(graph)
    assert "\x00" not in dot and "\x1b" not in dot
    labels = re.findall(r'label="((?:[^"\\]|\\.)*)"', dot)
    assert labels and max(len(text) for text in labels) < 2 * vdot.NAME_LIMIT
    assert any(text.startswith("\\\\x00\\\\x1b[31mééé") for text in labels)
    if viz.dot_available():
        import xml.etree.ElementTree as ET
        ET.fromstring(viz.to_svg(dot))


def test_names_longer_than_graphviz_accepts_are_shortened_in_ids_too():
    long = "é" * 20_000

    @tf.function(autograph=False)
    def f(x):
        a = tf.multiply(x, 2.0, name="A")
        b = tf.multiply(x, 3.0, name="B")
        return a + b

    graph = f.get_concrete_function(tf.constant(1.0)).graph
    rename_parts(graph, {"A": long, "B": long[:-1] + "x"})  # same start, another op
    dot = graph_to_dot(graph)
    assert max(len(line.encode()) for line in dot.splitlines()) < 16_384
    ids = vdot.node_ids(graph)
    mine = {long, long[:-1] + "x"}
    assert {ids[t] for t in ids if t.startswith("ééé")} == mine | {n + "/y" for n in mine}
    if viz.dot_available():
        svg = viz.to_svg(dot)
        titles = set(re.findall(r"<title>(é+…#[0-9a-f]+)</title>", svg))
        assert len(titles) == 4 and {ids[t] for t in titles} == mine | {n + "/y" for n in mine}
