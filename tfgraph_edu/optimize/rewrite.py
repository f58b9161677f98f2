"""Editing a graph in one ordered sweep, for the optimisation passes (layer 6).

A pass sweeps a graph's operations in order and, for every op, keeps it (inputs
rewired to replacements made earlier in the sweep), replaces its outputs by
other tensors (``forward``), drops it, or puts new ops or constants in its
place.  Control inputs of removed ops pass to the ops that depended on them, so
the order of side effects never changes.  One sweep is linear in the graph size.

The traced graph is never edited.  The pipeline hands it to the passes as
*shared* (:func:`shared`): a :class:`Rewriter` over it only reads, and raises
:class:`Changed` at the first edit; the pipeline then runs that pass again with
a Rewriter that writes fresh copies of the ops it keeps into a new graph (the
copy and the pass in one sweep, and the ops the pass removes are never copied).
Later passes edit that private graph in place.  A pass that changes nothing
costs one read of the graph, without a copy.
"""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar

from ..graph.graph import Operation, Tensor
from ..ops.convert import Const

# (graph, copy): the graph a Rewriter must not edit, and whether to copy it or only read it
_SHARED: ContextVar[tuple | None] = ContextVar("tfgraph_edu_shared_graph", default=None)


@contextmanager
def shared(graph, copy: bool):
    """Rewriters over ``graph`` in the block read it (``copy=False``: :class:`Changed` at
    the first edit) or write their result into a new graph (``copy=True``)."""
    token = _SHARED.set((graph, copy))
    try:
        yield
    finally:
        _SHARED.reset(token)


class Changed(Exception):  # noqa: N818 - a signal to the pipeline, not an error
    """A pass reading a shared graph is about to change it: run it again, copying."""


def _new_graph_like(graph):
    g = type(graph)(graph.name)
    g.outer_graph = getattr(graph, "outer_graph", None)
    g.base_scope = getattr(graph, "base_scope", "")
    g.caller_stack = getattr(graph, "caller_stack", ())
    g._names_in_use = dict(graph._names_in_use)
    g.variables = type(graph.variables)(graph.variables)
    return g


def _copy_outputs(new, olds, extra=()):
    """``new``'s outputs: the shapes, dtypes and handle data of ``olds``, then ``extra``."""
    if len(olds) == 1 and not extra:
        old_t = olds[0]
        new_t = Tensor(new, 0, old_t._shape, old_t._dtype)
        if old_t.handle_shape is not None or old_t.handle_dtype is not None:
            new_t.handle_shape, new_t.handle_dtype = old_t.handle_shape, old_t.handle_dtype
        new.outputs = [new_t]
    else:
        new._add_outputs([(t._shape, t._dtype) for t in olds] + list(extra))
        for old_t, new_t in zip(olds, new.outputs):
            new_t.handle_shape, new_t.handle_dtype = old_t.handle_shape, old_t.handle_dtype


def copy_graph(graph, inputs, outputs):
    """A copy of ``graph`` (new Operation and Tensor objects): (graph, inputs, outputs).

    A node's inputs are found by position (``_id``, renumbered here), not through a map
    from every old tensor to its copy: a big graph is copied in one light sweep."""
    g = _new_graph_like(graph)
    old_ops = graph.operations
    for i, op in enumerate(old_ops):
        op._id = i
    ops = g.operations
    append = ops.append
    by_name = g._by_name
    for i, op in enumerate(old_ops):
        ins = [ops[k].outputs[t.value_index] if old_ops[k := t.op._id] is t.op else _alien(op, t)
               for t in op.inputs]
        ctrl = [ops[c._id] if old_ops[c._id] is c else _alien(op, c)
                for c in op.control_inputs] if op.control_inputs else ()
        new = Operation(g, op.name, op.opdef, ins, op.attrs, ctrl, op.source)
        _copy_outputs(new, op.outputs)
        new._id = i
        append(new)
        by_name[new.name] = new

    def copied(t):
        k = t.op._id
        if k is None or k >= len(old_ops) or old_ops[k] is not t.op:
            return None
        return ops[k].outputs[t.value_index]

    def copied_or_error(t):
        new_t = copied(t)
        return _alien(None, t) if new_t is None else new_t

    g._captures = {k: (outer, copied(inner)) for k, (outer, inner) in graph._captures.items()
                   if copied(inner) is not None}
    g.inputs = [copied_or_error(t) for t in inputs]
    g.outputs = [copied_or_error(t) for t in outputs]
    return g, g.inputs, g.outputs


def _alien(op, t):
    """ValueError for an input (or control input) that is not a node of the graph copied."""
    what = f"an input of {op.name!r}" if op is not None else "an input or output of the graph"
    raise ValueError(f"{t.name} ({what}) is not a node of the graph being copied.")


def _same(a, b) -> bool:
    """The same objects in the same order (identity: a tensor's ``==`` is an op)."""
    return len(a) == len(b) and all(x is y for x, y in zip(a, b))


class Rewriter:
    """One sweep over ``graph``: call exactly one action per op, in order.

    ``Rewriter(graph, inputs, outputs)`` edits ``graph`` in place, unless the pipeline
    shares it (:func:`shared`): then it is a reading or a copying Rewriter (same methods).
    ``changes=True`` says the sweep will edit (pruning knows before it starts): a shared
    graph is then copied at once instead of read first."""

    def __new__(cls, graph, inputs, outputs, changes: bool = False):
        if cls is Rewriter:
            s = _SHARED.get()
            if s is not None and s[0] is graph:
                cls = _Copier if s[1] or changes else _Reader
        return object.__new__(cls)

    def __init__(self, graph, inputs, outputs, changes: bool = False):
        self.old = self.new = graph
        self.inputs = inputs
        self.outputs = outputs
        self._replace: dict[int, object] = {}
        self._dead_ctrl: dict[int, list] = {}
        self._removed: list = []  # ops forwarded or dropped, in sweep order
        self._ops: list = []

    # -- mapping ---------------------------------------------------------------------------------
    def tensor(self, t):
        """What ``t`` stands for now (itself unless an earlier op was replaced)."""
        r = self._replace.get(id(t))
        while r is not None:
            t = r
            r = self._replace.get(id(t))
        return t

    def tensors(self, ts) -> list:
        """``[self.tensor(t) for t in ts]`` (``ts`` itself when nothing was replaced: do not
        modify the list returned)."""
        replace = self._replace
        if not replace:
            return ts
        return [t if replace.get(id(t)) is None else self.tensor(t) for t in ts]

    def control(self, op) -> list:
        """``op``'s control inputs, with removed ops replaced by their own control inputs."""
        if not op.control_inputs:
            return []
        out, seen = [], set()
        for c in op.control_inputs:
            for new in self._dead_ctrl.get(id(c), [c]):
                if id(new) not in seen:
                    seen.add(id(new))
                    out.append(new)
        return out

    # -- actions ---------------------------------------------------------------------------------
    def copy(self, op, inputs=None, attrs=None, control=None, extra_outputs=()):
        """Keep ``op``, with its inputs rewired (or given), maybe new attrs, control inputs or
        more outputs (``extra_outputs``: (shape, dtype) pairs); returns the op kept."""
        if inputs is not None:
            if inputs is not op.inputs:
                op.inputs = list(inputs)
        elif self._replace:
            get = self._replace.get
            ins = op.inputs
            for i, t in enumerate(ins):
                if get(id(t)) is not None:
                    ins[i] = self.tensor(t)
        if attrs is not None:
            op.attrs = attrs
        if control is not None:
            op.control_inputs = tuple(control)
        elif op.control_inputs:
            op.control_inputs = tuple(self.control(op))
        for shape, dtype in extra_outputs:
            op.outputs.append(Tensor(op, len(op.outputs), shape, dtype))
        self._ops.append(op)
        return op

    def forward(self, op, tensors):
        """Remove ``op``: its outputs become ``tensors``."""
        for old_t, new_t in zip(op.outputs, tensors):
            if new_t is not old_t:
                self._replace[id(old_t)] = new_t
        self._dead_ctrl[id(op)] = self.control(op) if op.control_inputs else ()
        self._removed.append(op)

    def drop(self, op):
        """Remove ``op`` (nothing may use its outputs any more)."""
        self._dead_ctrl[id(op)] = self.control(op) if op.control_inputs else ()
        self._removed.append(op)

    def add(self, op, name, opdef, inputs, attrs, specs) -> list:
        """A new op standing in for ``op`` (same source line, its control inputs)."""
        g = self.new
        name = g.unique_name(name, scoped=False)
        new = Operation(g, name, opdef, inputs, attrs, self.control(op), op.source)
        new._add_outputs(specs)
        g._by_name[name] = new
        new._id = len(self._ops)
        self._ops.append(new)
        return new.outputs

    def constant(self, op, values) -> list:
        """Replace ``op`` by one Const per output holding ``values`` (first keeps its name)."""
        out = []
        g = self.new
        ctrl = self.control(op)
        for i, (t, v) in enumerate(zip(op.outputs, values)):
            name = op.name if i == 0 else g.unique_name(f"{op.name}/output_{i}", scoped=False)
            new = Operation(g, name, Const, [], {"dtype": t.dtype, "value": v}, ctrl, op.source)
            new._add_outputs([(t.shape, t.dtype)])
            g._by_name[name] = new
            new._id = len(self._ops)
            self._ops.append(new)
            out.append(new.outputs[0])
        self.forward(op, out)
        return out

    def finish(self):
        """(graph, inputs, outputs) after the sweep."""
        g = self.new
        by_name = g._by_name
        removed = set()
        for op in self._removed:
            removed.add(id(op))
            if by_name.get(op.name) is op:
                del by_name[op.name]
        ops = self._ops
        if removed or len(ops) != len(g.operations):
            for i, op in enumerate(ops):
                op._id = i
        g.operations = ops
        if g._captures:
            g._captures = {k: (outer, self.tensor(inner)) for k, (outer, inner)
                           in g._captures.items() if id(self.tensor(inner).op) not in removed}
        g.inputs = [self.tensor(t) for t in self.inputs]
        g.outputs = [self.tensor(t) for t in self.outputs]
        return g, g.inputs, g.outputs


class _Reader(Rewriter):
    """A sweep over a shared graph that changes nothing: keeping an op costs nothing, and
    any edit raises :class:`Changed` before it touches the graph."""

    def tensor(self, t):
        return t

    def tensors(self, ts) -> list:
        return ts

    def copy(self, op, inputs=None, attrs=None, control=None, extra_outputs=()):
        if (inputs is not None and inputs is not op.inputs and not _same(inputs, op.inputs)) \
                or (attrs is not None and attrs is not op.attrs) or extra_outputs:
            raise Changed
        if control is not None or op.control_inputs:
            if not _same(self.control(op) if control is None else control, op.control_inputs):
                raise Changed  # a control edge goes (or one listed twice)
        return op

    def forward(self, op, tensors):
        raise Changed

    def drop(self, op):
        raise Changed

    def add(self, op, name, opdef, inputs, attrs, specs) -> list:
        raise Changed

    def constant(self, op, values) -> list:
        raise Changed

    def finish(self):
        return self.old, list(self.inputs), list(self.outputs)


class _Copier(Rewriter):
    """A sweep that writes its result into a new graph: every op kept is copied (the
    shared graph is never edited).  What became of an old op is found by its position:
    ``_to`` holds the tensors its outputs stand for now (a removed op's replacements; a
    dropped op's own, as an edit in place leaves them), ``_kept`` its copy (None if
    removed)."""

    def __init__(self, graph, inputs, outputs, changes: bool = False):
        super().__init__(graph, inputs, outputs)
        old_ops = graph.operations
        for i, op in enumerate(old_ops):
            op._id = i
        self.new = _new_graph_like(graph)
        self._old_ops = old_ops
        self._to: list = [None] * len(old_ops)
        self._kept: list = [None] * len(old_ops)
        self._gone_ctrl: dict[int, list] = {}  # removed ops with control inputs: those
        self._by_name = self.new._by_name

    def _position(self, op) -> int:
        """``op``'s position in the graph swept; ValueError if it is not a node of it, or
        was not swept yet."""
        k = op._id
        if k is None or k >= len(self._old_ops) or self._old_ops[k] is not op \
                or self._to[k] is None:
            raise ValueError(f"{op.name!r} is not a node of the graph being copied (or comes "
                             "after the node that uses it).")
        return k

    def tensor(self, t):
        if t.op.graph is self.new:
            return t
        return self._to[self._position(t.op)][t.value_index]

    def tensors(self, ts) -> list:
        old, to = self._old_ops, self._to
        try:
            return [to[k][t.value_index] if old[k := t.op._id] is t.op else self.tensor(t)
                    for t in ts]
        except (TypeError, IndexError):  # not of this graph, or not swept yet
            return [self.tensor(t) for t in ts]

    def control(self, op) -> list:
        if not op.control_inputs:
            return []
        out, seen = [], set()
        for c in op.control_inputs:
            if c.graph is self.new:
                now = (c,)
            else:
                k = self._position(c)
                kept = self._kept[k]
                now = (kept,) if kept is not None else self._gone_ctrl.get(k, ())
            for new in now:
                if id(new) not in seen:
                    seen.add(id(new))
                    out.append(new)
        return out

    def copy(self, op, inputs=None, attrs=None, control=None, extra_outputs=()):
        if control is None:
            control = self.control(op) if op.control_inputs else ()
        new = Operation(self.new, op.name, op.opdef,
                        self.tensors(op.inputs) if inputs is None else inputs,
                        op.attrs if attrs is None else attrs, control, op.source)
        _copy_outputs(new, op.outputs, extra_outputs)
        k = op._id
        self._to[k] = new.outputs
        self._kept[k] = new
        ops = self._ops
        new._id = len(ops)
        ops.append(new)
        self._by_name[op.name] = new
        return new

    def forward(self, op, tensors):
        outs = op.outputs
        if type(tensors) is not list or len(tensors) < len(outs):
            tensors = list(tensors)
            tensors += outs[len(tensors):]
        self._to[op._id] = tensors
        if op.control_inputs:
            self._gone_ctrl[op._id] = self.control(op)

    def drop(self, op):
        self._to[op._id] = op.outputs
        if op.control_inputs:
            self._gone_ctrl[op._id] = self.control(op)

    def finish(self):
        g = self.new
        g.operations = self._ops
        old_ops, n = self._old_ops, len(self._old_ops)
        captures = {}
        for key, (outer, inner) in self.old._captures.items():
            k = inner.op._id
            if k is None or k >= n or old_ops[k] is not inner.op:
                continue  # not a node of this graph
            new_t = self._to[k][inner.value_index]
            if new_t.op.graph is g:  # (a dropped op's output stays old)
                captures[key] = (outer, new_t)
        g._captures = captures
        g.inputs = [self.tensor(t) for t in self.inputs]
        g.outputs = [self.tensor(t) for t in self.outputs]
        return g, g.inputs, g.outputs
