"""``assert test, msg`` becomes ``ag__.assert_stmt(test, lambda: msg)`` (layer 5).

Only under ``Feature.ASSERT_STATEMENTS`` (or ``ALL``), as in TensorFlow: without it an
``assert`` stays Python's, and a symbolic tensor in it is refused as a Python bool.  The
message must be a literal (TF's converter refuses any other expression; the function then
runs as it is).
"""

from __future__ import annotations

import ast

from .. import templates

FEATURES = ("ASSERT_STATEMENTS", "ALL")


class _Asserts(ast.NodeTransformer):
    def visit_FunctionDef(self, node):
        return node

    visit_AsyncFunctionDef = visit_ClassDef = visit_FunctionDef

    def visit_Assert(self, node):
        from ..conversion import ConversionError
        if node.msg is None:
            msg = ast.Constant("Assertion error")
        elif isinstance(node.msg, ast.Constant):
            msg = node.msg
        else:
            raise ConversionError("can only convert string messages for now (an `assert` "
                                  "under Feature.ASSERT_STATEMENTS needs a literal message)")
        lam = ast.Lambda(args=ast.arguments(posonlyargs=[], args=[], kwonlyargs=[],
                                            kw_defaults=[], defaults=[]), body=msg)
        call = ast.Call(func=templates.expr("ag__.assert_stmt"), args=[node.test, lam],
                        keywords=[])
        new = ast.copy_location(ast.Expr(value=call), node)
        for n in (new, call, lam):
            n._ag_line = getattr(node, "_ag_line", None)  # errors point at the assert
        return new


def transform(fn: ast.FunctionDef, ctx) -> ast.FunctionDef:
    if any(f in ctx.features for f in FEATURES):
        fn.body = [_Asserts().visit(s) for s in fn.body]
    return fn
