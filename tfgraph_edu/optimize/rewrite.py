"""Copy a graph op by op into a new one, letting a pass decide each op's fate (layer 6).

Every pass is a Graph -> Graph function built on :class:`Rewriter`: ops are
visited in order and either copied (inputs remapped), replaced by another tensor
(``forward``), or replaced by a new constant.  Control inputs of removed ops are
handed on to the ops that depended on them, so side-effect order never changes.
"""

from __future__ import annotations

from ..graph.graph import Graph
from ..ops.convert import Const


class Rewriter:
    def __init__(self, graph, inputs, outputs):
        self.old = graph
        self.new = Graph(graph.name)
        self.new.outer_graph = getattr(graph, "outer_graph", None)
        self.inputs = inputs
        self.outputs = outputs
        self._map: dict[int, object] = {}
        self._ops: dict[int, object] = {}
        self._dropped_ctrl: dict[int, list] = {}

    # -- mapping ---------------------------------------------------------------------------------
    def tensor(self, t):
        """The new graph's tensor for old tensor ``t``."""
        return self._map[id(t)]

    def has(self, t) -> bool:
        return id(t) in self._map

    def control(self, op) -> list:
        """The new control inputs for old ``op`` (removed ones replaced by theirs)."""
        out = []
        seen = set()
        for c in op.control_inputs:
            for new in self._ops_for_control(c):
                if id(new) not in seen:
                    seen.add(id(new))
                    out.append(new)
        return out

    def _ops_for_control(self, old_op) -> list:
        new = self._ops.get(id(old_op))
        if new is not None:
            return [new]
        return self._dropped_ctrl.get(id(old_op), [])

    # -- actions ---------------------------------------------------------------------------------
    def copy(self, op, inputs=None, attrs=None, control=None):
        """Copy ``op`` (optionally with new inputs/attrs) and map its outputs."""
        new_inputs = [self.tensor(t) for t in op.inputs] if inputs is None else inputs
        specs = [(t.shape, t.dtype) for t in op.outputs]
        new = self.new.add_op(op.name, op.opdef, new_inputs,
                              dict(op.attrs) if attrs is None else attrs, specs,
                              self.control(op) if control is None else control, op.source)
        self.new._by_name[op.name] = new
        self.new._names_in_use[op.name.lower()] = 1
        for old_t, new_t in zip(op.outputs, new.outputs):
            new_t.handle_shape, new_t.handle_dtype = old_t.handle_shape, old_t.handle_dtype
            self._map[id(old_t)] = new_t
        self._ops[id(op)] = new
        return new

    def forward(self, op, tensors):
        """Remove ``op``: its outputs become ``tensors`` (already in the new graph)."""
        for old_t, new_t in zip(op.outputs, tensors):
            self._map[id(old_t)] = new_t
        self._dropped_ctrl[id(op)] = self.control(op)

    def drop(self, op):
        """Remove ``op`` entirely (nothing may use its outputs)."""
        self._dropped_ctrl[id(op)] = self.control(op)

    def add(self, op, name, opdef, inputs, attrs, specs) -> list:
        """A new op standing in for old ``op`` (same source line, its control inputs)."""
        name = self.new.unique_name(name, scoped=False)
        new = self.new.add_op(name, opdef, inputs, attrs, specs, self.control(op), op.source)
        return new.outputs

    def constant(self, op, values) -> list:
        """Replace ``op`` by one Const per output holding ``values``."""
        out = []
        ctrl = self.control(op)
        for i, (t, v) in enumerate(zip(op.outputs, values)):
            name = op.name if len(op.outputs) == 1 else f"{op.name}/output_{i}"
            name = self.new.unique_name(name, scoped=False) if name in self.new._by_name else name
            new = self.new.add_op(name, Const, [], {"dtype": t.dtype, "value": v},
                                  [(t.shape, t.dtype)], ctrl, op.source)
            self.new._by_name[name] = new
            self.new._names_in_use[name.lower()] = 1
            out.append(new.outputs[0])
        self.forward(op, out)
        self._dropped_ctrl[id(op)] = ctrl
        return out

    def finish(self):
        """(new graph, new inputs, new outputs)."""
        g = self.new
        g.variables = list(self.old.variables)
        g._captures = {k: (outer, self._map[id(inner)]) for k, (outer, inner)
                       in self.old._captures.items() if id(inner) in self._map}
        new_inputs = [self._map[id(t)] for t in self.inputs]
        new_outputs = [self._map[id(t)] for t in self.outputs]
        g.inputs, g.outputs = new_inputs, new_outputs
        return g, new_inputs, new_outputs
