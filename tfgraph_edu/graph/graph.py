"""Graph, Operation and the symbolic Tensor (layer 2).

Kept small on purpose (torch.fx's lesson): a Graph is a list of Operations in
creation order, which is always a topological order; an Operation names its
OpDef, inputs, attrs and control inputs; a Tensor is one output of one
Operation.  Building policy (conversion, captures, control dependencies) lives
in the graph builder of layer 4; printers live in ``graph/printers.py``.
"""

from __future__ import annotations

import re
import weakref
from contextlib import contextmanager
from types import MappingProxyType

import numpy as np

from .. import dtypes as _dt
from ..ops.overloads import TensorOperators
from ..shapes import TensorShape, as_shape
from . import limits
from .naming import check_scope_name

__all__ = ["Graph", "Operation", "Tensor", "OperatorNotAllowedInGraphError"]


from ..errors import OperatorNotAllowedInGraphError  # noqa: E402 - re-exported here

_SYMBOLIC_BOOL = (
    "Using a symbolic `tf.Tensor` as a Python `bool` is not allowed{where}. Python `if` "
    "and `while` on a tensor need AutoGraph (keep `autograph=True`, the default, in "
    "tf.function) or an explicit `tf.cond` / `tf.while_loop`.")


class WeakVariables:
    """The variables a graph reads, held weakly as TensorFlow's FuncGraph holds them: a
    function does not keep the Python variable object alive (the captured resource lives
    on with the function, see ``ConcreteFunction.variables``).  Iterating yields the ones
    still alive."""

    __slots__ = ("refs", "names")

    def __init__(self, variables=()):
        self.refs: list = []  # weak references, in capture order
        self.names: list = []  # the variables' names, for the error once one is gone
        for v in variables:
            self.append(v)

    def append(self, variable) -> None:
        self.refs.append(weakref.ref(variable))
        self.names.append(variable.name)

    def __iter__(self):
        return (v for v in (r() for r in self.refs) if v is not None)

    def __len__(self):
        return sum(1 for _ in self)

    def __eq__(self, other):
        return list(self) == list(other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self):
        return f"WeakVariables({list(self)!r})"


class Tensor(TensorOperators):
    """A symbolic tensor: output ``value_index`` of ``op``; it has no value until run."""

    __slots__ = ("op", "value_index", "_shape", "_dtype", "handle_shape", "handle_dtype",
                 "_keras_mask", "__weakref__")  # a Keras layer's output mask (Keras 3's)

    def __init__(self, op: Operation, value_index: int, shape: TensorShape, dtype):
        self.op = op
        self.value_index = value_index
        self._shape = shape
        self._dtype = dtype
        self.handle_shape = None
        self.handle_dtype = None

    @property
    def name(self) -> str:
        return f"{self.op.name}:{self.value_index}"

    @property
    def graph(self) -> Graph:
        return self.op.graph

    @property
    def shape(self) -> TensorShape:
        return self._shape

    @property
    def dtype(self):
        return self._dtype

    @property
    def ndim(self):
        return self._shape.rank

    @property
    def device(self) -> str:
        return ""

    def set_shape(self, shape) -> None:
        """Refine the static shape (must be compatible)."""
        self._shape = self._shape.merge_with(as_shape(shape))

    def consumers(self) -> list:
        return [op for op in self.graph.operations if any(t is self for t in op.inputs)]

    def _constant_value(self):
        op = self.op
        if op.type == "Const":
            return op.attrs["value"]
        if op.type == "Shape":
            s = op.inputs[0].shape
            if s.is_fully_defined():
                return np.array(s.as_list(), dtype=op.attrs.get("out_type", _dt.int32).np_dtype)
        if op.type == "Identity":
            return op.inputs[0]._constant_value()
        return None

    # -- what a symbolic tensor cannot do ------------------------------------------------
    @property
    def numpy(self):
        """A symbolic tensor has no value, and (as in TensorFlow) no ``numpy`` attribute:
        use tf.print to see its value when the function runs, or return it."""
        raise AttributeError("'SymbolicTensor' object has no attribute 'numpy'")

    def __bool__(self):
        raise OperatorNotAllowedInGraphError(_SYMBOLIC_BOOL.format(where=""))

    def __iter__(self):
        raise OperatorNotAllowedInGraphError(
            "Iterating over a symbolic `tf.Tensor` is not allowed: a Python `for` over a tensor "
            "needs AutoGraph (keep `autograph=True`, the default, in tf.function), which turns "
            "it into a graph loop; or use tf.unstack / tf.while_loop explicitly.")

    def __len__(self):
        shape = self._shape
        if shape.rank is None or shape.rank == 0 or shape[0] is None:
            raise TypeError(f"len is not well defined for a symbolic Tensor ({self.name}). "
                            "Please call `x.shape` rather than `len(x)` for shape information.")
        return shape[0]

    def __index__(self):
        raise TypeError(f"A symbolic tensor ({self.name}) cannot be used as a Python index.")

    def __array__(self, dtype=None, copy=None):
        raise NotImplementedError(
            f"Cannot convert a symbolic tf.Tensor ({self.name}) to a numpy array. This error "
            "may indicate that you're trying to pass a Tensor to a NumPy call inside a "
            "tf.function; use TensorFlow ops instead.")

    def __str__(self):
        if self._shape.rank is None:  # TF leaves out a shape of unknown rank here
            return f'Tensor("{self.name}", dtype={self._dtype.name})'
        return f'Tensor("{self.name}", shape={self._shape}, dtype={self._dtype.name})'

    def __repr__(self):
        return f"<tf.Tensor '{self.name}' shape={self._shape} dtype={self._dtype.name}>"


_NO_ATTRS = MappingProxyType({})  # shared by every node without attributes (memory)


class Operation:
    """A node: one op applied to input tensors, with attrs and control inputs.

    The ``inputs`` list and ``attrs`` dict given are kept, not copied; ``control_inputs`` is
    a tuple and a node without attributes shares one read-only empty mapping: a big unrolled
    graph holds hundreds of thousands of nodes.
    """

    __slots__ = ("graph", "name", "opdef", "inputs", "outputs", "attrs", "control_inputs",
                 "source", "_id", "__weakref__")

    def __init__(self, graph, name, opdef, inputs, attrs, control_inputs=(), source=None):
        self.graph = graph
        self.name = name
        self.opdef = opdef
        self.inputs = inputs if type(inputs) is list else list(inputs)  # taken, not copied
        self.attrs = (attrs if type(attrs) is dict else dict(attrs)) if attrs else _NO_ATTRS
        self.control_inputs = tuple(control_inputs) if control_inputs else ()
        self.outputs: list[Tensor] = []
        self.source = source  # (filename, lineno, function name) of the user's line
        self._id = None

    @property
    def type(self) -> str:
        return self.opdef.name

    @property
    def node_def(self):
        from .printers import node_def_text
        return node_def_text(self)

    def get_attr(self, name):
        try:
            return self.attrs[name]
        except KeyError:
            raise ValueError(f"Operation '{self.name}' has no attr named '{name}'.") from None

    def _add_outputs(self, specs):
        if len(specs) == 1:  # most nodes: a list of exactly one slot
            (shape, dtype), = specs
            self.outputs = [Tensor(self, 0, shape, dtype)]
        else:
            self.outputs = [Tensor(self, i, shape, dtype)
                            for i, (shape, dtype) in enumerate(specs)]

    def __repr__(self):
        return f"<tf.Operation '{self.name}' type={self.type}>"


def _lower(name: str) -> str:
    """``name.lower()``, the same string object when it is lower case already (memory)."""
    low = name.lower()
    return name if low == name else low


class Graph:
    """A dataflow graph: operations in creation order, unique names, name scopes."""

    def __init__(self, name: str = "graph"):
        self.name = name
        self.operations: list[Operation] = []
        self._by_name: dict[str, Operation] = {}
        self._names_in_use: dict[str, int] = {}
        self._scope = ""
        # a branch's or loop body's graph: the scope of all its nodes, the name of its If/While
        # op ("cond", "while_1"), as TF names them ("cond/mul"); "" for other graphs
        self.base_scope = ""
        self.inputs: list[Tensor] = []
        self.outputs: list[Tensor] = []
        # captures: id(outer value) -> (outer value, placeholder)
        self._captures: dict[int, tuple[object, Tensor]] = {}
        self.variables = WeakVariables()
        self.outer_graph = None
        # the user's frames (outermost first) that called the trace of this graph
        self.caller_stack: tuple = ()
        self._control_stack: list[list[Operation]] = []
        self.node_limit: int | None = None  # None: graph/limits.py's MAX_NODES
        # gradient op name -> the name of the forward op it differentiates (filled by the
        # gradient tape, for the graph viewer's link between the two)
        self.gradient_of: dict[str, str] = {}

    # -- names -------------------------------------------------------------------------
    def unique_name(self, name: str, mark_as_used: bool = True, scoped: bool = True) -> str:
        """``name`` under the current scope, with ``_1``, ``_2``... added to keep it unique."""
        if self._scope and scoped:
            name = f"{self._scope}/{name}"
        key = name.lower()
        if key == name:  # the same string object when it is lower case already (memory)
            key = name
        in_use = self._names_in_use
        i = in_use.get(key, 0)
        if mark_as_used:
            in_use[key] = i + 1
        if i > 0:
            base = key
            while f"{base}_{i}" in self._names_in_use:
                i += 1
            name = f"{name}_{i}"
            if mark_as_used:
                self._names_in_use[_lower(name)] = 1
        return name

    @contextmanager
    def name_scope(self, name: str | None):
        """Prefix op names created in the body with ``name/`` (made unique); TF's ValueError
        for a name TF would refuse."""
        old = self._scope
        if name:
            check_scope_name(name, nested=bool(old))
            if name.endswith("/") and len(name) > 1:  # an absolute scope starts node names
                check_scope_name(name[:-1], nested=False)
        if name is None or name == "":
            self._scope = "" if name == "" else old
        elif name.endswith("/"):
            self._scope = name[:-1]
        else:
            scoped = self.unique_name(name)
            self._scope = scoped
        try:
            yield (self._scope + "/") if self._scope else ""
        finally:
            self._scope = old

    def get_name_scope(self) -> str:
        return self._scope

    # -- ops -----------------------------------------------------------------------------
    def add_op(self, name: str, opdef, inputs, attrs, specs, control_inputs=(), source=None):
        """Append an Operation named exactly ``name`` (the caller made it unique); TF's
        ResourceExhaustedError beyond the node limit (``graph/limits.py``)."""
        ops = self.operations
        n = len(ops)
        if n >= (self.node_limit or limits.MAX_NODES):
            limits.check_room(self)
        op = Operation(self, name, opdef, inputs, attrs, control_inputs, source)
        if len(specs) == 1:  # most nodes (as _add_outputs, without the call)
            (shape, dtype), = specs
            op.outputs = [Tensor(op, 0, shape, dtype)]
        else:
            op._add_outputs(specs)
        op._id = n
        ops.append(op)
        self._by_name[name] = op
        return op

    def get_operations(self) -> list[Operation]:
        return list(self.operations)

    def get_operation_by_name(self, name: str) -> Operation:
        try:
            return self._by_name[name]
        except KeyError:
            raise KeyError(f"The name '{name}' refers to an Operation not in the graph.") from None

    def get_tensor_by_name(self, name: str) -> Tensor:
        op_name, _, index = name.partition(":")
        if not index:
            raise ValueError(f"The name '{name}' looks a like an Operation name, not a Tensor "
                             "name. Tensor names must be of the form \"<op_name>:<output_index>\".")
        op = self.get_operation_by_name(op_name)
        return op.outputs[int(index)]

    # -- captures ------------------------------------------------------------------------------
    @property
    def captures(self) -> list[tuple[object, Tensor]]:
        """(outer value, inner placeholder) pairs, in capture order."""
        return list(self._captures.values())

    @property
    def external_captures(self) -> list:
        return [outer for outer, _ in self._captures.values()]

    @property
    def internal_captures(self) -> list[Tensor]:
        return [inner for _, inner in self._captures.values()]

    def as_graph_def(self):
        """The graph as a GraphDef-like object that prints in TensorFlow's text format."""
        from .printers import GraphDef
        return GraphDef(self)

    def verify(self) -> None:
        """Check the graph is well formed; raise ValueError naming the first problem."""
        from .verify import verify
        verify(self)

    def __repr__(self):
        return f"<tf.Graph {self.name!r} with {len(self.operations)} operations>"


def op_stack(op) -> tuple:
    """(filename, line, function) frames, outermost first, of where ``op`` was made: the
    frames that called its function's trace (a branch or loop body: its outer graph's),
    then the user's line that made it, as TF lists an op's traceback."""
    g = op.graph
    while g is not None and not g.caller_stack and g.outer_graph is not None:
        g = g.outer_graph
    caller = g.caller_stack if g is not None else ()
    return caller + ((op.source,) if op.source is not None else ())


class FuncGraph(Graph):
    """The graph of a traced function (TensorFlow's class name; ``str`` named after the
    Python function, ``FuncGraph(name=f, id=…)``, ``repr`` TF's default object repr)."""

    @property
    def function_name(self) -> str:
        """``__inference_f_12`` -> ``f``."""
        m = re.fullmatch(r"__inference_(.*)_\d+", self.name)
        return m.group(1) if m else self.name

    def __str__(self):
        return f"FuncGraph(name={self.function_name}, id={id(self)})"

    def __repr__(self):  # TF 2.21 defines only __str__: a notebook shows the object's repr
        return f"<tensorflow.python.framework.func_graph.FuncGraph object at 0x{id(self):x}>"
