"""``PartitionedCall``: an op that calls a whole graph function (layer 1).

The gradient of a tf.function called eagerly under a tape is itself a graph
function (function/gradients.py builds it); the tape calls it through this op so
that an enclosing tape records the call and can differentiate it again.  The
gradient rule needs to build graphs, so function/gradients.py attaches it.
"""

from __future__ import annotations

from ._core import define


def _call_kernel(*args, f, Tin=(), Tout=()):
    out = f(*args)
    return out[0] if len(Tout) == 1 else tuple(out)


def _call_shape(*args, f, Tin=(), Tout=()):
    return [(t.shape, t.dtype) for t in f.outputs]


PartitionedCall = define(
    "PartitionedCall", ("args*",), _call_kernel, _call_shape, None, mixed_types=True,
    num_outputs=lambda attrs: len(attrs["Tout"]),
    doc="Calls the graph function in attribute ``f`` on its inputs.")
