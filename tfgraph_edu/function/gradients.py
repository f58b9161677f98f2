"""Gradients of graph functions: a tf.function call is ONE operation on the tape (layer 7).

TensorFlow records an eager call of a ``tf.function`` on each active tape as a
single operation, and pairs the traced forward function with a backward
function built from the forward graph by the ops' own gradient rules.  We do
the same:

- :func:`build_backward` turns a forward graph into a backward graph function: its inputs
  are the forward tensors the gradient rules need (``saved``) and one cotangent
  per differentiated output; its outputs are the gradients of the inputs that
  some output depends on (the others are None: unconnected).
- :func:`call_recorded` runs a concrete function while a tape watches one of its
  inputs: the forward graph runs once with the saved tensors as extra outputs
  (so random ops and variable writes happen once, and their values are the
  ones differentiated), and the tape records one :class:`FunctionCall`.
- Its gradient calls the backward function through a ``PartitionedCall`` op,
  which an enclosing tape records in turn: second derivatives use the same rule
  (``PartitionedCall``'s gradient recomputes the saved tensors of its function,
  which is pure, and calls that function's own backward).

When more than one tape records a call (nested tapes), or a persistent one does
(it may record its own gradient), the forward run saves every tensor of the
graph, so a gradient of the gradient can also flow back through the saved
tensors that the first backward function read.

Loaded SavedModel functions are recorded the same way (saved_model/load.py).
"""

from __future__ import annotations

from .. import _gc
from .. import dtypes as _dt
from ..eager import tape as _tape
from ..eager.tape import differentiable
from ..eager.tensor import EagerTensor
from ..eager.variables import Variable
from ..graph.graph import FuncGraph, Tensor
from ..ops import function_ops, identity_ops, math_ops
from ..ops._core import bind, using_interpreter
from ..ops.control_flow_ops import GraphFunction
from ..ops.indexed_slices import IndexedSlices
from ..ops.state_ops import ResourceHandle
from ..optimize import optimize
from ..runtime.compiled import CompiledGraph
from ..runtime.schedule import schedule
from ..tracing.graph_builder import GraphBuilder

__all__ = ["build_backward", "call_recorded", "differentiable", "FunctionCall"]

_new = object.__new__


def _wrap(value) -> EagerTensor:
    t = _new(EagerTensor)
    t._value = value
    return t


def _graph_entries(graph, targets, sources) -> list:
    """The ops of ``graph`` between ``sources`` and ``targets``, in program order."""
    live = {id(s) for s in sources}
    entries = []
    for op in schedule(graph, targets):
        for x in op.inputs:
            if id(x) in live:
                entries.append(op)
                live.update(id(o) for o in op.outputs)
                break
    return entries


def _target(t) -> bool:
    """Whether cotangents of ``t`` go through a backward function: floating tensors and
    tensor lists (a resource output is an input passed through: see ``_pass_through``)."""
    return t.dtype.is_floating or t.dtype is _dt.variant


def _pass_through(outputs, inputs, grads, result) -> None:
    """Add the cotangents of non-target outputs that are inputs (variables' handles passed
    through as saved tensors) to those inputs' gradients; refuse any other such cotangent
    rather than dropping it."""
    position = {id(x): i for i, x in enumerate(inputs)}
    for t, g in zip(outputs, grads):
        if g is None or _target(t) or not differentiable(t):
            continue
        k = position.get(id(t))
        if k is None:
            raise NotImplementedError(
                f"A gradient reached {t.name} ({t.dtype.name}), which tfgraph_edu cannot "
                "send back through this function.")
        result[k] = g if result[k] is None else _tape.add_gradients(result[k], g)


class Backward:
    """A backward graph function and how to feed it.

    ``function`` takes ``captured`` (forward-graph tensors, or eager constants the
    gradient rules used) followed by one cotangent per target, and returns the
    gradients of ``sources[k]`` for each ``k`` in ``source_index``.
    """

    def __init__(self, function, captured, source_index, n_targets, error=None, layout=None):
        self.function = function
        # per gradient: 0 for a tensor, else how many outputs hold its IndexedSlices' parts
        self.layout = layout or [0] * len(source_index)
        self.captured = captured
        self.source_index = source_index
        self.n_targets = n_targets
        self.error = error  # why the gradient cannot be built (raised when it is asked for)
        if function is not None:
            self.attrs = {"f": function, "Tin": tuple(t.dtype for t in function.inputs),
                          "Tout": tuple(t.dtype for t in function.outputs)}

    @property
    def saved(self) -> list:
        """The forward-graph tensors this backward function reads."""
        return [c for c in self.captured if isinstance(c, Tensor)]


def build_backward(graph, sources, targets, name: str) -> Backward:
    """The gradients of ``sources`` from cotangents of ``targets``, as a graph function built
    with each forward op's gradient rule (TensorFlow's backward function)."""
    try:
        return _build_backward(graph, sources, targets, name)
    except (NotImplementedError, LookupError) as exc:  # raised if the gradient is asked for
        return Backward(None, [], [], len(targets), error=exc)


def _build_backward(graph, sources, targets, name: str) -> Backward:
    entries = _graph_entries(graph, targets, sources)
    g = FuncGraph(name)
    builder = GraphBuilder(g, outer=GraphBuilder(graph))
    with _tape.stop_recording_all(), using_interpreter(builder), _gc.paused():
        with g.name_scope(""):
            cotangents = [builder.placeholder(t.dtype, t.shape, "grad_ys")
                          for t in targets]
        grads: dict[int, object] = {}
        for t, c in zip(targets, cotangents):
            _tape._accumulate(grads, id(t), c, math_ops)
        _tape.backprop(entries, grads)
        source_index, outputs, layout = [], [], []
        for k, s in enumerate(sources):
            gk = grads.get(id(s))
            if gk is not None:
                source_index.append(k)
                if isinstance(gk, IndexedSlices):  # returned as its parts, rebuilt outside
                    parts = gk._ag_components()
                    outputs.extend(identity_ops.identity(p) for p in parts)
                    layout.append(len(parts))
                else:
                    outputs.append(identity_ops.identity(gk))
                    layout.append(0)
    captures = g.captures
    inputs = [inner for _, inner in captures] + cotangents
    g.inputs, g.outputs = inputs, outputs
    g.verify()
    og, o_in, o_out, _ = optimize(g, inputs, outputs)
    fn = GraphFunction(og, o_in, o_out, name)
    fn.unoptimized_graph = g
    return Backward(fn, [outer for outer, _ in captures], source_index, len(targets), layout=layout)


def _call_backward(bw: Backward, saved_value, cotangents, n_sources) -> list:
    """Run ``bw`` through a PartitionedCall op; the gradients of all ``n_sources`` (None
    where unconnected)."""
    if bw.error is not None:
        raise bw.error.with_traceback(None)
    out = [None] * n_sources
    if not bw.source_index:
        return out
    args = [saved_value(c) if isinstance(c, Tensor) else c for c in bw.captured]
    result = bind(function_ops.PartitionedCall, tuple(args) + tuple(cotangents), bw.attrs)
    result = [result] if len(bw.function.outputs) == 1 else list(result)
    i = 0
    for k, n in zip(bw.source_index, bw.layout):
        if n:  # an IndexedSlices leaves the function as itself, as in TF
            out[k] = IndexedSlices(*result[i:i + n])
            i += n
        else:
            out[k] = result[i]
            i += 1
    return out


# -- gradient of PartitionedCall: recompute what the backward reads, then call it -------------
def _function_backward(f: GraphFunction):
    """(backward of ``f``, ``f`` returning the tensors that backward reads), built once."""
    cached = getattr(f, "_backward", None)
    if cached is None:
        sources = [x for x in f.inputs if differentiable(x)]
        targets = []
        for y in f.outputs:
            if _target(y) and all(y is not t for t in targets):
                targets.append(y)
        bw = build_backward(f.graph, sources, targets, f.function_name + "_grad")
        saved = bw.saved
        saver = GraphFunction(f.graph, f.inputs, saved, f.function_name + "_saved")
        attrs = {"f": saver, "Tin": tuple(t.dtype for t in f.inputs),
                 "Tout": tuple(t.dtype for t in saved)}
        cached = f._backward = (bw, sources, targets, saved, attrs)
    return cached


def _partitioned_call_grad(op, *grads):
    f = op.get_attr("f")
    bw, sources, targets, saved, attrs = _function_backward(f)
    position = {id(x): i for i, x in enumerate(f.inputs)}
    n_in = len(op.inputs)
    if bw.error is not None:
        raise bw.error.with_traceback(None)
    if not bw.source_index:
        return [None] * n_in
    values = []
    if saved:
        values = bind(function_ops.PartitionedCall, tuple(op.inputs), attrs)
        values = [values] if len(saved) == 1 else values
    by_id = {id(t): v for t, v in zip(saved, values)}
    cotangents = []
    for t in targets:  # an output returned twice gets both cotangents
        g = None
        for y, gy in zip(f.outputs, grads):
            if y is t and gy is not None:
                g = gy if g is None else _tape.add_gradients(g, gy)
        cotangents.append(g if g is not None else _tape.zeros_for(op.outputs[
            [i for i, y in enumerate(f.outputs) if y is t][0]]))
    got = _call_backward(bw, lambda t: by_id[id(t)], cotangents, len(sources))
    result = [None] * n_in
    for s, g in zip(sources, got):
        result[position[id(s)]] = g
    _pass_through(f.outputs, f.inputs, grads, result)
    return result


function_ops.PartitionedCall.grad = _partitioned_call_grad


# -- an eager tf.function call under a tape --------------------------------------------------
class FunctionCall:
    """What the tape records for one eager call of a concrete function (the op's 'OpDef').

    Its outputs on the tape are the function's outputs followed by the saved
    tensors; ``none_cotangents`` asks the tape for None, not zeros, where no
    gradient arrived.
    """

    none_cotangents = True

    def __init__(self, fg: _FunctionGradient, higher: bool):
        self.name = fg.cf.name
        self._fg = fg
        self._higher = higher
        forward_saved = fg.all_tensors() if higher else fg.first().saved
        self.saved = forward_saved
        self._saved_pos = {id(t): i for i, t in enumerate(forward_saved)}
        cf = fg.cf
        graph, ins, outs, _ = optimize(cf.graph, cf.inputs, list(cf.outputs) + forward_saved)
        self.forward = CompiledGraph(graph, ins, outs, cf.name + "_forward")

    def grad(self, entry, *gs):
        fg = self._fg
        for handle, value in entry.attrs.get("variable_values", ()):
            if handle.value is not value:
                raise NotImplementedError(
                    f"The variable {handle.name!r} changed after {fg.cf.name} was called under "
                    "the tape; its gradient through a tf.cond or loop would use the new value "
                    "(TensorFlow keeps the old one). Compute the gradient before assigning to "
                    "the variable.")
        n = len(fg.cf.outputs)
        g_out, g_saved = gs[:n], gs[n:]
        use_all = any(g is not None for g in g_saved)
        if use_all and not self._higher:
            raise NotImplementedError(
                "A gradient reached the saved tensors of a tf.function call recorded by one "
                "tape; record the call under every tape that differentiates it.")
        bw = fg.all_() if use_all else fg.first()
        targets = fg.targets + (fg.saved_targets if use_all else [])
        arriving: dict[int, list] = {}  # an output returned twice gets both cotangents
        for i, t in enumerate(fg.cf.outputs):
            arriving.setdefault(id(t), []).append(i)
        cotangents = []
        for t in targets:
            g = None
            if id(t) in arriving:
                for i in arriving[id(t)]:
                    if g_out[i] is not None:
                        g = g_out[i] if g is None else math_ops.add(g, g_out[i])
                like = entry.outputs[arriving[id(t)][0]]
            if id(t) in self._saved_pos:
                k = self._saved_pos[id(t)]
                if g_saved[k] is not None:
                    g = g_saved[k] if g is None else _tape.add_gradients(g, g_saved[k])
                like = entry.outputs[n + k]
            cotangents.append(_tape.zeros_for(like) if g is None else g)
        got = _call_backward(bw, lambda t: entry.outputs[n + self._saved_pos[id(t)]],
                             cotangents, len(fg.sources))
        result = [None] * len(entry.inputs)
        for k, g in zip(fg.source_positions, got):
            result[k] = g
        if use_all:
            _pass_through(self.saved, fg.cf.inputs, g_saved, result)
        return result


def _reads_variables(graph) -> bool:
    for op in graph.operations:
        if op.type == "ReadVariableOp":
            return True
        for value in op.attrs.values():
            if isinstance(value, GraphFunction) and _reads_variables(value.graph):
                return True
    return False


class _FunctionGradient:
    """The backward functions of one concrete function, built on first use."""

    def __init__(self, cf):
        self.cf = cf
        inputs = cf.inputs
        self.source_positions = [i for i, x in enumerate(inputs) if differentiable(x)]
        self.sources = [inputs[i] for i in self.source_positions]
        self.targets = []
        seen = set()
        for y in cf.outputs:
            if y.dtype.is_floating and id(y) not in seen:
                seen.add(id(y))
                self.targets.append(y)
        self._first = self._all = self._all_tensors = None
        # a cond branch or loop body that reads a variable is replayed by its gradient
        self.rereads_variables = any(
            isinstance(value, GraphFunction) and _reads_variables(value.graph)
            for op in cf.graph.operations for value in op.attrs.values())
        self.calls: dict[bool, FunctionCall] = {}

    def first(self) -> Backward:
        if self._first is None:
            self._first = build_backward(self.cf.graph, self.sources, self.targets,
                                         self.cf.name.replace("__inference", "__backward", 1))
        return self._first

    def all_tensors(self) -> list:
        """Every tensor a gradient rule of the forward graph may read."""
        if self._all_tensors is None:
            self._all_tensors = [t for op in schedule(self.cf.graph, self.cf.outputs)
                                 for t in op.outputs]
        return self._all_tensors

    @property
    def saved_targets(self) -> list:
        outs = {id(y) for y in self.targets}
        return [t for t in self.all_tensors() if _target(t) and id(t) not in outs]

    def all_(self) -> Backward:
        if self._all is None:
            bw = build_backward(self.cf.graph, self.sources, self.targets + self.saved_targets,
                                self.cf.name.replace("__inference", "__backward_all", 1))
            known = {id(t) for t in self.all_tensors()}
            missing = [t for t in bw.saved if id(t) not in known]
            if missing:
                raise NotImplementedError(
                    f"Second derivatives through {self.cf.name} need {missing[0].name}, which "
                    "the forward call did not keep.")
            self._all = bw
        return self._all

    def call(self, higher: bool) -> FunctionCall:
        fc = self.calls.get(higher)
        if fc is None:
            fc = self.calls[higher] = FunctionCall(self, higher)
        return fc


def _input_tensor(leaf):
    if isinstance(leaf, Variable):
        if _tape.ACTIVE:
            _tape.variable_accessed(leaf)
        return leaf._handle
    return leaf


def call_recorded(cf, leaves, leaf_values):
    """Run ``cf`` recorded as one operation on the tapes that watch an input; the flat
    output tensors, or None when no tape watches any input (run it normally then)."""
    inputs = [_input_tensor(leaf) for leaf in leaves] + list(cf.captured_inputs)
    for v in cf.graph.variables:
        _tape.variable_accessed(v)
    recording = 0
    persistent = False
    for tape in _tape.ACTIVE:
        if tape._recording:
            watched = tape._watched
            if any(id(x) in watched for x in inputs):
                recording += 1
                persistent = persistent or tape._persistent
    if not recording:
        return None
    fg = cf.__dict__.get("_gradient")
    if fg is None:
        fg = cf._gradient = _FunctionGradient(cf)
    # several tapes, or a persistent one (it may record its own gradient), may differentiate
    # the gradient again: then the forward run keeps every tensor
    fc = fg.call(recording > 1 or persistent)
    values = fc.forward(*leaf_values, *cf._capture_values)
    outs = [_wrap(v) for v in values]
    attrs = None
    if fg.rereads_variables:
        attrs = {"variable_values": [(x._value, x._value.value) for x in inputs
                                     if isinstance(getattr(x, "_value", None), ResourceHandle)]}
    _tape.record(fc, inputs, attrs, outs)
    return outs[:len(cf.outputs)]
