"""Reads of variables become ``ag__.ld(x)`` (layer 5).

As in TensorFlow, every name the user's code reads goes through ``ld`` - locals,
globals such as ``tf`` and builtins such as ``range`` - except the flags and
closures the converters made.  ``ld`` reports a variable read before it has a
value - for example one set in only one branch of a tensor ``if`` - with a clear
error instead of a wrong result; ``del x`` makes ``x`` undefined again the same way.
``x += y`` becomes ``x = ag__.ld(x)`` followed by the unchanged ``x += y`` (TF's shape).
"""

from __future__ import annotations

import ast

# never read through ``ld``: the converters' own names, and ``super`` (zero-argument
# ``super()`` must be called by its own name)
_NOT_LOADED = frozenset({"ag__", "fscope", "do_return", "retval_", "super", "__class__"})


def _ld(node):
    new = ast.Call(func=ast.parse("ag__.ld", mode="eval").body, args=[node], keywords=[])
    return ast.copy_location(new, node)


class _Loads(ast.NodeTransformer):
    def __init__(self, local_names, made=frozenset()):
        self.local_names = local_names
        self.skip = _NOT_LOADED | set(made)

    def visit_FunctionDef(self, node):
        return node

    visit_AsyncFunctionDef = visit_ClassDef = visit_FunctionDef

    def visit_Name(self, node):
        if isinstance(node.ctx, ast.Load) and node.id not in self.skip:
            return _ld(node)
        return node

    def visit_AugAssign(self, node):
        if isinstance(node.target, ast.Name) and node.target.id in self.local_names:
            load = ast.Name(id=node.target.id, ctx=ast.Load())
            first = ast.Assign(targets=[ast.Name(id=node.target.id, ctx=ast.Store())],
                               value=_ld(ast.copy_location(load, node)))
            return [ast.copy_location(first, node), node]
        return self.generic_visit(node)

    def visit_Delete(self, node):
        """``del x`` of a local becomes ``x = ag__.Undefined('x')`` (as in TF): the name stays
        bound for the generated closures, and reading it again is still an error."""
        out = []
        for target in node.targets:
            if isinstance(target, ast.Name) and target.id in self.local_names:
                new = ast.parse(f"{target.id} = ag__.Undefined({target.id!r})").body[0]
                new._ag_deletes = target.id  # `del x` reads x too (TF's liveness counts it)
            else:
                new = ast.Delete(targets=[self.visit(target)])
            out.append(ast.copy_location(new, node))
        return out

    def visit_match_case(self, node):
        """Patterns hold names and dotted names only: read the guard and the body."""
        if node.guard is not None:
            node.guard = self.visit(node.guard)
        node.body = _flat(self.visit(s) for s in node.body)
        return node

    def visit_Lambda(self, node):
        args = {a.arg for a in node.args.args + node.args.kwonlyargs + node.args.posonlyargs}
        inner = _Loads(self.local_names - args, self.skip | args)
        node.body = inner.visit(node.body)
        return node


def _flat(results) -> list:
    out: list = []
    for new in results:
        out.extend(new if isinstance(new, list) else [new])
    return out


def transform(fn: ast.FunctionDef, ctx) -> ast.FunctionDef:
    loads = _Loads(ctx.local_names, ctx.namer.made)
    fn.body = _flat(loads.visit(s) for s in fn.body)
    return fn
