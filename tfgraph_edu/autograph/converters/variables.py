"""Reads of local variables become ``ag__.ld(x)`` (layer 5).

``ld`` reports a variable read before it has a value - for example one set in
only one branch of a tensor ``if`` - with a clear error instead of a wrong result;
``del x`` makes ``x`` undefined again the same way.
"""

from __future__ import annotations

import ast


class _Loads(ast.NodeTransformer):
    def __init__(self, local_names):
        self.local_names = local_names

    def visit_FunctionDef(self, node):
        return node

    visit_AsyncFunctionDef = visit_ClassDef = visit_FunctionDef

    def visit_Name(self, node):
        if isinstance(node.ctx, ast.Load) and node.id in self.local_names:
            new = ast.Call(func=ast.parse("ag__.ld", mode="eval").body, args=[node],
                           keywords=[])
            return ast.copy_location(new, node)
        return node

    def visit_Delete(self, node):
        """``del x`` of a local becomes ``x = ag__.Undefined('x')`` (as in TF): the name stays
        bound for the generated closures, and reading it again is still an error."""
        out = []
        for target in node.targets:
            if isinstance(target, ast.Name) and target.id in self.local_names:
                new = ast.parse(f"{target.id} = ag__.Undefined({target.id!r})").body[0]
            else:
                new = ast.Delete(targets=[self.visit(target)])
            out.append(ast.copy_location(new, node))
        return out

    def visit_Lambda(self, node):
        args = {a.arg for a in node.args.args + node.args.kwonlyargs + node.args.posonlyargs}
        inner = _Loads(self.local_names - args)
        node.body = inner.visit(node.body)
        return node


def transform(fn: ast.FunctionDef, ctx) -> ast.FunctionDef:
    loads = _Loads(ctx.local_names)
    body = []
    for s in fn.body:
        new = loads.visit(s)
        body.extend(new if isinstance(new, list) else [new])
    fn.body = body
    return fn
