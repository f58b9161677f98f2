"""Files written by real TensorFlow 2.21 (tests/fixtures/real_tf, made by its
make_fixtures.py) open with their structure as TF itself sees it: the expected op types,
function library, function attrs and signatures were recorded by TF into facts.json when
the fixtures were made, never computed here by the code under test."""

from __future__ import annotations

import glob
import json
import os
from collections import Counter

import pytest

pytest.importorskip("tensorboard", reason="the tf-files extra is not installed")

from tfgraph_edu.formats import GraphFileError, open_graph  # noqa: E402
from tfgraph_edu.ops.control_flow_ops import GraphFunction  # noqa: E402
from tfgraph_edu.viz.dot import cluster_ids, graph_to_dot  # noqa: E402

HERE = os.path.join(os.path.dirname(__file__), "..", "fixtures", "real_tf")
with open(os.path.join(HERE, "facts.json")) as f:
    FACTS = json.load(f)


def types(graph, drop=()) -> dict:
    return dict(sorted(Counter(op.type for op in graph.operations if op.type not in drop)
                       .items()))


def function_attrs(graph, library) -> list:
    """[node, op type, attr, function] for the main graph's and every library function's
    nodes (as the facts list them)."""
    out = []
    graphs = [graph] + [fn.graph for fn in library.values()]
    for g in graphs:
        for op in g.operations:
            for k, v in op.attrs.items():
                if isinstance(v, GraphFunction):
                    out.append([op.name, op.type, k, v.name])
    return sorted(out)


def check_graph(opened, graph, facts) -> None:
    assert types(graph) == facts["op_types"]
    assert len(graph.operations) == facts["nodes"]
    assert sorted(opened.library) == sorted(facts["library"])
    for name, want in facts["library"].items():
        fn = opened.library[name]
        # a FunctionDef's inputs are arguments, not nodes: we draw each as a Placeholder
        assert types(fn.graph, drop=("Placeholder",)) == {
            k: v for k, v in want.items() if k != "Placeholder"}, name
        n_in, n_out = facts["library_args"][name]
        assert len(fn.inputs) == n_in and len(fn.outputs) == n_out, name
        assert all(t.op.type == "Placeholder" for t in fn.inputs)
    assert function_attrs(graph, opened.library) == facts["function_attrs"]


@pytest.mark.parametrize("name", ["keras_model", "loop_module"])
def test_saved_models_open_with_tf_structure(name):
    facts = FACTS[name]
    opened = open_graph(os.path.join(HERE, name))
    assert opened.format == "saved_model"
    assert opened.facts["tags"] == facts["tags"] == ["serve"]
    main = opened.functions[0]
    assert main.kind == "graph" and main.name == "saved_model"
    check_graph(opened, main.graph, facts)
    for key, sig in facts["signatures"].items():
        ours = opened.signatures[key]
        for side in ("inputs", "outputs"):
            want = {}
            for arg, (dtype, shape) in sig[side].items():
                dims = "<unknown>" if shape is None else \
                    "(" + ", ".join("None" if d is None else str(d) for d in shape) + \
                    ("," if len(shape) == 1 else "") + ")"
                want[arg] = f"{dtype}{dims}"
            assert ours[side] == want, (key, side)
    # every signature with a function is listed, drawn from the function its outputs come from
    listed = {f.name for f in opened.functions if f.kind == "signature"}
    assert listed == {k for k, s in opened.signatures.items() if s["function"]}
    assert "serving_default" in listed


def test_loop_module_bodies_are_in_place():
    opened = open_graph(os.path.join(HERE, "loop_module"))
    sig = next(f for f in opened.functions if f.name == "serving_default")
    # the signature is drawn as its wrapper function, which calls the traced power_sum
    assert opened.signatures["serving_default"]["function"].startswith(
        "__inference_signature_wrapper_power_sum_")
    (call,) = [op for op in sig.graph.operations if op.type == "StatefulPartitionedCall"]
    power_sum = call.attrs["f"]
    assert power_sum.name == "__inference_power_sum_387"
    (loop,) = [op for op in power_sum.graph.operations if op.type == "While"]
    assert loop.attrs["body"].name.startswith("while_body_")
    assert loop.attrs["cond"].name.startswith("while_cond_")
    (cond,) = [op for op in power_sum.graph.operations if op.type == "StatelessIf"]
    assert cond.attrs["then_branch"].name.startswith("cond_true_")
    # the picture draws them inside the call's cluster
    clusters = set(cluster_ids(sig.graph).values())
    assert "StatefulPartitionedCall/f/while/body" in clusters
    assert "StatefulPartitionedCall/f/cond/then" in clusters
    # dtypes and shapes of the loop's outputs come from the file (the op list and
    # _output_shapes), one output per loop variable
    assert len(loop.outputs) == len(loop.attrs["T"]) > 2
    assert [t.dtype.name for t in loop.outputs] == [d.name for d in loop.attrs["T"]]


@pytest.mark.parametrize("ext", ["pb", "pbtxt"])
def test_graph_def_opens_as_tf_sees_it(ext):
    opened = open_graph(os.path.join(HERE, f"cond_graph.{ext}"))
    assert opened.format == ("graphdef" if ext == "pb" else "graphdef-text")
    check_graph(opened, opened.graph, FACTS["cond_graph"])
    assert opened.facts["producer"] == FACTS["cond_graph"]["producer"]
    dot = graph_to_dot(opened.graph)
    assert '"cluster_cond/then"' in dot and '"cluster_cond/else"' in dot


def test_event_file_graph_opens_as_tf_sees_it():
    (path,) = glob.glob(os.path.join(HERE, "events", "*tfevents*"))
    opened = open_graph(path)
    (facts,) = FACTS["events"]["graphs"]
    (fn,) = opened.functions
    assert fn.name == "simple_relu"
    check_graph(opened, fn.graph, facts)


def test_onnx_model_opens_with_bodies_in_place():
    facts = FACTS["tiny_onnx"]
    opened = open_graph(os.path.join(HERE, "tiny.onnx"))
    graph = opened.graph
    assert types(graph, drop=("Placeholder", "Const")) == facts["op_types"]
    (if_op,) = [op for op in graph.operations if op.type == "If"]
    then, else_ = if_op.attrs["then_branch"], if_op.attrs["else_branch"]
    assert types(then.graph, drop=("Placeholder",)) == facts["then"]
    assert types(else_.graph, drop=("Placeholder",)) == facts["else"]
    # the branches read x from the graph around them: a captured input, drawn as one
    assert [outer.name for outer, _ in then.graph.captures] == ["x"]
    assert '"cluster_cond/then"' in graph_to_dot(graph)
    assert [(t.name, t.dtype.name, str(t.shape)) for t in graph.inputs] == [
        ("x", "float32", "(3,)")]


def test_details_pane_shows_attrs_dtypes_and_shapes():
    from tfgraph_edu.jupyter.widgets import node_details
    opened = open_graph(os.path.join(HERE, "cond_graph.pb"))
    details = node_details(opened.graph)
    cond = details["cond"]
    assert cond["type"] == "StatelessIf"
    assert cond["attrs"]["then_branch"].startswith("cond_true_")
    # TF's If here has two outputs, a bool and the branches' value (Tout in the file)
    assert [o["dtype"] for o in cond["outputs"]] == ["bool", "float32"]
    assert cond["outputs"][1]["shape"] == "(None,)"  # from the If's output_shapes
    inner = [k for k in details if k.startswith("cond/then/")]
    assert inner and all(details[k]["inside"].startswith("cond (StatelessIf)") for k in inner)


def test_our_own_saved_model_folder_is_pointed_to_its_loader(tmp_path):
    (tmp_path / "saved_model.json").write_text("{}")
    with pytest.raises(GraphFileError, match="tf.saved_model.load"):
        open_graph(tmp_path)


def test_fixtures_stay_small():
    total = sum(os.path.getsize(p) for p in glob.glob(os.path.join(HERE, "**"), recursive=True)
                if os.path.isfile(p))
    assert total < 300_000


def test_an_opened_file_shows_itself_in_a_notebook():
    opened = open_graph(os.path.join(HERE, "loop_module"))
    bundle = opened._repr_mimebundle_()
    assert bundle["text/plain"].splitlines()[1:] == [
        f"  #1 meta graph [serve] ({FACTS['loop_module']['nodes']} nodes)",  # TF's count
        "  #2 serving_default(n: int32(), x: float32()) -> output_0: float32()"]
    html = bundle["text/html"]  # the drawing as an <img> of its SVG, or the DOT without Graphviz
    assert "data:image/svg+xml;base64," in html or "<svg" in html or "digraph" in html


def test_our_own_onnx_export_opens_as_onnx_reads_it(tmp_path):
    onnx = pytest.importorskip("onnx")
    import tfgraph_edu as tf
    from tfgraph_edu.onnx import export

    @tf.function
    def dense(x, w, b):
        return tf.nn.relu(tf.matmul(x, w) + b)

    cf = dense.get_concrete_function(tf.TensorSpec([2, 3], tf.float32),
                                     tf.TensorSpec([3, 4], tf.float32),
                                     tf.TensorSpec([4], tf.float32))
    path = tmp_path / "dense.onnx"
    export(cf, str(path))
    model = onnx.load(str(path))  # onnx's own reading is the reference
    opened = open_graph(path)
    assert types(opened.graph, drop=("Placeholder", "Const")) == dict(
        sorted(Counter(n.op_type for n in model.graph.node).items()))
    assert [t.name for t in opened.graph.inputs] == [
        i.name for i in model.graph.input
        if i.name not in {t.name for t in model.graph.initializer}]


def test_saved_model_debug_info_gives_source_lines():
    """TF saved the loop module with save_debug_info=True: each node's line in
    make_fixtures.py (found here by searching the script's text)."""
    opened = open_graph(os.path.join(HERE, "loop_module"))
    with open(os.path.join(HERE, "make_fixtures.py")) as f:
        lines = f.read().splitlines()
    loop_line = lines.index("            for i in tf.range(n):") + 1
    if_line = lines.index("            if total > 10.0:") + 1
    fn = opened.library["__inference_power_sum_387"]
    where = {op.name: op.source for op in fn.graph.operations}
    assert os.path.basename(where["while"][0]) == "make_fixtures.py"
    assert where["while"][1:] == (loop_line, "power_sum")
    assert where["range"][1] == loop_line
    assert where["cond"][1:] == (if_line, "power_sum")
    assert opened.facts["source_lines"] > 0


def test_debug_info_is_checked_and_names_only_python_files(tmp_path):
    import shutil

    from tensorboard.compat.proto import graph_debug_info_pb2
    folder = tmp_path / "m"
    shutil.copytree(os.path.join(HERE, "loop_module"), folder)
    info = graph_debug_info_pb2.GraphDebugInfo(files=["/etc/passwd"])
    info.frames_by_id[1].file_index = 0
    info.frames_by_id[1].line = 1
    info.traces_by_id[7].frame_id.append(1)
    info.name_to_trace_id["while@__inference_power_sum_387"] = 7
    (folder / "debug" / "saved_model_debug_info.pb").write_bytes(info.SerializeToString())
    opened = open_graph(folder)
    loop = opened.library["__inference_power_sum_387"].graph.get_operation_by_name("while")
    assert loop.source is None  # not a Python file: the details pane does not read it
    (folder / "debug" / "saved_model_debug_info.pb").write_bytes(b"\x0a\xff\xff\xff")
    with pytest.raises(GraphFileError, match="debug info"):
        open_graph(folder)
