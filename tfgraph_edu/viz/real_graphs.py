"""``open_graph``: real TensorFlow and ONNX graph files in the viewer (layer 8).

The readers live in ``tfgraph_edu/formats`` (one per format); this is the entry point the
learner calls, and the picture of what it returns::

    g = tfgraph_edu.viz.open_graph("my_model/")        # a SavedModel folder
    g.functions                                         # the meta graph, then its signatures
    tfgraph_edu.viz.show_graph(g)                       # the last, bodies in place
    GraphViewer(g)                                      # all of them, interactive
"""

from __future__ import annotations

from ..formats import Budget, GraphFileError, OpenedGraph, ReadFunction, open_graph
from ..formats.live import from_tf, is_tf_object

__all__ = ["open_graph", "Budget", "GraphFileError", "OpenedGraph", "ReadFunction",
           "graph_of"]


def graph_of(target):
    """The Graph to draw for an opened file (its last function, as the viewer shows), one of
    its functions, or a live TF object; None for anything else."""
    if is_tf_object(target):
        target = from_tf(target)
    if isinstance(target, OpenedGraph):
        return target.graph
    if isinstance(target, ReadFunction):
        return target.graph
    return None
