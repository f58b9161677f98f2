"""``for`` becomes ``ag__.for_stmt(iterable, extra_test, loop_body, ...)`` (layer 5).

The body takes the iterate as an argument and unpacks it into the loop target;
a ``break`` (already a flag) becomes the extra test checked before each iteration.
"""

from __future__ import annotations

import ast

from .. import analysis
from . import control_flow


def build(node: ast.For, live_out: set, again: set, ctx) -> list:
    origin = getattr(node, "_ag_line", None) or getattr(node, "lineno", None)
    targets: set[str] = set()
    analysis._targets(node.target, targets)
    # the loop target is state only when it is read after the loop (its last value)
    modified = (node._ag_modified - targets) | (targets & live_out)
    carried = node._ag_live_in | live_out
    flag = getattr(node, "_ag_extra_test", None)
    if flag:
        carried.add(flag)
    composites = sorted(node._ag_composites)
    # as TF: the values the loop hands on first, then those only its iterations use
    symbols = sorted(modified & carried, key=lambda s: (s not in live_out, s)) + composites
    get_name, set_name, state = control_flow.state_closures(ctx, symbols, origin, composites)
    body_name = ctx.namer.new("loop_body")
    unpack = ast.Assign(targets=[node.target], value=ast.Name(id="itr", ctx=ast.Load()))
    ast.copy_location(unpack, node)
    body = control_flow.closure(body_name, ["itr"], [unpack] + node.body, ctx, origin,
                                declare=[s for s in symbols if s not in composites])
    out = list(state)
    extra, test = "None", None
    if flag:
        extra = ctx.namer.new("extra_test")
        check = f"ag__.not_({flag})"
        if getattr(node, "_ag_return_guard", False):  # as TF: not do_return, then not break_
            check = f"ag__.and_(lambda: ag__.not_(do_return), lambda: {check})"
        test = ast.parse(f"def {extra}():\n    return {check}").body[0]
        test._ag_generated, test._ag_nonlocal = True, set()
    names = ", ".join(sorted(targets))
    call = ast.parse(f"ag__.for_stmt(ITER, {extra}, {body_name}, {get_name}, {set_name}, "
                     f"{tuple(symbols)!r}, {{'iterate_names': {names!r}}})").body[0]
    call.value.args[0] = node.iter
    call.value.args[6] = control_flow.options_dict(
        node._ag_options, [("iterate_names", ast.Constant(names))])
    out += [body] + ([test] if test else []) + [call]  # TF's order
    for n in out:
        for m in ast.walk(n):
            if getattr(m, "_ag_line", None) is None:
                m._ag_line = origin
    if node.orelse:
        out += node.orelse
    return out
