"""TensorBoard's event files, written by hand: TFRecord framing (length, masked CRC-32C)
around ``Event`` protocol buffers, encoded field by field (no protobuf dependency).

Only what we write is encoded: ``Event`` (wall_time, step, file_version, graph_def,
summary), ``Summary.Value`` with a ``simple_value`` and ``GraphDef`` nodes with their name,
op, inputs, dtype and output shapes - enough for TensorBoard's scalars and graph tabs.
"""

from __future__ import annotations

import struct

import numpy as np

from .. import dtypes as _dt
from ..formats import events as _events

# -- CRC-32C (Castagnoli), as TFRecord frames use it: the reader's (formats/events.py) --------
crc32c = _events.crc32c
masked_crc = _events.masked_crc32c


def record(data: bytes) -> bytes:
    """One TFRecord: uint64 length, masked CRC of the length, the data, masked CRC of it."""
    length = struct.pack("<Q", len(data))
    return (length + struct.pack("<I", masked_crc(length)) + data
            + struct.pack("<I", masked_crc(data)))


# -- protocol-buffer wire format -----------------------------------------------------------------
def _varint(n: int) -> bytes:
    n &= (1 << 64) - 1  # negative int64 as two's complement, as protobuf does
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def varint_field(field: int, value: int) -> bytes:
    return _varint(field << 3) + _varint(int(value))


def bytes_field(field: int, value: bytes | str) -> bytes:
    if isinstance(value, str):
        value = value.encode()
    return _varint(field << 3 | 2) + _varint(len(value)) + value


def double_field(field: int, value: float) -> bytes:
    return _varint(field << 3 | 1) + struct.pack("<d", value)


def float_field(field: int, value: float) -> bytes:
    return _varint(field << 3 | 5) + struct.pack("<f", value)


# -- messages ------------------------------------------------------------------------------------
_DTYPE_ENUM = {"float32": 1, "float64": 2, "int32": 3, "uint8": 4, "int16": 5, "int8": 6,
               "string": 7, "complex64": 8, "int64": 9, "bool": 10, "complex128": 18,
               "float16": 19, "resource": 20, "variant": 21, "uint32": 22, "uint64": 23}


def event(wall_time: float, step: int = 0, *, file_version: str | None = None,
          graph_def: bytes | None = None, summary: bytes | None = None) -> bytes:
    out = double_field(1, wall_time)
    if step:
        out += varint_field(2, step)
    if file_version is not None:
        out += bytes_field(3, file_version)
    if graph_def is not None:
        out += bytes_field(4, graph_def)
    if summary is not None:
        out += bytes_field(5, summary)
    return out


def scalar_summary(tag: str, value: float) -> bytes:
    """A ``Summary`` holding one ``Value(tag, simple_value)``."""
    return bytes_field(1, bytes_field(1, tag) + float_field(2, float(np.float32(value))))


def _shape(shape) -> bytes:
    if shape.rank is None:
        return varint_field(3, 1)  # unknown_rank
    return b"".join(bytes_field(2, varint_field(1, -1 if d is None else d)) for d in shape.dims)


def _attr(value) -> bytes | None:
    if isinstance(value, _dt.DType) and value.name in _DTYPE_ENUM:
        return varint_field(6, _DTYPE_ENUM[value.name])
    if isinstance(value, bool):
        return varint_field(5, value)
    if isinstance(value, int):
        return varint_field(3, value)
    if isinstance(value, str):
        return bytes_field(2, value)
    return None


def _node(op, prefix: str) -> bytes:
    out = bytes_field(1, prefix + op.name) + bytes_field(2, op.type)
    for t in op.inputs:
        ref = prefix + t.op.name
        out += bytes_field(3, ref if t.value_index == 0 else f"{ref}:{t.value_index}")
    for c in op.control_inputs:
        out += bytes_field(3, f"^{prefix}{c.name}")
    attrs = []
    for key, value in op.attrs.items():
        encoded = _attr(value)
        if encoded is not None:
            attrs.append((key, encoded))
    if op.outputs:
        shapes = b"".join(bytes_field(7, _shape(t.shape)) for t in op.outputs)
        attrs.append(("_output_shapes", bytes_field(1, shapes)))
    for key, encoded in sorted(attrs):
        out += bytes_field(5, bytes_field(1, key) + bytes_field(2, encoded))
    return out


def graph_def(graphs) -> bytes:
    """One ``GraphDef`` with the nodes of ``graphs``: ``(name, graph)`` pairs; with several,
    each graph's nodes go under its name as a scope."""
    out = b""
    for name, g in graphs:
        prefix = f"{name}/" if len(graphs) > 1 else ""
        for op in g.operations:
            out += bytes_field(1, _node(op, prefix))
    return out
