"""``tf.distribute`` on one machine with one CPU: every strategy has one replica (layer 11).

The default strategy, ``OneDeviceStrategy`` and ``MirroredStrategy`` over this machine's CPU
keep TensorFlow's single-replica semantics: ``run`` calls the function once (converted by
AutoGraph inside a ``tf.function``), ``reduce`` of one replica's value is the value (reduced
over ``axis`` when one is given), a distributed dataset yields the dataset's own batches, and
``MirroredStrategy``'s scope makes ``MirroredVariable``s with one component.  Strategies that
need other machines, accelerators or a cluster raise ``NotImplementedError``.
"""

from __future__ import annotations

import enum
import threading
from contextlib import contextmanager

from ..autograph import conversion
from ..eager.variables import VARIABLE_CLASS, ResourceVariable
from ..ops import convert, reduction_ops
from ..tracing.graph_builder import building_graph

_CPU = "/job:localhost/replica:0/task:0/device:CPU:0"
_LOCAL = threading.local()


class ReduceOp(enum.Enum):
    """How ``Strategy.reduce`` combines the replicas' values."""

    SUM = "SUM"
    MEAN = "MEAN"


def _stack() -> list:
    if not hasattr(_LOCAL, "stack"):
        _LOCAL.stack = []  # (strategy, "cross" | "replica") entered, innermost last
    return _LOCAL.stack


class ReplicaContext:
    """The context ``strategy.run``'s function runs in: replica 0 of 1."""

    def __init__(self, strategy):
        self._strategy = strategy

    @property
    def strategy(self):
        return self._strategy

    @property
    def num_replicas_in_sync(self):
        return 1

    @property
    def replica_id_in_sync_group(self):
        return convert.constant(0)

    def all_reduce(self, reduce_op, value, options=None):
        del reduce_op, options
        return value  # one replica: the sum and the mean of one value are the value

    def merge_call(self, merge_fn, args=(), kwargs=None):
        return merge_fn(self._strategy, *args, **(kwargs or {}))


class _DefaultReplicaContext(ReplicaContext):
    """The replica context outside every strategy's scope (TF's class name)."""


class StrategyExtended:
    def __init__(self, strategy):
        self._strategy = strategy

    @property
    def worker_devices(self):
        return (_CPU,)

    @property
    def parameter_devices(self):
        return (_CPU,)


class _DefaultDistributionExtended(StrategyExtended):
    pass


class DistributedIterator:
    """Iterator of a distributed dataset: one replica, so each element is the batch."""

    def __init__(self, dataset):
        self._it = iter(dataset)
        self._dataset = dataset

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._it)

    def get_next(self):
        return next(self._it)

    def get_next_as_optional(self):
        return self._it.get_next_as_optional()

    @property
    def element_spec(self):
        return self._dataset.element_spec


class DistributedDataset:
    """``strategy.experimental_distribute_dataset(ds)``: the batches of ``ds``, each one
    replica's; ``for x in it`` inside a ``tf.function`` is the dataset's graph loop."""

    def __init__(self, dataset, strategy):
        self._dataset = dataset
        self._strategy = strategy

    def __iter__(self):
        return DistributedIterator(self._dataset)

    @property
    def element_spec(self):
        return self._dataset.element_spec

    def reduce(self, initial_state, reduce_func):
        return self._dataset.reduce(initial_state, reduce_func)

    def _tf_dataset_for_stmt(self, *args):
        return self._dataset._tf_dataset_for_stmt(*args)


class InputContext:
    """What ``distribute_datasets_from_function`` passes to its function."""

    def __init__(self):
        self.num_input_pipelines = 1
        self.input_pipeline_id = 0
        self.num_replicas_in_sync = 1

    def get_per_replica_batch_size(self, global_batch_size):
        return global_batch_size


class Strategy:
    """A distribution strategy with one replica on this machine's CPU."""

    _variable_class = None  # what tf.Variable makes in the scope (None: ResourceVariable)

    def __init__(self):
        self._extended = StrategyExtended(self)

    @property
    def extended(self):
        return self._extended

    @property
    def num_replicas_in_sync(self):
        return 1

    @contextmanager
    def _entered(self, kind):
        stack = _stack()
        stack.append((self, kind))
        token = VARIABLE_CLASS.set(self._variable_class)
        try:
            yield
        finally:
            VARIABLE_CLASS.reset(token)
            stack.pop()

    @contextmanager
    def scope(self):
        """Variables made inside belong to this strategy; ``get_strategy()`` returns it."""
        current = get_strategy()
        if current is not self and not isinstance(current, _DefaultDistributionStrategy):
            raise ValueError("Mixing different tf.distribute.Strategy objects: "
                             f"{current!r} is not {self!r}. Leave the other strategy's "
                             "scope first.")
        with self._entered("cross"):
            yield self

    def run(self, fn, args=(), kwargs=None, options=None):
        """``fn(*args, **kwargs)`` on the one replica (converted by AutoGraph inside a
        ``tf.function``, as TF does)."""
        del options
        if building_graph() is not None:
            fn = conversion.convertible(fn) or fn
        with self._entered("replica"):
            return fn(*args, **(kwargs or {}))

    def reduce(self, reduce_op, value, axis):
        """One replica's ``value`` combined across replicas (itself), then over ``axis``."""
        op = _reduce_op(reduce_op)
        if axis is None:
            return value
        value = convert.to_tensor(value)
        if op is ReduceOp.SUM:
            return reduction_ops.reduce_sum(value, axis=axis)
        return reduction_ops.reduce_mean(value, axis=axis)

    def experimental_local_results(self, value):
        return (value,)

    def gather(self, value, axis):
        del axis
        return value

    def experimental_distribute_dataset(self, dataset, options=None):
        del options
        return DistributedDataset(dataset, self)

    def distribute_datasets_from_function(self, dataset_fn, options=None):
        del options
        return DistributedDataset(dataset_fn(InputContext()), self)

    def experimental_distribute_values_from_function(self, value_fn):
        return value_fn(_ValueContext())


class _ValueContext:
    replica_id_in_sync_group = 0
    num_replicas_in_sync = 1


def _reduce_op(reduce_op):
    if isinstance(reduce_op, ReduceOp):
        return reduce_op
    try:
        return ReduceOp(str(reduce_op).upper())
    except ValueError:
        raise ValueError(f"Invalid reduce_op {reduce_op!r}: use tf.distribute.ReduceOp.SUM "
                         "or tf.distribute.ReduceOp.MEAN.") from None


class _DefaultDistributionStrategy(Strategy):
    """What ``tf.distribute.get_strategy()`` returns outside every scope."""

    def __init__(self):
        super().__init__()
        self._extended = _DefaultDistributionExtended(self)


class OneDeviceStrategy(Strategy):
    """All computation on one device: here the CPU (``"/cpu:0"``, ``"/device:CPU:0"``)."""

    def __init__(self, device):
        _check_cpu(device, "OneDeviceStrategy")
        super().__init__()


class MirroredVariable(ResourceVariable):
    """A variable mirrored on every replica: here one component, printed as TF prints it."""

    @property
    def values(self):
        return (self,)

    def __repr__(self):
        return "MirroredVariable:{\n  0: " + ResourceVariable.__repr__(self) + "\n}"


class MirroredStrategy(Strategy):
    """Synchronous replicas on this machine's devices: here the CPU alone, one replica."""

    _variable_class = MirroredVariable

    def __init__(self, devices=None, cross_device_ops=None):
        del cross_device_ops
        for d in devices or ():
            _check_cpu(d, "MirroredStrategy")
        super().__init__()


def _check_cpu(device, api):
    name = device.name if hasattr(device, "name") else str(device)
    if "CPU:0" not in name.upper():
        raise NotImplementedError(
            f"tf.distribute.{api} on {name!r}: tfgraph_edu has one device, the CPU "
            "(\"/cpu:0\"); use it, or leave the devices out.")


def _not_here(api):
    class Unavailable:
        def __init__(self, *args, **kwargs):
            raise NotImplementedError(
                f"tf.distribute.{api} needs several workers, accelerators or a cluster, which "
                "tfgraph_edu does not have; on one machine use tf.distribute.MirroredStrategy() "
                "or the default strategy (tf.distribute.get_strategy()).")
    Unavailable.__name__ = Unavailable.__qualname__ = api.rsplit(".", 1)[-1]
    return Unavailable


MultiWorkerMirroredStrategy = _not_here("MultiWorkerMirroredStrategy")
TPUStrategy = _not_here("TPUStrategy")
ParameterServerStrategy = _not_here("ParameterServerStrategy")


class experimental:  # noqa: N801 - the namespace tf.distribute.experimental
    MultiWorkerMirroredStrategy = _not_here("experimental.MultiWorkerMirroredStrategy")
    TPUStrategy = _not_here("experimental.TPUStrategy")
    ParameterServerStrategy = _not_here("experimental.ParameterServerStrategy")
    CentralStorageStrategy = _not_here("experimental.CentralStorageStrategy")


_DEFAULT = _DefaultDistributionStrategy()
_DEFAULT_REPLICA = _DefaultReplicaContext(_DEFAULT)


def get_strategy():
    """The strategy whose scope (or ``run``) is entered, else the default strategy."""
    stack = _stack()
    return stack[-1][0] if stack else _DEFAULT


def has_strategy():
    """Whether a strategy other than the default one is in scope."""
    return any(s is not _DEFAULT for s, _ in _stack())


def in_cross_replica_context():
    """Inside a strategy's ``scope()`` and not in its ``run``."""
    stack = _stack()
    return bool(stack) and stack[-1][1] == "cross"


def get_replica_context():
    """The replica context: None in a strategy's scope (cross-replica), replica 0 inside
    ``run``, the default one outside every strategy."""
    stack = _stack()
    if not stack:
        return _DEFAULT_REPLICA
    strategy, kind = stack[-1]
    return None if kind == "cross" else ReplicaContext(strategy)


def get_cross_replica_context():
    stack = _stack()
    if not stack:
        return _DEFAULT
    strategy, kind = stack[-1]
    return strategy if kind == "cross" else None


from .._missing import module_getattr as _module_getattr  # noqa: E402

__getattr__ = _module_getattr("distribute", __name__)
