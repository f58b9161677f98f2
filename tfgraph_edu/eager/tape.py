"""``tf.GradientTape``: record ops, then run their gradients backwards (layer 4).

Both interpreters call :func:`record` for every op while a tape is active.  A
tape keeps only ops that touch something it watches.  ``gradient`` walks the
recorded ops in reverse (program order is a topological order) and calls each
OpDef's gradient, which is built from public ops: eagerly that computes
numbers, inside a tf.function it adds the gradient to the graph.

An eager call of a tf.function is recorded as one entry whose gradient is its
backward function (function/gradients.py); ``tf.custom_gradient`` records an
entry whose gradient is the user's.  ``jacobian`` and ``batch_jacobian`` run one
backward pass per target element (TensorFlow vectorises them with pfor).
"""

from __future__ import annotations

import enum
import logging
from collections import deque
from contextlib import contextmanager

from .. import dtypes as _dt
from ..ops import concat_ops, creation_ops, indexed_slices, shape_ops
from ..ops import convert as _convert
from ..ops.indexed_slices import IndexedSlices, densify
from .context import name_scope

__all__ = ["GradientTape", "UnconnectedGradients", "record", "variable_accessed", "ACTIVE"]

ACTIVE: list[GradientTape] = []
_PAUSED: list[list[GradientTape]] = []  # tapes set aside while branches and bodies are traced
_log = logging.getLogger("tensorflow")


class UnconnectedGradients(enum.Enum):
    """What ``gradient`` returns for a source the target does not depend on."""

    NONE = "none"
    ZERO = "zero"


class TapeOp:
    """An executed op as gradient functions see it (same interface as a graph Operation)."""

    __slots__ = ("opdef", "inputs", "outputs", "attrs", "skip_input_indices")

    def __init__(self, opdef, inputs, outputs, attrs, skip_input_indices=()):
        self.opdef = opdef
        self.inputs = inputs
        self.outputs = outputs
        self.attrs = attrs or {}
        # inputs the tape did not watch when the op ran: no gradient can reach a source
        # through them, so a gradient function may leave theirs out (MatMul does, as TF's)
        self.skip_input_indices = skip_input_indices

    @property
    def type(self) -> str:
        return self.opdef.name

    def get_attr(self, name):
        return self.attrs.get(name)


def record(opdef, inputs, attrs, outputs) -> None:
    """Offer an executed op to every active tape."""
    for tape in ACTIVE:
        if tape._recording:
            tape._record(opdef, inputs, attrs, outputs)


def variable_accessed(variable) -> None:
    """Watch a trainable variable that is read while tapes are active.

    A read inside a cond branch or loop body being traced also counts for the
    tapes paused while it is traced (:func:`stop_recording_all`).
    """
    if not variable._tape_watchable:
        return
    for tape in ACTIVE:
        if tape._recording and tape._watch_accessed:
            tape._watch_variable(variable)
    for paused in _PAUSED:
        for tape in paused:
            if tape._recording and tape._watch_accessed:
                tape._watch_variable(variable)


def _flatten(structure, out):
    if isinstance(structure, dict):
        for k in sorted(structure):
            _flatten(structure[k], out)
    elif isinstance(structure, (list, tuple)):
        for v in structure:
            _flatten(v, out)
    else:
        out.append(structure)
    return out


def _pack_like(structure, flat_iter):
    if isinstance(structure, dict):
        return {k: _pack_like(structure[k], flat_iter) for k in sorted(structure)}
    if isinstance(structure, (list, tuple)):
        items = [_pack_like(v, flat_iter) for v in structure]
        return type(structure)(items) if isinstance(structure, tuple) else items
    return next(flat_iter)


def _capture_of(t):
    """The placeholder that stands for the eager tensor ``t`` in the graph being built."""
    from ..ops import _core
    builder = _core.interpreter()
    if builder.executing_eagerly:
        return None
    found = builder.graph._captures.get(id(t))
    return None if found is None else found[1]


def _key(x):
    get = getattr(x, "_tape_key", None)
    return get() if get is not None else id(x)


class GradientTape:
    """Records operations for automatic differentiation, as ``tf.GradientTape`` does."""

    def __init__(self, persistent: bool = False, watch_accessed_variables: bool = True):
        self._persistent = persistent
        self._watch_accessed = watch_accessed_variables
        self._watched: dict[int, object] = {}
        self._variables: dict[int, object] = {}
        self._entries: list[TapeOp] = []
        self._recording = False
        self._used = False
        self._graph = None

    def __enter__(self):
        from ..ops import _core
        interp = _core.interpreter()  # the graph this tape records in (None: eagerly)
        self._graph = None if interp.executing_eagerly else interp.graph
        ACTIVE.append(self)
        self._recording = True
        return self

    def __exit__(self, *exc):
        self._recording = False
        if self in ACTIVE:
            ACTIVE.remove(self)
        return False

    # -- watching ------------------------------------------------------------------
    def watch(self, tensor) -> None:
        """Ensure ``tensor`` (or each tensor/variable in a structure) is traced by this tape."""
        for t in _flatten(tensor, []):
            if hasattr(t, "_tape_key"):
                self._watch_variable(t)
                continue
            if not _convert.is_tensor(t):
                raise ValueError(f"Passed in object {t!r} of type {type(t).__name__!r}, not "
                                 "tf.Tensor or tf.Variable or ExtensionType.")
            if not t.dtype.is_floating:
                _log.warning("The dtype of the watched tensor must be floating (e.g. tf.float32),"
                             " got %r", t.dtype)
                continue
            self._watched[id(t)] = t
            if self._graph is not None and hasattr(t, "_value"):
                self._watch_capture(t)

    def _watch_capture(self, t) -> None:
        """An eager tensor watched while a graph is built (a tensor closed over in a
        tf.function): the ops there read its capture, so that is watched too, at each
        level from the graph being built out to the tape's own, as for variables."""
        from ..ops import _core
        builder = _core.interpreter()
        while builder is not None and not builder.executing_eagerly:
            inner = builder.capture(t)
            self._watched[id(inner)] = inner
            if builder.graph is self._graph:
                break
            builder = builder.outer

    def _watch_tensor(self, t) -> None:
        """Watch any tensor, resources included (for gradient rules that replay graphs)."""
        self._watched[id(t)] = t

    def _watch_variable(self, variable) -> None:
        """Watch the variable's handle as every graph being built sees it (a branch or loop
        body, the graphs around it) and eagerly: ops at each level read their own."""
        from ..ops import _core
        handle = variable._handle
        self._watched[id(handle)] = handle
        builder = _core.interpreter()
        while self._graph is not None and not builder.executing_eagerly:
            inner = builder.capture_variable(variable)
            self._watched[id(inner)] = inner
            if builder.graph is self._graph:  # graphs outside the tape's own are not its
                break
            builder = builder.outer
            if builder is None:
                break
        self._variables.setdefault(id(variable), variable)

    def watched_variables(self) -> tuple:
        """The variables this tape watched, in the order they were first watched."""
        return tuple(self._variables.values())

    @contextmanager
    def stop_recording(self):
        """Temporarily stop recording operations on this tape."""
        was = self._recording
        self._recording = False
        try:
            yield
        finally:
            self._recording = was

    def reset(self) -> None:
        """Forget everything recorded so far."""
        self._entries.clear()
        self._watched.clear()
        self._variables.clear()

    def _record(self, opdef, inputs, attrs, outputs) -> None:
        watched = self._watched
        for x in inputs:
            if id(x) in watched:
                break
        else:
            return
        skip = tuple(i for i, x in enumerate(inputs) if id(x) not in watched)
        self._entries.append(TapeOp(opdef, list(inputs), list(outputs), attrs, skip))
        for o in outputs:
            watched[id(o)] = o

    # -- differentiation ---------------------------------------------------------------
    def gradient(self, target, sources, output_gradients=None,
                 unconnected_gradients=UnconnectedGradients.NONE):
        """d(target)/d(sources), with the structure of ``sources``."""
        self._check_usable()
        unconnected = _unconnected(unconnected_gradients)
        flat_sources = _flatten(sources, [])
        for s in flat_sources:
            if not (_convert.is_tensor(s) or hasattr(s, "_tape_key")):
                # TF 2.21's AttributeError (which attribute: whether sources is one value)
                attr = "_id" if isinstance(sources, (list, tuple, dict)) or hasattr(
                    s, "dtype") else "dtype"
                raise AttributeError(
                    f"'{_type_name(s)}' object has no attribute '{attr}': "
                    f"tape.gradient differentiates with respect to tensors and variables, "
                    f"and {s!r} is neither (a Python or NumPy number is not recorded on a "
                    "tape); use a tf.Variable, or a tensor that tape.watch watched.")
        targets = _flatten(target, [])
        for t in targets:
            if isinstance(t, (bool, int, float, complex)):
                raise AttributeError(
                    f"'{_type_name(t)}' object has no attribute 'dtype': the target of "
                    f"tape.gradient must be a tensor computed on the tape, not {t!r}.")
        for kind, values in (("target", targets), ("source", flat_sources)):
            for t in values:
                dtype = getattr(t, "dtype", None)
                if dtype is not None and not _trainable_dtype(dtype):
                    _log.warning(f"The dtype of the {kind} tensor must be floating (e.g. "
                                 "tf.float32) when calling GradientTape.gradient, got %r", dtype)
        out_grads = _flatten(output_gradients, []) if output_gradients is not None else None
        if self._recording and self._persistent:
            _log.warning(
                "Calling GradientTape.gradient on a persistent tape inside its context is "
                "significantly less efficient than calling it outside the context (it causes "
                "the gradient ops to be recorded on the tape, leading to increased CPU and "
                "memory usage). Only call GradientTape.gradient inside the context if you "
                "actually want to trace the gradient in order to compute higher order "
                "derivatives.")
        elif self._recording:  # a non-persistent tape stops recording for good
            self._recording = False
        if out_grads is None and not _eager():
            # as TF: a scalar target's cotangent is a Const "ones" made before the gradient
            # ops, outside their scope
            out_grads = [creation_ops.ones([], t.dtype, name="ones")
                         if not hasattr(t, "_tape_key") and getattr(t, "shape", None) is not None
                         and t.shape.rank == 0 else None for t in targets]
        with name_scope("gradient_tape") as scope:  # in a graph, TF's scope of the gradients
            result = self._gradients(targets, flat_sources, out_grads, unconnected, scope)
        self._finish_use()
        return _pack_like(sources, iter(result))

    def _check_usable(self) -> None:
        if self._used and not self._persistent:
            raise RuntimeError("A non-persistent GradientTape can only be used to compute one "
                               "set of gradients (or jacobians)")

    def _finish_use(self) -> None:
        self._used = True
        if not self._persistent:
            self._entries = []

    def _gradients(self, targets, flat_sources, out_grads, unconnected, scope="") -> list:
        """The gradients of ``flat_sources`` from the cotangents ``out_grads`` (ones where
        None) of ``targets``; a persistent tape in its context records these ops too.
        ``scope``: in a graph, the tape's name scope (``gradient_tape/``), under which each
        op's gradient ops are named as TF names them (see :func:`gradient_scope`)."""
        from ..ops import math_ops
        grads: dict[int, object] = {}
        for i, t in enumerate(targets):
            if hasattr(t, "_tape_key"):  # a variable as target: d(v)/d(v) is one
                key, like = t._tape_key(), t._read()
            else:
                t = _convert.to_tensor(t)
                key, like = id(t), t
            g = out_grads[i] if out_grads is not None else None
            g = creation_ops.ones_like(like) if g is None else _convert.to_tensor(g)
            _accumulate(grads, key, g, math_ops)
        backprop(list(self._entries), grads, scope)
        result = []
        for s in flat_sources:
            g = grads.get(_key(s))
            if g is None and self._graph is not None and hasattr(s, "_value"):
                g = grads.get(id(_capture_of(s)))  # an eager tensor: its capture's gradient
            if g is None and unconnected is UnconnectedGradients.ZERO:
                g = zeros_for(s.handle if hasattr(s, "_tape_key") else s)
            result.append(g)
        return result

    def jacobian(self, target, sources, unconnected_gradients=UnconnectedGradients.NONE,
                 parallel_iterations=None, experimental_use_pfor=True):
        """d(target[i...])/d(source[j...]) for every element pair: for each source, a tensor of
        shape ``target.shape + source.shape`` (one backward pass per target element)."""
        self._check_usable()
        unconnected = _unconnected(unconnected_gradients)
        if not experimental_use_pfor and not self._persistent and _eager():
            raise RuntimeError(
                "GradientTape must be created with persistent=True to compute the jacobian "
                "with eager execution enabled and with  experimental_use_pfor set to False.")
        flat_sources = _flatten(sources, [])
        target = _convert.to_tensor(target)
        n = _known_size(target, "jacobian")
        rows = self._rows(target, flat_sources, n, unconnected,
                          lambda i: shape_ops.reshape(
                              creation_ops.one_hot(i, n, dtype=target.dtype),
                              target.shape.as_list()))
        out = []
        for s, col in zip(flat_sources, rows):
            out.append(None if col is None else _reshape_rows(
                _stack(col, s), target.shape.as_list()))
        self._finish_use()
        return _pack_like(sources, iter(out))

    def batch_jacobian(self, target, source, unconnected_gradients=UnconnectedGradients.NONE,
                       parallel_iterations=None, experimental_use_pfor=True):
        """Per-example jacobians: ``target[b, y...]`` and ``source[b, x...]`` give
        ``[b, y..., x...]``, assuming example ``b`` of the target depends only on example
        ``b`` of the source."""
        from ..ops import math_ops
        self._check_usable()
        unconnected = _unconnected(unconnected_gradients)
        target = _convert.to_tensor(target)
        t_shape, s_shape = target.shape, _source_shape(source)
        _rank_at_least_2(t_shape)
        _rank_at_least_2(s_shape)
        if not (t_shape.rank is not None and s_shape.rank is not None
                and _compatible(t_shape.dims[0], s_shape.dims[0])):
            raise ValueError(f"Need first dimension of target shape ({t_shape}) and source "
                             f"shape ({s_shape}) to match.")
        if not experimental_use_pfor and not self._persistent and _eager():
            raise RuntimeError(
                "GradientTape must be created with persistent=True to compute the "
                "batch_jacobian with eager execution enabled and  with experimental_use_pfor "
                "set to False.")
        n = _known_size(target, "batch_jacobian")
        batch = t_shape.dims[0]
        row = n // batch if batch else 0

        def cotangent(j):
            column = creation_ops.one_hot(j, row, dtype=target.dtype)
            ones = creation_ops.ones([batch, 1], target.dtype)
            return shape_ops.reshape(math_ops.multiply(ones, column), t_shape.as_list())
        (col,) = self._rows(target, [source], row, unconnected, cotangent)
        self._finish_use()
        if col is None:  # TensorFlow returns zeros here whatever unconnected_gradients says
            zeros = creation_ops.zeros(t_shape.as_list() + [1] * (s_shape.rank - 1), target.dtype)
            return zeros * creation_ops.zeros_like(
                shape_ops.reshape(source, [batch] + [1] * (t_shape.rank - 1) +
                                  [-1 if d is None else d for d in s_shape.as_list()[1:]]))
        stacked = _stack(col, source, axis=1)  # [b, row, x...]
        return _reshape_rows(stacked, t_shape.as_list(), keep=1)

    def _rows(self, target, flat_sources, n, unconnected, cotangent) -> list:
        """For each source: the gradient for each cotangent ``cotangent(i)``, i < n (None for
        a source no row reaches)."""
        cols: list = [[] for _ in flat_sources]
        for i in range(n):
            got = self._gradients([target], flat_sources, [cotangent(i)],
                                  UnconnectedGradients.NONE)
            for c, g in zip(cols, got):
                c.append(g)
        out = []
        for s, c in zip(flat_sources, cols):
            if n and all(g is None for g in c) and unconnected is UnconnectedGradients.NONE:
                out.append(None)
                continue
            zero = None
            for k, g in enumerate(c):
                if g is None:
                    if zero is None:
                        zero = zeros_for(s.handle if hasattr(s, "_tape_key") else s)
                    c[k] = zero
            out.append(c)
        return out


_COMPLEX = frozenset(_dt.COMPLEX)


def _type_name(obj) -> str:
    """A type as Python's AttributeError names it (``float``, ``numpy.float32``)."""
    t = type(obj)
    return t.__name__ if t.__module__ == "builtins" else f"{t.__module__}.{t.__qualname__}"


def _trainable_dtype(dtype) -> bool:
    return dtype.is_floating or dtype.name in ("complex64", "complex128", "resource", "variant")


def _unconnected(value) -> UnconnectedGradients:
    try:
        return UnconnectedGradients(value)
    except ValueError:
        raise ValueError(f"Unknown value for unconnected_gradients: {value!r}") from None


def _eager() -> bool:
    from ..ops import _core
    return _core.interpreter().executing_eagerly


def _source_shape(s):
    return s.shape


def _compatible(a, b) -> bool:
    return a is None or b is None or a == b


def _rank_at_least_2(shape) -> None:
    if shape.rank is not None and shape.rank < 2:
        raise ValueError(f"Shape {shape} must have rank at least 2")


def _known_size(target, what: str) -> int:
    if not target.shape.is_fully_defined():
        raise ValueError(
            f"GradientTape.{what} in tfgraph_edu needs the target's shape to be known when the "
            f"jacobian is built; {target!r} has shape {target.shape}. Give the tf.function an "
            "input_signature with full shapes, or call it with tensors of fixed shape.")
    return int(target.shape.num_elements())


def _reshape_rows(stacked, target_dims, keep=0):
    """``stacked`` with its leading ``keep + 1`` axes (batch, flattened target) replaced by
    ``target_dims``; the source's axes after them stay as they are (known or not)."""
    rest = stacked.shape.dims[keep + 1:]
    if all(d is not None for d in rest):
        return shape_ops.reshape(stacked, list(target_dims) + list(rest))
    tail = shape_ops.shape(stacked)[keep + 1:]
    return shape_ops.reshape(stacked, concat_ops.concat([list(target_dims), tail], 0))


def _stack(col, source, axis=0):
    """The gradients in ``col`` stacked along a new axis ``axis``."""
    if isinstance(col, list):
        return concat_ops.stack(col, axis=axis)
    shape = [0] + _source_shape(source).as_list()
    return creation_ops.zeros(shape, source.dtype)


# The names of ops TF's Python wrappers make inside a name scope of their own (the operators
# x*y, x+y, x-y, x/y, x//y, x%y, x**y, tf.add, tf.matmul, tf.nn.bias_add, divide_no_nan).
# In a graph TF names the gradient ops of an op under "gradient_tape/" and the name scope the
# op was made in: such an op's own name (gradient_tape/layer/mul/Mul), any other op's scope
# (gradient_tape/layer/ReluGrad) - as a TF 2.21 run shows (tests/eager/test_gradient_names.py).
_OWN_SCOPE = frozenset({"mul", "add", "Add", "sub", "truediv", "floordiv", "mod", "pow",
                        "MatMul", "BiasAdd", "div_no_nan"})


def gradient_scope(op) -> str:
    """The name scope (relative to the tape's) of the gradient ops of graph op ``op``: its
    name if TF's wrapper of it opens a scope of its own, else the scope it is in."""
    name = op.name
    head, _, base = name.rpartition("/")
    stem, _, number = base.rpartition("_")
    if not (stem and number.isdigit()):
        stem = base
    return name if stem in _OWN_SCOPE else head


def backprop(entries, grads: dict, scope: str = "") -> None:
    """Run the gradients of ``entries`` (ops in program order) backwards, in the order of
    TF's tape (:func:`_backward_order`).

    ``grads`` maps ``id(tensor)`` to the gradient reaching it so far; it starts with
    the targets' cotangents and ends with every tensor's gradient.  An op whose
    OpDef sets ``none_cotangents`` receives None (not zeros) for outputs no
    gradient reached.  ``scope``: in a graph, the tape's name scope; each op's gradient ops
    are named under it and the forward op's scope (:func:`gradient_scope`).
    """
    from ..ops import math_ops
    for entry in _backward_order(entries, grads):
        gs = [grads.get(id(o)) for o in entry.outputs]
        if all(g is None for g in gs):
            continue
        if any(getattr(t, "dtype", None) in _COMPLEX for t in (*entry.inputs, *entry.outputs)):
            raise NotImplementedError(
                f"tfgraph_edu does not differentiate through complex tensors yet (op "
                f"{entry.opdef.name}; TensorFlow 2.21 does, with conjugates): take the "
                "gradient with respect to real tensors before they become complex.")
        grad_fn = entry.opdef.grad
        if grad_fn is None:
            continue
        if not getattr(entry.opdef, "none_cotangents", False):
            gs = [zeros_for(o) if g is None else g for g, o in zip(gs, entry.outputs)]
        if any(g.__class__ is IndexedSlices for g in gs):
            passed = _pass_indexed_slices(entry, gs)
            if passed is not None:  # Identity, ReadVariableOp, Cast: it goes on as itself
                for x, g in zip(entry.inputs, passed):
                    if g is not None:
                        _accumulate(grads, id(x), g, math_ops)
                continue
            gs = [densify(g) if g.__class__ is IndexedSlices else g for g in gs]
        forward = _graph_op(entry) if scope else None
        if forward is not None:
            inner = gradient_scope(forward)
            made = forward.graph.operations
            start = len(made)
            with name_scope(scope + inner + "/" if inner else scope):
                in_grads = grad_fn(entry, *gs)
            marks = getattr(forward.graph, "gradient_of", None)
            if marks is not None:
                for op in made[start:]:
                    marks[op.name] = forward.name
        else:
            in_grads = grad_fn(entry, *gs)
        for x, g in zip(entry.inputs, in_grads):
            if g is not None:
                _accumulate(grads, id(x), g, math_ops)


def _backward_order(entries, grads) -> list:
    """The entries whose gradients run, in TF's tape's order: an op once every op that used
    its outputs on the way to the targets has run, first ready first run (so gradients of
    one tensor arrive, and IndexedSlices are concatenated, in TF's order)."""
    reached = set(grads)
    on_path = []
    for e in reversed(entries):  # the ops some target depends on
        if any(id(o) in reached for o in e.outputs):
            on_path.append(e)
            reached.update(id(x) for x in e.inputs)
    producer = {id(o): e for e in on_path for o in e.outputs}
    pending = {id(e): 0 for e in on_path}
    for e in on_path:
        for x in e.inputs:
            p = producer.get(id(x))
            if p is not None and p is not e:
                pending[id(p)] += 1
    queue = deque(e for e in on_path if pending[id(e)] == 0)
    order = []
    while queue:
        e = queue.popleft()
        order.append(e)
        for x in e.inputs:
            p = producer.get(id(x))
            if p is not None and p is not e:
                pending[id(p)] -= 1
                if pending[id(p)] == 0:
                    queue.append(p)
    return order if len(order) == len(on_path) else on_path


def _graph_op(entry):
    """The graph op an entry recorded, or None (eagerly, or no outputs)."""
    from .tensor import EagerTensor
    if not entry.outputs or isinstance(entry.outputs[0], EagerTensor):
        return None
    op = getattr(entry.outputs[0], "op", None)
    return op if isinstance(getattr(op, "name", None), str) else None


def differentiable(t) -> bool:
    """Whether a gradient can reach ``t``: floating tensors, and the resources of floating
    variables (a variable's gradient arrives at its handle)."""
    dtype = t.dtype
    if dtype.name == "variant":  # a tensor list (TensorArray): its gradient is a list
        return True
    if dtype.name == "resource":
        held = getattr(t, "handle_dtype", None)
        if held is None:
            held = getattr(getattr(t, "_value", None), "var_dtype", None)
        return held is not None and held.is_floating
    return dtype.is_floating


def zeros_for(t):
    """A zero gradient for ``t`` (for a resource: zeros shaped like its variable)."""
    from ..ops import list_ops
    if t.dtype.name == "variant":
        return list_ops._zeros_list(t)
    if t.dtype.name == "resource":
        shape = getattr(t, "handle_shape", None)
        dtype = getattr(t, "handle_dtype", None)
        if dtype is None and hasattr(t, "_value"):
            shape, dtype = t._value.var_shape, t._value.var_dtype
        if dtype is None or not shape.is_fully_defined():
            return None  # a handle passed through (a loop's capture): no gradient flows back
        return creation_ops.zeros(shape.as_list(), dtype)
    return creation_ops.zeros_like(t)


# ops whose gradient hands an IndexedSlices on as one, as TF's gradient functions do
_PASS_SLICES = frozenset({"Identity", "ReadVariableOp", "Snapshot"})


def _pass_indexed_slices(entry, gs):
    """The input gradients of ``entry`` when it passes an IndexedSlices on (a read, an
    identity, a cast between float dtypes: its values cast back), else None."""
    name = entry.opdef.name
    if len(gs) != 1 or len(entry.inputs) != 1:
        return None
    g = gs[0]
    if name in _PASS_SLICES:
        return [g]
    if name == "Cast":
        src = entry.inputs[0].dtype
        if not (src.is_floating and g.dtype.is_floating):
            return None
        from ..ops import math_ops
        return [IndexedSlices(math_ops.cast(g.values, src), g.indices, g.dense_shape)]
    return None


def add_gradients(a, b):
    """The sum of two gradients of one tensor (tensor lists are added item by item; two
    IndexedSlices are concatenated, one with a dense gradient made dense, as TF)."""
    from ..ops import _core, list_ops, math_ops
    if a.__class__ is IndexedSlices or b.__class__ is IndexedSlices:
        return indexed_slices.add(a, b)
    if b.dtype.name == "variant":
        return _core.bind(list_ops.TensorListAddN, (a, b))
    return math_ops.add(a, b)


def _accumulate(grads, key, g, math_ops=None) -> None:
    prev = grads.get(key)
    grads[key] = g if prev is None else add_gradients(prev, g)


@contextmanager
def stop_recording_all():
    """No active tape records in the body (tapes created inside it do)."""
    saved = ACTIVE[:]
    ACTIVE.clear()
    _PAUSED.append(saved)
    try:
        yield
    finally:
        _PAUSED.pop()
        ACTIVE[:] = saved
