"""``while`` becomes ``ag__.while_stmt(loop_test, loop_body, ...)`` (layer 5).

Loop variables: local names the body assigns that the test reads, the body
reads before assigning, or code after the loop reads.
"""

from __future__ import annotations

import ast

from .. import analysis
from . import control_flow


def build(node: ast.While, live_out: set, again: set, ctx) -> list:
    origin = getattr(node, "_ag_line", None) or getattr(node, "lineno", None)
    modified = node._ag_modified
    carried = analysis.loaded([node.test]) | node._ag_live_in | live_out
    composites = sorted(node._ag_composites)
    # as TF: the values the loop hands on first, then those only its iterations use
    symbols = sorted(modified & carried, key=lambda s: (s not in live_out, s)) + composites
    get_name, set_name, state = control_flow.state_closures(ctx, symbols, origin, composites)
    test_name, body_name = ctx.namer.new("loop_test"), ctx.namer.new("loop_body")
    test = ast.parse(f"def {test_name}():\n    return COND").body[0]
    test.body[0].value = node.test
    test._ag_generated, test._ag_nonlocal = True, set()
    # the loop's state is the body's to set, also a name only the body uses
    body = control_flow.closure(body_name, [], node.body, ctx, origin,
                                declare=[s for s in symbols if s not in composites])
    call = ast.parse(f"ag__.while_stmt({test_name}, {body_name}, {get_name}, {set_name}, "
                     f"{tuple(symbols)!r}, {{}})").body[0]
    call.value.args[5] = control_flow.options_dict(node._ag_options)
    for n in ast.walk(call):
        n._ag_line = origin
    for n in ast.walk(test):
        if getattr(n, "_ag_line", None) is None:
            n._ag_line = origin
    out = state + [body, test, call]  # TF's order
    if node.orelse:
        out += node.orelse
    return out
