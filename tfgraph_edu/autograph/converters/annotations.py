"""Annotated assignments lose their annotations (layer 5).

``y: int = 0`` becomes ``y = 0`` and a bare ``y: int`` goes: the generated closures share
variables through ``nonlocal``, which Python forbids for annotated names, and annotations
have no effect at run time anyway.
"""

from __future__ import annotations

import ast


class _Annotations(ast.NodeTransformer):
    def visit_FunctionDef(self, node):
        return node  # nested functions are converted when they are called

    visit_AsyncFunctionDef = visit_Lambda = visit_ClassDef = visit_FunctionDef

    def visit_AnnAssign(self, node):
        if node.value is None:
            return ast.copy_location(ast.Pass(), node)
        return ast.copy_location(ast.Assign(targets=[node.target], value=node.value), node)


def transform(fn: ast.FunctionDef, ctx) -> ast.FunctionDef:
    fn.body = [_Annotations().visit(s) for s in fn.body]
    return fn
