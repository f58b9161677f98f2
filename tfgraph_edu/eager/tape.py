"""``tf.GradientTape``: record ops, then run their gradients backwards (layer 4).

Both interpreters call :func:`record` for every op while a tape is active.  A
tape keeps only ops that touch something it watches.  ``gradient`` walks the
recorded ops in reverse (program order is a topological order) and calls each
OpDef's gradient, which is built from public ops: eagerly that computes
numbers, inside a tf.function it adds the gradient to the graph.
"""

from __future__ import annotations

import enum
import logging
from contextlib import contextmanager

from ..ops import convert as _convert

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

    __slots__ = ("opdef", "inputs", "outputs", "attrs")

    def __init__(self, opdef, inputs, outputs, attrs):
        self.opdef = opdef
        self.inputs = inputs
        self.outputs = outputs
        self.attrs = attrs or {}

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
    if not variable.trainable:
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

    def __enter__(self):
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
        while not builder.executing_eagerly:
            inner = builder.capture_variable(variable)
            self._watched[id(inner)] = inner
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
        self._entries.append(TapeOp(opdef, list(inputs), list(outputs), attrs))
        for o in outputs:
            watched[id(o)] = o

    # -- differentiation ---------------------------------------------------------------
    def gradient(self, target, sources, output_gradients=None,
                 unconnected_gradients=UnconnectedGradients.NONE):
        """d(target)/d(sources), with the structure of ``sources``."""
        from ..ops import array_ops, math_ops
        if self._used and not self._persistent:
            raise RuntimeError("A non-persistent GradientTape can only be used to compute one "
                               "set of gradients (or jacobians)")
        unconnected = UnconnectedGradients(unconnected_gradients)
        flat_sources = _flatten(sources, [])
        for s in flat_sources:
            if not (_convert.is_tensor(s) or hasattr(s, "_tape_key")):
                raise ValueError(f"Passed in object {s!r} of type {type(s).__name__!r}, not "
                                 "tf.Tensor or tf.Variable.")
        targets = _flatten(target, [])
        out_grads = _flatten(output_gradients, []) if output_gradients is not None else None
        was = self._recording
        self._recording = False
        try:
            grads: dict[int, object] = {}
            for i, t in enumerate(targets):
                if hasattr(t, "_tape_key"):  # a variable as target: d(v)/d(v) is one
                    key, like = t._tape_key(), t.read_value()
                else:
                    t = _convert.to_tensor(t)
                    key, like = id(t), t
                g = out_grads[i] if out_grads is not None else array_ops.ones_like(like)
                _accumulate(grads, key, g, math_ops)
            backprop(self._entries, grads)
            result = []
            for s in flat_sources:
                g = grads.get(_key(s))
                if g is None and unconnected is UnconnectedGradients.ZERO:
                    g = (array_ops.zeros(s.shape, s.dtype) if hasattr(s, "_tape_key")
                         else array_ops.zeros_like(s))
                result.append(g)
        finally:
            self._recording = was
        self._used = True
        if not self._persistent:
            self._entries = []
        return _pack_like(sources, iter(result))


def backprop(entries, grads: dict) -> None:
    """Run the gradients of ``entries`` (ops in program order) backwards.

    ``grads`` maps ``id(tensor)`` to the gradient reaching it so far; it starts with
    the targets' cotangents and ends with every tensor's gradient.  An op whose
    OpDef sets ``none_cotangents`` receives None (not zeros) for outputs no
    gradient reached.
    """
    from ..ops import array_ops, math_ops
    for entry in reversed(entries):
        gs = [grads.get(id(o)) for o in entry.outputs]
        if all(g is None for g in gs):
            continue
        grad_fn = entry.opdef.grad
        if grad_fn is None:
            continue
        if not getattr(entry.opdef, "none_cotangents", False):
            gs = [array_ops.zeros_like(o) if g is None else g
                  for g, o in zip(gs, entry.outputs)]
        in_grads = grad_fn(entry, *gs)
        for x, g in zip(entry.inputs, in_grads):
            if g is not None:
                _accumulate(grads, id(x), g, math_ops)


def differentiable(t) -> bool:
    """Whether a gradient can reach ``t``: floating tensors, and the resources of floating
    variables (a variable's gradient arrives at its handle)."""
    dtype = t.dtype
    if dtype.name == "resource":
        held = getattr(t, "handle_dtype", None)
        if held is None:
            held = getattr(getattr(t, "_value", None), "var_dtype", None)
        return held is not None and held.is_floating
    return dtype.is_floating


def zeros_for(t):
    """A zero gradient for ``t`` (for a resource: zeros shaped like its variable)."""
    from ..ops import array_ops
    if t.dtype.name == "resource":
        shape = getattr(t, "handle_shape", None)
        dtype = getattr(t, "handle_dtype", None)
        if dtype is None:
            shape, dtype = t._value.var_shape, t._value.var_dtype
        return array_ops.zeros(shape, dtype)
    return array_ops.zeros_like(t)


def _accumulate(grads, key, g, math_ops) -> None:
    prev = grads.get(key)
    grads[key] = g if prev is None else math_ops.add(prev, g)


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
