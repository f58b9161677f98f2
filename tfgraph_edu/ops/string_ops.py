"""String ops: ``tf.strings`` join, length, format, split, to_number, as_string, upper/lower.

String tensors hold ``bytes`` in numpy object arrays, as TensorFlow's ``tf.string``
holds byte strings; ``+`` on two string tensors is ``AddV2`` (see math_ops), which
concatenates.  None of these ops has a gradient (TensorFlow registers none).
"""

from __future__ import annotations

import numpy as np

from .. import dtypes as _dt
from ..errors import InvalidArgumentError
from ..shapes import TensorShape
from . import io_ops
from ._core import bind, constant_value, define
from ._rules import broadcast_shapes

S = frozenset({_dt.string})
_NUM_OUT = frozenset({_dt.float32, _dt.float64, _dt.int32, _dt.int64})


def _obj(fn, arr):
    """Apply ``fn`` to every element of an object array (scalars stay 0-d arrays)."""
    out = np.empty(np.shape(arr), dtype=object)
    flat_in = np.asarray(arr, dtype=object).reshape(-1)
    flat_out = out.reshape(-1)
    for i, v in enumerate(flat_in):
        flat_out[i] = fn(v)
    return out


def _as_bytes(v) -> bytes:
    return v if isinstance(v, bytes) else str(v).encode("utf-8")


# -- join ------------------------------------------------------------------------------
def _join_kernel(*inputs, separator=""):
    sep = separator.encode("utf-8")
    shape = np.broadcast_shapes(*[np.shape(x) for x in inputs])
    parts = [np.broadcast_to(np.asarray(x, dtype=object), shape).reshape(-1) for x in inputs]
    out = np.empty(shape, dtype=object)
    flat = out.reshape(-1)
    for i in range(flat.size):
        flat[i] = sep.join(_as_bytes(p[i]) for p in parts)
    return out


def _join_shape(*inputs, separator=""):
    shape = inputs[0].shape
    for x in inputs[1:]:
        shape = broadcast_shapes(shape, x.shape)
    return shape, _dt.string


StringJoin = define("StringJoin", ("inputs*",), _join_kernel, _join_shape, None, dtypes=S)


def join(inputs, separator="", name=None):
    """Joins the strings of ``inputs`` element-wise with ``separator`` (op ``StringJoin``)."""
    return bind(StringJoin, tuple(inputs), {"separator": separator}, name)


# -- length, upper, lower ----------------------------------------------------------------
def _length_kernel(x, unit="BYTE"):
    if unit == "UTF8_CHAR":
        return _obj(lambda v: len(v.decode("utf-8")), x).astype(np.int32)
    return _obj(len, x).astype(np.int32)


StringLength = define("StringLength", ("input",), _length_kernel,
                      lambda x, unit="BYTE": (x.shape, _dt.int32), None, T=(0,), dtypes=S)


def length(input, unit="BYTE", name=None):  # noqa: A002 - TensorFlow's argument name
    """The length of each string in bytes, or in characters with ``unit="UTF8_CHAR"``."""
    if unit not in ("BYTE", "UTF8_CHAR"):
        raise ValueError(f"unit must be 'BYTE' or 'UTF8_CHAR', got {unit!r}")
    return bind(StringLength, (input,), {"unit": unit}, name)


def _case(fn):
    return lambda x, encoding="": _obj(lambda v: fn(v.decode("utf-8")).encode("utf-8"), x)


StringUpper = define("StringUpper", ("input",), _case(str.upper),
                     lambda x, encoding="": (x.shape, _dt.string), None, T=(0,), dtypes=S)
StringLower = define("StringLower", ("input",), _case(str.lower),
                     lambda x, encoding="": (x.shape, _dt.string), None, T=(0,), dtypes=S)


def upper(input, encoding="", name=None):  # noqa: A002
    """Upper-cases each string (op ``StringUpper``)."""
    return bind(StringUpper, (input,), {"encoding": encoding}, name)


def lower(input, encoding="", name=None):  # noqa: A002
    """Lower-cases each string (op ``StringLower``)."""
    return bind(StringLower, (input,), {"encoding": encoding}, name)


# -- to_number, as_string -------------------------------------------------------------------
def _to_number_kernel(x, out_type=_dt.float32):
    np_dt = out_type.np_dtype

    def one(v):
        text = v.decode("utf-8").strip()
        try:
            if out_type.is_integer:
                return np_dt.type(int(text))
            return np_dt.type(float(text))
        except (ValueError, OverflowError):
            raise InvalidArgumentError(
                None, None, f"StringToNumberOp could not correctly convert string: {text}"
            ) from None
    return _obj(one, x).astype(np_dt)


StringToNumber = define("StringToNumber", ("string_tensor",), _to_number_kernel,
                        lambda x, out_type=_dt.float32: (x.shape, out_type), None, T=(0,),
                        dtypes=S)


def to_number(input, out_type=_dt.float32, name=None):  # noqa: A002
    """Parses each string as a number of ``out_type`` (op ``StringToNumber``)."""
    out_type = _dt.as_dtype(out_type)
    if out_type not in _NUM_OUT:
        raise TypeError(f"Value for attr 'out_type' of {out_type.name} is not in the list of "
                        "allowed values: float, double, int32, int64")
    return bind(StringToNumber, (input,), {"out_type": out_type}, name)


def _as_string_kernel(x, precision=-1, scientific=False, shortest=False, width=-1, fill=""):
    def one(v):
        if isinstance(v, (bool, np.bool_)):
            text = "true" if v else "false"
        elif isinstance(v, (float, np.floating)):
            if shortest:
                text = f"{v:g}"
            elif precision >= 0:
                text = f"{v:.{precision}e}" if scientific else f"{v:.{precision}f}"
            else:
                text = f"{v:e}" if scientific else f"{v:f}"
        else:
            text = str(v)
        if width > 0:
            text = text.rjust(width, fill or " ")
        return text.encode("utf-8")
    return _obj(one, x)


AsString = define("AsString", ("input",), _as_string_kernel,
                  lambda x, **attrs: (x.shape, _dt.string), None, T=(0,),
                  dtypes=_dt.REAL_AND_BOOL)


def as_string(input, precision=-1, scientific=False, shortest=False, width=-1, fill="",
              name=None):  # noqa: A002
    """Each number as text; floats print six decimals by default, as TF's ``%f`` does."""
    return bind(AsString, (input,), {"precision": precision, "scientific": scientific,
                                     "shortest": shortest, "width": width, "fill": fill}, name)


# -- split ----------------------------------------------------------------------------------------
def _split_kernel(x, sep="", maxsplit=-1):
    text = x[()] if isinstance(x, np.ndarray) else x
    parts = text.split(sep.encode("utf-8") or None, maxsplit)
    out = np.empty(len(parts), dtype=object)
    out[:] = parts
    return out


def _split_shape(x, **attrs):
    known = constant_value(x)
    n = None if known is None else len(_split_kernel(known, **attrs))
    return TensorShape([n]), _dt.string


StringSplitScalar = define("StringSplitScalar", ("input",), _split_kernel, _split_shape, None,
                           T=(0,),
                           dtypes=S,
                           doc="tf.strings.split of a scalar: a 1-D string tensor of pieces.")


def _per_row(t, opdef, attrs, dtype, what):
    """Apply a scalar op to each string of a vector: a RaggedTensor (eager only)."""
    from . import ragged_ops
    if t.shape.rank != 1:
        raise NotImplementedError(f"tfgraph_edu's {what} takes a scalar or a vector of strings.")
    if _in_graph():
        raise NotImplementedError(f"tfgraph_edu's {what} of a vector gives a tf.RaggedTensor, "
                                  "which exists only eagerly here: call it outside tf.function.")
    rows = [np.asarray(opdef.kernel(np.array(v, dtype=object), **attrs))
            for v in t.numpy().tolist()]
    return ragged_ops.ragged_from_rows(rows, dtype)


def _in_graph() -> bool:
    from ._core import interpreter
    return not interpreter().executing_eagerly


def split(input, sep=None, maxsplit=-1, name=None):  # noqa: A002
    """Splits strings at ``sep`` (runs of whitespace when None): a 1-D tensor for a scalar,
    a ``tf.RaggedTensor`` (one row per string) for a vector."""
    from . import convert
    t = convert.to_tensor(input)
    attrs = {"sep": sep or "", "maxsplit": int(maxsplit)}
    if t.shape.rank == 0:
        return bind(StringSplitScalar, (t,), attrs, name)
    return _per_row(t, StringSplitScalar, attrs, _dt.string, "tf.strings.split")


def _bytes_split_kernel(x):
    text = x[()] if isinstance(x, np.ndarray) else x
    out = np.empty(len(text), dtype=object)
    out[:] = [bytes([b]) for b in text]
    return out


def _scalar_text(x, input_encoding, errors, replacement_char, replace_control_characters):
    raw = x[()] if isinstance(x, np.ndarray) else x
    return _decode_text(_as_bytes(raw), _in_codec(input_encoding), errors, replacement_char,
                        replace_control_characters)


def _unicode_split_kernel(x, input_encoding="UTF-8", errors="replace", replacement_char=65533):
    text = _scalar_text(x, input_encoding, errors, replacement_char, False)
    codec = _in_codec(input_encoding)
    out = np.empty(len(text), dtype=object)
    out[:] = [ch.encode(codec) for ch in text]
    return out


def _unicode_decode_kernel(x, input_encoding="UTF-8", errors="replace", replacement_char=65533,
                           replace_control_characters=False):
    text = _scalar_text(x, input_encoding, errors, replacement_char, replace_control_characters)
    return np.array([ord(ch) for ch in text], dtype=np.int32)


def _vector_shape(kernel, dtype):
    def rule(x, **attrs):
        known = constant_value(x)
        n = None if known is None else len(kernel(known, **attrs))
        return TensorShape([n]), dtype
    return rule


StringBytesSplit = define("StringBytesSplit", ("input",), _bytes_split_kernel,
                          _vector_shape(_bytes_split_kernel, _dt.string), None, T=(0,),
                          dtypes=S, doc="tf.strings.bytes_split of a scalar.")
UnicodeSplit = define("UnicodeSplit", ("input",), _unicode_split_kernel,
                      _vector_shape(_unicode_split_kernel, _dt.string), None, T=(0,),
                      dtypes=S, doc="tf.strings.unicode_split of a scalar.")
UnicodeDecode = define("UnicodeDecode", ("input",), _unicode_decode_kernel,
                       _vector_shape(_unicode_decode_kernel, _dt.int32), None, T=(0,),
                       dtypes=S, doc="tf.strings.unicode_decode of a scalar.")


def _encoding(input_encoding):
    _in_codec(input_encoding)  # NotImplementedError for an encoding Python is not told of
    return input_encoding


def _errors(errors, op="UnicodeDecode"):
    if errors not in ("strict", "replace", "ignore"):
        raise ValueError(f"Attr 'errors' of '{op}' Op passed string '{errors}' "
                         'not in: "strict", "replace", "ignore".')
    return errors


def bytes_split(input, name=None):  # noqa: A002
    """Each string as its single bytes (a RaggedTensor for a vector)."""
    from . import convert
    t = convert.to_tensor(input)
    if t.shape.rank == 0:
        return bind(StringBytesSplit, (t,), None, name)
    return _per_row(t, StringBytesSplit, {}, _dt.string, "tf.strings.bytes_split")


def unicode_split(input, input_encoding, errors="replace", replacement_char=65533,
                  name=None):  # noqa: A002
    """Each string as its characters, each encoded (a RaggedTensor for a vector)."""
    from . import convert
    t = convert.to_tensor(input)
    attrs = {"input_encoding": _encoding(input_encoding), "errors": _errors(errors),
             "replacement_char": int(replacement_char)}
    if t.shape.rank == 0:
        return bind(UnicodeSplit, (t,), attrs, name)
    return _per_row(t, UnicodeSplit, attrs, _dt.string, "tf.strings.unicode_split")


def unicode_decode(input, input_encoding, errors="replace", replacement_char=65533,
                   replace_control_characters=False, name=None):  # noqa: A002
    """Each string as its Unicode code points, int32 (a RaggedTensor for a vector)."""
    from . import convert
    t = convert.to_tensor(input)
    attrs = {"input_encoding": _encoding(input_encoding), "errors": _errors(errors),
             "replacement_char": int(replacement_char),
             "replace_control_characters": bool(replace_control_characters)}
    if t.shape.rank == 0:
        return bind(UnicodeDecode, (t,), attrs, name)
    return _per_row(t, UnicodeDecode, attrs, _dt.int32, "tf.strings.unicode_decode")


def _decode_raw_kernel(x, out_type=_dt.uint8, little_endian=True):
    arr = np.asarray(x, dtype=object)
    np_dt = np.dtype(out_type.np_dtype).newbyteorder("<" if little_endian else ">")
    rows = [np.frombuffer(v, dtype=np_dt).astype(out_type.np_dtype) for v in arr.reshape(-1)]
    if len({len(r) for r in rows}) > 1:
        raise InvalidArgumentError(None, None, "DecodeRaw requires input strings to all be the "
                                               "same size")
    width = len(rows[0]) if rows else 0
    return np.stack(rows).reshape(arr.shape + (width,)) if rows else np.zeros(
        arr.shape + (0,), out_type.np_dtype)


def _decode_raw_shape(x, out_type=_dt.uint8, little_endian=True):
    known = constant_value(x)
    width = None if known is None else _decode_raw_kernel(known, out_type).shape[-1]
    return x.shape.concatenate([width]), out_type


DecodeRaw = define("DecodeRaw", ("bytes",), _decode_raw_kernel, _decode_raw_shape, None,
                   T=(0,), dtypes=S)


def decode_raw(input_bytes, out_type, little_endian=True, fixed_length=None, name=None):
    """``tf.io.decode_raw``: the bytes of each string read as numbers of ``out_type``."""
    return bind(DecodeRaw, (input_bytes,), {"out_type": _dt.as_dtype(out_type),
                                            "little_endian": bool(little_endian)}, name)


# -- format ------------------------------------------------------------------------------------
def format(template, inputs, placeholder="{}", summarize=3, name=None):  # noqa: A001
    """Formats tensors into ``template`` as ``tf.print`` shows them (op ``StringFormat``)."""
    if not isinstance(inputs, (list, tuple)):
        inputs = [inputs]
    if template.count(placeholder) != len(inputs):
        raise ValueError(f"num placeholders in template and num inputs must match: "
                         f"{template.count(placeholder)} vs. {len(inputs)}")
    return bind(io_ops.StringFormat, tuple(inputs),
                {"template": template, "placeholder": placeholder,
                 "summarize": int(summarize)}, name)


# -- to_hash_bucket_strong -------------------------------------------------------------------------
def _hash_bucket_strong_kernel(x, num_buckets=1, key=()):
    from .siphash import siphash24
    if len(key) != 2:
        raise InvalidArgumentError(None, None, "Key must have 2 elements")
    return _obj(lambda v: siphash24(key[0], key[1], _as_bytes(v)) % num_buckets,
                x).astype(np.int64)


StringToHashBucketStrong = define(
    "StringToHashBucketStrong", ("input",), _hash_bucket_strong_kernel,
    lambda x, num_buckets=1, key=(): (x.shape, _dt.int64), None, dtypes=S,
    doc="tf.strings.to_hash_bucket_strong: SipHash-2-4(key, s) mod num_buckets.")


def to_hash_bucket_strong(input, num_buckets, key, name=None):  # noqa: A002
    """Each string's bucket, SipHash-2-4 of its bytes under the two key words, modulo
    ``num_buckets`` (op ``StringToHashBucketStrong``; the same buckets as TensorFlow's)."""
    from . import convert
    if int(num_buckets) < 1:
        raise InvalidArgumentError(
            None, None, f"Value for attr 'num_buckets' of {int(num_buckets)} must be at least "
            "minimum 1\n\t; NodeDef: {{node StringToHashBucketStrong}}")
    t = convert.to_tensor(input, dtype=_dt.string)
    return bind(StringToHashBucketStrong, (t,),
                {"num_buckets": int(num_buckets), "key": [int(k) for k in key]}, name)


# -- unicode_encode, unicode_transcode ------------------------------------------------------------
_OUT_ENCODINGS = ("UTF-8", "UTF-16-BE", "UTF-32-BE")  # TF's UnicodeEncode/Transcode allow these


def _check_out_encoding(op, encoding):
    if encoding not in _OUT_ENCODINGS:
        raise ValueError(f"Attr 'output_encoding' of '{op}' Op passed string '{encoding}' not "
                         'in: "UTF-8", "UTF-16-BE", "UTF-32-BE".')
    return encoding


def _valid_code_point(c: int) -> bool:
    return 0 <= c <= 0x10FFFF and not 0xD800 <= c <= 0xDFFF


def _unicode_encode_kernel(input_values, input_splits, output_encoding="UTF-8",
                           errors="replace", replacement_char=65533):
    splits = np.asarray(input_splits).tolist()
    values = np.asarray(input_values).tolist()
    out = np.empty(len(splits) - 1, dtype=object)
    for i in range(len(splits) - 1):
        chars = []
        for c in values[splits[i]:splits[i + 1]]:
            if _valid_code_point(c):
                chars.append(chr(c))
            elif errors == "strict":
                raise InvalidArgumentError(None, None, "Code point is out of range for Unicode,"
                                           " or is a surrogate.")
            elif errors == "replace":
                chars.append(chr(replacement_char))
        out[i] = "".join(chars).encode(output_encoding.lower())
    return out


def _unicode_encode_shape(input_values, input_splits, **attrs):
    n = input_splits.shape.dims[0] if input_splits.shape.rank == 1 else None
    return TensorShape([None if n is None else n - 1]), _dt.string


UnicodeEncode = define(
    "UnicodeEncode", ("input_values", "input_splits"), _unicode_encode_kernel,
    _unicode_encode_shape, None, dtypes=frozenset({_dt.int32}),
    doc="tf.strings.unicode_encode: each row of code points (values cut by splits), encoded.")


def unicode_encode(input, output_encoding, errors="replace", replacement_char=65533,
                   name=None):  # noqa: A002
    """Code points (int32, last axis the characters) to strings, one axis fewer
    (op ``UnicodeEncode``, fed flat values and row splits as in TensorFlow)."""
    from . import convert, shape_ops
    _check_out_encoding("UnicodeEncode", output_encoding)
    attrs = {"output_encoding": output_encoding, "errors": errors,
             "replacement_char": int(replacement_char)}
    if hasattr(input, "row_splits") and hasattr(input, "values"):  # a RaggedTensor
        if getattr(input, "ragged_rank", 1) != 1:
            raise NotImplementedError("tfgraph_edu's tf.strings.unicode_encode takes a "
                                      "RaggedTensor of one ragged dimension only.")
        return bind(UnicodeEncode, (input.values, input.row_splits), attrs, name)
    t = convert.to_tensor(input)
    if t.dtype != _dt.int32:
        raise InvalidArgumentError(
            None, None, "cannot compute UnicodeEncode as input #0(zero-based) was expected to "
            f"be a int32 tensor but is a {t.dtype.name.rstrip('0123456789')} tensor")
    if t.shape.rank is None or t.shape.rank == 0 or None in t.shape.as_list():
        raise NotImplementedError("tfgraph_edu's tf.strings.unicode_encode needs a tensor of "
                                  "rank >= 1 whose shape is known.")
    dims = t.shape.as_list()
    rows, width = int(np.prod(dims[:-1], dtype=np.int64)), dims[-1]
    splits = convert.to_tensor(np.arange(rows + 1, dtype=np.int64) * width)
    flat = shape_ops.reshape(t, [-1])
    out = bind(UnicodeEncode, (flat, splits), attrs, name)
    return shape_ops.reshape(out, dims[:-1])


_IN_CODECS = {"UTF8": "utf-8", "UTF16BE": "utf-16-be", "UTF16LE": "utf-16-le",
              "UTF32BE": "utf-32-be", "UTF32LE": "utf-32-le", "UTF16": "utf-16",
              "UTF32": "utf-32", "ISO88591": "latin-1", "LATIN1": "latin-1",
              "USASCII": "ascii", "ASCII": "ascii"}


def _in_codec(encoding: str) -> str:
    try:
        return _IN_CODECS[encoding.upper().replace("-", "").replace("_", "")]
    except KeyError:
        raise NotImplementedError(f"tfgraph_edu reads the encodings {sorted(_IN_CODECS)} only, "
                                  f"not {encoding!r}.") from None


def _decode_text(raw: bytes, codec: str, errors: str, replacement_char: int,
                 replace_control_characters: bool) -> str:
    if errors == "strict":
        try:
            text = raw.decode(codec)
        except UnicodeDecodeError:
            raise InvalidArgumentError(None, None, "Invalid formatting on input string") from None
    else:
        text = raw.decode(codec, "replace" if errors == "replace" else "ignore")
        if errors == "replace" and replacement_char != 0xFFFD:
            # Python's "replace" marks each bad sequence U+FFFD; a real U+FFFD in the
            # input is kept as is, so only the marks Python made are changed
            good = raw.decode(codec, "ignore")
            text = _remark(text, good, chr(replacement_char))
    if replace_control_characters:
        text = "".join(chr(replacement_char) if ord(ch) < 0x20 else ch for ch in text)
    return text


def _remark(marked: str, clean: str, mark: str) -> str:
    """``marked`` with the U+FFFD characters ``clean`` lacks turned into ``mark``."""
    out, j = [], 0
    for ch in marked:
        if j < len(clean) and ch == clean[j]:
            out.append(ch)
            j += 1
        else:
            out.append(mark)
    return "".join(out)


def _transcode_kernel(x, input_encoding="UTF-8", output_encoding="UTF-8", errors="replace",
                      replacement_char=65533, replace_control_characters=False):
    codec = _in_codec(input_encoding)
    return _obj(lambda v: _decode_text(_as_bytes(v), codec, errors, replacement_char,
                                       replace_control_characters
                                       ).encode(output_encoding.lower()), x)


UnicodeTranscode = define(
    "UnicodeTranscode", ("input",), _transcode_kernel,
    lambda x, **attrs: (x.shape, _dt.string), None, dtypes=S,
    doc="tf.strings.unicode_transcode: each string decoded and encoded again.")


def unicode_transcode(input, input_encoding, output_encoding, errors="replace",
                      replacement_char=65533, replace_control_characters=False,
                      name=None):  # noqa: A002
    """Each string re-encoded from ``input_encoding`` to ``output_encoding`` (op
    ``UnicodeTranscode``); bad input replaced, dropped or refused as ``errors`` says."""
    from . import convert
    _check_out_encoding("UnicodeTranscode", output_encoding)
    _in_codec(input_encoding)
    _errors(errors, "UnicodeTranscode")
    t = convert.to_tensor(input, dtype=_dt.string)
    return bind(UnicodeTranscode, (t,), {
        "input_encoding": input_encoding, "output_encoding": output_encoding,
        "errors": errors, "replacement_char": int(replacement_char),
        "replace_control_characters": bool(replace_control_characters)}, name)
