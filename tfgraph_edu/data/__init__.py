"""``tf.data``: Dataset pipelines, iterated eagerly or as a loop inside tf.function."""

from .._missing import Namespace as _Namespace
from .._missing import module_getattr as _module_getattr
from .csv_dataset import CsvDataset
from .dataset import AUTOTUNE, INFINITE, UNKNOWN, Dataset, DatasetSpec  # noqa: F401
from .text_line import TextLineDataset  # noqa: F401

INFINITE_CARDINALITY = INFINITE
UNKNOWN_CARDINALITY = UNKNOWN


def dense_to_ragged_batch(batch_size, drop_remainder=False, row_splits_dtype=None):
    """``tf.data.experimental.dense_to_ragged_batch``: for ``Dataset.apply``; components
    of shapes not fully known batch into RaggedTensors (``Dataset.ragged_batch``)."""
    return lambda ds: ds.ragged_batch(batch_size, drop_remainder)


experimental = _Namespace("data.experimental", AUTOTUNE=AUTOTUNE, CsvDataset=CsvDataset,
                          dense_to_ragged_batch=dense_to_ragged_batch,
                          INFINITE_CARDINALITY=INFINITE,
                          UNKNOWN_CARDINALITY=UNKNOWN)


__getattr__ = _module_getattr("data", __name__)
