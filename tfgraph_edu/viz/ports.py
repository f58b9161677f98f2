"""The inputs and outputs of If branches and While bodies as ports named by the learner's
Python names (layer 8).

A body's inputs are placeholders the engine names ``Placeholder_1``, ``unused_capture`` or
after the outer op a value was captured from (``cond/while``); the picture labels them with
what the learner wrote: the loop variables' names (AutoGraph records them,
``GraphFunction.loop_var_names``), the names an ``if`` reads and assigns (``input_names``,
``output_names``), and for a captured value the name it has outside (a function argument
``x``, a loop variable ``total`` that a While op returns, a variable ``w``), else the op it
comes from (``Relu``).  A captured value a body does not use is not drawn there at all.
"""

from __future__ import annotations

from ..control_flow.cond_while import LEAD_NAMES, N_LEAD
from .kinds import preview, variable_name

__all__ = ["python_name", "body_ports", "loop_bookkeeping", "has_counter", "ITERATION"]

ITERATION = "iteration"  # AutoGraph's own loop counter ("<index>")
_IF = frozenset({"If", "StatelessIf"})
_WHILE = frozenset({"While", "StatelessWhile"})


def _shown(name: str) -> str:
    if name in LEAD_NAMES:  # TF's loop counter and limit, when drawn: TF's names
        return name[1:-1]
    return ITERATION if name.startswith("<") else name


def python_name(t) -> str | None:
    """The learner's name for tensor ``t`` as the picture can tell it: an argument's name, a
    loop variable a While returns, a name an ``if`` assigns, a small constant's value; else
    None."""
    op = getattr(t, "op", None)
    if op is None:
        return None
    if op.type == "Placeholder":
        if op.graph.base_scope:  # a body's own input: its port says its name
            return None
        outer = next((o for o, inner in op.graph.captures if inner is t), None)
        if outer is None:  # an argument of the function
            return op.name
        if getattr(outer, "op", None) is not None and hasattr(outer, "value_index"):
            return python_name(outer)  # a tensor of the enclosing function
        return variable_name(outer) or None  # a variable: its name
    if op.type == "Const":  # a constant: its value says what it is
        return preview(op.attrs.get("value"))
    if op.type == "Identity" and op.inputs and op.inputs[0].op.type in _IF:
        return python_name(op.inputs[0])  # an If's result comes out through cond/Identity
    if op.type in _WHILE:
        names = getattr(op.attrs.get("body"), "loop_var_names", ()) or ()
        if t.value_index < len(names):
            return _shown(names[t.value_index])
    if op.type in _IF:
        names = getattr(op.attrs.get("then_branch"), "output_names", ()) or ()
        if t.value_index < len(names):
            return names[t.value_index]
    return None


def has_counter(op) -> bool:
    """Whether While ``op`` starts with TF 2.21's two loop variables: its loop counter and
    maximum iterations (``while/loop_counter``, ``while/maximum_iterations``)."""
    body = op.attrs.get("body")
    fn_ins = getattr(body, "inputs", None) if hasattr(body, "graph") else None
    for ins in (op.inputs, fn_ins or ()):  # the body's own names survive the optimiser's
        if (len(ins) >= N_LEAD                # merging of equal constants outside
                and ins[0].op.name.rsplit("/", 1)[-1].startswith("loop_counter")
                and ins[1].op.name.rsplit("/", 1)[-1].startswith("maximum_iterations")):
            return True
    return False


def _counter_only(fn) -> set[int]:
    """Ids of the ops of a While's cond or body that only keep TF's loop counter and maximum
    iterations (their placeholders, the counter's ``add``, their output Identities): not
    drawn.  A limit the learner gave is tested in the condition with their own test; those
    ops feed the condition's result and stay."""
    ops = fn.graph.operations
    lead = {id(t.op) for t in fn.inputs[:N_LEAD]}
    group = set(lead)
    for o in ops:  # what is computed from the counter and limit alone (constants aside)
        if o.inputs and all(id(t.op) in group or t.op.type == "Const" for t in o.inputs):
            group.add(id(o))
    group |= {id(o) for o in ops if o.type == "Const" and not o.inputs}
    ends = {id(t.op) for t in fn.outputs[:N_LEAD]}
    kept = {id(t.op) for t in fn.outputs[N_LEAD:]}
    consumers: dict[int, list[int]] = {}
    for o in ops:
        for t in o.inputs:
            consumers.setdefault(id(t.op), []).append(id(o))
    changed = True
    while changed:  # keep only what feeds nothing but the group (or the lead outputs)
        changed = False
        for o in ops:
            i = id(o)
            if i in group and (i in kept or any(c not in group for c in consumers.get(i, ()))
                               or (i not in consumers and i not in ends and i not in lead)):
                group.discard(i)
                changed = True
    return group


def loop_bookkeeping(graph) -> set[int]:
    """Ids of the ops of ``graph`` that only serve TF's loops: each While's loop counter and
    maximum iterations constants, and the unused length a ``for`` over ``tf.range`` computes
    (``sub`` … ``Maximum``, as TF's AutoGraph builds it).  The drawing leaves them out;
    ``get_operations()`` and ``as_graph_def()`` still list them, as TF's do."""
    consumers: dict[int, list] = {}
    for o in graph.operations:
        for k, t in enumerate(o.inputs):
            consumers.setdefault(id(t.op), []).append((o, k))
    out: set[int] = set()
    for o in graph.operations:
        if o.type in _WHILE and has_counter(o):
            cond = o.attrs.get("cond")
            unused = _counter_only(cond) if hasattr(cond, "graph") else set()
            for k in range(N_LEAD):
                src = o.inputs[k].op
                if hasattr(cond, "graph") and id(cond.inputs[k].op) not in unused:
                    continue  # a limit the learner gave: drawn where the condition tests it
                if src.type == "Const" and all(c.type in _WHILE and j < N_LEAD
                                               for c, j in consumers.get(id(src), ())):
                    out.add(id(src))
        elif o.type == "Maximum" and id(o) not in consumers:
            out |= _range_length(o, consumers)
    return out


_LENGTH_TYPES = ("Maximum", "AddV2", "FloorDiv", "Cast", "NotEqual", "FloorMod", "Const", "Sub")


def _range_length(top, consumers) -> set[int]:
    """The 9 ops of an unused range length ending at ``top`` (a Maximum nothing reads), if
    that is what they are: Sub of a Range's limit and start, then FloorDiv, FloorMod,
    NotEqual, Cast, AddV2 and Maximum against zeros, feeding nothing else."""
    group, stack = {}, [top]
    while stack:
        o = stack.pop()
        if id(o) in group or (o.type == "Const" and len(consumers.get(id(o), ())) > 1):
            continue  # the range's own delta
        if o.type not in _LENGTH_TYPES or len(group) > 9:
            return set()
        group[id(o)] = o
        if o.type != "Sub":
            stack.extend(t.op for t in o.inputs)
    subs = [o for o in group.values() if o.type == "Sub"]
    if len(group) != 9 or len(subs) != 1:
        return set()
    limit, start = subs[0].inputs
    if not any(c.type == "Range" and c.inputs[0] is start and c.inputs[1] is limit
               for c, _ in consumers.get(id(start.op), ())):
        return set()
    if any(c is not None and id(c) not in group for i in group if i != id(top)
           for c, _ in consumers.get(i, ())):
        return set()
    return set(group)


def _used(op) -> bool:
    """Whether an op's outputs feed anything in its graph (or leave it)."""
    graph = op.graph
    outs = {id(t) for t in op.outputs}
    if any(id(t) in outs for t in getattr(graph, "outputs", ())):
        return True
    return any(id(t) in outs for other in graph.operations for t in other.inputs)


def unused_constants(fn) -> set[int]:
    """Ids of the constants of the graph ``fn`` that nothing uses: no op reads them, the graph
    does not return them, nothing waits on them.  TF builds branches with such leftovers too
    (AutoGraph's ``do_return = True`` in an ``else`` branch that returns); the drawing leaves
    them out, the details pane says so on the control-flow op."""
    ops = fn.graph.operations
    used = {id(x) for other in ops for x in other.inputs} | {id(x) for x in fn.outputs}
    waited = {id(c) for other in ops for c in other.control_inputs}
    return {id(o) for o in ops if o.type == "Const" and id(o) not in waited
            and not any(id(t) in used for t in o.outputs)}


def body_ports(op, label: str, fn) -> tuple[dict[int, str], set[int]]:
    """For the graph ``fn`` that control-flow op ``op`` runs as ``label`` (then, else, cond,
    body): (id(placeholder or output op) -> port name, ids of input placeholders not drawn:
    captures this graph does not use, and constants nothing uses)."""
    names: dict[int, str] = {}
    hidden: set[int] = unused_constants(fn)
    if op.type in _IF:
        outer = list(op.inputs[1:])
        loop = ()
    elif op.type in _WHILE:
        outer = list(op.inputs)
        loop = getattr(op.attrs.get("body"), "loop_var_names", ()) or ()
        if has_counter(op):
            hidden |= _counter_only(fn)
            if len(loop) < N_LEAD:  # a While read from a TF file: no learner's names
                loop = LEAD_NAMES
    else:
        return names, hidden
    users = None
    for k, t in enumerate(fn.inputs):
        if k < len(loop):
            names[id(t.op)] = _shown(loop[k])
            continue
        if users is None:
            users = {id(x) for other in fn.graph.operations for x in other.inputs}
            users |= {id(x) for x in fn.outputs[len(loop):]} if label != "body" else set()
        if id(t) not in users:
            hidden.add(id(t.op))
            continue
        given = getattr(fn, "input_names", ()) or ()
        name = given[k] if k < len(given) and given[k] else None
        if name is None and k < len(outer):
            # the name it has outside, else the op it comes from ("Relu")
            name = python_name(outer[k]) or outer[k].op.name.rsplit("/", 1)[-1]
        if name is not None:
            names[id(t.op)] = name
    if label == "body":
        outs = [(k, o) for k, o in enumerate(fn.outputs[:len(loop)])]
    elif label in ("then", "else"):
        given = getattr(fn, "output_names", ()) or ()
        outs = [(k, o) for k, o in enumerate(fn.outputs) if k < len(given)]
        loop = given
    else:
        outs = []
    for k, o in outs:
        if o.op.type == "Identity":
            names.setdefault(id(o.op), _shown(loop[k]))
    return names, hidden
