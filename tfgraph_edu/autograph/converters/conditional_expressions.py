"""``a if c else b`` becomes ``ag__.if_exp(c, lambda: a, lambda: b, 'c')`` (layer 5)."""

from __future__ import annotations

import ast

from ..unparse import unparse


class _Ternaries(ast.NodeTransformer):
    def visit_FunctionDef(self, node):
        return node

    visit_AsyncFunctionDef = visit_ClassDef = visit_FunctionDef

    def visit_IfExp(self, node):
        self.generic_visit(node)
        lam = lambda body: ast.Lambda(  # noqa: E731
            args=ast.arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[],
                               defaults=[]), body=body)
        new = ast.Call(func=ast.parse("ag__.if_exp", mode="eval").body,
                       args=[node.test, lam(node.body), lam(node.orelse),
                             ast.Constant(unparse(node.test))], keywords=[])
        return ast.copy_location(new, node)


def transform(fn: ast.FunctionDef, ctx) -> ast.FunctionDef:
    fn.body = [_Ternaries().visit(s) for s in fn.body]
    return fn
