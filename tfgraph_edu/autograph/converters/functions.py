"""The function itself: renamed ``tf__f``, its body in ``ag__.FunctionScope`` (layer 5).

Also sets up the return flags and gives every variable a closure assigns an
``ag__.Undefined`` value up front, so the generated closures can share it.
"""

from __future__ import annotations

import ast
import re

from .. import options, templates


def transform(fn: ast.FunctionDef, ctx) -> ast.FunctionDef:
    from . import control_flow
    origin = templates.origin(fn)
    shared: set[str] = set()
    for d in control_flow.generated_defs(fn.body):
        shared |= d._ag_nonlocal
    # a name the user declared global or nonlocal is bound outside: no Undefined for it
    shared -= set(ctx.params) | {"do_return", "retval_"} | ctx.user_declared
    head = ast.parse("do_return = False\nretval_ = ag__.UndefinedReturnValue()\n").body
    head += control_flow.undefined_inits(control_flow.needs_binding(fn.body, shared))
    tail = ast.parse("return fscope.ret(retval_, do_return)").body
    scope = ast.parse(
        f"with ag__.FunctionScope({ctx.name!r}, 'fscope', ag__.ConversionOptions("
        "recursive=True, user_requested=True, optional_features="
        f"{options.features_source(ctx.features)}, "
        "internal_convert_user_code=True)) as fscope:\n    pass").body[0]
    scope.body = head + fn.body + tail
    for n in ast.walk(scope):
        if getattr(n, "_ag_line", None) is None:
            n._ag_line = origin
    fn.body = [scope]
    # TF drops one trailing "_<digits>" from the name (add_10 becomes tf__add, g_0 tf__g)
    fn.name = "tf__" + re.sub(r"_\d+$", "", ctx.name)
    fn.decorator_list = []
    fn.returns = None
    return fn
