"""Debug stripping: Grappler's ``debug_stripper``, off unless asked for (layer 6).

With ``tf.config.optimizer.set_experimental_options({"debug_stripper": True})`` the
debugging ops of a function traced from then on do nothing, as in TensorFlow: a
``CheckNumerics``/``CheckNumericsV2`` or ``Print`` forwards its first input unchecked,
an ``Assert`` or ``PrintV2`` is removed (what waited on it waits on its control inputs).
"""

from __future__ import annotations

from .rewrite import Rewriter

FORWARDING = {"CheckNumerics", "CheckNumericsV2", "Print"}
REMOVED = {"Assert", "PrintV2"}


def strip_debug_ops(graph, inputs, outputs, report):
    if not any(op.opdef.name in FORWARDING | REMOVED for op in graph.operations):
        return graph, inputs, outputs
    rw = Rewriter(graph, inputs, outputs)
    for op in graph.operations:
        kind = op.opdef.name
        if kind in FORWARDING:
            src = rw.tensor(op.inputs[0])
            rw.forward(op, [src])
            report.add(op.name, "removed", f"{op.type} is a debugging op (debug_stripper)",
                       by=src.op.name)
        elif kind in REMOVED:
            rw.drop(op)
            report.add(op.name, "removed", f"{op.type} is a debugging op (debug_stripper)")
        else:
            rw.copy(op)
    return rw.finish()
