"""``tf.cond`` and ``tf.while_loop``: eager Python, or If/While ops with traced subgraphs
(layer 4b).

Eagerly (and whenever the condition is a Python value) they are plain Python.
Inside a trace, each branch, condition and body is traced into its own graph by
a nested GraphBuilder; values they use from outside become extra inputs of the
If/While op, so both branches run on the same inputs.
"""

from __future__ import annotations

import itertools

import numpy as np

from .. import dtypes as _dt
from .. import nest
from ..eager import tape as _tape
from ..eager.tensor import EagerTensor
from ..graph.graph import Graph, Tensor
from ..graph.naming import check_scope_name
from ..ops import control_flow_ops, creation_ops, identity_ops, math_ops
from ..ops._core import bind, using_interpreter
from ..ops.composite import is_composite
from ..ops.control_flow_ops import GraphFunction
from ..ops.convert import is_tensor, to_numpy, to_tensor
from ..shapes import TensorShape, TensorSpec
from ..tracing.graph_builder import GraphBuilder, building_graph

_uid = itertools.count(1)


# -- structures ------------------------------------------------------------------------------
def flatten(structure) -> list:
    """The leaves of a nested structure; a TensorArray contributes its flow tensor."""
    if isinstance(structure, (list, tuple)):
        return [x for s in structure for x in flatten(s)]
    if isinstance(structure, dict):
        return [x for k in sorted(structure) for x in flatten(structure[k])]
    components = getattr(structure, "_ag_components", None)
    if components is not None:
        return list(components())
    return [structure]


def pack_as(structure, flat):
    it = iter(flat)

    def build(s):
        if isinstance(s, list):
            return [build(x) for x in s]
        if isinstance(s, tuple):
            items = [build(x) for x in s]
            return type(s)(*items) if hasattr(s, "_fields") else tuple(items)
        if isinstance(s, dict):
            return {k: build(s[k]) for k in sorted(s)}
        components = getattr(s, "_ag_components", None)
        if components is not None:
            return s._ag_rebuild([next(it) for _ in components()])
        return next(it)
    return build(structure)


def _describe_structure(s) -> str:
    if isinstance(s, (list, tuple, dict)):
        return type(s).__name__ + " of " + str(len(s))
    return "a single value"


# -- tracing a subgraph ---------------------------------------------------------------------------
class Subgraph:
    """A traced branch or body: its graph, builder, output structure and flat outputs."""

    def __init__(self, parent: GraphBuilder, name: str, inputs_like=(), scope: str = "",
                 lead=()):
        self.graph = Graph(name)
        self.graph._scope = self.graph.base_scope = scope  # TF's names: "while/add", "cond/mul"
        self.builder = GraphBuilder(self.graph, outer=parent)
        self.name = name
        self.arg_placeholders = []
        with using_interpreter(self.builder):
            for t in lead:  # a While's loop counter and maximum iterations: TF's names
                ph = self.builder.placeholder(t.dtype, t.shape, t.op.name)
                self.arg_placeholders.append(ph)
            for t in inputs_like:
                ph = self.builder.placeholder(t.dtype, t.shape, "Placeholder")
                ph.handle_shape, ph.handle_dtype = t.handle_shape, t.handle_dtype
                self.arg_placeholders.append(ph)

    def run(self, fn, *args):
        with using_interpreter(self.builder):
            result = fn(*args)
        return result

    def finish(self, flat_outputs):
        """Turn Python values and outer tensors among the outputs into this graph's tensors."""
        out = []
        with using_interpreter(self.builder):
            for v in flat_outputs:
                # an outer tensor is captured by its Identity, as in TF (cond/Identity_1/x)
                if not isinstance(v, Tensor):
                    v = to_tensor(v)
                    if isinstance(v, EagerTensor):
                        v = self.builder.capture(v)
                out.append(identity_ops.identity(v))
        self.outputs = out
        return out

    @property
    def stateful(self) -> bool:
        return any(op.opdef.stateful for op in self.graph.operations)


def _base(graph) -> str:
    """The absolute scope of a body's own placeholders (its base scope), or the root."""
    return graph.base_scope + "/" if graph.base_scope else ""


def _union_captures(subgraphs) -> list:
    """The outer values every subgraph needs, once each, in first-use order."""
    seen: dict[int, object] = {}
    for sg in subgraphs:
        for outer, _ in sg.graph.captures:
            seen.setdefault(id(outer), outer)
    return list(seen.values())


def _inputs_for(sg: Subgraph, outer_values, unused="unused_capture") -> list:
    """The subgraph's placeholders for ``outer_values`` (unused ones are made, and stay idle;
    a cond branch names them ``Placeholder`` as TF does).  ``unused`` is their name, or
    gives it: ``unused(k, value)`` for the k-th unused one."""
    captured = {id(outer): inner for outer, inner in sg.graph.captures}
    inputs = []
    k = 0
    with using_interpreter(sg.builder), sg.graph.name_scope(_base(sg.graph)):
        for v in outer_values:
            ph = captured.get(id(v))
            if ph is None:
                name = unused(k, v) if callable(unused) else unused
                k += 1
                ph = sg.builder.placeholder(v.dtype, v.shape, name)
            inputs.append(ph)
    return inputs


def _outer_name(k, v) -> str:
    """A While body's input for a value only its condition uses: named, as in TF, after the
    op that value comes from (``while/range/limit``, as ``while_range_limit``)."""
    op = getattr(v, "op", None)
    return op.name.replace("/", "_").lower() if op is not None else "unused_capture"


# -- tf.cond -
def cond(pred, true_fn=None, false_fn=None, name=None):
    """``tf.cond``: ``true_fn()`` if ``pred`` else ``false_fn()``; inside a graph, an If op."""
    if true_fn is None or false_fn is None or not callable(true_fn) or not callable(false_fn):
        raise TypeError("tf.cond needs two callables: true_fn and false_fn.")
    builder = building_graph()
    if builder is None or not is_tensor(pred) or isinstance(pred, EagerTensor):
        return true_fn() if bool(pred) else false_fn()
    if pred.dtype is not _dt.bool or pred.shape.rank not in (0, None):
        raise TypeError(f"tf.cond: pred must be a scalar bool tensor, got {pred!r}")
    n = next(_uid)
    scope = builder.graph.get_name_scope()
    prefix = (scope.replace("/", "_") + "_") if scope else ""
    inner = op_scope(builder, name or "cond")
    then_sg = Subgraph(builder, f"{prefix}cond_true_{n}", scope=inner)
    else_sg = Subgraph(builder, f"{prefix}cond_false_{n}", scope=inner)
    with _tape.stop_recording_all():
        r_then = then_sg.run(true_fn)
        r_else = else_sg.run(false_fn)
    flat_then, flat_else = flatten(r_then), flatten(r_else)
    if len(flat_then) != len(flat_else) or _shape_of(r_then) != _shape_of(r_else):
        raise ValueError(
            "true_fn and false_fn arguments to tf.cond must have the same number, type, and "
            f"overall structure of return values. true_fn returned {_describe_structure(r_then)}"
            f" ({len(flat_then)} values), false_fn {_describe_structure(r_else)} "
            f"({len(flat_else)} values).")
    outs_then = then_sg.finish(flat_then)
    outs_else = else_sg.finish(flat_else)
    for i, (a, b) in enumerate(zip(outs_then, outs_else)):
        if a.dtype is not b.dtype:
            raise TypeError(
                f"true_fn and false_fn arguments to tf.cond must return the same dtypes: output "
                f"{i} is {a.dtype.name} in true_fn but {b.dtype.name} in false_fn.")
    return make_if(builder, pred, then_sg, else_sg, r_then, name)


def op_scope(builder, name: str) -> str:
    """The name the If/While op about to be built will get (``cond``, ``outer/while_1``): the
    scope of its branches' and bodies' nodes, as in TF."""
    return builder.graph.unique_name(check_scope_name(name, bool(builder.graph._scope)),
                                     mark_as_used=False)


def make_if(builder, pred, then_sg, else_sg, structure, name=None):
    """Add the If op for two finished subgraphs and return its outputs in ``structure``."""
    outer = _union_captures([then_sg, else_sg])
    then_f = GraphFunction(then_sg.graph, _inputs_for(then_sg, outer, "Placeholder"),
                           then_sg.outputs, then_sg.name)
    else_f = GraphFunction(else_sg.graph, _inputs_for(else_sg, outer, "Placeholder"),
                           else_sg.outputs, else_sg.name)
    shapes = [a.shape.most_specific_compatible_shape(b.shape)
              for a, b in zip(then_sg.outputs, else_sg.outputs)]
    opdef = (control_flow_ops.If if then_sg.stateful or else_sg.stateful
             else control_flow_ops.StatelessIf)
    attrs = {"Tcond": pred.dtype, "Tin": tuple(v.dtype for v in outer),
             "then_branch": then_f, "else_branch": else_f,
             "Tout": tuple(t.dtype for t in then_sg.outputs), "output_shapes": tuple(shapes)}
    result = bind(opdef, (pred, *outer), attrs, name or "cond")
    flat = result if isinstance(result, list) else [result] if then_sg.outputs else []
    if flat:  # TF returns an If's results through Identity nodes in its scope (cond/Identity)
        with builder.graph.name_scope(flat[0].op.name + "/"):
            flat = [identity_ops.identity(t) for t in flat]
    if not then_sg.outputs and structure is None:
        return None
    return pack_as(structure, flat)


def _shape_of(s):
    if isinstance(s, (list, tuple)):
        return (type(s).__name__, tuple(_shape_of(x) for x in s))
    if isinstance(s, dict):
        return ("dict", tuple((k, _shape_of(s[k])) for k in sorted(s)))
    return "leaf" if s is not None else None


# -- tf.while_loop -
_STRUCTURE_HINT = (
    "\n\ntf.while_loop passes the loop variables to cond and body as separate arguments and "
    "expects body to give them back in the structure of loop_vars: with loop_vars=[x], "
    "return [x + 1] (a list of one), not x + 1.")


def while_loop(cond, body, loop_vars, shape_invariants=None, parallel_iterations=10,
               back_prop=True, swap_memory=False, maximum_iterations=None, name=None,
               _strict_shapes=True):
    """``tf.while_loop``: repeat ``body`` while ``cond``; inside a graph, a While op.

    Eagerly, as TF: the values go round as they are and the last ones come back as tensors,
    in the structure ``body`` returned; each result must match ``loop_vars`` in structure."""
    if not callable(cond):
        raise TypeError("'cond' must be callable.")
    if not callable(body):
        raise TypeError("'body' must be callable.")
    if not isinstance(parallel_iterations, int) or parallel_iterations < 1:
        raise TypeError("'parallel_iterations' must be a positive integer.")
    if not isinstance(loop_vars, (list, tuple)):
        raise TypeError(
            f"tf.while_loop's loop_vars must be a list or tuple of loop variables, got "
            f"{type(loop_vars).__name__} {loop_vars!r:.80}. Write loop_vars=[x] and return "
            "[x + 1] from the body.")
    if not loop_vars:
        raise ValueError("'loop_vars' must be provided.")
    builder = building_graph()
    if builder is None:
        return _eager_while(cond, body, loop_vars, maximum_iterations)
    if any(is_composite(v) for v in flatten_composites(loop_vars)):
        loop_vars, shape_invariants, body = _composite_loop(loop_vars, shape_invariants, body)
    flat = flatten(loop_vars)
    with using_interpreter(builder):
        init = [to_tensor(v) if not isinstance(v, Tensor) else v for v in flat]
    return build_while(builder, cond, body, loop_vars, init, shape_invariants,
                       maximum_iterations, parallel_iterations, name,
                       strict_shapes=_strict_shapes)


def flatten_composites(structure) -> list:
    """The leaves of a nested structure, composite values (SparseTensor, ...) as leaves."""
    if isinstance(structure, (list, tuple)):
        return [x for s in structure for x in flatten_composites(s)]
    if isinstance(structure, dict):
        return [x for k in sorted(structure) for x in flatten_composites(structure[k])]
    return [structure]


def component_invariants(value, loop_shape) -> list:
    """The shapes a composite's components keep through a loop whose composite shape is
    ``loop_shape`` (what its type spec lets vary, such as the number of sparse values, is
    unknown), as TF's while loop carries them."""
    spec = type(value._type_spec)._with_shape(value._type_spec, loop_shape)
    return [s.shape for s in spec._component_specs()]


def _composite_loop(loop_vars, shape_invariants, body):
    """tf.while_loop over composite values: their loop shapes (their own, or from a shape
    invariant: ``[rank]`` for a SparseTensor, as TF), their components' invariants, and a body
    that checks each composite result against its loop shape with TF's error."""
    leaves = flatten_composites(loop_vars)
    given = (flatten_composites(shape_invariants) if shape_invariants is not None
             else [None] * len(leaves))
    templates, flat_inv, shapes = [], [], []
    for v, inv in zip(leaves, given):
        if is_composite(v) and not getattr(v, "_loop_shape_free", False):
            shape = v.shape if inv is None else v._invariant_shape(inv)
            templates.append(v._relaxed(shape) if inv is not None else v)
            shapes.append(shape)
            flat_inv += component_invariants(v, shape)
        elif is_composite(v):  # an extension type: its components keep their own shapes
            templates.append(v)
            shapes.append(None)
            flat_inv += [None] * len(v._ag_components())
        else:
            templates.append(v)
            shapes.append(None)
            flat_inv.append(inv)
    rebuilt = nest.pack_sequence_as(loop_vars, templates)

    def checked_body(*args):
        result = body(*args)
        out = result if isinstance(result, (list, tuple)) else [result]
        for before, shape, after in zip(leaves, shapes, flatten_composites(out)):
            if shape is None:
                continue
            if type(after) is not type(before) or after.dtype is not before.dtype:
                raise TypeError(f"The two structures don't have the same nested structure: "
                                f"{before!s} before the loop, {after!s} after one iteration.")
            if not shape.is_compatible_with(after.shape):
                raise ValueError(f"Shapes {after.shape} and {shape} are not compatible")
        return result
    return rebuilt, flat_inv, checked_body


def _eager_while(cond, body, loop_vars, maximum_iterations):
    specs = nest.map_structure(_spec_of, list(loop_vars))
    values = loop_vars
    limit = None if maximum_iterations is None else int(maximum_iterations)
    i = 0
    while (limit is None or i < limit) and bool(cond(*values)):
        values = body(*values)
        try:
            nest.assert_same_structure(specs, list(values))
        except (TypeError, ValueError) as exc:
            raise type(exc)(f"{exc}{_STRUCTURE_HINT}") from None
        i += 1
    return nest.map_structure(_as_result, values)


def _spec_of(v):
    """How a loop variable is shown in a structure error (TensorSpec for tensors, numbers)."""
    if is_tensor(v) or isinstance(v, (bool, int, float)):
        t = to_tensor(v)
        return TensorSpec(t.shape, t.dtype)
    return v


def _as_result(v):
    """A value the loop gives back: a tensor (TensorArrays and other objects as they are)."""
    if is_tensor(v) or getattr(v, "_ag_components", None) is not None:
        return v
    try:
        return to_tensor(v)
    except (TypeError, ValueError):
        return v


def build_while(builder, cond_fn, body_fn, structure, init, shape_invariants=None,
                maximum_iterations=None, parallel_iterations=10, name=None, names=None,
                call_with_structure=True, strict_shapes=True):
    """Trace ``cond_fn``/``body_fn`` over loop variables ``init`` and add the While op.

    ``strict_shapes=False`` (only the loops gradients build, whose shapes cannot change but
    whose inferred shapes may be less known) accepts any compatible shape."""
    n = next(_uid)
    scope = builder.graph.get_name_scope()
    prefix = (scope.replace("/", "_") + "_") if scope else ""
    invariants = flatten(shape_invariants) if shape_invariants is not None else None
    specs = []
    for i, t in enumerate(init):
        shape, explicit = t.shape, False
        if invariants is not None and invariants[i] is not None:
            shape = TensorShape(invariants[i]) if not isinstance(invariants[i], TensorShape) \
                else invariants[i]
            explicit = True
        specs.append(_Spec(t, shape, explicit))
    inner = op_scope(builder, name or "while")
    lead = _counter_inputs(builder, inner, maximum_iterations)
    cond_sg = Subgraph(builder, f"{prefix}while_cond_{n}", specs, scope=inner, lead=lead)
    body_sg = Subgraph(builder, f"{prefix}while_body_{n}", specs, scope=inner, lead=lead)
    args_c = pack_as(structure, cond_sg.arg_placeholders[N_LEAD:])
    args_b = pack_as(structure, body_sg.arg_placeholders[N_LEAD:])
    with _tape.stop_recording_all():
        c = cond_sg.run(cond_fn, *args_c) if call_with_structure else cond_sg.run(cond_fn, args_c)
        with using_interpreter(cond_sg.builder):
            c = to_tensor(c)
            if c.dtype is not _dt.bool:
                raise TypeError(f"The loop condition must be a bool tensor, got {c!r}")
            if maximum_iterations is not None:  # TF: counter < maximum and the condition
                count, limit = cond_sg.arg_placeholders[:N_LEAD]
                c = math_ops.logical_and(math_ops.less(count, limit), c)
        r = body_sg.run(body_fn, *args_b) if call_with_structure else body_sg.run(body_fn, args_b)
    if names is None:  # tf.while_loop itself: TF's structure check (a lone result is wrapped)
        if not isinstance(r, (list, tuple, dict)) and len(structure) == 1:
            r = [r]
        try:
            nest.assert_same_structure(r, pack_as(structure, init), check_types=False)
        except (TypeError, ValueError) as exc:
            raise type(exc)(f"{exc}{_STRUCTURE_HINT}") from None
    elif not isinstance(r, (list, tuple)) or (len(structure) == 1 and not isinstance(
            structure[0], (list, tuple)) and len(flatten(r)) != 1):
        r = [r]
    flat_r = flatten(r)
    if len(flat_r) != len(init):
        raise ValueError(f"The loop body returned {len(flat_r)} values but the loop has "
                         f"{len(init)} loop variables; return them all, in the same structure.")
    cond_sg.finish([c])
    count, limit = body_sg.arg_placeholders[:N_LEAD]
    with using_interpreter(body_sg.builder):
        count = count + 1  # after the body's own ops, as TF (while/add_2, while/add_2/y)
    body_out = body_sg.finish([count, limit] + flat_r)
    lead_out, body_out = body_out[:N_LEAD], body_out[N_LEAD:]
    for i, (before, after, spec) in enumerate(zip(init, body_out, specs)):
        label = names[i] if names else f"loop variable {i}"
        if names is None:  # tf.while_loop itself: TF's while_v2 words
            _check_direct_loop_var(before, after, spec, strict_shapes)
        if before.dtype is not after.dtype:
            raise TypeError(f"'{label}' has dtype {before.dtype.name} before the loop, but "
                            f"dtype {after.dtype.name} after one iteration. Give it its final "
                            "dtype before the loop, e.g. with tf.cast.")
        if names is not None:
            _check_autograph_loop_shape(label, before, after, spec, i)
    outer = _union_captures([cond_sg, body_sg])
    n_loop = N_LEAD + len(init)
    # inputs a graph does not use: TF's names (while_cond_5___redundant_placeholder0 in cond)
    cond_inputs = cond_sg.arg_placeholders + _inputs_for(
        cond_sg, outer, lambda k, v: f"{cond_sg.name}___redundant_placeholder{k}")
    body_inputs = body_sg.arg_placeholders + _inputs_for(body_sg, outer, _outer_name)
    # captures pass through the body unchanged
    body_outputs = lead_out + body_out + body_inputs[n_loop:]
    cond_f = GraphFunction(cond_sg.graph, cond_inputs, cond_sg.outputs, cond_sg.name)
    body_f = GraphFunction(body_sg.graph, body_inputs, body_outputs, body_sg.name)
    body_f.loop_var_names = LEAD_NAMES + tuple(names) if names else ()
    all_in = lead + list(init) + outer
    opdef = (control_flow_ops.While if cond_sg.stateful or body_sg.stateful
             else control_flow_ops.StatelessWhile)
    shapes = [t.shape for t in lead] + [s.shape for s in specs] + [
        getattr(v, "shape", TensorShape(None)) for v in outer]
    attrs = {"cond": cond_f, "body": body_f,
             "T": tuple(t.dtype for t in lead) + tuple(
                 getattr(v, "dtype", None) for v in init) + tuple(v.dtype for v in outer),
             "output_shapes": tuple(shapes),
             "parallel_iterations": int(parallel_iterations)}
    result = bind(opdef, tuple(all_in), attrs, name or "while")
    outs = result if isinstance(result, list) else [result]
    return pack_as(structure, outs[N_LEAD:n_loop])


N_LEAD = 2  # a While's first two loop variables: TF's loop counter and maximum iterations
LEAD_NAMES = ("<loop_counter>", "<maximum_iterations>")  # their names among loop_var_names


def _counter_inputs(builder, scope: str, maximum_iterations) -> list:
    """The two loop variables TF 2.21 puts before the user's: ``<scope>/maximum_iterations``
    (the given limit, else -1) and ``<scope>/loop_counter`` (0, of the limit's dtype), made
    in that order as TF makes them.  The condition checks the limit only when one was given."""
    with using_interpreter(builder):
        if maximum_iterations is None:
            limit = builder.constant(np.array(-1, np.int32), f"{scope}/maximum_iterations")
        elif isinstance(maximum_iterations, Tensor) and not isinstance(
                maximum_iterations, EagerTensor):
            limit = maximum_iterations
        else:
            value = np.asarray(maximum_iterations.numpy() if isinstance(
                maximum_iterations, EagerTensor) else to_numpy(maximum_iterations))
            if value.dtype.kind not in "iu":
                raise TypeError(f"maximum_iterations must be an integer, got {value!r}")
            limit = builder.constant(value, f"{scope}/maximum_iterations")
        if limit.shape.rank != 0:
            raise ValueError(f"maximum_iterations must be a scalar, saw shape: {limit.shape}")
        counter = builder.constant(np.array(0, limit.dtype.np_dtype), f"{scope}/loop_counter")
    return [counter, limit]


def _is_subshape(left, right) -> bool:
    """Whether ``left`` is at least as specific as ``right`` (every known dim of ``right``
    equal in ``left``): a loop variable may keep or sharpen its shape, never lose a dim."""
    if right.rank is None:
        return True
    if left.rank is None or left.rank != right.rank:
        return False
    return all(r is None or r == dim for dim, r in zip(left.dims, right.dims))


class LoopShapeChanged(ValueError):
    """A loop variable's shape after one iteration is less specific than before the loop; it
    carries the variable's position and the shape that covers both (for loops that relax)."""

    def __init__(self, message, index=None, relaxed=None):  # rebuilt with a message alone
        super().__init__(message)
        self.index = index
        self.relaxed = relaxed


def _check_autograph_loop_shape(label, before, after, spec, index=0) -> None:
    """TF's AutoGraph checks: without an invariant the shape after one iteration must be as
    specific as before the loop (``(1,)`` to ``(None,)`` is refused too, as in TF); with one,
    the shapes before and after must both conform to it."""
    if not spec.explicit:
        if not _is_subshape(after.shape, before.shape):
            relaxed = (before.shape.most_specific_compatible_shape(after.shape)
                       if before.shape.rank is not None and before.shape.rank == after.shape.rank
                       else TensorShape(None))
            raise LoopShapeChanged(
                f"'{label}' has shape {before.shape} before the loop, but shape {after.shape} "
                "after one iteration. Use tf.autograph.experimental.set_loop_options to set "
                "shape invariants (a less specific shape, e.g. None for a dim that changes).",
                index, relaxed)
        return
    if not _is_subshape(before.shape, spec.shape):
        raise ValueError(f"'{label}' has shape {before.shape} before the loop, which does not "
                         f"conform with the shape invariant {spec.shape}.")
    if not _is_subshape(after.shape, spec.shape):
        raise ValueError(f"'{label}' has shape {after.shape} after one iteration, which does "
                         f"not conform with the shape invariant {spec.shape}.")


def _check_direct_loop_var(before, after, spec, strict=True) -> None:
    if before.dtype is not after.dtype:
        raise TypeError(
            f"Loop var {before.name} enters the loop with type <dtype: '{before.dtype.name}'> but "
            f"has type <dtype: '{after.dtype.name}'> after 1 iteration. {before.name} type should "
            "remain constant.")
    if not (_is_subshape(after.shape, spec.shape) if strict  # as specific as before (TF)
            else spec.shape.is_compatible_with(after.shape)):
        raise ValueError(
            f"Input tensor `{before.name}` enters the loop with shape {before.shape}, but has "
            f"shape {after.shape} after one iteration. To allow the shape to vary across "
            "iterations, use the `shape_invariants` argument of tf.while_loop to specify a "
            "less-specific shape.")


class _Spec:
    def __init__(self, t, shape, explicit=False):
        self.dtype = t.dtype
        self.shape = shape
        self.explicit = explicit  # the shape is a shape invariant (given, or of a placeholder)
        self.handle_shape = getattr(t, "handle_shape", None)
        self.handle_dtype = getattr(t, "handle_dtype", None)


# -- gradients of If -
_READS = ("ReadVariableOp",)


def _side_effect(graph, ops=None):
    """The first op of ``graph`` (or of ``ops``), or of a branch or body nested in it, that
    does more than read variables: replaying it would repeat or change a side effect."""
    for op in graph.operations if ops is None else ops:
        if op.opdef.stateful and op.type not in _READS and op.type not in ("If", "While"):
            return op
        for value in op.attrs.values():
            if isinstance(value, GraphFunction):
                found = _side_effect(value.graph)
                if found is not None:
                    return found
    return None


def replay_for_gradient(fn, values, what: str) -> list:
    """Recompute ``fn``'s outputs from ``values`` op by op (recorded by the active tapes),
    following data edges only: writes and prints the outputs do not depend on are not
    repeated.  Random ops or nested side effects the outputs depend on would be
    recomputed differently, so they raise instead of giving a wrong gradient."""
    from ..ops.convert import constant
    env = {id(t): v for t, v in zip(fn.inputs, values)}
    needed: set[int] = set()
    stack = [t.op for t in fn.outputs]
    while stack:
        o = stack.pop()
        if id(o) not in needed:
            needed.add(id(o))
            stack.extend(t.op for t in o.inputs)
    ops = [o for o in fn.graph.operations if id(o) in needed]
    bad = _side_effect(fn.graph, ops)
    if bad is not None:
        raise NotImplementedError(
            f"Cannot differentiate through {what} '{fn.name}': its result depends on "
            f"'{bad.name}' ({bad.type}), which tfgraph_edu would have to run again to compute "
            "the gradient (TensorFlow keeps its value). Move random ops and variable writes "
            "out of the tf.cond / loop, or compute them before it.")
    for o in ops:
        if o.outputs and id(o.outputs[0]) in env:
            continue
        if o.type == "Const":
            env[id(o.outputs[0])] = constant(o.attrs["value"], o.attrs["dtype"])
            continue
        result = bind(o.opdef, tuple(env[id(t)] for t in o.inputs), dict(o.attrs))
        outs = [result] if len(o.outputs) == 1 else list(result or [])
        for t, v in zip(o.outputs, outs):
            env[id(t)] = v
    return [env[id(t)] for t in fn.outputs]


def _if_grad(op, *grads):
    """Differentiate each branch by replaying it under a tape, inside a new If."""
    from ..eager.tape import GradientTape, differentiable, zeros_for
    pred, args = op.inputs[0], list(op.inputs[1:])
    then_f, else_f = op.get_attr("then_branch"), op.get_attr("else_branch")
    diff = [i for i, a in enumerate(args) if differentiable(a)]
    if not diff:
        return (None,) * len(op.inputs)

    def branch(fn):
        def grad_fn():
            local = [identity_ops.identity(a) for a in args]  # this branch's copies of the inputs
            with GradientTape(persistent=True) as tape:
                for i in diff:
                    tape._watch_tensor(local[i])
                outs = replay_for_gradient(fn, local, "the tf.cond branch")
            targets = [o for o, g in zip(outs, grads) if g is not None and o.dtype.is_floating]
            gs = [g for o, g in zip(outs, grads) if g is not None and o.dtype.is_floating]
            result = tape.gradient(targets, [local[i] for i in diff], output_gradients=gs)
            return [zeros_for(args[i]) if r is None else r
                    for i, r in zip(diff, result)]
        return grad_fn

    gs = cond(pred, branch(then_f), branch(else_f))
    out = [None] * len(op.inputs)
    for i, g in zip(diff, gs):
        out[1 + i] = g
    return tuple(out)


control_flow_ops.StatelessIf.grad = _if_grad
control_flow_ops.If.grad = _if_grad


# -- gradients of While -
def _while_grad(op, *grads):
    """Differentiate a While op: a second forward loop records each iteration's loop
    variables in tensor lists, then a backward loop walks them in reverse, replaying one
    body step under a tape per iteration (as TensorFlow's While gradient does with stacks)."""
    from ..eager.tape import GradientTape, add_gradients, differentiable, zeros_for
    from .tensor_array import TensorArray
    cond_f, body_f = op.get_attr("cond"), op.get_attr("body")
    n_all = len(op.inputs)
    n_loop = n_loop_vars(op)
    loop_in, caps = list(op.inputs[:n_loop]), list(op.inputs[n_loop:])
    diff = [i for i, t in enumerate(loop_in) if t.dtype.is_floating or t.dtype is _dt.variant]
    diff_caps = [j for j, t in enumerate(caps) if differentiable(t)]
    if not diff and not diff_caps:
        return (None,) * n_all

    # forward again, stacking the loop variables seen at the start of each iteration
    def fwd_cond(i, vals, lists):
        return replay_for_gradient(cond_f, list(vals) + caps, "the loop condition")[0]

    def fwd_body(i, vals, lists):
        new = replay_for_gradient(body_f, list(vals) + caps, "the loop body")[:n_loop]
        lists = [lst.write(i, v) for lst, v in zip(lists, vals)]
        return i + 1, new, lists

    lists0 = [TensorArray(t.dtype, size=0, dynamic_size=True, infer_shape=False)
              for t in loop_in]
    count, _, lists = while_loop(fwd_cond, fwd_body, [0, loop_in, lists0],
                                 _strict_shapes=False)  # the counter in cond keeps any limit

    # backward: cotangents of the loop variables flow from the last iteration to the first
    g_vars = [grads[i] if grads[i] is not None else zeros_for(op.outputs[i])
              for i in range(n_loop)]
    g_caps = [grads[n_loop + j] if grads[n_loop + j] is not None and caps[j].dtype.is_floating
              else zeros_for(caps[j]) if j in diff_caps else creation_ops.zeros_like(caps[j])
              for j in range(len(caps))]

    def bwd_cond(k, gv, gc):
        from ..ops import math_ops
        return math_ops.greater_equal(k, 0)

    def bwd_body(k, gv, gc):
        vals = [identity_ops.identity(lst.read(k)) for lst in lists]
        local_caps = [identity_ops.identity(c) for c in caps]
        with GradientTape(persistent=True) as tape:
            for i in diff:
                tape._watch_tensor(vals[i])
            for j in diff_caps:
                tape._watch_tensor(local_caps[j])
            outs = replay_for_gradient(body_f, vals + local_caps, "the loop body")
        targets = [outs[i] for i in diff]
        cotangents = [gv[i] for i in diff]
        sources = [vals[i] for i in diff] + [local_caps[j] for j in diff_caps]
        got = tape.gradient(targets, sources, output_gradients=cotangents) if targets else \
            [None] * len(sources)
        new_gv = list(gv)
        for pos, i in enumerate(diff):
            new_gv[i] = got[pos] if got[pos] is not None else zeros_for(gv[i])
        new_gc = list(gc)
        for pos, j in enumerate(diff_caps):
            g = got[len(diff) + pos]
            if g is not None:
                new_gc[j] = add_gradients(gc[j], g)
        return k - 1, new_gv, new_gc

    from ..ops import math_ops
    _, g_vars, g_caps = while_loop(bwd_cond, bwd_body, [math_ops.subtract(count, 1), g_vars,
                                                         g_caps], _strict_shapes=False)
    out = [None] * n_all
    for i in diff:
        out[i] = g_vars[i]
    for j in diff_caps:
        out[n_loop + j] = g_caps[j]
    return tuple(out)


def n_loop_vars(op) -> int:
    """The While op's own loop variables come first; the captures after them are passed
    through the body unchanged (its outputs are its inputs)."""
    body = op.get_attr("body")
    n = len(body.outputs)
    while n > 0 and body.outputs[n - 1] is body.inputs[n - 1]:
        n -= 1
    return n


control_flow_ops.StatelessWhile.grad = _while_grad
control_flow_ops.While.grad = _while_grad
