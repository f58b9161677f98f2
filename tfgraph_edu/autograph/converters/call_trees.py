"""Calls go through ``ag__.converted_call`` so user functions are converted too (layer 5).

``f(a, *b, k=v)`` becomes ``ag__.converted_call(f, (a, *b), {'k': v}, fscope)``;
at run time library functions, builtins and numpy are called as they are.
"""

from __future__ import annotations

import ast

from .. import templates


class _Calls(ast.NodeTransformer):
    def visit_FunctionDef(self, node):
        return node

    visit_AsyncFunctionDef = visit_ClassDef = visit_FunctionDef

    def visit_Call(self, node):
        self.generic_visit(node)
        func = node.func
        if isinstance(func, ast.Name) and func.id in ("super", "locals", "globals", "vars"):
            return node
        if (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
                and func.value.id == "ag__"):
            return node
        args = ast.Tuple(elts=list(node.args), ctx=ast.Load())
        if node.keywords:
            kwargs = ast.Dict(keys=[ast.Constant(k.arg) if k.arg is not None else None
                                    for k in node.keywords],
                              values=[k.value for k in node.keywords])
        else:
            kwargs = ast.Constant(None)
        new = ast.Call(func=templates.expr("ag__.converted_call"),
                       args=[func, args, kwargs, templates.name("fscope")], keywords=[])
        return ast.copy_location(new, node)


def transform(fn: ast.FunctionDef, ctx) -> ast.FunctionDef:
    fn.body = [_Calls().visit(s) for s in fn.body]
    return fn
