"""``tf.Variable``: mutable state read and written through ops (layer 4)."""

from __future__ import annotations

import itertools
import weakref
from contextlib import contextmanager
from contextvars import ContextVar

import numpy as np

from .. import dtypes as _dt
from ..ops import _core, state_ops
from ..ops import numpy_behavior as _numpy_behavior
from ..ops.convert import is_tensor, to_tensor
from ..ops.overloads import SLICE_OF, Reference, TensorOperators
from ..shapes import TensorShape
from . import tape as _tape
from .tensor import EagerTensor

_SKIP = {"__slots__", "__module__", "__dict__", "__weakref__", "__doc__", "__qualname__",
         "__hash__", "__getitem__", "__init_subclass__", "__getattr__"}


def _reading_first(method):
    """A tensor operator for a variable: as TF's, the variable is read first, in the scope
    open now (``ReadVariableOp``, then ``mul``); ``==`` and ``!=`` keep their own rules."""
    def operator(self, *args):
        return method(self._as_tensor(), *args)
    operator.__name__ = method.__name__
    return operator


_OPERATORS = {k: (_reading_first(v) if callable(v) and k not in ("__eq__", "__ne__") else v)
              for k, v in vars(TensorOperators).items()
              if k.startswith("__") and k not in _SKIP}
_uid = itertools.count()
# Called with each new tf.Variable while a tf.function traces - also inside tf.init_scope,
# as TensorFlow's variable creator scopes are - so tracing can apply TF's singleton rule.
_CREATION_WATCH: ContextVar = ContextVar("tfgraph_edu_variable_creation", default=None)


@contextmanager
def watching_creation(callback):
    """Call ``callback(variable)`` before each tf.Variable is created in the body."""
    token = _CREATION_WATCH.set(callback)
    try:
        yield
    finally:
        _CREATION_WATCH.reset(token)


# the class ``tf.Variable(...)`` makes inside a strategy's scope (None: ResourceVariable);
# set by tf.distribute (layer 11) through this variable only
VARIABLE_CLASS: ContextVar = ContextVar("variable_class", default=None)


class Variable(type("_VariableOperators", (), _OPERATORS)):  # type: ignore[misc]
    """A variable: a resource handle whose value ops read and assign."""

    def __new__(cls, *args, **kwargs):
        # as in TF, ``tf.Variable(...)`` makes a ResourceVariable (``type(v).__name__``), or
        # the class a distribution strategy's scope asks for (``MirroredVariable``)
        if cls is Variable:
            cls = VARIABLE_CLASS.get() or ResourceVariable
        return object.__new__(cls)

    def __init__(self, initial_value=None, trainable=None, validate_shape=True,
                 caching_device=None, name=None, variable_def=None, dtype=None,
                 import_scope=None, constraint=None, synchronization=None, aggregation=None,
                 shape=None, experimental_enable_variable_lifting=True):
        if initial_value is None:
            raise ValueError("The `initial_value` arg (None) must be specified.")
        interp = _core.interpreter()
        watch = _CREATION_WATCH.get()
        if watch is not None:
            watch(self)
        else:
            creator = getattr(interp, "variable_created", None)
            if creator is not None:
                creator(self)
        evaluate = getattr(interp, "evaluate_constant", None)
        if evaluate is not None and is_tensor(initial_value) and not isinstance(
                initial_value, EagerTensor):
            initial_value = evaluate(initial_value)  # computed in the graph being traced
        with _core.using_interpreter(None):  # variables are created outside any graph
            if callable(initial_value):
                initial_value = initial_value()
            if dtype is not None:
                dtype = _dt.as_dtype(dtype)
            if isinstance(initial_value, Variable):
                initial_value = initial_value._read()
            initial = to_tensor(initial_value, dtype=dtype)
            value = np.array(initial.numpy(),  # a string scalar's numpy() is bytes
                             dtype=object if initial.dtype is _dt.string else None)
        self._dtype = _dt.NP_TO_DTYPE[value.dtype]
        self._trainable = True if trainable is None else bool(trainable)
        base = name or "Variable"
        if self._in_name_scope and interp.executing_eagerly:
            from .context import eager_name_scope  # the open eager tf.name_scope
            base = eager_name_scope() + base
        self._name = base if base.endswith(":0") else f"{base}:0"
        self._shape_arg = shape
        handle = state_ops.ResourceHandle(value, self._dtype, self._name, self._trainable)
        if shape is not None or not validate_shape:  # a declared (maybe partial) shape
            declared = TensorShape(None if not validate_shape else shape)
            if not declared.is_compatible_with(handle.var_shape):
                raise ValueError(f"The initial value's shape ({handle.var_shape}) is not "
                                 f"compatible with the explicitly supplied `shape` argument "
                                 f"({declared}).")
            handle.var_shape = declared
        self._validate_shape = validate_shape
        self._handle = EagerTensor(handle)
        self._unique_id = next(_uid)
        self._constraint = constraint

    _in_name_scope = True  # named inside the eager tf.name_scope (a Keras weight is not)

    # -- identity ----------------------------------------------------------------------
    name = property(lambda self: self._name)
    dtype = property(lambda self: self._dtype)
    trainable = property(lambda self: self._trainable)

    @property
    def _tape_watchable(self) -> bool:
        """Whether tapes watch reads of this variable: its ``trainable`` when it was created.
        A Keras layer's ``trainable = False`` changes ``trainable`` (what the layer lists and
        ``fit`` updates) but not this, as in Keras 3, whose frozen weights tapes still watch."""
        return self._handle._value.trainable
    constraint = property(lambda self: self._constraint)

    @property
    def shape(self):
        return self._handle._value.var_shape

    @property
    def device(self):
        return self._handle.device

    @property
    def handle(self):
        """The resource tensor: eager, or captured by the graph being built."""
        return self._handle_for("ReadVariableOp")

    def _handle_for(self, consumer: str):
        """The resource tensor for an op named ``consumer`` about to use it: a graph being
        built names the capture after the first op that uses it, as TF does
        (``assignaddvariableop_resource``)."""
        interp = _core.interpreter()
        if interp.executing_eagerly:
            return self._handle
        return interp.capture_variable(self, consumer)

    def _tape_key(self):
        return id(self.handle)

    def get_shape(self):
        return self.shape

    def ref(self):
        return Reference(self)

    experimental_ref = ref

    def __hash__(self):
        raise TypeError("Variable is unhashable. Instead, use variable.ref() as the key.")

    # -- reading and writing -------------------------------------------------------------
    def _read(self):
        """The current value as a tensor (op ``ReadVariableOp``); what every read inside
        the library uses (a Keras variable's ``value`` is a property)."""
        if _tape.ACTIVE or _tape._PAUSED:
            _tape.variable_accessed(self)
        return _core.bind(state_ops.ReadVariableOp, (self._handle_for("ReadVariableOp"),),
                          {"dtype": self._dtype})

    def value(self):
        """The current value as a tensor (op ``ReadVariableOp``)."""
        return self._read()

    def read_value(self):
        """The current value as a tensor.  In a graph, as TF builds it: the read in a name
        scope ``Read`` (``Read/ReadVariableOp``), then an ``Identity`` of it."""
        interp = _core.interpreter()
        if interp.executing_eagerly:
            return self._read()
        from ..ops import identity_ops
        from .context import name_scope
        with name_scope("Read"):
            read = self._read()
        return identity_ops.identity(read)

    def sparse_read(self, indices, name=None):
        """The rows at ``indices`` (a gather; its gradient is an IndexedSlices, as TF's)."""
        from ..ops import indexing_ops
        return indexing_ops.gather(self._read(), indices, name=name)
    _as_tensor = _read

    @property
    def _as_tensor_dtype(self):
        return self._dtype

    def numpy(self):
        v = self._handle._value.value
        return v[()] if v.ndim == 0 else np.array(v)

    def _assign(self, opdef, value, name, read_value):
        if _numpy_behavior.STATE.flexible:  # tnp's 'all'/'safe' modes cast what they allow
            value = _numpy_behavior.assign_value(value, self._dtype)
        value = to_tensor(value, dtype=self._dtype)
        if opdef is state_ops.AssignVariableOp and not self.shape.is_compatible_with(
                value.shape):
            raise ValueError(  # TensorFlow's words (sic: its spacing)
                f"Cannot assign value to variable ' {self._name}': Shape mismatch.The variable "
                f"shape {self.shape}, and the assigned value shape {value.shape} are "
                "incompatible.")
        op = _core.bind(opdef, (self._handle_for(name or opdef.name), value),
                        {"dtype": self._dtype}, name)
        if not read_value:
            return op
        unread = object.__new__(_UnreadVariable)
        unread.__dict__.update(self.__dict__)
        return unread

    def assign(self, value, use_locking=False, name=None, read_value=True):
        """Set the value (op ``AssignVariableOp``).  Returns, as TensorFlow, the variable
        to be read (printed eagerly as ``<tf.Variable 'UnreadVariable' ...>``), or with
        ``read_value=False`` the op (None eagerly)."""
        return self._assign(state_ops.AssignVariableOp, value, name, read_value)

    def assign_add(self, delta, use_locking=False, name=None, read_value=True):
        """Add ``delta`` in place (op ``AssignAddVariableOp``); returns as ``assign``."""
        return self._assign(state_ops.AssignAddVariableOp, delta, name, read_value)

    def assign_sub(self, delta, use_locking=False, name=None, read_value=True):
        """Subtract ``delta`` in place (op ``AssignSubVariableOp``); returns as ``assign``."""
        return self._assign(state_ops.AssignSubVariableOp, delta, name, read_value)

    # -- Python conversions (eager) ----------------------------------------------------------
    def __array__(self, dtype=None, copy=None):
        a = np.asarray(self._handle._value.value)
        return a if dtype is None else a.astype(dtype)

    def __getitem__(self, key):
        """The slice, read; ``v[key].assign(value)`` writes it (op
        ``ResourceStridedSliceAssign``), as in TensorFlow."""
        sliced = self._read()[key]
        ident = id(sliced)

        def assign(value, name=None):
            return self._slice_assign(key, value, name)

        SLICE_OF[ident] = (weakref.ref(sliced, lambda _: SLICE_OF.pop(ident, None)), assign)
        return sliced

    def _updated(self, opdef, inputs, attrs=None, name=None):
        """Bind an op that changes the variable in place; return it to be read, as assign."""
        _core.bind(opdef, (self._handle_for(name or opdef.name), *inputs), attrs, name)
        unread = object.__new__(_UnreadVariable)
        unread.__dict__.update(self.__dict__)
        return unread

    def _slice_assign(self, key, value, name=None):
        from ..ops import variable_update_ops
        from ..ops.indexing_ops import slice_spec
        parts, masks = slice_spec(key)
        value = to_tensor(value, dtype=self._dtype)
        return self._updated(variable_update_ops.ResourceStridedSliceAssign,
                             (*parts, value), masks, name)

    def scatter_nd_update(self, indices, updates, name=None):
        """Set the elements at ``indices`` (op ``ResourceScatterNdUpdate``)."""
        from ..ops import variable_update_ops
        return self._updated(variable_update_ops.ResourceScatterNdUpdate,
                             (indices, to_tensor(updates, dtype=self._dtype)), None, name)

    def scatter_nd_add(self, indices, updates, name=None):
        """Add to the elements at ``indices`` (op ``ResourceScatterNdAdd``)."""
        from ..ops import variable_update_ops
        return self._updated(variable_update_ops.ResourceScatterNdAdd,
                             (indices, to_tensor(updates, dtype=self._dtype)), None, name)

    def scatter_nd_sub(self, indices, updates, name=None):
        """Subtract from the elements at ``indices`` (op ``ResourceScatterNdSub``)."""
        from ..ops import variable_update_ops
        return self._updated(variable_update_ops.ResourceScatterNdSub,
                             (indices, to_tensor(updates, dtype=self._dtype)), None, name)

    def _scatter_rows(self, how, sparse_delta, name):
        from ..ops import variable_update_ops
        from ..ops.indexed_slices import IndexedSlices
        opdef = getattr(variable_update_ops, f"ResourceScatter{how}")
        if not isinstance(sparse_delta, IndexedSlices):
            raise TypeError("Argument `sparse_delta` must be a `tf.IndexedSlices`. Received "
                            f"arg: {sparse_delta}")
        return self._updated(opdef, (sparse_delta.indices,
                                     to_tensor(sparse_delta.values, dtype=self._dtype)),
                             None, name)

    def scatter_update(self, sparse_delta, use_locking=False, name=None):
        """Set the rows of the IndexedSlices ``sparse_delta`` (op ``ResourceScatterUpdate``)."""
        return self._scatter_rows("Update", sparse_delta, name)

    def scatter_add(self, sparse_delta, use_locking=False, name=None):
        """Add the rows of the IndexedSlices ``sparse_delta`` (op ``ResourceScatterAdd``)."""
        return self._scatter_rows("Add", sparse_delta, name)

    def scatter_sub(self, sparse_delta, use_locking=False, name=None):
        """Subtract the rows of the IndexedSlices ``sparse_delta`` (``ResourceScatterSub``)."""
        return self._scatter_rows("Sub", sparse_delta, name)

    def scatter_mul(self, sparse_delta, use_locking=False, name=None):
        """Multiply by the rows of ``sparse_delta`` (op ``ResourceScatterMul``)."""
        return self._scatter_rows("Mul", sparse_delta, name)

    def scatter_div(self, sparse_delta, use_locking=False, name=None):
        """Divide by the rows of ``sparse_delta`` (op ``ResourceScatterDiv``)."""
        return self._scatter_rows("Div", sparse_delta, name)

    def scatter_max(self, sparse_delta, use_locking=False, name=None):
        """The larger of each element and ``sparse_delta``'s (op ``ResourceScatterMax``)."""
        return self._scatter_rows("Max", sparse_delta, name)

    def scatter_min(self, sparse_delta, use_locking=False, name=None):
        """The smaller of each element and ``sparse_delta``'s (op ``ResourceScatterMin``)."""
        return self._scatter_rows("Min", sparse_delta, name)

    def __bool__(self):
        return bool(self._read())

    def __float__(self):
        return float(self._read())

    def __int__(self):
        return int(self._read())

    def __index__(self):
        return self._read().__index__()

    def __len__(self):
        return len(self._read())

    def __iter__(self):
        return iter(self._read())

    def __repr__(self):
        if _core.interpreter().executing_eagerly:
            t = EagerTensor(self._handle._value.value)
            numpy_text = repr(t).split("numpy=", 1)[1][:-1]
            return (f"<tf.Variable '{self.name}' shape={self.shape} dtype={self._dtype.name}, "
                    f"numpy={numpy_text}>")
        return f"<tf.Variable '{self.name}' shape={self.shape} dtype={self._dtype.name}>"


class ResourceVariable(Variable):
    """What ``tf.Variable(...)`` returns, named as TensorFlow names its eager variables."""


class _UnreadVariable(Variable):
    """What ``assign`` returns (TensorFlow names its class the same): the same variable state,
    read when used; eagerly its name is ``UnreadVariable``."""

    def __init__(self, *args, **kwargs):
        raise TypeError("UnreadVariable is only made by Variable.assign.")

    @property
    def name(self):
        return "UnreadVariable" if _core.interpreter().executing_eagerly else self._name

