"""What a reader returns: graphs in the model the viewer draws, and the file around them
(layer 2a).

A graph read from a file is made of the same ``Graph``, ``Operation`` and ``Tensor`` as a
traced one, with control-flow and call bodies as ``GraphFunction`` attrs (so ``viz/dot.py``
draws them in place).  Its ops are not in our registry, and need not be: each gets a
:class:`ReadOpDef` naming its type.  Such a graph is shown, never run.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .. import dtypes as _dt
from ..graph.graph import Graph, Tensor

__all__ = ["ReadOpDef", "ReadDType", "ReadTensor", "ReadFunction", "OpenedGraph"]


class ReadOpDef:
    """The op of a node read from a file: its type name, whether the file says it is
    stateful (None: the file does not say)."""

    __slots__ = ("name", "stateful", "T", "same_dtype", "state", "attrs")

    def __init__(self, name: str, stateful=None):
        self.name = name
        self.stateful = stateful
        self.T = None
        self.same_dtype = False
        self.state = None
        self.attrs = ()

    def __repr__(self):
        return f"<ReadOpDef {self.name}>"


class ReadDType:
    """A dtype tfgraph_edu does not compute with (``bfloat16``, ``qint8``, ``quint16``...),
    kept by its TensorFlow name for display."""

    __slots__ = ("name",)
    np_dtype = None
    is_floating = False

    def __init__(self, name: str):
        self.name = name

    def __eq__(self, other):
        return isinstance(other, ReadDType) and other.name == self.name

    def __hash__(self):
        return hash(("ReadDType", self.name))

    def __repr__(self):
        return f"tf.{self.name}"


UNKNOWN_DTYPE = ReadDType("unknown")


class ReadTensor(Tensor):
    """An output of a node read from a file.  ``ref`` is how the file named it when the
    op's output layout is not known (``split:output:1``): then that is its name, rather than
    an output index we would have to guess."""

    __slots__ = ("ref",)

    def __init__(self, op, value_index, shape, dtype, ref=None):
        super().__init__(op, value_index, shape, dtype)
        self.ref = ref

    @property
    def name(self) -> str:
        return self.ref or f"{self.op.name}:{self.value_index}"


class ReadFunction:
    """One graph of an opened file, as the viewer lists it (the role a ConcreteFunction plays
    for a traced function): ``name``, ``graph``, ``signature`` (one line of text)."""

    def __init__(self, name: str, graph: Graph, signature: str = "", kind: str = "graph"):
        self.name = name
        self.graph = graph
        self.signature = signature
        self.kind = kind
        self._python_name = name

    def pretty_printed_signature(self, verbose: bool = True) -> str:
        return self.signature or self.name

    @property
    def optimized_graph(self):
        raise NotImplementedError(
            f"{self.name!r} was read from a file: tfgraph_edu shows it as it was written. "
            "The optimiser's view exists only for graphs tfgraph_edu traced.")

    def __repr__(self):
        return f"<ReadFunction {self.name}: {len(self.graph.operations)} ops>"


@dataclass
class OpenedGraph:
    """A file read by ``open_graph``: its format, the graphs to show (``functions``: for a
    SavedModel the meta graph, then one per signature; for a GraphDef the graph; for an
    event file each graph in it), the function library by name, and the SavedModel's
    signatures (key -> {"function", "inputs", "outputs"}).  ``graph`` is the last listed,
    the one the viewer opens on."""

    path: str
    format: str
    functions: list = field(default_factory=list)
    library: dict = field(default_factory=dict)
    signatures: dict = field(default_factory=dict)
    facts: dict = field(default_factory=dict)  # producer version, opset, tags...

    @property
    def graph(self) -> Graph:
        """The last graph listed (a SavedModel's last signature)."""
        return self.functions[-1].graph

    @property
    def concrete_functions(self) -> list:
        return list(self.functions)

    def __repr__(self):
        names = ", ".join(f.name for f in self.functions[:4])
        more = "…" if len(self.functions) > 4 else ""
        return f"<OpenedGraph {self.format} {self.path!r}: {names}{more}>"


def known_dtype(name: str):
    """Our DType named ``name`` (``float32``), or a :class:`ReadDType` for the others."""
    try:
        d = _dt.as_dtype(name)
        return d if d.name == name else ReadDType(name)
    except (TypeError, ValueError, KeyError):
        return ReadDType(name)
