"""Crafted and damaged real-TF and ONNX graph files: each opens (as data) or raises the one
clear error, GraphFileError - never another exception, a hang, a memory blow-up or code run.
The crafted files are built with the protos the tf-files extra installs."""

from __future__ import annotations

import glob
import os
import random
import struct
import time

import pytest

pytest.importorskip("tensorboard", reason="the tf-files extra is not installed")

from tensorboard.compat.proto import event_pb2, graph_pb2, node_def_pb2  # noqa: E402

from tests.safety._hostile import payloads  # noqa: E402
from tfgraph_edu.formats import Budget, GraphFileError, open_bytes, open_graph  # noqa: E402
from tfgraph_edu.formats.events import masked_crc32c  # noqa: E402
from tfgraph_edu.jupyter.widgets import node_details  # noqa: E402
from tfgraph_edu.viz.dot import graph_to_dot  # noqa: E402

FIXTURES = os.path.join(os.path.dirname(__file__), "..", "fixtures", "real_tf")


def fixture_files() -> list[tuple[str, str, bytes]]:
    """(name, format, bytes) of every real fixture."""
    out = []
    for name, fmt, rel in [("keras", "saved_model", "keras_model/saved_model.pb"),
                           ("loop", "saved_model", "loop_module/saved_model.pb"),
                           ("pb", "graphdef", "cond_graph.pb"),
                           ("pbtxt", "graphdef-text", "cond_graph.pbtxt"),
                           ("onnx", "onnx", "tiny.onnx")]:
        with open(os.path.join(FIXTURES, rel), "rb") as f:
            out.append((name, fmt, f.read()))
    (events,) = glob.glob(os.path.join(FIXTURES, "events", "*tfevents*"))
    with open(events, "rb") as f:
        out.append(("events", "events", f.read()))
    return out


def opens_or_refuses(data: bytes, fmt: str, budget=None):
    """Open ``data`` and draw it; return "ok" or "refused" (GraphFileError only)."""
    try:
        opened = open_bytes(data, fmt, budget=budget)
    except GraphFileError:
        return "refused"
    for fn in opened.functions:
        graph_to_dot(fn.graph)
        node_details(fn.graph)
    return "ok"


def node(name, op, inputs=(), **attrs):
    n = node_def_pb2.NodeDef(name=name, op=op, input=list(inputs))
    for k, v in attrs.items():
        n.attr[k].CopyFrom(v)
    return n


def func_attr(name):
    from tensorboard.compat.proto import attr_value_pb2
    v = attr_value_pb2.AttrValue()
    v.func.name = name
    return v


def calling(fname: str, callees: list[str]):
    """A FunctionDef ``fname`` whose nodes call each of ``callees`` (PartitionedCall)."""
    from tensorboard.compat.proto import function_pb2
    f = function_pb2.FunctionDef()
    f.signature.name = fname
    for i, c in enumerate(callees):
        f.node_def.append(node(f"call_{i}", "PartitionedCall", f=func_attr(c)))
    return f


def graph_calling(first: str, functions) -> bytes:
    g = graph_pb2.GraphDef()
    g.node.append(node("call", "PartitionedCall", f=func_attr(first)))
    g.library.function.extend(functions)
    return g.SerializeToString()


# -- the function library ----
def test_a_function_calling_itself_is_refused():
    data = graph_calling("f", [calling("f", ["f"])])
    with pytest.raises(GraphFileError, match="calls itself"):
        open_bytes(data, "graphdef")


def test_functions_calling_each_other_are_refused():
    data = graph_calling("a", [calling("a", ["b"]), calling("b", ["c"]), calling("c", ["a"])])
    with pytest.raises(GraphFileError, match=r"a -> b -> c -> a"):
        open_bytes(data, "graphdef")


def test_nesting_past_the_depth_budget_is_refused():
    chain = [calling(f"f{i}", [f"f{i + 1}"]) for i in range(30)] + [calling("f30", [])]
    with pytest.raises(GraphFileError, match="nest more than 16 deep"):
        open_bytes(graph_calling("f0", chain), "graphdef")
    assert opens_or_refuses(graph_calling("f0", chain), "graphdef",
                            Budget(max_depth=40)) == "ok"


def test_bodies_drawn_exponentially_often_are_refused_fast():
    """Each function calls the next twice: 2**15 copies drawn in place for 16 small
    functions.  Refused by the drawn-node budget at once, not drawn."""
    chain = [calling(f"f{i}", [f"f{i + 1}", f"f{i + 1}"]) for i in range(15)] + [
        calling("f15", [])]
    start = time.perf_counter()
    with pytest.raises(GraphFileError, match="drawn with .* nodes"):
        open_bytes(graph_calling("f0", chain), "graphdef", budget=Budget(max_nodes=10_000))
    assert time.perf_counter() - start < 5


def test_a_missing_function_is_refused():
    with pytest.raises(GraphFileError, match="not in the library"):
        open_bytes(graph_calling("nowhere", []), "graphdef")


# -- sizes ----
def const(shape, **fields):
    from tensorboard.compat.proto import attr_value_pb2
    v = attr_value_pb2.AttrValue()
    v.tensor.dtype = 1  # float32
    for d in shape:
        v.tensor.tensor_shape.dim.add(size=d)
    for k, val in fields.items():
        if isinstance(val, bytes):
            setattr(v.tensor, k, val)
        else:
            getattr(v.tensor, k).extend(val)
    g = graph_pb2.GraphDef()
    g.node.append(node("c", "Const", value=v))
    return g.SerializeToString()


def test_a_huge_declared_constant_is_not_decoded():
    data = const([10 ** 6, 10 ** 6], float_val=[1.0])  # 4 TB if filled in
    opened = open_bytes(data, "graphdef")
    value = opened.graph.operations[0].attrs["value"]
    assert value == "<float32 tensor of shape (1000000, 1000000), not decoded>"


def test_a_constant_whose_bytes_do_not_fit_its_shape_is_refused():
    with pytest.raises(GraphFileError, match="holds 7 bytes, not 8"):
        open_bytes(const([2], tensor_content=b"\0" * 7), "graphdef")
    with pytest.raises(GraphFileError, match="lists 3 values"):
        open_bytes(const([2], float_val=[1.0, 2.0, 3.0]), "graphdef")


def test_a_short_value_list_repeats_its_last_value_as_tf_does():
    import numpy as np
    opened = open_bytes(const([4], float_val=[1.0, 2.0]), "graphdef")
    np.testing.assert_array_equal(opened.graph.operations[0].attrs["value"],
                                  np.array([1, 2, 2, 2], np.float32))


def test_a_huge_output_count_is_refused():
    from tensorboard.compat.proto import attr_value_pb2
    n = attr_value_pb2.AttrValue(i=10 ** 12)
    g = graph_pb2.GraphDef()
    g.node.append(node("s", "Split", num_split=n))
    with pytest.raises(GraphFileError, match="bad num_split"):
        open_bytes(g.SerializeToString(), "graphdef")


def test_more_nodes_than_the_budget_are_refused():
    g = graph_pb2.GraphDef()
    g.node.extend(node(f"n{i}", "NoOp") for i in range(101))
    with pytest.raises(GraphFileError, match="node budget"):
        open_bytes(g.SerializeToString(), "graphdef", budget=Budget(max_nodes=100))


def test_a_file_over_the_byte_budget_is_refused_before_reading(tmp_path):
    path = tmp_path / "big.pb"
    path.write_bytes(b"\0" * 2000)
    with pytest.raises(GraphFileError, match="over the budget of 1000"):
        open_graph(path, budget=Budget(max_file_bytes=1000))


def test_a_length_past_the_end_is_refused():
    # field 1 (node), length-delimited, declaring 2**40 bytes
    data = bytes([0x0A]) + bytes([0x80, 0x80, 0x80, 0x80, 0x80, 0x20])
    with pytest.raises(GraphFileError):
        open_bytes(data, "graphdef")
    with pytest.raises(GraphFileError, match="more than the file holds"):
        open_bytes(bytes([0x12]) + bytes([0x80, 0x80, 0x80, 0x80, 0x80, 0x20]), "saved_model")


def record(body: bytes, length=None) -> bytes:
    header = struct.pack("<Q", len(body) if length is None else length)
    return (header + struct.pack("<I", masked_crc32c(header)) + body
            + struct.pack("<I", masked_crc32c(body)))


def test_event_records_with_bad_lengths_or_crcs_are_refused():
    e = event_pb2.Event(wall_time=1.0, file_version="brain.Event:2").SerializeToString()
    with pytest.raises(GraphFileError, match="declares 1099511627776 bytes"):
        open_bytes(record(e, length=2 ** 40), "events")
    bad = bytearray(record(e))
    bad[-1] ^= 1
    with pytest.raises(GraphFileError, match="fails its CRC"):
        open_bytes(bytes(bad), "events")
    with pytest.raises(GraphFileError, match="holds no graph"):
        open_bytes(record(e), "events")


def test_a_graph_in_an_event_opens():
    g = graph_pb2.GraphDef()
    g.node.append(node("x", "Placeholder"))
    e = event_pb2.Event(step=3, graph_def=g.SerializeToString()).SerializeToString()
    opened = open_bytes(record(e), "events")
    assert [f.name for f in opened.functions] == ["graph (step 3)"]


def test_bad_references_are_refused():
    g = graph_pb2.GraphDef()
    g.node.append(node("a", "Identity", inputs=["nowhere"]))
    with pytest.raises(GraphFileError, match="refers to 'nowhere'"):
        open_bytes(g.SerializeToString(), "graphdef")
    g = graph_pb2.GraphDef()
    g.node.extend([node("a", "NoOp"), node("a", "NoOp")])
    with pytest.raises(GraphFileError, match="two nodes are named 'a'"):
        open_bytes(g.SerializeToString(), "graphdef")


# -- names and strings stay data ----
def test_hostile_names_and_strings_never_run(tmp_path):
    from tensorboard.compat.proto import attr_value_pb2
    marker = tmp_path / "ran"
    g = graph_pb2.GraphDef()
    for i, text in enumerate(payloads(marker)):
        if not text:
            continue
        s = attr_value_pb2.AttrValue(s=text.encode("utf-8", "surrogatepass"))
        g.node.append(node(f"{text}/{i}", text[:50] or "Op", inputs=[], label=s))
    assert opens_or_refuses(g.SerializeToString(), "graphdef") == "ok"
    assert not marker.exists()


# -- damage: truncations and byte flips of every real fixture ----
@pytest.mark.timeout(300)
@pytest.mark.parametrize("name,fmt,data", fixture_files(), ids=lambda v: v if isinstance(
    v, str) and len(v) < 20 else None)
def test_damaged_real_files_open_or_raise_the_one_error(name, fmt, data):
    rng = random.Random(f"graph-files-{name}")
    outcomes = {"ok": 0, "refused": 0}
    start = time.perf_counter()
    for i in range(120):
        damaged = bytearray(data)
        if i % 3 == 0:
            damaged = damaged[:rng.randrange(len(data))]
        else:
            for _ in range(rng.choice([1, 1, 2, 8])):
                damaged[rng.randrange(len(damaged))] ^= 1 << rng.randrange(8)
        outcomes[opens_or_refuses(bytes(damaged), fmt)] += 1
    print(name, outcomes, f"{time.perf_counter() - start:.1f}s")
    assert outcomes["refused"] > 0  # the damage was seen at least sometimes
