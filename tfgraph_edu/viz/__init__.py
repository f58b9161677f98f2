"""Layer 8: pictures of graphs (DOT, SVG through Graphviz) and rich displays.

Importing this package attaches ``_repr_mimebundle_`` to Graph, ConcreteFunction and Function,
so they show themselves in Jupyter.
"""

from . import displays  # noqa: F401 - attaches _repr_mimebundle_ to the graph classes
from .displays import GraphPicture, show_graph
from .dot import graph_to_dot, highlight_from_report
from .real_graphs import GraphFileError, OpenedGraph, open_graph
from .render import dot_available, to_svg
from .side_by_side import side_by_side

__all__ = ["graph_to_dot", "to_svg", "show_graph", "dot_available", "highlight_from_report",
           "GraphPicture", "open_graph", "OpenedGraph", "GraphFileError", "side_by_side"]
