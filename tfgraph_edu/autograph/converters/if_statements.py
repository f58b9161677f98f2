"""``if``/``elif``/``else`` becomes ``ag__.if_stmt(cond, if_body, else_body, ...)`` (layer 5).

The state variables are the local names either branch assigns that are read
later; ``elif`` chains are nested ifs, each converted in turn.
"""

from __future__ import annotations

import ast

from . import control_flow


def build(node: ast.If, live_out: set, ctx) -> list:
    origin = getattr(node, "_ag_line", None) or getattr(node, "lineno", None)
    modified = node._ag_modified
    # outputs first (modified and read later); then the other modified names, which only
    # need restoring between the two traced branches so neither sees the other's values
    # composite names (x['b'], obj.v) are always outputs, as in TensorFlow
    composites = sorted(node._ag_composites)
    outputs = sorted(modified & live_out) + composites
    symbols = outputs + sorted(modified - live_out)
    get_name, set_name, state = control_flow.state_closures(ctx, symbols, origin, composites)
    body_name, else_name = ctx.namer.new("if_body"), ctx.namer.new("else_body")
    plain = [n for n in symbols if n not in composites]
    body = control_flow.closure(body_name, [], node.body, ctx, origin, plain)
    orelse = control_flow.closure(else_name, [], node.orelse, ctx, origin, plain)
    call = ast.parse(f"ag__.if_stmt(COND, {body_name}, {else_name}, {get_name}, {set_name}, "
                     f"{tuple(symbols)!r}, {len(outputs)})").body[0]
    call.value.args[0] = node.test
    for n in ast.walk(call):
        n._ag_line = origin
    return state + [body, orelse, call]
