"""Shared by the jump converters: guard the rest of a block once a flag may be set (layer 5)."""

from __future__ import annotations

import ast

from .. import templates

LOOPS = (ast.For, ast.While, ast.AsyncFor)
FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def contains(node, kinds, into_loops: bool = False) -> bool:
    """Whether ``node`` holds a statement of ``kinds`` (not inside nested functions, nor
    nested loops unless ``into_loops``)."""
    todo = list(ast.iter_child_nodes(node)) if isinstance(node, LOOPS + FUNCS) else [node]
    while todo:
        n = todo.pop()
        if isinstance(n, kinds):
            return True
        if isinstance(n, FUNCS) or (isinstance(n, LOOPS) and not into_loops):
            continue
        todo.extend(ast.iter_child_nodes(n))
    return False


def not_flag(flag: str) -> ast.expr:
    return ast.UnaryOp(op=ast.Not(), operand=templates.name(flag))


def set_flag(flag: str, value: bool, origin) -> ast.stmt:
    node = ast.Assign(targets=[templates.name(flag, store=True)], value=ast.Constant(value))
    return templates.mark(node, origin)


def guard_block(stmts, flag: str, kind) -> list:
    """Replace ``kind`` statements (break/continue) of this loop level by ``flag = True`` and
    run what follows them only ``if not flag``."""
    out: list = []
    for i, s in enumerate(stmts):
        if isinstance(s, kind):
            out.append(set_flag(flag, True, templates.origin(s)))
            return out
        jumps = contains(s, kind)
        out.append(_guard_stmt(s, flag, kind))
        if jumps and i + 1 < len(stmts):
            rest = guard_block(stmts[i + 1:], flag, kind)
            out.append(templates.mark(ast.If(test=not_flag(flag), body=rest, orelse=[]),
                                      templates.origin(stmts[i + 1])))
            return out
    return out


def _guard_stmt(s, flag, kind):
    if isinstance(s, LOOPS + FUNCS):
        return s
    for field in ("body", "orelse", "finalbody"):
        block = getattr(s, field, None)
        if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
            setattr(s, field, guard_block(block, flag, kind) or [ast.Pass()])
    if isinstance(s, ast.Try):
        for h in s.handlers:
            h.body = guard_block(h.body, flag, kind) or [ast.Pass()]
    return s
