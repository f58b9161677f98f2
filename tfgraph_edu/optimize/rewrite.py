"""Editing a graph in one ordered sweep, for the optimisation passes (layer 6).

The pipeline copies the traced graph once (:func:`copy_graph`); each pass then
sweeps the copy's operations in order and, for every op, keeps it (inputs
rewired to replacements made earlier in the sweep), replaces its outputs by
other tensors (``forward``), drops it, or puts new ops or constants in its
place.  Control inputs of removed ops pass to the ops that depended on them, so
the order of side effects never changes.  One sweep is linear in the graph size.
"""

from __future__ import annotations

from ..graph.graph import Operation, Tensor
from ..ops.convert import Const


def copy_graph(graph, inputs, outputs):
    """A copy of ``graph`` (new Operation and Tensor objects): (graph, inputs, outputs).

    A node's inputs are found by position (``_id``, renumbered here), not through a map
    from every old tensor to its copy: a big graph is copied in one light sweep."""
    g = type(graph)(graph.name)
    g.outer_graph = getattr(graph, "outer_graph", None)
    g.base_scope = getattr(graph, "base_scope", "")
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
        olds = op.outputs
        if len(olds) == 1:
            old_t = olds[0]
            new_t = Tensor(new, 0, old_t._shape, old_t._dtype)
            if old_t.handle_shape is not None or old_t.handle_dtype is not None:
                new_t.handle_shape, new_t.handle_dtype = old_t.handle_shape, old_t.handle_dtype
            new.outputs = [new_t]
        else:
            new._add_outputs([(t._shape, t._dtype) for t in olds])
            for old_t, new_t in zip(olds, new.outputs):
                new_t.handle_shape, new_t.handle_dtype = old_t.handle_shape, old_t.handle_dtype
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

    g._names_in_use = dict(graph._names_in_use)
    g.variables = type(graph.variables)(graph.variables)
    g._captures = {k: (outer, copied(inner)) for k, (outer, inner) in graph._captures.items()
                   if copied(inner) is not None}
    g.inputs = [copied_or_error(t) for t in inputs]
    g.outputs = [copied_or_error(t) for t in outputs]
    return g, g.inputs, g.outputs


def _alien(op, t):
    """ValueError for an input (or control input) that is not a node of the graph copied."""
    what = f"an input of {op.name!r}" if op is not None else "an input or output of the graph"
    raise ValueError(f"{t.name} ({what}) is not a node of the graph being copied.")


class Rewriter:
    """One sweep over ``graph`` (edited in place): call exactly one action per op, in order."""

    def __init__(self, graph, inputs, outputs):
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
        """``[self.tensor(t) for t in ts]``, without the calls when nothing was replaced."""
        replace = self._replace
        if not replace:
            return list(ts)
        return [t if replace.get(id(t)) is None else self.tensor(t) for t in ts]

    def has(self, t) -> bool:
        return True

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
    def copy(self, op, inputs=None, attrs=None, control=None):
        """Keep ``op``, with its inputs rewired (or given), maybe new attrs or control inputs."""
        if inputs is not None:
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
            op.control_inputs = list(control)
        elif op.control_inputs:
            op.control_inputs = self.control(op)
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
