"""Dataset iteration inside graphs: ``for x in dataset`` in a tf.function (layer 1).

A dataset enters a graph as a ``Const`` of dtype ``variant`` holding the pipeline
(a :class:`DatasetValue`).  ``MakeIterator`` starts a fresh pass over it each time
the graph runs (so a shuffled dataset reshuffles on every call, as in TensorFlow),
``IteratorHasNext`` looks ahead without consuming, and ``IteratorGetNext``
returns the next element's components.  All three are stateful, so they run in
program order on every iteration of the While loop AutoGraph builds.

Deliberate departure: TensorFlow's loop uses ``AnonymousIteratorV3``/``MakeIterator``
and ``IteratorGetNextAsOptional`` + ``OptionalHasValue``; here the look-ahead is one
op, ``IteratorHasNext``, so the element never has to be a loop variable.
"""

from __future__ import annotations

import numpy as np

from .. import dtypes as _dt
from ..errors import OutOfRangeError
from ..shapes import TensorShape
from ._core import define

DATASET_KEY = "dataset"
ITERATOR_KEY = "dataset-iterator"
_dt.NP_TO_DTYPE[DATASET_KEY] = _dt.variant
_dt.NP_TO_DTYPE[ITERATOR_KEY] = _dt.resource


class DatasetValue:
    """A dataset as a graph value: ``make_iterator()`` gives a Python iterator of flat
    lists of numpy arrays (one per component)."""

    __slots__ = ("make_iterator", "description")
    dtype = DATASET_KEY
    shape = ()
    ndim = 0

    def __init__(self, make_iterator, description):
        self.make_iterator = make_iterator
        self.description = description

    def __repr__(self):
        return f"<dataset {self.description}>"


class IteratorValue:
    """One pass over a dataset, with one element of look-ahead."""

    __slots__ = ("_it", "_next")
    dtype = ITERATOR_KEY
    shape = ()
    ndim = 0
    _END = object()

    def __init__(self, it):
        self._it = it
        self._next = None

    def has_next(self) -> bool:
        if self._next is None:
            self._next = next(self._it, self._END)
        return self._next is not self._END

    def get_next(self):
        if not self.has_next():
            raise OutOfRangeError(None, None, "End of sequence")
        value, self._next = self._next, None
        return value


def _scalar_shape(*_, **__):
    return TensorShape([]), _dt.resource


MakeIterator = define("MakeIterator", ("dataset",),
                      lambda ds: IteratorValue(iter(ds.make_iterator())), _scalar_shape, None,
                      stateful=True, state="iterator")
IteratorHasNext = define("IteratorHasNext", ("iterator",),
                         lambda it: np.bool_(it.has_next()),
                         lambda it: (TensorShape([]), _dt.bool), None, stateful=True,
                         state="iterator")


def _get_next_kernel(it, output_types=(), output_shapes=()):
    values = []
    for v in it.get_next():  # a composite element (a SparseTensor's) comes as a tuple of
        values.extend(v if isinstance(v, tuple) else (v,))  # its component arrays
    return tuple(values) if len(values) != 1 else values[0]


def _get_next_shape(it, output_types=(), output_shapes=()):
    return [(TensorShape(s), t) for s, t in zip(output_shapes, output_types)]


IteratorGetNext = define("IteratorGetNext", ("iterator",), _get_next_kernel, _get_next_shape,
                         None, stateful=True, state="iterator",
                         num_outputs=lambda a: len(a["output_types"]))
