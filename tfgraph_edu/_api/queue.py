"""``tf.queue``: ``FIFOQueue``, eagerly (course material, issue 25).

A queue holds tuples of tensors (one per component dtype) first in, first out, up to its
capacity.  Where TensorFlow would wait (enqueue into a full queue, dequeue from an empty
open one), nothing else could ever fill or empty it in a notebook's single thread: tfgraph_edu
raises instead of hanging, and says so.  Queues inside a ``tf.function`` (TF's resource ops
``QueueEnqueueV2``...) are not implemented: they raise naming the API.
"""

from __future__ import annotations

from .. import dtypes as _dt
from .._missing import module_getattr as _module_getattr
from ..errors import CancelledError, InvalidArgumentError, OutOfRangeError
from ..ops import concat_ops
from ..ops.convert import to_tensor
from ..shapes import TensorShape

_COUNT = [0]


def _eager_only(method: str) -> None:
    from ..eager.dispatch import executing_eagerly
    if not executing_eagerly():
        raise NotImplementedError(f"tfgraph_edu's tf.queue.FIFOQueue.{method} runs eagerly "
                                  "only: queues inside a tf.function are not implemented yet.")


class FIFOQueue:
    """``tf.queue.FIFOQueue(capacity, dtypes, shapes=None, names=None)``."""

    def __init__(self, capacity, dtypes, shapes=None, names=None, shared_name=None,
                 name="fifo_queue"):
        _eager_only("__init__")
        single = not isinstance(dtypes, (list, tuple))
        self._dtypes = [_dt.as_dtype(d) for d in ([dtypes] if single else dtypes)]
        if shapes is not None:
            shapes = [shapes] if single else list(shapes)
            if len(shapes) != len(self._dtypes):
                raise ValueError("Queue shapes must have the same length as dtypes")
            self._shapes = [TensorShape(s) for s in shapes]
        else:
            self._shapes = [TensorShape(None) for _ in self._dtypes]
        self._names = None if names is None else ([names] if single else list(names))
        self._capacity = int(capacity)
        self._items: list[list] = []
        self._closed = False
        _COUNT[0] += 1
        self._id = _COUNT[0]
        self._name = name

    dtypes = property(lambda self: list(self._dtypes))
    shapes = property(lambda self: list(self._shapes))
    names = property(lambda self: self._names)
    name = property(lambda self: self._name)

    def _components(self, vals, many: bool):
        if self._names is not None:
            if not isinstance(vals, dict):
                raise ValueError("Queue must have names to enqueue a dictionary")
            vals = [vals[n] for n in self._names]
        elif not isinstance(vals, (list, tuple)):  # a list or tuple is the components
            vals = [vals]
        if len(vals) != len(self._dtypes):
            raise ValueError(f"Expected {len(self._dtypes)} components, got {len(vals)}")
        out = []
        for v, dtype, shape in zip(vals, self._dtypes, self._shapes):
            t = to_tensor(v, dtype)
            element = t.shape[1:] if many else t.shape
            if shape.rank is not None:
                element.assert_is_compatible_with(shape)
            out.append(t)
        return out

    def enqueue(self, vals, name=None):
        _eager_only("enqueue")
        parts = self._components(vals, many=False)
        self._put([parts])

    def enqueue_many(self, vals, name=None):
        _eager_only("enqueue_many")
        parts = self._components(vals, many=True)
        n = {int(p.shape[0]) for p in parts}
        if len(n) != 1:
            raise InvalidArgumentError(None, None, "Shape mismatch in tuple component: all "
                                       "components need the same first dimension")
        self._put([[p[i] for p in parts] for i in range(n.pop())])

    def _put(self, rows):
        if self._closed:
            raise CancelledError(None, None, f"FIFOQueue '{self._id}' is closed.")
        if len(self._items) + len(rows) > self._capacity:
            raise NotImplementedError(
                f"FIFOQueue '{self._id}' is full (capacity {self._capacity}): TensorFlow would "
                "wait here until another thread dequeues, forever in a single-threaded "
                "notebook; tfgraph_edu stops instead.")
        self._items.extend(rows)

    def _take(self, n: int, what: str):
        if len(self._items) < n:
            if self._closed:
                raise OutOfRangeError(None, None, f"FIFOQueue '{self._id}' is closed and has "
                                      f"insufficient elements (requested {n}, current size "
                                      f"{len(self._items)})")
            raise NotImplementedError(
                f"FIFOQueue '{self._id}' holds {len(self._items)} element(s) and {what} asks "
                f"for {n}: TensorFlow would wait here until another thread enqueues, forever "
                "in a single-threaded notebook; tfgraph_edu stops instead.")
        rows, self._items = self._items[:n], self._items[n:]
        return rows

    def _result(self, parts):
        if self._names is not None:
            return dict(zip(self._names, parts))
        return parts[0] if len(parts) == 1 else list(parts)

    def dequeue(self, name=None):
        _eager_only("dequeue")
        (row,) = self._take(1, "dequeue")
        return self._result(row)

    def _check_shapes(self):
        if any(s.rank is None or not s.is_fully_defined() for s in self._shapes):
            raise InvalidArgumentError(None, None, "FIFOQueue's DequeueMany and DequeueUpTo "
                                       "require the components to have specified shapes.")

    def dequeue_many(self, n, name=None):
        _eager_only("dequeue_many")
        self._check_shapes()
        rows = self._take(int(n), "dequeue_many")
        return self._result([concat_ops.stack([r[i] for r in rows])
                             for i in range(len(self._dtypes))])

    def dequeue_up_to(self, n, name=None):
        _eager_only("dequeue_up_to")
        self._check_shapes()
        n = int(n)
        if len(self._items) < n and self._closed and self._items:
            n = len(self._items)
        rows = self._take(n, "dequeue_up_to")
        return self._result([concat_ops.stack([r[i] for r in rows])
                             for i in range(len(self._dtypes))])

    def size(self, name=None):
        _eager_only("size")
        return to_tensor(len(self._items), _dt.int32)

    def close(self, cancel_pending_enqueues=False, name=None):
        _eager_only("close")
        self._closed = True

    def is_closed(self, name=None):
        return to_tensor(self._closed, _dt.bool)


__getattr__ = _module_getattr("queue", __name__)
