"""Small AST-building helpers for the converters (layer 5)."""

from __future__ import annotations

import ast
import itertools


def expr(source: str, **names) -> ast.expr:
    """Parse an expression; ``names`` replace Name nodes (by id) with the given nodes."""
    node = ast.parse(source, mode="eval").body
    return _Replace(names).visit(node)


def stmts(source: str, **names) -> list[ast.stmt]:
    """Parse statements; ``names`` replace Name nodes (or whole ``name`` statements)."""
    body = ast.parse(source).body
    out = []
    for s in body:
        if (isinstance(s, ast.Expr) and isinstance(s.value, ast.Name) and s.value.id in names
                and isinstance(names[s.value.id], list)):
            out.extend(names[s.value.id])
        else:
            out.append(_Replace(names).visit(s))
    return out


class _Replace(ast.NodeTransformer):
    def __init__(self, names):
        self.names = names

    def visit_Name(self, node):
        new = self.names.get(node.id)
        if new is None or isinstance(new, list):
            return node
        if isinstance(new, str):
            return ast.copy_location(ast.Name(id=new, ctx=node.ctx), node)
        return new

    def visit_FunctionDef(self, node):
        new = self.names.get(node.name)
        if isinstance(new, str):
            node.name = new
        body = []
        for s in node.body:
            if (isinstance(s, ast.Expr) and isinstance(s.value, ast.Name)
                    and isinstance(self.names.get(s.value.id), list)):
                body.extend(self.names[s.value.id])
            else:
                body.append(self.visit(s))
        node.body = body or [ast.Pass()]
        return node


def name(id_: str, store: bool = False) -> ast.Name:
    return ast.Name(id=id_, ctx=ast.Store() if store else ast.Load())


def string_tuple(names) -> ast.Tuple:
    return ast.Tuple(elts=[ast.Constant(n) for n in names], ctx=ast.Load())


class Namer:
    """Fresh names that do not clash with the function's own (``if_body``, ``if_body_1``…)."""

    def __init__(self, taken):
        self.taken = set(taken)
        self.made: set[str] = set()  # the names this namer made (flags, closures)

    def new(self, base: str) -> str:
        if base not in self.taken:
            self.taken.add(base)
            self.made.add(base)
            return base
        for i in itertools.count(1):
            candidate = f"{base}_{i}"
            if candidate not in self.taken:
                self.taken.add(candidate)
                self.made.add(candidate)
                return candidate
        raise AssertionError


def mark(node, origin):
    """Give ``node`` (and its unmarked children) the user's line ``origin`` for the source map."""
    for n in ast.walk(node):
        if getattr(n, "_ag_line", None) is None and isinstance(n, (ast.stmt, ast.expr)):
            n._ag_line = origin
    return node


def origin(node):
    """The user's line (in the file) a node came from, if known."""
    return getattr(node, "_ag_line", None) or getattr(node, "lineno", None)
