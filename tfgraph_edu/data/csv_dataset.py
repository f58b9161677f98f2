"""``tf.data.experimental.CsvDataset``: the records of CSV files, one tuple of scalars per
line (layer 10).

As TensorFlow's: ``record_defaults`` gives one entry per column read - a value (its dtype
is the column's, and it fills an empty field) or a dtype (the field is required: an empty
one is TF's ``InvalidArgumentError``); ``select_cols`` picks columns by index; ``header``
skips each file's first line; fields may be quoted (``use_quote_delim``); ``na_value``
counts as empty.  Files are read when the dataset is iterated (a missing file is TF's
``NotFoundError`` then, not when it is made), like ``TextLineDataset``.
"""

from __future__ import annotations

import csv

import numpy as np

from .. import dtypes as _dt
from ..errors import InvalidArgumentError
from ..ops import convert
from ..shapes import TensorSpec
from .dataset import UNKNOWN
from .text_line import TextLineDataset

_TYPES = (_dt.int32, _dt.int64, _dt.float32, _dt.float64, _dt.string)


class CsvDataset(TextLineDataset):
    _name = "CsvDatasetV2"

    def __init__(self, filenames, record_defaults, compression_type=None, buffer_size=None,
                 header=False, field_delim=",", use_quote_delim=True, na_value="",
                 select_cols=None, exclude_cols=None, name=None):
        super().__init__(filenames, compression_type)
        if exclude_cols is not None:
            raise NotImplementedError("tfgraph_edu's CsvDataset does not take exclude_cols "
                                      "yet.")
        self._defaults = []  # (dtype, default value or None)
        for d in record_defaults:
            if isinstance(d, _dt.DType) or (isinstance(d, type) and d in (int, float, str)):
                dtype, value = _dt.as_dtype(d), None
            else:
                t = convert.to_tensor(d)
                dtype, value = t.dtype, t.numpy()
                if np.asarray(value).size == 0:
                    value = None
            if dtype not in _TYPES:
                raise TypeError(f"CsvDataset takes int32, int64, float32, float64 or string "
                                f"columns, got {dtype.name}.")
            self._defaults.append((dtype, value))
        self._cols = None if select_cols is None else [int(c) for c in select_cols]
        if self._cols is not None and len(self._cols) != len(self._defaults):
            raise ValueError("Expected the same number of record_defaults and select_cols.")
        self._header, self._delim = bool(header), field_delim
        self._quote, self._na = bool(use_quote_delim), na_value
        self._element_spec = tuple(TensorSpec([], d) for d, _ in self._defaults)
        self._cardinality = UNKNOWN

    def _flat_iter(self):
        for path in self._files:
            lines = self._read(path).decode("utf-8").splitlines()
            if self._header:
                lines = lines[1:]
            reader = csv.reader(lines, delimiter=self._delim,
                                quoting=csv.QUOTE_MINIMAL if self._quote else csv.QUOTE_NONE)
            for row in reader:
                fields = row if self._cols is None else [
                    row[c] if c < len(row) else "" for c in self._cols]
                if len(fields) != len(self._defaults):
                    raise InvalidArgumentError(None, None, f"Expect {len(self._defaults)} "
                                                           f"fields but have {len(fields)} in "
                                                           "record")
                yield [self._parse(i, f) for i, f in enumerate(fields)]

    def _parse(self, i, field):
        dtype, default = self._defaults[i]
        if field == "" or field == self._na:
            if default is None:
                raise InvalidArgumentError(None, None, f"Field {i} is required but missing in "
                                                       "record!")
            return np.asarray(default, dtype=dtype.np_dtype if dtype is not _dt.string
                              else object)
        if dtype is _dt.string:
            return np.asarray(field.encode(), dtype=object)
        try:
            value = float(field) if dtype.is_floating else int(field)
        except ValueError:
            raise InvalidArgumentError(None, None, f"Field {i} in record is not a valid "
                                                   f"{dtype.name}: {field}") from None
        return np.asarray(value, dtype=dtype.np_dtype)
