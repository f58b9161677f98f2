"""How big a graph may grow: the node limit (layer 2).

A Python loop over ``range(n)`` inside a tf.function unrolls into ``n`` copies of its
body.  Each node costs memory (the Operation, its tensors, its line of compiled code), so
a runaway unroll would take the whole machine - on a 2 GB notebook server, the kernel is
killed without a word.  A graph refuses to grow beyond ``MAX_NODES`` nodes with TF's
ResourceExhaustedError and the fix (a ``tf.range`` loop, which stays one node).
``set_max_nodes`` raises or lowers the limit for this process.
"""

from __future__ import annotations

MAX_NODES = 500_000


def max_nodes() -> int:
    return MAX_NODES


def set_max_nodes(n: int) -> None:
    """Set the node limit of every graph built from now on (a positive int)."""
    global MAX_NODES
    if type(n) is not int or n <= 0:
        raise ValueError(f"The node limit must be a positive int, got {n!r}.")
    MAX_NODES = n
