"""A graph as TensorFlow's ``as_graph_def()`` describes it (layer 2): the attrs TF adds to a
node, the function library of its ``If``/``While``/call bodies, TF's names of a function's
arguments and of its tensors (``mul:z:0``), and TF 2.21's versions.

Plain data, shared by the text printer (``printers.GraphDef``) and the protobuf writer
(``formats/export.py``), so the two say the same thing.
"""

from __future__ import annotations

import re
from types import SimpleNamespace

from . import tf_ops

__all__ = ["PRODUCER", "MIN_CONSUMER", "function_attrs", "library", "function_def",
           "tf_attrs", "normalized"]

PRODUCER = 2474  # the producer version TF 2.21 writes (tests/fixtures/real_tf/facts.json)
MIN_CONSUMER = 12  # written by TF 2.21 when the GraphDef has a function library
CONSTRUCTION_CONTEXT = "kEagerRuntime"  # the attr TF 2.21 sets on a tf.function's bodies
# stateful ops TF runs only when their value is needed: not a function's control outputs
LEGACY_RANDOM_OPS = frozenset({
    "RandomUniform", "RandomUniformInt", "RandomStandardNormal", "TruncatedNormal",
    "ParameterizedTruncatedNormal", "RandomShuffle", "Multinomial", "RandomGamma",
    "RandomGammaGrad", "RandomPoisson", "RandomPoissonV2"})


def function_attrs(op) -> list:
    """The function-valued attrs of ``op`` (branches, bodies, called functions), by key."""
    return [(k, v) for k, v in sorted(op.attrs.items())
            if hasattr(v, "function_name") and hasattr(v, "graph")]


def _is_if(op) -> bool:
    return op.type in ("If", "StatelessIf")


def _is_while(op) -> bool:
    return op.type in ("While", "StatelessWhile")


def tf_attrs(op) -> dict:
    """The attrs TF 2.21 puts on a control-flow node besides its op's own:
    ``_lower_using_switch_merge`` (Grappler may lower it to Switch/Merge),
    ``_read_only_resource_inputs`` (the resource inputs its bodies only read) and, on a
    While, ``_num_original_outputs``.  Empty for other ops."""
    if not (_is_if(op) or _is_while(op)):
        return {}
    first = 1 if _is_if(op) else 0
    read_only = []
    for i, t in enumerate(op.inputs[first:]):
        if t.dtype.name != "resource":
            continue
        uses = [o.type for _, fn in function_attrs(op) if i < len(fn.inputs)
                for o in fn.graph.operations if any(x is fn.inputs[i] for x in o.inputs)]
        if all(u == "ReadVariableOp" for u in uses):
            read_only.append(i + first)
    out = {"_lower_using_switch_merge": True, "_read_only_resource_inputs": read_only}
    if _is_while(op):
        out["_num_original_outputs"] = len(op.outputs)
    return out


def normalized(name: str) -> str:
    """TF's FunctionDef name for a node or argument: lower case, ``[a-z0-9_]``, not starting
    with a digit or ``_``."""
    base = re.sub(r"[^a-z0-9_]", "_", name.lower()) or "arg"
    return base if base[0].isalpha() else "a" + base


def _unique(base: str, used: set) -> str:
    name, i = base, 0
    while name in used:
        name, i = f"{base}_{i}", i + 1
    used.add(name)
    return name


def output_arg(t) -> tuple[str, int]:
    """(output argument, index in it) of tensor ``t`` as TF's op signature names it: output
    ``z`` of ``Mul``, ``output`` of ``Const``.  ValueError for an op TF does not have."""
    from .printers import node_attrs
    op = t.op
    known = tf_ops.op_def(op.type)
    if known is None:
        raise ValueError(f"TensorFlow has no op {op.type!r} (node {op.name!r})")
    attrs = node_attrs(op)
    start = 0
    for arg in known.output_arg:
        if arg.type_list_attr:
            n = len(attrs.get(arg.type_list_attr) or ())
        elif arg.number_attr:
            n = int(attrs.get(arg.number_attr, 0))
        else:
            n = 1
        if t.value_index < start + n:
            return arg.name, t.value_index - start
        start += n
    if len(known.output_arg) == 1:  # a list output whose count attr we do not carry
        return known.output_arg[0].name, t.value_index
    raise ValueError(f"cannot name output {t.value_index} of {op.type} {op.name!r} as TF does")


def library(graph, strict: bool = False) -> dict:
    """name -> FunctionDef view (``function_def``) of every function the graph's nodes name,
    nested ones too, each once, sorted by name as TF's library is."""
    found: dict = {}

    def visit(g):
        for op in g.operations:
            for _, fn in function_attrs(op):
                if fn.function_name in found:
                    continue
                found[fn.function_name] = None  # a body naming itself is not followed
                found[fn.function_name] = function_def(fn, op, strict)
                visit(fn.graph)
    visit(graph)
    return {k: found[k] for k in sorted(found)}


def function_def(fn, caller=None, strict: bool = True) -> SimpleNamespace:
    """The FunctionDef view of ``fn``: ``name``; ``input_args``/``output_args`` as
    (name, dtype); ``nodes`` as (op, input refs); ``ret`` output name -> ref;
    ``arg_attrs`` index -> {attr: value}; ``is_stateful``.  ``caller`` (the node that runs
    it) gives each captured argument the ``_user_specified_name`` TF writes: the name of the
    node outside that feeds it.  ``strict=False`` (the printer) names an output of an op TF
    does not have ``op:output:i``; else that is a ValueError (a file TF would refuse)."""
    used: set = set()
    outputs = [_unique(normalized(t.op.name), used) for t in fn.outputs]
    args, input_args, arg_attrs = {}, [], {}
    outer, first_capture, named_all = [], len(fn.inputs), False
    if caller is not None and _is_if(caller):
        outer, first_capture = list(caller.inputs[1:]), 0
    elif caller is not None and _is_while(caller):
        outer = list(caller.inputs)
        first_capture = _n_loop_vars(caller.attrs["body"])
        named_all = fn is caller.attrs["body"]  # TF names every capture of a body
    used_inputs = {id(x) for o in fn.graph.operations for x in o.inputs}
    for i, t in enumerate(fn.inputs):
        name = _unique(normalized(t.op.name), used)
        args[id(t)] = name
        input_args.append((name, t.dtype))
        attrs = {}
        if first_capture <= i < len(outer) and (named_all or id(t) in used_inputs):
            attrs["_user_specified_name"] = outer[i].op.name
        attrs["_output_shapes"] = [t.shape]
        arg_attrs[i] = attrs
    inputs = {id(t.op) for t in fn.inputs}

    def ref(t):
        if id(t) in args:
            return args[id(t)]
        try:
            out, index = output_arg(t)
        except ValueError:
            if strict:
                raise
            out, index = "output", t.value_index  # an op only tfgraph_edu has (printing)
        return f"{t.op.name}:{out}:{index}"

    nodes = [(op, [ref(x) for x in op.inputs] + [f"^{c.name}" for c in op.control_inputs])
             for op in fn.graph.operations if id(op) not in inputs]
    stateful = any(op.opdef.stateful for op, _ in nodes)
    control = sorted(op.name for op, _ in nodes
                     if op.opdef.stateful and op.type not in LEGACY_RANDOM_OPS)
    return SimpleNamespace(
        name=fn.function_name, fn=fn, input_args=input_args, control_outputs=control,
        output_args=[(n, t.dtype) for n, t in zip(outputs, fn.outputs)],
        nodes=nodes, ret={n: ref(t) for n, t in zip(outputs, fn.outputs)},
        arg_attrs=arg_attrs, is_stateful=stateful,
        attrs={"_construction_context": CONSTRUCTION_CONTEXT})


def _n_loop_vars(body) -> int:
    """A While body's own loop variables come first; captures after them pass through."""
    n = len(body.outputs)
    while n > 0 and body.outputs[n - 1] is body.inputs[n - 1]:
        n -= 1
    return n
