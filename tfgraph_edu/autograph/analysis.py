"""Which names a piece of code reads and writes (layer 5).

AutoGraph needs, for every ``if``/``while``/``for``, the variables that carry
state through it: those the statement modifies and that are read afterwards
(or, for loops, read again by the next iteration).  These helpers answer that
from the AST alone, conservatively.
"""

from __future__ import annotations

import ast

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def _targets(node, out: set) -> None:
    if isinstance(node, ast.Name):
        out.add(node.id)
    elif isinstance(node, (ast.Tuple, ast.List)):
        for e in node.elts:
            _targets(e, out)
    elif isinstance(node, ast.Starred):
        _targets(node.value, out)


def assigned(nodes) -> set[str]:
    """Names bound by these statements (not inside nested functions, whose names count)."""
    out: set[str] = set()
    todo = list(nodes)
    while todo:
        n = todo.pop()
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(n.name)
            continue
        if isinstance(n, ast.Lambda):
            continue
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
            out.add(n.id)
        elif isinstance(n, ast.AugAssign):
            _targets(n.target, out)
        elif isinstance(n, (ast.Import, ast.ImportFrom)):
            for a in n.names:
                out.add((a.asname or a.name).split(".")[0])
        elif isinstance(n, ast.ExceptHandler) and n.name:
            out.add(n.name)
        elif isinstance(n, (ast.Global, ast.Nonlocal)):
            continue
        todo.extend(ast.iter_child_nodes(n))
    return out


def loaded(nodes) -> set[str]:
    """Names read by these statements or expressions, including inside nested functions."""
    out: set[str] = set()
    for root in nodes:
        for n in ast.walk(root):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load):
                out.add(n.id)
            elif isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name):
                out.add(n.target.id)
    return out


def read_before_write(stmts) -> set[str]:
    """Names a block may read before it assigns them (its live-in set, approximately)."""
    written: set[str] = set()
    out: set[str] = set()
    for s in stmts:
        out |= loaded([s]) - written
        if isinstance(s, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = s.targets if isinstance(s, ast.Assign) else [s.target]
            for t in targets:
                _targets(t, written)
    return out


def has_yield(fn: ast.AST) -> bool:
    for n in ast.walk(fn):
        if isinstance(n, (ast.Yield, ast.YieldFrom)):
            return True
    return False
