"""``continue`` becomes a flag reset at the top of each iteration (layer 5)."""

from __future__ import annotations

import ast

from .. import templates
from . import _blocks


class _Continues(ast.NodeTransformer):
    def __init__(self, ctx):
        self.ctx = ctx

    def visit_FunctionDef(self, node):
        return node

    visit_AsyncFunctionDef = visit_Lambda = visit_ClassDef = visit_FunctionDef

    def _loop(self, node):
        self.generic_visit(node)
        if not _blocks.contains(node, ast.Continue):
            return node
        flag = self.ctx.namer.new("continue_")
        body = _blocks.guard_block(node.body, flag, ast.Continue)
        node.body = [_blocks.set_flag(flag, False, templates.origin(node))] + body
        return node

    visit_While = visit_For = _loop


def transform(fn: ast.FunctionDef, ctx) -> ast.FunctionDef:
    fn.body = [_Continues(ctx).visit(s) for s in fn.body]
    return fn
