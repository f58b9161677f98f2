"""How big a graph may grow: the node limit (layer 2).

A Python loop over ``range(n)`` inside a tf.function unrolls into ``n`` copies of its
body.  Each node costs memory (the Operation, its tensors, its line of compiled code), so
a runaway unroll would take the whole machine - on a 2 GB notebook server, the kernel is
killed without a word.  A graph refuses to grow beyond ``MAX_NODES`` nodes with TF's
ResourceExhaustedError and the fix (a ``tf.range`` loop, which stays one node).
``set_max_nodes`` raises or lowers the limit for this process.
"""

from __future__ import annotations

MAX_NODES = 200_000  # about 200 MB of graph and compiled code, 600 MB while optimising


def check_room(graph) -> None:
    """TF's ResourceExhaustedError when ``graph`` already holds its limit of nodes (its own
    ``node_limit`` if set, as a loaded model's is, else ``MAX_NODES``)."""
    limit = graph.node_limit or MAX_NODES
    if len(graph.operations) >= limit:
        from ..errors import ResourceExhaustedError
        raise ResourceExhaustedError(
            None, None,
            f"The graph {graph.name!r:.80} reached {limit} nodes, the node limit of "
            "tfgraph_edu (it keeps a runaway unroll from taking all the memory). A Python "
            "loop over range(...) inside a tf.function adds its body to the graph once per "
            "iteration: loop over tf.range(...) instead to build one loop op. If the graph "
            "really needs more nodes, raise the limit with "
            "tfgraph_edu.graph.limits.set_max_nodes(n).")


def max_nodes() -> int:
    return MAX_NODES


def set_max_nodes(n: int) -> None:
    """Set the node limit of every graph built from now on (a positive int)."""
    global MAX_NODES
    if type(n) is not int or n <= 0:
        raise ValueError(f"The node limit must be a positive int, got {n!r}.")
    MAX_NODES = n
