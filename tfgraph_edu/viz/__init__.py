"""Layer 8: pictures of graphs (DOT, SVG through Graphviz) and rich displays."""

from . import displays  # noqa: F401 - attaches _repr_mimebundle_ to the graph classes
from .displays import show_graph  # noqa: F401
from .dot import graph_to_dot  # noqa: F401
from .render import dot_available, to_svg  # noqa: F401
