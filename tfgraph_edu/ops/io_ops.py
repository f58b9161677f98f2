"""``tf.print`` (the StringFormat and PrintV2 ops and TensorFlow's way of printing tensors)
and ``tf.timestamp`` (the Timestamp op).

``tf.print`` is a stateful op: inside a tf.function it prints on every call,
even though nothing consumes it, and in program order with other side effects.
Tensors print as TensorFlow prints them: no dtype, no trailing ``.0`` (floats use
the shortest of ``%g`` with 6 and 9 digits that reads back exactly), bools as 1 and 0,
strings in double quotes, rows on new lines, and at most ``summarize`` elements at each
end of every dimension.
"""

from __future__ import annotations

import sys
import time

import numpy as np

from .. import dtypes as _dt
from ..shapes import TensorShape
from ._core import bind, define

_STREAMS = {"stderr": lambda: sys.stderr, "stdout": lambda: sys.stdout}


_C_ESCAPES = {ord("\n"): "\\n", ord("\r"): "\\r", ord("\t"): "\\t", ord('"'): '\\"',
              ord("'"): "\\'", ord("\\"): "\\\\"}


def _quoted(b: bytes) -> str:
    """A string element as TF prints it: in double quotes, C-escaped (other bytes that are
    not printable ASCII as three octal digits)."""
    return '"' + "".join(_C_ESCAPES.get(c) or (chr(c) if 32 <= c < 127 else f"\\{c:03o}")
                         for c in b) + '"'


def _element(v) -> str:
    if isinstance(v, str):
        v = v.encode("utf-8")
    if isinstance(v, (bytes, np.bytes_)):
        return _quoted(bytes(v))
    if isinstance(v, (bool, np.bool_)):
        return "1" if v else "0"  # TF prints bool tensors as numbers
    if isinstance(v, (np.floating, float)):
        f = np.float32 if isinstance(v, np.float32) or (
            isinstance(v, np.floating) and v.dtype.itemsize <= 4) else float
        if np.isnan(v):
            return "nan"
        if np.isinf(v):
            return "inf" if v > 0 else "-inf"
        short = f"{v:.6g}" if f is np.float32 else f"{v:.15g}"
        if f(short) != v:
            short = f"{v:.9g}" if f is np.float32 else f"{v:.17g}"
        return short
    return str(v)


def format_tensor(arr, summarize: int = 3) -> str:
    """A tensor value as ``tf.print`` shows it."""
    arr = np.asarray(arr)
    if arr.ndim == 0:
        return _element(arr[()])
    if arr.size == 0 and arr.shape[0]:  # TF: an empty [2, 0] tensor prints as "[\n ...]"
        return "[" + "\n" * (arr.ndim - 1) + " ...]"
    return _format_dims(arr, summarize, 1)


def _format_dims(arr, summarize, depth) -> str:
    n = arr.shape[0]
    if summarize >= 0 and n > 2 * summarize:
        idx = list(range(summarize)) + [None] + list(range(n - summarize, n))
    else:
        idx = list(range(n))
    if arr.ndim == 1:
        return "[" + " ".join("..." if i is None else _element(arr[i]) for i in idx) + "]"
    sep = "\n" + " " * depth
    parts = ["..." if i is None else _format_dims(arr[i], summarize, depth + 1) for i in idx]
    return "[" + sep.join(parts) + "]"


def _string_format_kernel(*inputs, template="{}", placeholder="{}", summarize=3):
    pieces = template.split(placeholder)
    out = [pieces[0]]
    for value, rest in zip(inputs, pieces[1:]):
        out.append(format_tensor(value, summarize))
        out.append(rest)
    return np.array("".join(out).encode("utf-8"), dtype=object)


StringFormat = define("StringFormat", ("inputs*",), _string_format_kernel,
                      lambda *inputs, **attrs: (TensorShape([]), _dt.string), None,
                      mixed_types=True)


def _print_kernel(text, output_stream="stderr", end="\n"):
    s = text[()] if isinstance(text, np.ndarray) else text
    s = s.decode("utf-8", "replace") if isinstance(s, bytes) else str(s)
    if output_stream.startswith("file://"):
        with open(output_stream[len("file://"):], "a", encoding="utf-8") as f:
            f.write(s + end)
        return ()
    stream = _STREAMS[output_stream]()
    stream.write(s + end)
    stream.flush()
    return ()


PrintV2 = define("PrintV2", ("input",), _print_kernel, lambda text, **attrs: [], None,
                 stateful=True, state="output", num_outputs=0)


def _stream_name(stream) -> str:
    if stream is None or stream is sys.stderr or stream is sys.__stderr__ or stream == "stderr":
        return "stderr"
    if stream is sys.stdout or stream is sys.__stdout__ or stream == "stdout":
        return "stdout"
    if isinstance(stream, str) and stream.startswith("file://"):
        return stream
    raise ValueError(f"Unsupported output stream {stream!r}: use sys.stdout, sys.stderr or "
                     "'file://<path>'.")


def _template(values, sep, tensors, placeholder) -> str:
    """Text with ``placeholder`` where each tensor goes; structures print like Python's."""
    from .convert import is_tensor

    def part(v, nested):
        if is_tensor(v) or hasattr(v, "_as_tensor"):
            tensors.append(v)
            return placeholder
        if isinstance(v, (list, tuple)):
            inner = ", ".join(part(x, True) for x in v)
            return f"[{inner}]" if isinstance(v, list) else f"({inner}{',' if len(v) == 1 else ''})"
        if isinstance(v, dict):
            return "{" + ", ".join(f"{k!r}: {part(x, True)}" for k, x in v.items()) + "}"
        # TF formats every other object with repr (a NumPy array as array([...]), a NumPy
        # scalar as np.float32(1.5)); only a string given as an argument is printed as is
        return v if not nested and isinstance(v, str) else repr(v)
    return sep.join(part(v, False) for v in values)


def print_(*inputs, output_stream=None, sep=" ", end="\n", summarize=3, name=None):
    """``tf.print``: formats its inputs (op ``StringFormat``) and prints them (op ``PrintV2``).

    ``output_stream`` is ``sys.stderr`` (the default, as in TF), ``sys.stdout`` or
    ``"file://<path>"``; the stream is looked up when the op runs, so Jupyter and pytest
    capture it."""
    stream = _stream_name(output_stream)
    from .convert import is_tensor
    if len(inputs) == 1 and is_tensor(inputs[0]) and inputs[0].dtype == _dt.string and \
            inputs[0].shape.rank == 0:  # one string scalar prints as it is (no quotes)
        return bind(PrintV2, (inputs[0],), {"output_stream": stream, "end": end}, name)
    texts = [v if isinstance(v, str) else repr(v) for v in inputs if not is_tensor(v)]
    placeholder = "{}"
    while any(placeholder in t for t in texts):
        placeholder = "{" + placeholder + "}"
    tensors: list = []
    template = _template(inputs, sep, tensors, placeholder)
    formatted = bind(StringFormat, tuple(tensors),
                     {"template": template, "placeholder": placeholder,
                      "summarize": -1 if summarize is None else int(summarize)})
    return bind(PrintV2, (formatted,), {"output_stream": stream, "end": end}, name)


# -- tf.timestamp (TF keeps it beside tf.print, in its logging ops) ---------------------------
def _timestamp_kernel():
    return np.float64(time.time())


Timestamp = define("Timestamp", (), _timestamp_kernel,
                   lambda **attrs: (TensorShape([]), _dt.float64), None,
                   stateful=True, state="output")


def timestamp(name=None):
    """``tf.timestamp``: the seconds since the Unix epoch as a float64 scalar, read when the
    op runs (a stateful op: inside a tf.function on every call, in program order with
    ``tf.print``)."""
    return bind(Timestamp, (), {}, name)
