"""The optimisation pipeline: passes in order, with the reason for the order (layer 6)."""

from __future__ import annotations

import time

from .. import _gc
from . import options, rewrite
from .arithmetic import simplify_arithmetic
from .common_subexpression import eliminate_common_subexpressions
from .constant_folding import fold_constants
from .debug_stripper import strip_debug_ops
from .dependency import optimize_dependencies
from .loop_invariant import hoist_loop_invariants
from .pruning import prune
from .report import OptimizationReport, PassReport

PIPELINE = [
    ("debug_stripper", "debug_stripper", strip_debug_ops,
     "before pruning (off unless set), so what only fed the checks is pruned too"),
    ("pruning", "pruning", prune,
     "first: no later pass should spend time on nodes nothing needs"),
    ("constant_folding", "constant_folding", fold_constants,
     "turns whole constant subgraphs and known shapes into constants"),
    ("arithmetic_optimization", "arithmetic_optimization", simplify_arithmetic,
     "after folding, so the constants it looks for (x * 1) are there"),
    ("common_subexpression", "common_subexpression", eliminate_common_subexpressions,
     "after simplification, so equal expressions look equal"),
    ("loop_optimization", "loop_optimization", hoist_loop_invariants,
     "on the cleaned graph, so loop bodies hold only real work"),
    ("dependency_optimization", "dependency_optimization", optimize_dependencies,
     "removes the Identity/NoOp nodes the passes above left without purpose"),
    ("pruning (again)", "pruning", prune, "last: drops constants nothing uses any more"),
]


def optimize(graph, inputs, outputs):
    """Run every enabled pass; returns (graph, inputs, outputs, OptimizationReport).

    ``graph`` is never edited and the graph returned is always a new one (when a pass
    is enabled): the passes read ``graph`` until one changes something, which then
    writes its result as a copy (``rewrite.shared``); later passes edit that copy."""
    with _gc.paused():
        return _optimize(graph, inputs, outputs)


def _optimize(graph, inputs, outputs):
    report = OptimizationReport()
    traced = graph  # never edited: the first pass that changes something copies it
    for label, option, fn, _why in PIPELINE:
        if not options.enabled(option):
            continue
        pass_report = PassReport(label, nodes_before=len(graph.operations))
        start = time.perf_counter()
        if graph is traced:
            try:
                with rewrite.shared(graph, copy=False):
                    result = fn(graph, inputs, outputs, pass_report)
            except rewrite.Changed:  # it edits: again from the start, writing a copy
                pass_report = PassReport(label, nodes_before=len(graph.operations))
                with rewrite.shared(graph, copy=True):
                    result = fn(graph, inputs, outputs, pass_report)
        else:
            result = fn(graph, inputs, outputs, pass_report)
        graph, inputs, outputs = result
        pass_report.seconds = time.perf_counter() - start
        pass_report.nodes_after = len(graph.operations)
        report.passes.append(pass_report)
    if graph is traced and report.passes:  # no pass changed anything: still a copy
        graph, inputs, outputs = rewrite.copy_graph(graph, inputs, outputs)
    return graph, inputs, outputs, report
