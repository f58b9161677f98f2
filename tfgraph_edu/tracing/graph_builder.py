"""The graph builder: the interpreter that adds nodes instead of running kernels (layer 4a).

While a function is traced, :func:`ops._core.bind` sends every op here.  The
builder converts inputs (Python values become ``Const`` nodes named like
``Greater/y``; eager tensors and variables closed over become captured
placeholders), checks types and shapes with the OpDef's rule, names the node as
TensorFlow does, and orders stateful ops in program order (automatic control
dependencies).
"""

from __future__ import annotations

import os
import sys

import numpy as np

from .. import dtypes as _dt
from ..eager import tape as _tape
from ..eager.tensor import EagerTensor
from ..errors import OpError
from ..graph.graph import Graph, Tensor, op_stack
from ..graph.naming import check_scope_name, sanitize
from ..ops import _core, debug_ops, graph_ops
from ..ops._core import type_name
from ..ops._rules import fmt
from ..ops.convert import Const, holds_graph_tensor, target_dtypes, to_numpy, to_tensor
from ..shapes import TensorShape

_CHECKING = debug_ops.CHECKING  # tf.debugging.enable_check_numerics
_SCALAR = TensorShape(())  # shared by every scalar constant (shapes are immutable)
_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


# Source maps of code generated from the user's code (AutoGraph registers here):
# generated filename -> {generated line: (user filename, user line, user function)}
GENERATED_SOURCES: dict[str, dict[int, tuple[str, int, str]]] = {}


def user_frame(depth: int = 2):
    """(filename, lineno, function) of the user's line that is running: the innermost
    caller outside tfgraph_edu, mapped back through AutoGraph's source maps."""
    f = sys._getframe(depth)
    while f is not None:
        name = f.f_code.co_filename
        mapped = GENERATED_SOURCES.get(name)
        if mapped is not None:
            origin = mapped.get(f.f_lineno)
            if origin is not None:
                return origin
        elif not name.startswith(_PACKAGE_DIR):
            where = (name, f.f_lineno, f.f_code.co_name)
            shared = _SOURCES.get(where)  # one tuple per line, not one per node (memory)
            if shared is None:
                if len(_SOURCES) >= 65536:
                    _SOURCES.clear()
                shared = _SOURCES[where] = where
            return shared
        f = f.f_back
    return None


_SOURCES: dict[tuple, tuple] = {}


def caller_stack(depth: int = 2) -> tuple:
    """Every frame outside tfgraph_edu that is running, outermost first (AutoGraph's
    generated code mapped back to the user's lines): where a trace was called from."""
    frames = []
    f = sys._getframe(depth)
    while f is not None:
        name = f.f_code.co_filename
        mapped = GENERATED_SOURCES.get(name)
        if mapped is not None:
            origin = mapped.get(f.f_lineno)
            if origin is not None:
                frames.append(origin)
        elif not name.startswith(_PACKAGE_DIR):
            frames.append((name, f.f_lineno, f.f_code.co_name))
        f = f.f_back
    return tuple(reversed(frames))


def _scalar_array(x, dtype) -> np.ndarray:
    """The 0-d array a Python number becomes next to a tensor of ``dtype``: one read-only
    array per (number, dtype), shared by every Const made of it (a big unrolled trace has
    hundreds of thousands).  Float zeros (0.0 == -0.0) and NaN are not shared."""
    key = (type(x), x, dtype)
    arr = _SCALARS.get(key)
    if arr is None:
        arr = np.asarray(to_numpy(x, dtype))
        if x != x or (x == 0 and type(x) is float):
            return arr
        arr.flags.writeable = False
        if len(_SCALARS) >= 4096:
            _SCALARS.clear()
        _SCALARS[key] = arr
    return arr


_SCALARS: dict[tuple, np.ndarray] = {}


def _number_refused(opdef, i, x, dtype) -> TypeError:
    """TF's graph-mode TypeError for a Python number that cannot take the input's dtype."""
    got = f"got {x!r} of type '{type(x).__name__}'"
    return TypeError(f"Expected {dtype.name} passed to parameter '{opdef.input_name(i)}' of op "
                     f"'{opdef.name}', {got} instead. Error: Expected {dtype.name}, but {got}.")


class GraphBuilder:
    """Adds each bound op to ``graph``."""

    executing_eagerly = False

    def __init__(self, graph: Graph, outer: GraphBuilder | None = None):
        self.graph = graph
        self.outer = outer  # the builder of the enclosing graph, for cond branches and loops
        if outer is not None:
            graph.outer_graph = outer.graph
        self.last_stateful = None
        self._variable_handles: dict[int, Tensor] = {}
        self.on_variable_created = None
        # variables passed as function arguments: id(handle) -> their resource placeholder
        self.variable_inputs: dict[int, Tensor] = {}

    # -- the one entry point ---------------------------------------------------------------
    def apply(self, opdef, inputs, attrs, name):
        g = self.graph
        op_name = g.unique_name(check_scope_name(name, bool(g._scope)) if name else opdef.name)
        source = user_frame()
        converted = self._convert(opdef, inputs, op_name, source)
        attrs = attrs or {}
        _check_types(opdef, converted, op_name)
        try:
            specs = opdef.shape(*converted, **attrs)
        except OpError as exc:
            message = _shape_message(exc.message, opdef, op_name, converted, attrs)
            raise ValueError(message) from None
        if isinstance(specs, tuple):
            specs = [specs]
        control = list(g._control_stack[-1]) if g._control_stack else []
        if opdef.stateful and self.last_stateful is not None:
            control.append(self.last_stateful)
        op = g.add_op(op_name, opdef, converted, attrs, specs, control, source)
        if opdef.stateful:
            self.last_stateful = op
        outs = op.outputs
        if converted and converted[0].handle_shape is not None:
            for o in outs:  # resources passed through (Identity, If, While) keep their shape
                if o.dtype is _dt.resource:
                    o.handle_shape = converted[0].handle_shape
                    o.handle_dtype = converted[0].handle_dtype
        if _tape.ACTIVE:
            _tape.record(opdef, converted, attrs, outs)
        if _CHECKING[0] and outs and opdef.name not in debug_ops.MOVES_VALUES_ONLY:
            outs = self._checked(op, outs)
        n = len(outs)
        if n == 1 and (opdef.num_outputs == 1 or opdef.output_count(attrs) == 1):
            return outs[0]
        if n == 0:
            return op
        return list(outs)

    def _checked(self, op, outs) -> list:
        """``outs`` with each float one passed through a CheckNumericsV2 node named
        ``<op>/CheckNumericsV2`` (tf.debugging.enable_check_numerics is on)."""
        checked = list(outs)
        with self.graph.name_scope(op.name + "/"):
            for i, t in enumerate(outs):
                if t.dtype.is_floating:
                    checked[i] = _core.bind(debug_ops.CheckNumericsV2, (t,), {
                        "message": debug_ops.graph_message(op, i, t)}, "CheckNumericsV2")
        return checked

    # -- inputs ---------------------------------------------------------------------------------
    def _convert(self, opdef, inputs, op_name, source=None):
        g = self.graph
        out = []
        targets = None
        outer = []  # tensors of an enclosing graph: captured after the op's constants, in the
        for i, x in enumerate(inputs):  # op's scope (TF: cond/mul/y_1 beside cond/mul/y)
            cls = type(x)
            if cls is Tensor:
                if x.graph is not g:
                    outer.append(len(out))
                out.append(x)
            elif cls is EagerTensor:
                out.append(self.capture(x, f"{op_name}/{opdef.input_name(i)}"))
            elif (cls is float or cls is int) and opdef.fast_arity == 2 and \
                    type(other := inputs[1 - i]) is Tensor:  # x * 2.0: the other's dtype
                try:
                    arr = _scalar_array(x, other._dtype)
                except TypeError:
                    raise _number_refused(opdef, i, x, other._dtype) from None
                out.append(self.constant(arr, f"{op_name}/{opdef.input_name(i)}", source))
            elif hasattr(x, "_as_tensor"):
                # a variable is read within the op's scope, as TF's op functions convert
                # their inputs there (MatMul/ReadVariableOp, its MatMul/ReadVariableOp/resource)
                with self.graph.name_scope(op_name + "/"):
                    out.append(x._as_tensor())
            else:
                if targets is None:
                    targets = target_dtypes(opdef, inputs)
                if isinstance(x, (list, tuple)) and holds_graph_tensor(x):
                    # TF packs a list holding graph tensors into one Pack node
                    out.append(self._convert(opdef, [to_tensor(x, targets[i])], op_name)[0])
                    continue
                try:
                    arr = np.asarray(to_numpy(x, targets[i]))
                except TypeError:
                    if cls in (int, float, bool) and targets[i] is not None:
                        raise _number_refused(opdef, i, x, targets[i]) from None
                    raise
                out.append(self.constant(arr, f"{op_name}/{opdef.input_name(i)}", source))
        for i in outer:
            out[i] = self.capture_symbolic(out[i], op_name)
        return out

    def constant(self, value: np.ndarray, name: str, source=None) -> Tensor:
        """A ``Const`` node holding ``value``, named exactly (uniquely) ``name``."""
        g = self.graph
        dtype = _dt.NP_TO_DTYPE[value.dtype]
        shape = _SCALAR if value.shape == () else TensorShape(value.shape)
        op = g.add_op(g.unique_name(name, scoped=False), Const, [],
                      {"dtype": dtype, "value": value}, [(shape, dtype)],
                      list(g._control_stack[-1]) if g._control_stack else [],
                      source or user_frame())
        return op.outputs[0]

    def placeholder(self, dtype, shape, name: str, scoped: bool = True) -> Tensor:
        g = self.graph
        shape = TensorShape(shape)
        op = g.add_op(g.unique_name(sanitize(name), scoped=scoped), graph_ops.Placeholder, [],
                      {"dtype": dtype, "shape": shape}, [(shape, dtype)], [], None)
        return op.outputs[0]

    def capture(self, value: EagerTensor, name: str = "capture") -> Tensor:
        """The placeholder standing for an eager tensor closed over (frozen at trace time)."""
        g = self.graph
        found = g._captures.get(id(value))
        if found is not None:
            return found[1]
        dtype = value.dtype
        # as TF names it: within the scope of the op that reads it (``outer/mul/y``,
        # ``AssignVariableOp/resource``); its FunctionDef argument is ``outer_mul_y``
        base = g.base_scope + "/" if g.base_scope else ""
        if base and name.startswith(base):  # an op's name in a body already starts with it
            name = name[len(base):]
        with g.name_scope(base):
            ph = self.placeholder(dtype, value.shape if dtype is not _dt.resource else [], name)
        if dtype is _dt.resource:
            ph.handle_shape = value._value.var_shape
            ph.handle_dtype = value._value.var_dtype
        g._captures[id(value)] = (value, ph)
        return ph

    def capture_variable(self, variable, consumer: str = "ReadVariableOp") -> Tensor:
        """The resource placeholder for ``variable``; reads stay live at every call.  As in
        TF, it is named after the op that first uses it, in the current scope
        (``outer/AssignAddVariableOp_1`` gives ``outer/AssignAddVariableOp_1/resource``, the
        FunctionDef argument ``outer_assignaddvariableop_1_resource``)."""
        g = self.graph
        as_input = self.variable_inputs.get(id(variable._handle))
        if as_input is not None:
            return as_input
        if self.outer is not None:  # a branch or loop body: capture the outer resource
            outer_t = self.outer.capture_variable(variable, consumer)
            return self.capture_symbolic(outer_t, self.graph.unique_name(
                consumer, mark_as_used=False), "resource")
        found = g._captures.get(id(variable._handle))
        if found is None:
            base = g.unique_name(consumer, mark_as_used=False) + "/resource"
            ph = self.capture(variable._handle, base)
            ph.op.attrs["_user_specified_name"] = "resource"  # as TF names it
            if not any(v is variable for v in g.variables):
                g.variables.append(variable)
            return ph
        return found[1]

    def capture_symbolic(self, t: Tensor, op_name: str | None = None,
                         arg_name: str | None = None) -> Tensor:
        """A tensor of an enclosing graph used in a branch or loop body becomes an input: a
        placeholder named, as in TF, within the scope of the op that first reads it
        (``cond/add/x``), else in the body's base scope."""
        if self.outer is not None and self._is_ancestor(t.graph):
            found = self.graph._captures.get(id(t))
            if found is not None:
                return found[1]
            outer_t = t if t.graph is self.outer.graph else self.outer.capture_symbolic(t)
            base = op_name or self.graph.base_scope
            with self.graph.name_scope(base + "/" if base else ""):
                ph = self.placeholder(t.dtype, t.shape,
                                      arg_name or t.op.name.replace("/", "_").lower())
            ph.handle_shape, ph.handle_dtype = t.handle_shape, t.handle_dtype
            self.graph._captures[id(t)] = (outer_t, ph)
            return ph
        where = f" (defined at {t.op.source[0]}:{t.op.source[1]})" if t.op.source else ""
        if self._is_nested_in_me(t.graph):  # a branch's or loop body's tensor used outside it
            from ..errors import InaccessibleTensorError
            raise InaccessibleTensorError(
                f"{t!r}{where} is out of scope and cannot be used here. Use return values, "
                "explicit Python locals or TensorFlow collections to access it. The tensor "
                f"cannot be accessed from {self.graph.name}, because it was defined in "
                f"{t.graph.name}, which is out of scope. A value made in a loop body or a branch "
                "leaves it only as a loop variable or a branch output (for lists of values, "
                "use a tf.TensorArray).")
        # TensorFlow 2.21's class and message for a tensor leaked out of another trace;
        # raised as it is (not "in user code"), as TF does
        defined = ""
        stack = op_stack(t.op)
        if stack:
            defined = f"\n\n{t!r} was defined here:" + "".join(
                f"\n    File \"{file}\", line {line}" + (f", in {func[0]}" if func and func[0]
                                                       else "")
                for file, line, *func in stack)
        exc = TypeError(
            f"{t!r} is out of scope and cannot be used here. Use return values, explicit "
            "Python locals or TensorFlow collections to access it.\nPlease see "
            "https://www.tensorflow.org/guide/function#all_outputs_of_a_tffunction_must_be_return_values"
            f" for more information.{defined}\n\nThe tensor {t!r} cannot be accessed from "
            f"here, because it was defined in {t.graph}, which is out of scope.")
        exc.ag_error_metadata = ()  # AutoGraph leaves it as it is
        raise exc

    def evaluate_constant(self, tensor: Tensor) -> np.ndarray:
        """The value of ``tensor`` if it depends on no function input or state (else ValueError).

        Used when a tf.Variable is created inside a tf.function with an initial value
        computed there: the value is lifted out of the graph, as ``tf.init_scope`` would.
        """
        from ..runtime.interpreter import run_graph
        from ..runtime.schedule import schedule
        for op in schedule(self.graph, [tensor], include_stateful=False):
            if op.type == "Placeholder" or op.opdef.stateful:
                raise ValueError(
                    f"The initial value of a tf.Variable created inside a tf.function depends on "
                    f"'{op.name}' ({op.type}), which only has a value when the function runs. "
                    "Create the variable outside the function, or compute its initial value "
                    "inside `with tf.init_scope():`.")
        return run_graph(self.graph, [], [], [tensor], include_stateful=False)[0]

    def _is_nested_in_me(self, graph) -> bool:
        """Whether ``graph`` is a branch or body graph built inside the graphs of this builder."""
        mine = {id(self.graph)}
        b = self.outer
        while b is not None:
            mine.add(id(b.graph))
            b = b.outer
        g = getattr(graph, "outer_graph", None)
        while g is not None:
            if id(g) in mine:
                return True
            g = getattr(g, "outer_graph", None)
        return False

    def _is_ancestor(self, graph) -> bool:
        b = self.outer
        while b is not None:
            if b.graph is graph:
                return True
            b = b.outer
        return False

    def variable_created(self, variable) -> None:
        if self.on_variable_created is not None:
            self.on_variable_created(variable)
        elif self.outer is not None:
            self.outer.variable_created(variable)


def _check_types(opdef, inputs, op_name) -> None:
    T = tuple(range(len(inputs))) if opdef.same_dtype else opdef.T
    if not T:
        return
    first = inputs[T[0]]
    for i in T[1:]:
        if inputs[i].dtype is not first.dtype:
            raise TypeError(
                f"Input '{opdef.input_name(i)}' of '{opdef.name}' Op has type "
                f"{inputs[i].dtype.name} that does not match type {first.dtype.name} of argument "
                f"'{opdef.input_name(T[0])}'.")
    if opdef.dtypes is not None and first.dtype not in opdef.dtypes:
        allowed = ", ".join(sorted(d.name for d in opdef.dtypes))
        raise TypeError(
            f"Value passed to parameter '{opdef.input_name(T[0])}' has DataType "
            f"{first.dtype.name} not in list of allowed values: {allowed}")


def _shape_message(message, opdef, op_name, inputs, attrs) -> str:
    args = ", ".join(t.op.name for t in inputs)
    t_attr = f"[T=DT_{type_name(inputs[0].dtype).upper()}]" if opdef.T and inputs else ""
    shapes = ", ".join(fmt(t.shape) for t in inputs)
    return (f"{message} for '{{{{node {op_name}}}}} = {opdef.name}{t_attr}({args})' with input "
            f"shapes: {shapes}.")


def building_graph() -> GraphBuilder | None:
    """The graph builder in effect, or None when executing eagerly."""
    interp = _core.interpreter()
    return None if interp.executing_eagerly else interp

