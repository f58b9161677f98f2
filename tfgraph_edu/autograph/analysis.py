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
            elif getattr(n, "_ag_deletes", None):  # a converted `del x` reads x
                out.add(n._ag_deletes)
    return out


def read_before_write(stmts) -> set[str]:
    """Names a block may read before it assigns them (its live-in set, conservatively:
    only plain assignments at this level count as writes; branches and loop bodies are
    looked into, each on its own)."""
    written: set[str] = set()
    out: set[str] = set()
    for s in stmts:
        if isinstance(s, (ast.If, ast.While)):
            bound: set[str] = set()  # ``if (w := ...)``: the test binds w before either block
            _walrus_targets(s.test, bound)
            reads = loaded([s.test]) | ((read_before_write(s.body)
                                         | read_before_write(s.orelse)) - bound)
        elif isinstance(s, ast.For):
            targets: set[str] = set()
            _targets(s.target, targets)  # each iteration writes the target first
            reads = (loaded([s.iter]) | (read_before_write(s.body) - targets)
                     | read_before_write(s.orelse))
        elif isinstance(s, ast.With):
            bound: set[str] = set()  # ``as`` names are assigned before the body runs
            for item in s.items:
                if item.optional_vars is not None:
                    _targets(item.optional_vars, bound)
            reads = loaded([i.context_expr for i in s.items]) | (read_before_write(s.body) - bound)
        elif isinstance(s, ast.Try):  # each block on its own (a handler may start anywhere)
            reads = (read_before_write(s.body) | read_before_write(s.orelse)
                     | read_before_write(s.finalbody) | loaded(s.handlers))
        else:
            reads = loaded([s])
        out |= reads - written
        written |= killed(s)
        if isinstance(s, ast.AugAssign):
            _targets(s.target, written)
    return out


def killed(stmt) -> set[str]:
    """Names a statement certainly assigns where control goes on after it: plain assignments,
    ``with ... as`` names and what the ``with`` body assigns, and what both branches of an
    ``if`` assign (a branch that leaves by break/continue/return does not go on)."""
    out: set[str] = set()
    if isinstance(stmt, (ast.Assign, ast.AnnAssign)):
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        for t in targets:
            _targets(t, out)
    elif isinstance(stmt, ast.With):
        for item in stmt.items:
            if item.optional_vars is not None:
                _targets(item.optional_vars, out)
        out |= _killed_block(stmt.body) or set()
    elif isinstance(stmt, ast.If) and stmt.orelse:
        then, other = _killed_block(stmt.body), _killed_block(stmt.orelse)
        if then is None or other is None:  # one branch leaves: the other one's names count
            out = set(other or ()) if then is None else set(then)
        else:
            out = then & other
    for expr in _always_evaluated(stmt):
        _walrus_targets(expr, out)
    return out


def _always_evaluated(stmt) -> list:
    """The expressions of ``stmt`` that run whenever it does (an if's or while's test, an
    assignment's value, an expression statement)."""
    if isinstance(stmt, (ast.If, ast.While)):
        return [stmt.test]
    if isinstance(stmt, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Expr)):
        return [stmt.value] if stmt.value is not None else []
    return []


def _walrus_targets(node, out: set) -> None:
    """Names bound by ``:=`` where they certainly run: not in the later operands of
    ``and``/``or``, the arms of a conditional expression, lambdas or comprehensions."""
    if isinstance(node, ast.NamedExpr):
        _walrus_targets(node.value, out)
        out.add(node.target.id)
    elif isinstance(node, ast.BoolOp):
        _walrus_targets(node.values[0], out)
    elif isinstance(node, ast.IfExp):
        _walrus_targets(node.test, out)
    elif not isinstance(node, (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp,
                               ast.GeneratorExp)):
        for child in ast.iter_child_nodes(node):
            _walrus_targets(child, out)


_LEAVES = (ast.Break, ast.Continue, ast.Return, ast.Raise)


def _killed_block(stmts) -> set[str] | None:
    """What a block certainly assigns, or None when control never goes on past it."""
    out: set[str] = set()
    for s in stmts:
        if isinstance(s, _LEAVES):
            return None
        out |= killed(s)
    return out


def loop_with_else(fn: ast.AST):
    """``"for"`` or ``"while"`` for the first loop with an ``else`` block in ``fn``, else None."""
    for n in ast.walk(fn):
        if isinstance(n, (ast.For, ast.AsyncFor, ast.While)) and n.orelse:
            return "while" if isinstance(n, ast.While) else "for"
    return None


def has_yield(fn: ast.AST) -> bool:
    for n in ast.walk(fn):
        if isinstance(n, (ast.Yield, ast.YieldFrom)):
            return True
    return False


# -- composite names: ``x.y``, ``d['k']``, ``a[i]`` -------------------------------------------
def composite_key(node):
    """``(text, roots)`` for a composite name AutoGraph tracks as state (attributes, and
    subscripts by a constant or a plain name, on a plain name), else None."""
    if isinstance(node, ast.Call) and _is_ld(node):
        return composite_key(node.args[0])
    if isinstance(node, ast.Name):
        return node.id, {node.id}
    if isinstance(node, ast.Attribute):
        base = composite_key(node.value)
        return None if base is None else (f"{base[0]}.{node.attr}", base[1])
    if isinstance(node, ast.Subscript):
        base = composite_key(node.value)
        if base is None:
            return None
        index = node.slice
        if isinstance(index, ast.Call) and _is_ld(index):
            index = index.args[0]
        if isinstance(index, ast.Constant) and isinstance(index.value, (int, str)):
            return f"{base[0]}[{index.value!r}]", base[1]
        if isinstance(index, ast.Name):
            return f"{base[0]}[{index.id}]", base[1] | {index.id}
    return None


def _is_ld(node) -> bool:
    f = node.func
    return (isinstance(f, ast.Attribute) and f.attr == "ld" and isinstance(f.value, ast.Name)
            and f.value.id == "ag__" and len(node.args) == 1)


def _composite_targets(node, out: dict) -> None:
    if isinstance(node, (ast.Tuple, ast.List)):
        for e in node.elts:
            _composite_targets(e, out)
    elif isinstance(node, ast.Starred):
        _composite_targets(node.value, out)
    elif isinstance(node, (ast.Attribute, ast.Subscript)):
        key = composite_key(node)
        if key is not None:
            out.setdefault(key[0], key[1])


def composites_assigned(nodes) -> dict[str, set[str]]:
    """Composite names these statements assign -> the plain names they are built from."""
    out: dict[str, set[str]] = {}
    todo = list(nodes)
    while todo:
        n = todo.pop()
        if isinstance(n, _SCOPES):
            continue
        if isinstance(n, ast.Assign):
            for t in n.targets:
                _composite_targets(t, out)
        elif isinstance(n, (ast.AugAssign, ast.AnnAssign)):
            _composite_targets(n.target, out)
        elif isinstance(n, (ast.For, ast.AsyncFor)):
            _composite_targets(n.target, out)
        todo.extend(ast.iter_child_nodes(n))
    return out


def nesting_depth(node) -> int:
    """How deeply ``if``/``while``/``for``/``with``/``try`` nest (an ``elif`` is nested in
    its ``else``), not counting nested functions."""
    best = 0
    todo = [(c, 0) for c in ast.iter_child_nodes(node)]
    while todo:
        n, d = todo.pop()
        if isinstance(n, _SCOPES):
            continue
        if isinstance(n, (ast.If, ast.While, ast.For, ast.With, ast.Try)):
            d += 1
            best = max(best, d)
        todo.extend((c, d) for c in ast.iter_child_nodes(n))
    return best
