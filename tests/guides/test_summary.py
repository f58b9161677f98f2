"""tf.summary event files, read back with protobuf's own parser (an independent decoder)
and the CRC-32C check value of the standard; tf.profiler.experimental bookkeeping."""

import glob
import struct

import pytest
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

import tfgraph_edu as tf
from tfgraph_edu.summary import records

F = descriptor_pb2.FieldDescriptorProto


def _messages():
    """Event, Summary and GraphDef with the field numbers of TensorFlow's .proto files."""
    fd = descriptor_pb2.FileDescriptorProto(name="ev_test.proto", package="evt")

    def msg(name, fields):
        m = fd.message_type.add(name=name)
        for fname, num, ftype, label, tname in fields:
            f = m.field.add(name=fname, number=num, type=ftype, label=label)
            if tname:
                f.type_name = f".evt.{tname}"

    opt, rep = F.LABEL_OPTIONAL, F.LABEL_REPEATED
    msg("Value", [("tag", 1, F.TYPE_STRING, opt, None),
                  ("simple_value", 2, F.TYPE_FLOAT, opt, None)])
    msg("Summary", [("value", 1, F.TYPE_MESSAGE, rep, "Value")])
    msg("Dim", [("size", 1, F.TYPE_INT64, opt, None)])
    msg("Shape", [("dim", 2, F.TYPE_MESSAGE, rep, "Dim"),
                  ("unknown_rank", 3, F.TYPE_BOOL, opt, None)])
    msg("ListValue", [("shape", 7, F.TYPE_MESSAGE, rep, "Shape")])
    msg("AttrValue", [("list", 1, F.TYPE_MESSAGE, opt, "ListValue"),
                      ("s", 2, F.TYPE_BYTES, opt, None), ("i", 3, F.TYPE_INT64, opt, None),
                      ("type", 6, F.TYPE_INT32, opt, None)])
    msg("AttrEntry", [("key", 1, F.TYPE_STRING, opt, None),
                      ("value", 2, F.TYPE_MESSAGE, opt, "AttrValue")])
    msg("NodeDef", [("name", 1, F.TYPE_STRING, opt, None), ("op", 2, F.TYPE_STRING, opt, None),
                    ("input", 3, F.TYPE_STRING, rep, None),
                    ("attr", 5, F.TYPE_MESSAGE, rep, "AttrEntry")])
    msg("GraphDef", [("node", 1, F.TYPE_MESSAGE, rep, "NodeDef")])
    msg("Event", [("wall_time", 1, F.TYPE_DOUBLE, opt, None), ("step", 2, F.TYPE_INT64, opt, None),
                  ("file_version", 3, F.TYPE_STRING, opt, None),
                  ("graph_def", 4, F.TYPE_BYTES, opt, None),
                  ("summary", 5, F.TYPE_MESSAGE, opt, "Summary")])
    pool = descriptor_pool.DescriptorPool()
    pool.Add(fd)
    get = message_factory.GetMessageClass
    return get(pool.FindMessageTypeByName("evt.Event")), get(
        pool.FindMessageTypeByName("evt.GraphDef"))


Event, GraphDef = _messages()


def _read(path):
    data = open(path, "rb").read()
    out, i = [], 0
    while i < len(data):
        (n,) = struct.unpack("<Q", data[i:i + 8])
        assert struct.unpack("<I", data[i + 8:i + 12])[0] == records.masked_crc(data[i:i + 8])
        body = data[i + 12:i + 12 + n]
        assert struct.unpack("<I", data[i + 12 + n:i + 16 + n])[0] == records.masked_crc(body)
        out.append(Event.FromString(body))
        i += 16 + n
    return out


def test_crc32c_check_value():
    assert records.crc32c(b"123456789") == 0xE3069283  # the CRC-32C standard's check value


def test_scalars_are_written_with_their_steps(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path))
    with writer.as_default():
        for step in range(3):
            assert tf.summary.scalar("loss", tf.constant(0.5 * step), step=step)
    assert tf.summary.scalar("loss", 1.0, step=0) is False  # no default writer: nothing
    (path,) = glob.glob(str(tmp_path / "events.out.tfevents.*.v2"))
    events = _read(path)
    assert events[0].file_version == "brain.Event:2"
    got = [(e.step, e.summary.value[0].tag, e.summary.value[0].simple_value) for e in events[1:]]
    assert got == [(0, "loss", 0.0), (1, "loss", 0.5), (2, "loss", 1.0)]


def test_scalar_without_step_raises_value_error(tmp_path):
    with tf.summary.create_file_writer(str(tmp_path)).as_default():
        with pytest.raises(ValueError, match="No step set"):
            tf.summary.scalar("x", 1.0)


def test_trace_export_writes_the_called_function_graph(tmp_path):
    @tf.function
    def affine(x):
        return x * 2.0 + 1.0

    writer = tf.summary.create_file_writer(str(tmp_path))
    tf.summary.trace_on(graph=True)
    assert affine(tf.constant([1.0, 2.0])).numpy().tolist() == [3.0, 5.0]
    with writer.as_default():
        tf.summary.trace_export(name="affine_trace", step=7)
    events = _read(writer.path)
    (graph_event,) = [e for e in events if e.graph_def]
    assert graph_event.step == 7
    nodes = {n.name: n for n in GraphDef.FromString(graph_event.graph_def).node}
    ops = sorted(n.op for n in nodes.values())
    assert ops.count("Mul") == 1 and ops.count("AddV2") == 1 and "Placeholder" in ops
    add = next(n for n in nodes.values() if n.op == "AddV2")
    assert all(i.split(":")[0] in nodes for i in add.input)
    shapes = {a.key: a.value for a in add.attr}["_output_shapes"].list.shape
    assert [d.size for d in shapes[0].dim] == [2]


def test_trace_export_before_trace_on_raises():
    with pytest.raises(ValueError, match="Must enable trace"):
        tf.summary.trace_export(name="t", step=0)


def test_profiler_start_twice_and_stop_without_start():
    tf.profiler.experimental.start("unused_logdir")
    try:
        with pytest.raises(tf.errors.AlreadyExistsError):
            tf.profiler.experimental.start("unused_logdir")
    finally:
        with pytest.raises(NotImplementedError):
            tf.profiler.experimental.stop()
    with pytest.raises(tf.errors.UnavailableError):
        tf.profiler.experimental.stop()
