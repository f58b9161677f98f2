"""``tf.data.TextLineDataset``: the lines of text files, one scalar string per line (layer 10).

As TensorFlow's: files are read in the order given, each line without its line ending
(``\\n`` or ``\\r\\n``); ``compression_type`` may be ``""``, ``"GZIP"`` or ``"ZLIB"``.  A file
that cannot be opened is TF's ``NotFoundError`` when the dataset is iterated, not when it is
made.  The files are read again at every pass.
"""

from __future__ import annotations

import gzip
import zlib

import numpy as np

from .. import dtypes as _dt
from ..errors import NotFoundError
from ..shapes import TensorSpec
from .dataset import UNKNOWN, Dataset


def _names(filenames) -> list[str]:
    if hasattr(filenames, "numpy"):
        filenames = filenames.numpy()
    arr = np.asarray(filenames, dtype=object).reshape(-1)
    if arr.size == 0:
        raise ValueError("`filenames` must be a non-empty string or list of strings.")
    return [f.decode() if isinstance(f, bytes) else str(f) for f in arr]


class TextLineDataset(Dataset):
    _name = "TextLineDatasetV2"

    def __init__(self, filenames, compression_type=None, buffer_size=None,
                 num_parallel_reads=None, name=None):
        super().__init__(TensorSpec([], _dt.string), UNKNOWN)
        self._files = _names(filenames)
        self._compression = (compression_type or "").upper()
        if self._compression not in ("", "GZIP", "ZLIB"):
            raise ValueError(f"Unsupported compression_type: {compression_type}.")

    def _read(self, path: str) -> bytes:
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError:
            raise NotFoundError(None, None, f"{path}; No such file or directory") from None
        if self._compression == "GZIP":
            return gzip.decompress(data)
        if self._compression == "ZLIB":
            return zlib.decompress(data)
        return data

    def _flat_iter(self):
        for path in self._files:
            data = self._read(path)
            lines = data.split(b"\n")
            if lines and lines[-1] == b"":
                lines.pop()  # the file's last line ending
            for line in lines:
                yield [np.asarray(line[:-1] if line.endswith(b"\r") else line)]
