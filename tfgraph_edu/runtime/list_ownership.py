"""Which tensor-list writes the compiled executor may do in place (layer 3).

Every kernel treats a tensor list as immutable: ``TensorListSetItem`` copies the list, so a
loop writing n items into a ``tf.TensorArray`` costs O(n²).  In the generated code the
compiler sees every use of every value, so a write may change its input list in place when
that list is **owned** and **dead**:

- *owned*: nothing outside this run of the generated function can reach the list object.
  It was made here (``TensorListReserve``, ``TensorListFromTensor``, any write), or handed
  over whole by the enclosing graph (an inlined If's input, an inlined While's loop
  variable, each under the same rule).  A function argument, a constant, a value from any
  other op (a kernel may return its input, or keep it) is never owned.
- *dead*: the write is its only use, apart from reads (``TensorListGetItem``,
  ``TensorListStack``, ``TensorListLength``, or an inlined If whose branches only read it)
  that run before it; their results share nothing with the list.  No other op, no output
  of the graph, no second use by the same op sees it.

A While loop variable is owned in the body when the body's result for it is owned and used
by nothing but reads and that one output.  Loop variables are assumed owned together and
the assumption is checked; those that fail are dropped and the body analysed again, until
the assumption proves itself.  A list entering the loop that is not owned and dead there is
copied once on entry if a write in place can reach it (in the body, or through the loop
variables it is handed on to in later iterations); if none can, it is left as it is and the
loop's results that may be it are not owned after the loop.  The condition graph never
writes in place into loop variables (its inputs are not owned) and keeps nothing.

Everything else keeps copying: the step-by-step interpreter (the viewer shows each
iteration's list), eager execution, GradientTape's replays, and graphs run by a kernel
rather than inlined.  A gradient's forward loop stores each iteration's list as an item of
another list - a use that is not a read - so those lists are never written in place.
"""

from __future__ import annotations

from operator import attrgetter

from .. import dtypes as _dt
from .schedule import schedule

WRITE = "TensorListSetItem"
_FRESH = frozenset({"TensorListReserve", "TensorListFromTensor"})
_READS = frozenset({"TensorListGetItem", "TensorListStack", "TensorListLength"})  # input 0
_ALIAS = frozenset({"Identity", "StopGradient"})  # the compiler gives them the input's name
IF = frozenset({"If", "StatelessIf"})
WHILE = frozenset({"While", "StatelessWhile"})
_END = float("inf")  # the position of a graph output's use
_CONSIDERED = frozenset({WRITE}) | IF | WHILE  # the ops a plan is about
_opdef = attrgetter("opdef")


class Plan:
    """The decisions for one graph as inlined in one place: the writes done in place, the
    loop variables copied on entering each While, the plans of inlined branches and bodies;
    and, for the enclosing graph, which outputs are owned (by input index: whose objects
    they may be), which inputs are only read, and which inputs may be written into."""

    __slots__ = ("in_place", "copies", "nested", "owned_outputs", "read_only", "mutates")

    def __init__(self):
        self.in_place: set[int] = set()  # id(op) of TensorListSetItem ops
        self.copies: dict[int, frozenset] = {}  # id(While op) -> loop variable positions
        self.nested: dict[int, tuple] = {}  # id(If) -> (then, else); id(While) -> (cond, body)
        self.owned_outputs: dict[int, frozenset] = {}  # output index -> input indices
        self.read_only: set[int] = set()  # input indices used by reads only
        self.mutates: set[int] = set()  # input indices whose object may be written into


EMPTY = Plan()


def plan_graph(graph, inputs, outputs, owned_inputs, depth: int, inlined, ops=None) -> Plan:
    """The plan for ``graph`` run from ``inputs`` (placeholders; those at the indices
    ``owned_inputs`` own their values) to ``outputs``.  ``inlined(op, depth)`` says whether
    the compiler writes an If/While op's graphs in place at this nesting depth; ``ops`` is
    ``schedule(graph, outputs)`` when the caller has it."""
    if ops is None:
        ops = schedule(graph, outputs)
    if depth == 0 and not _CONSIDERED.intersection(d.name for d in set(map(_opdef, ops))):
        return EMPTY  # a graph with nothing to write in place (most big ones)
    return _Analysis(inputs, outputs, owned_inputs, depth, inlined, ops).plan


class _Analysis:
    def __init__(self, inputs, outputs, owned_inputs, depth, inlined, ops):
        self.fed = {id(t): i for i, t in enumerate(inputs)}
        self.depth, self.inlined = depth, inlined
        self.plan = Plan()
        self.ops = [op for op in ops if not (op.outputs and id(op.outputs[0]) in self.fed)]
        self.readers: set[tuple[int, int]] = set()  # (id(op), input index): an If only reading
        # every use of each value (by the id of the tensor the compiler names it after)
        self.uses: dict[int, list] = {}
        for p, op in enumerate(self.ops):
            if op.type in _ALIAS:
                continue
            for k, t in enumerate(op.inputs):
                self.uses.setdefault(self._canon(t), []).append((p, op, k))
        for m, t in enumerate(outputs):
            self.uses.setdefault(self._canon(t), []).append((_END, None, m))
        # owned values: tensor id -> the input indices whose objects it may be
        self.owned: dict[int, frozenset] = {id(inputs[i]): frozenset({i}) for i in owned_inputs}
        for p, op in enumerate(self.ops):
            self._step(p, op)
        plan = self.plan
        for m, t in enumerate(outputs):
            tid = self._canon(t)
            if tid in self.owned and self._only_use(tid, _END, None, m, reads_before=False):
                plan.owned_outputs[m] = self.owned[tid]
        for i, t in enumerate(inputs):
            if all(user is not None and self._reads(user, k)
                   for _, user, k in self.uses.get(id(t), ())):
                plan.read_only.add(i)

    def _canon(self, t) -> int:
        """The id of the tensor whose name ``t`` has in the generated code (through
        Identity/StopGradient, which the compiler writes as the same name)."""
        while id(t) not in self.fed and t.op.type in _ALIAS and t.op.inputs:
            t = t.op.inputs[0]
        return id(t)

    def _reads(self, op, k: int) -> bool:
        return (k == 0 and op.type in _READS) or (id(op), k) in self.readers

    def _only_use(self, tid, p, op, k, reads_before=True) -> bool:
        """Whether input ``k`` of ``op`` (at position ``p``) is the value's one use apart
        from reads (that run before ``p``, unless ``p`` is the end of the graph)."""
        found = False
        for q, user, j in self.uses.get(tid, ()):
            if user is op and j == k and not found:
                found = True
            elif user is None or not self._reads(user, j) or (reads_before and q >= p):
                return False
        return found

    def _take(self, p, op, k):
        """The origins of input ``k`` of ``op`` when the op may take it over, else None."""
        tid = self._canon(op.inputs[k])
        if tid in self.owned and self._only_use(tid, p, op, k):
            return self.owned[tid]
        return None

    def _step(self, p, op) -> None:
        kind = op.type
        if kind in _FRESH:
            self.owned[id(op.outputs[0])] = frozenset()
        elif kind == WRITE:
            origins = self._take(p, op, 0)
            if origins is not None:
                self.plan.in_place.add(id(op))
                self.plan.mutates.update(origins)
            self.owned[id(op.outputs[0])] = origins or frozenset()
        elif kind in IF and self.inlined(op, self.depth):
            self._if(p, op)
        elif kind in WHILE and self.inlined(op, self.depth):
            self._while(p, op)

    def _if(self, p, op) -> None:
        taken = {}
        for k in range(1, len(op.inputs)):
            origins = self._take(p, op, k)
            if origins is not None:
                taken[k - 1] = origins
        subs = tuple(self._nested(op.attrs[b], frozenset(taken))
                     for b in ("then_branch", "else_branch"))
        self.plan.nested[id(op)] = subs
        for i in set().union(*(s.mutates for s in subs)):
            self.plan.mutates.update(taken[i])
        for i in subs[0].read_only & subs[1].read_only:
            if i not in taken:
                self.readers.add((id(op), i + 1))
        for m, out in enumerate(op.outputs):
            if m in subs[0].owned_outputs and m in subs[1].owned_outputs:
                self.owned[id(out)] = frozenset().union(
                    *(taken[i] for s in subs for i in s.owned_outputs[m]))

    def _while(self, p, op) -> None:
        cond, body = op.attrs["cond"], op.attrs["body"]
        lists = [j for j, t in enumerate(op.outputs) if t.dtype is _dt.variant]
        entry = {j: self._take(p, op, j) for j in lists}  # None: not owned or not dead
        assumed = set(lists)
        while True:  # the largest set of loop variables whose ownership proves itself
            sub = self._nested(body, frozenset(assumed))
            bad = {j for j in assumed if j not in sub.owned_outputs}
            if not bad:
                break
            assumed -= bad
        # the loop variables whose objects a write in place may reach: written in place in
        # the body, or passed on to one that is in the next iteration
        risk = _closure(set(sub.mutates), lambda k: sub.owned_outputs[k] if k in assumed
                        else ())
        copies = {j for j in assumed if entry[j] is None and j in risk}
        # the loop's results that may be an object it did not own (a list from outside,
        # read in the loop and not copied): not owned after the loop either
        outside = {j for j in assumed if entry[j] is None and j not in copies}
        outside = _closure(outside, lambda j: [k for k in assumed
                                               if j in sub.owned_outputs[k]])
        self.plan.nested[id(op)] = (self._nested(cond, frozenset()), sub)
        if copies:
            self.plan.copies[id(op)] = frozenset(copies)
        origins = frozenset().union(*(entry[j] for j in assumed if entry[j] is not None))
        for j in assumed & risk:
            if entry[j] is not None:
                self.plan.mutates.update(entry[j])
        for j in assumed - outside:
            self.owned[id(op.outputs[j])] = origins

    def _nested(self, fn, owned_inputs) -> Plan:
        return plan_graph(fn.graph, fn.inputs, fn.outputs, owned_inputs, self.depth + 1,
                          self.inlined)


def _closure(start: set, step) -> set:
    """``start`` and everything reached from it by ``step(item) -> items``."""
    todo = list(start)
    while todo:
        for nxt in step(todo.pop()):
            if nxt not in start:
                start.add(nxt)
                todo.append(nxt)
    return start
