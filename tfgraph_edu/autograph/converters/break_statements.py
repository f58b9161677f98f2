"""``break`` becomes a flag (layer 5).

``break`` sets ``break_ = True``; the rest of the loop body runs only ``if not
break_``; a ``while`` loop also tests ``not break_``, a ``for`` loop gets it as
its extra test.  (A function with a loop that has an ``else`` is not converted at all, as
in TF: see ``analysis.loop_with_else``.)
"""

from __future__ import annotations

import ast

from .. import templates
from . import _blocks


class _Breaks(ast.NodeTransformer):
    def __init__(self, ctx):
        self.ctx = ctx

    def visit_FunctionDef(self, node):
        return node  # nested functions are converted when they are called

    visit_AsyncFunctionDef = visit_Lambda = visit_ClassDef = visit_FunctionDef

    def _loop(self, node):
        self.generic_visit(node)
        if not _blocks.contains(node, ast.Break):
            return node
        flag = self.ctx.namer.new("break_")
        line = templates.origin(node)
        node.body = _blocks.guard_block(node.body, flag, ast.Break) or [ast.Pass()]
        if isinstance(node, ast.While):
            node.test = ast.BoolOp(op=ast.And(), values=[_blocks.not_flag(flag), node.test])
            if getattr(node, "_ag_return_guard", False):  # TF's order: do_return first
                node.test = ast.BoolOp(op=ast.And(),
                                       values=[_blocks.not_flag("do_return"), node.test])
        else:
            node._ag_extra_test = flag
        return [_blocks.set_flag(flag, False, line), node]

    visit_While = visit_For = _loop


def transform(fn: ast.FunctionDef, ctx) -> ast.FunctionDef:
    fn.body = [s for stmt in fn.body for s in _as_list(_Breaks(ctx).visit(stmt))]
    return fn


def _as_list(x):
    return x if isinstance(x, list) else [x]
