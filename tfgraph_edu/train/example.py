"""``tf.train.Example`` and its parts as protobuf messages, and ``tf.io.parse_example`` of
them (``RaggedFeature``, ``FixedLenFeature``), eagerly.

The messages are TensorFlow's ``tensorflow.Example`` schema (``feature.proto``,
``example.proto``), described here as data and built in a private descriptor pool by the
``protobuf`` package (extra ``tf-files``), so their bytes are TF's and they work with
``google.protobuf.text_format``.  Parsing reads the bytes with protobuf (data, never code).
"""

from __future__ import annotations

import functools

import numpy as np

from .. import dtypes as _dt
from ..errors import InvalidArgumentError

NAMES = ("BytesList", "FloatList", "Int64List", "Feature", "Features", "FeatureList",
         "FeatureLists", "Example", "SequenceExample")

# (message, [(field, number, label, type, type_name, oneof index)]): the schema of TF's
# feature.proto and example.proto
_REPEATED, _OPTIONAL = 3, 1
_BYTES, _FLOAT, _INT64, _MESSAGE, _STRING = 12, 2, 3, 11, 9
_SCHEMA = (
    ("BytesList", [("value", 1, _REPEATED, _BYTES, None, None)]),
    ("FloatList", [("value", 1, _REPEATED, _FLOAT, None, None)]),
    ("Int64List", [("value", 1, _REPEATED, _INT64, None, None)]),
    ("Feature", [("bytes_list", 1, _OPTIONAL, _MESSAGE, "BytesList", 0),
                 ("float_list", 2, _OPTIONAL, _MESSAGE, "FloatList", 0),
                 ("int64_list", 3, _OPTIONAL, _MESSAGE, "Int64List", 0)]),
    ("Features", [("feature", 1, _REPEATED, _MESSAGE, "Features.FeatureEntry", None)]),
    ("FeatureList", [("feature", 1, _REPEATED, _MESSAGE, "Feature", None)]),
    ("FeatureLists", [("feature_list", 1, _REPEATED, _MESSAGE,
                       "FeatureLists.FeatureListEntry", None)]),
    ("Example", [("features", 1, _OPTIONAL, _MESSAGE, "Features", None)]),
    ("SequenceExample", [("context", 1, _OPTIONAL, _MESSAGE, "Features", None),
                         ("feature_lists", 2, _OPTIONAL, _MESSAGE, "FeatureLists", None)]),
)
_MAPS = {"Features": ("FeatureEntry", "Feature"),
         "FeatureLists": ("FeatureListEntry", "FeatureList")}


@functools.cache
def _classes() -> dict:
    try:
        from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
    except ImportError as e:  # pragma: no cover - protobuf is in the tf-files extra
        raise AttributeError("tf.train.Example needs the protobuf package: pip install "
                             "'tfgraph_edu[tf-files]'") from e
    f = descriptor_pb2.FileDescriptorProto(name="tfgraph_edu/example.proto",
                                           package="tensorflow", syntax="proto3")
    for name, fields in _SCHEMA:
        m = f.message_type.add(name=name)
        if name == "Feature":
            m.oneof_decl.add(name="kind")
        if name in _MAPS:
            entry, value = _MAPS[name]
            e = m.nested_type.add(name=entry)
            e.options.map_entry = True
            e.field.add(name="key", number=1, label=_OPTIONAL, type=_STRING)
            e.field.add(name="value", number=2, label=_OPTIONAL, type=_MESSAGE,
                        type_name=f".tensorflow.{value}")
        for fname, number, label, ftype, type_name, oneof in fields:
            fd = m.field.add(name=fname, number=number, label=label, type=ftype)
            if type_name:
                fd.type_name = f".tensorflow.{type_name}"
            if oneof is not None:
                fd.oneof_index = oneof
    pool = descriptor_pool.DescriptorPool()
    pool.Add(f)
    return {n: message_factory.GetMessageClass(pool.FindMessageTypeByName(f"tensorflow.{n}"))
            for n in NAMES}


def proto_class(name: str):
    return _classes()[name]


# -- tf.io features and parse_example ------------------------------------------------------------
class RaggedFeature:
    """``tf.io.RaggedFeature``: a feature read as one ragged row per example."""

    def __init__(self, dtype, value_key=None, partitions=(), row_splits_dtype=_dt.int32,
                 validate=False):
        self.dtype = _dt.as_dtype(dtype)
        self.value_key = value_key
        self.partitions = tuple(partitions)
        self.row_splits_dtype = _dt.as_dtype(row_splits_dtype)
        self.validate = validate
        if self.partitions:
            raise NotImplementedError("tfgraph_edu's tf.io.RaggedFeature does not take "
                                      "partitions yet.")

    def __repr__(self):
        return (f"RaggedFeature(dtype=tf.{self.dtype.name}, value_key={self.value_key!r}, "
                f"partitions={self.partitions}, row_splits_dtype=tf."
                f"{self.row_splits_dtype.name}, validate={self.validate})")


class FixedLenFeature:
    """``tf.io.FixedLenFeature``: a feature of a fixed shape in every example."""

    def __init__(self, shape, dtype, default_value=None):
        self.shape = tuple(int(d) for d in shape)
        self.dtype = _dt.as_dtype(dtype)
        self.default_value = default_value

    def __repr__(self):
        return (f"FixedLenFeature(shape={self.shape}, dtype=tf.{self.dtype.name}, "
                f"default_value={self.default_value})")


_KINDS = {"string": "bytes_list", "int64": "int64_list", "float32": "float_list"}


def _values(example, key, dtype, index):
    feats = example.features.feature
    if key not in feats:
        return None
    feature = feats[key]
    kind = feature.WhichOneof("kind")
    want = _KINDS.get(dtype.name)
    if want is None:
        raise ValueError(f"Unsupported dtype {dtype.name} for a feature (tf.string, tf.int64 "
                         "and tf.float32 are)")
    if kind is None:
        return []
    if kind != want:
        actual = {v: k for k, v in _KINDS.items()}[kind]
        raise InvalidArgumentError(None, None, f"Name: <unknown>, Key: {key}, Index: {index}. "
                                               f" Data types don't match. Expected type: "
                                               f"{dtype.name}, Actual type: {actual}")
    return list(getattr(feature, kind).value)


def parse_example(serialized, features, example_names=None, name=None):
    """``tf.io.parse_example``: a dict of the ``features`` read from serialized Examples
    (eagerly)."""
    from ..ops import convert
    from ..ops.ragged_ops import ragged_from_rows
    t = convert.to_tensor(serialized, dtype=_dt.string)
    if not hasattr(t, "numpy"):
        raise NotImplementedError("tfgraph_edu's tf.io.parse_example runs eagerly only (not "
                                  "inside a tf.function) yet.")
    if t.shape.rank != 1:
        raise NotImplementedError("tfgraph_edu's tf.io.parse_example takes a vector of "
                                  "serialized Examples only yet.")
    cls = proto_class("Example")
    examples = [cls.FromString(bytes(b)) for b in t.numpy().tolist()]
    out = {}
    for key, spec in features.items():
        if isinstance(spec, RaggedFeature):
            vkey = spec.value_key or key
            rows = []
            for i, ex in enumerate(examples):
                vals = _values(ex, vkey, spec.dtype, i) or []
                rows.append(np.asarray(vals, dtype=object if spec.dtype is _dt.string
                                       else spec.dtype.np_dtype))
            out[key] = ragged_from_rows(rows, spec.dtype)
        elif isinstance(spec, FixedLenFeature):
            size = int(np.prod(spec.shape)) if spec.shape else 1
            rows = []
            for i, ex in enumerate(examples):
                vals = _values(ex, key, spec.dtype, i)
                if vals is None:
                    if spec.default_value is None:
                        raise InvalidArgumentError(
                            None, None, f"Name: <unknown>, Feature: {key} (data type: "
                                        f"{spec.dtype.name}) is required but could not be found.")
                    vals = list(np.broadcast_to(spec.default_value, spec.shape).reshape(-1))
                if len(vals) != size:
                    raise InvalidArgumentError(
                        None, None, f"Name: <unknown>, Key: {key}, Index: {i}.  Number of "
                                    f"values != expected.  values size: {len(vals)} but "
                                    f"output shape: {list(spec.shape)}")
                rows.append(np.asarray(vals, dtype=object if spec.dtype is _dt.string
                                       else spec.dtype.np_dtype).reshape(spec.shape))
            arr = np.stack(rows) if rows else np.zeros((0,) + spec.shape,
                                                       spec.dtype.np_dtype)
            out[key] = convert.constant(arr, spec.dtype)
        else:
            raise NotImplementedError(f"tfgraph_edu's tf.io.parse_example takes RaggedFeature "
                                      f"and FixedLenFeature only yet, not "
                                      f"{type(spec).__name__}.")
    return out
