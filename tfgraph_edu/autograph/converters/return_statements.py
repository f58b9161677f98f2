"""Returns become ``do_return = True; retval_ = value`` in a ``try`` (layer 5).

First, a conditional return followed by more code moves that code into the
other branch (``if c: return a`` + ``return b`` becomes an if/else), so both
branches of a tensor ``if`` set the return value.  A return inside a loop also
breaks out of it; code after a statement that may have returned runs only
``if not do_return``.  The function finally returns ``fscope.ret(retval_, do_return)``.
"""

from __future__ import annotations

import ast

from .. import templates
from . import _blocks


def _always_returns(block) -> bool:
    if not block:
        return False
    last = block[-1]
    if isinstance(last, (ast.Return, ast.Raise)):
        return True
    if isinstance(last, ast.If):
        return _always_returns(last.body) and _always_returns(last.orelse)
    return False


def _move_rest_into_branches(stmts) -> list:
    for i, s in enumerate(stmts):
        if isinstance(s, ast.If) and i + 1 < len(stmts):
            rest = stmts[i + 1:]
            if _always_returns(s.body):
                s.orelse = _move_rest_into_branches(list(s.orelse) + rest)
                return stmts[:i + 1]
            if s.orelse and _always_returns(s.orelse):
                s.body = _move_rest_into_branches(list(s.body) + rest)
                return stmts[:i + 1]
    return stmts


def _rewrite_block(stmts, in_loop: bool) -> list:
    stmts = _move_rest_into_branches(list(stmts))
    out: list = []
    for i, s in enumerate(stmts):
        returns = _blocks.contains(s, ast.Return, into_loops=True)
        leaves_inner_loop = in_loop and _returns_from_inner_loop(s)
        out.extend(_rewrite_stmt(s, in_loop))
        if isinstance(s, ast.Return):
            return out
        if leaves_inner_loop:  # the inner loop's break stops only it: stop this loop too
            line = templates.origin(s)
            out.append(templates.mark(ast.If(test=templates.name("do_return"),
                                             body=[ast.Break()], orelse=[]), line))
        if returns and i + 1 < len(stmts):
            rest = _rewrite_block(stmts[i + 1:], in_loop)
            guard = ast.If(test=_blocks.not_flag("do_return"), body=rest, orelse=[])
            out.append(templates.mark(guard, templates.origin(stmts[i + 1])))
            return out
    return out


def _returns_from_inner_loop(s) -> bool:
    """Whether ``s`` holds a loop (``s`` itself included) with a return inside it."""
    todo = [s]
    while todo:
        n = todo.pop()
        if isinstance(n, _blocks.LOOPS) and _blocks.contains(n, ast.Return, into_loops=True):
            return True
        if not isinstance(n, _blocks.FUNCS):
            todo.extend(ast.iter_child_nodes(n))
    return False


def _rewrite_stmt(s, in_loop: bool) -> list:
    if isinstance(s, ast.Return):
        line = templates.origin(s)
        value = s.value if s.value is not None else ast.Constant(None)
        # TF's shape: the flag is taken back if computing the value raises
        guarded = ast.parse("try:\n    pass\nexcept:\n    do_return = False\n    raise\n"
                            ).body[0]
        guarded.body = [_blocks.set_flag("do_return", True, line),
                        ast.Assign(targets=[templates.name("retval_", store=True)],
                                   value=value)]
        out = [templates.mark(guarded, line)]
        if in_loop:
            out.append(templates.mark(ast.Break(), line))
        return out
    if isinstance(s, _blocks.FUNCS):
        return [s]
    if isinstance(s, (ast.For, ast.While)):
        # as TF: a loop holding a return also tests `not do_return` before each iteration
        # (break_statements adds it), so a Python loop refuses a return that became a tensor
        s._ag_return_guard = _blocks.contains(s, ast.Return, into_loops=True)
        s.body = _rewrite_block(s.body, True) or [ast.Pass()]
        s.orelse = _rewrite_block(s.orelse, in_loop)
        return [s]
    if isinstance(s, ast.If):
        s.body = _rewrite_block(s.body, in_loop) or [ast.Pass()]
        s.orelse = _rewrite_block(s.orelse, in_loop)
        return [s]
    if isinstance(s, (ast.With, ast.Try)):
        s.body = _rewrite_block(s.body, in_loop) or [ast.Pass()]
        for field in ("orelse", "finalbody"):
            if getattr(s, field, None):
                setattr(s, field, _rewrite_block(getattr(s, field), in_loop))
        for h in getattr(s, "handlers", []):
            h.body = _rewrite_block(h.body, in_loop) or [ast.Pass()]
        return [s]
    return [s]


def transform(fn: ast.FunctionDef, ctx) -> ast.FunctionDef:
    fn.body = _rewrite_block(fn.body, False)
    return fn
