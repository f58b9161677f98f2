"""The walk that finds every ``if``/``while``/``for`` and its state variables (layer 5).

For each statement it knows which names are read afterwards (the rest of the
block, the enclosing blocks, and - inside a loop - the whole loop again); the
construct's own module (if_statements, while_statements, for_statements) then
builds the closures and the ``ag__`` call.
"""

from __future__ import annotations

import ast
from collections import Counter

from .. import analysis, templates
from . import for_statements, if_statements, while_statements

ALWAYS_LIVE = {"do_return", "retval_"}


def user_counts(nodes) -> Counter:
    """How often each name occurs in the user's own code among ``nodes``."""
    c: Counter = Counter()
    for root in nodes:
        for n in ast.walk(root):
            if isinstance(n, ast.Name) and getattr(n, "_ag_user", False):
                c[n.id] += 1
    return c


def generated_defs(stmts):
    """The generated closures in a block, in order, also inside with/try/if statements (but
    not inside other functions)."""
    for s in stmts:
        if isinstance(s, ast.FunctionDef) and getattr(s, "_ag_generated", False):
            yield s
        elif isinstance(s, (ast.With, ast.Try, ast.If, ast.For, ast.While)):
            for field in ("body", "orelse", "finalbody"):
                yield from generated_defs(getattr(s, field, []) or [])
            for h in getattr(s, "handlers", []):
                yield from generated_defs(h.body)


def needs_binding(stmts, names) -> list[str]:
    """Of ``names`` (shared with nested closures), those not assigned by a plain statement of
    this block before the first closure that uses them: they start as ``ag__.Undefined``."""
    bound: set[str] = set()
    out: list[str] = []
    pending = set(names)
    for s in stmts:
        if isinstance(s, ast.FunctionDef) and getattr(s, "_ag_generated", False):
            defs = [s]
        elif isinstance(s, (ast.FunctionDef, ast.ClassDef)):
            continue
        else:
            defs = list(generated_defs([s]))
        for d in defs:
            for n in sorted(getattr(d, "_ag_nonlocal", set()) & pending):
                # set to Undefined just before its statement's ag__ call runs the closure
                if n not in bound and n not in getattr(d, "_ag_inited", ()):
                    out.append(n)
                pending.discard(n)
        if not (isinstance(s, ast.FunctionDef)):
            bound |= analysis.assigned([s])
    return out


def undefined_inits(names) -> list:
    return ast.parse("".join(f"{n} = ag__.Undefined({n!r})\n" for n in names)).body


_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def bound_here(nodes) -> set[str]:
    """Names these statements bind in this scope (a comprehension's variables are its own)."""
    inner: set[str] = set()
    for root in nodes:
        for n in ast.walk(root):
            if isinstance(n, _COMPREHENSIONS):
                for g in n.generators:
                    analysis._targets(g.target, inner)
    return analysis.assigned(nodes) - inner


def with_undefined(out: list, names, ctx) -> list:
    """TF's shape: the names a statement binds that have no value on any path before it start
    as ``ag__.Undefined``, set just before the statement's ``ag__`` call (the last of ``out``).
    A name with no value on any path loses nothing by it; one declared ``global`` or
    ``nonlocal`` by the user is left alone."""
    names = sorted(set(names) - ctx.user_declared)
    if not names:
        return out
    for d in out:
        if isinstance(d, ast.FunctionDef):
            d._ag_inited = set(names)
    inits = [templates.mark(i, templates.origin(out[-1])) for i in undefined_inits(names)]
    return out[:-1] + inits + out[-1:]


def declarations(ctx, names, pad: str) -> str:
    """``nonlocal`` for the names closures share, ``global`` for those the user declared
    global (a closure assigning such a name assigns the module's)."""
    names = list(names)
    globals_ = [n for n in names if n in ctx.user_globals]
    others = [n for n in names if n not in ctx.user_globals]
    out = f"{pad}global {', '.join(globals_)}\n" if globals_ else ""
    return out + (f"{pad}nonlocal {', '.join(others)}\n" if others else "")


def state_closures(ctx, symbols, origin, composites=()):
    """``get_state``/``set_state`` functions over ``symbols``; returns (names, defs).
    Composite symbols (``x['b']``, ``obj.v``) are read with ``ag__.ldu`` (they may not exist
    yet) and written back by assignment; only plain names are declared nonlocal."""
    get_name, set_name = ctx.namer.new("get_state"), ctx.namer.new("set_state")
    plain = [n for n in symbols if n not in composites]
    reads = [f"ag__.ldu(lambda: {n}, {n!r})" if n in composites else n for n in symbols]
    if symbols:
        getter = ", ".join(reads) + ("," if len(symbols) == 1 else "")
        targets = ", ".join(symbols) + ("," if len(symbols) == 1 else "")
        declare = declarations(ctx, sorted(plain), "    ")
        src = (f"def {get_name}():\n    return ({getter})\n"
               f"def {set_name}(vars_):\n{declare}    {targets} = vars_\n")
    else:
        src = (f"def {get_name}():\n    return ()\n"
               f"def {set_name}(block_vars):\n    pass\n")
    defs = [templates.mark(d, origin) for d in ast.parse(src).body]
    for d in defs:
        d._ag_generated = True
        d._ag_nonlocal = set()
    defs[1]._ag_nonlocal = set(plain)
    return get_name, set_name, defs


def closure(name: str, args: list[str], body: list, ctx, origin,
            declare=()) -> ast.FunctionDef:
    """``def name(args): nonlocal ...; body``: a name is nonlocal when the closure (or one
    nested in it) assigns it and the user's code also uses it outside this closure, or when
    it is in ``declare`` (the branches of an ``if`` both declare the statement's state)."""
    body = list(body) or [ast.Pass()]
    counts = user_counts(body)
    direct = analysis.assigned(body) & ctx.local_names
    nested: set[str] = set()
    for d in generated_defs(body):
        nested |= d._ag_nonlocal
    candidates = (direct | nested) - set(args)
    # parameters are bound outside every closure (their binding is no Name node)
    shared = {n for n in candidates
              if counts[n] < ctx.total[n] or n in ALWAYS_LIVE or n in ctx.params}
    shared |= set(declare) - set(args)
    owned = (nested - shared) - set(args)
    body = undefined_inits(needs_binding(body, owned)) + body
    fn = ast.parse(f"def {name}({', '.join(args)}):\n    pass").body[0]
    fn.body = ast.parse(declarations(ctx, sorted(shared), "")).body + body
    fn._ag_generated = True
    fn._ag_nonlocal = shared
    return templates.mark(fn, origin)


def convert_block(stmts, live_after: set, ctx, defined: frozenset = frozenset()) -> list:
    """Convert a block; ``defined`` holds the names that may have a value on entry."""
    # names live after each statement: read by what follows before being written again,
    # computed once from the end of the block
    later: list[set] = [set()] * (len(stmts) + 1)
    acc = set(live_after) | ALWAYS_LIVE
    later[len(stmts)] = set(acc)
    for i in range(len(stmts) - 1, -1, -1):
        if i + 1 < len(stmts):
            nxt = stmts[i + 1]
            acc = (acc - analysis.killed(nxt)) | analysis.read_before_write([nxt])
            acc |= ALWAYS_LIVE
        later[i] = acc
    out: list = []
    for i, s in enumerate(stmts):
        bound = bound_here([s])
        out.extend(convert_stmt(s, later[i], ctx, defined))
        defined = defined | bound
    return out


def convert_stmt(s, live_out: set, ctx, defined: frozenset = frozenset()) -> list:
    if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [s]
    if isinstance(s, (ast.While, ast.For)):
        s._ag_options = loop_options(s)
    if isinstance(s, (ast.If, ast.While, ast.For)):  # read the user's code before it moves
        s._ag_modified = analysis.assigned(s.body + s.orelse) & ctx.local_names
        s._ag_live_in = analysis.read_before_write(s.body)
        s._ag_composites = analysis.composites_assigned(s.body + s.orelse)
    if isinstance(s, (ast.If, ast.While, ast.For)):
        # what it binds with no value before it (loop bodies: also from the last iteration)
        binds = bound_here([s]) & (ctx.local_names | bound_here([s.target] if isinstance(
            s, ast.For) else []))
        undefined = binds - defined - set(ctx.params)
        if isinstance(s, (ast.While, ast.For)):
            defined = defined | binds
    if isinstance(s, ast.If):
        s.body = convert_block(s.body, live_out, ctx, defined)
        s.orelse = convert_block(s.orelse, live_out, ctx, defined)
        return with_undefined(if_statements.build(s, live_out, ctx), undefined, ctx)
    if isinstance(s, ast.While):
        # the next iteration reads what the loop reads before writing it
        again = live_out | analysis.read_before_write([s])
        s.body = convert_block(s.body, again, ctx, defined)
        s._ag_composites = loop_composites(s._ag_composites, again)
        return _before_else(while_statements.build(s, live_out, again, ctx), s, undefined,
                            ctx)
    if isinstance(s, ast.For):
        again = live_out | analysis.read_before_write([s])
        if getattr(s, "_ag_extra_test", None):
            again.add(s._ag_extra_test)
        s.body = convert_block(s.body, again, ctx, defined)
        s._ag_composites = loop_composites(s._ag_composites, again)
        return _before_else(for_statements.build(s, live_out, again, ctx), s, undefined, ctx)
    if isinstance(s, (ast.With, ast.Try)):
        # what the handlers, else and finally blocks read is live at the end of the body
        after_body = set(live_out)
        if isinstance(s, ast.Try):
            after_body |= (analysis.read_before_write(s.orelse)
                           | analysis.read_before_write(s.finalbody)
                           | analysis.loaded(s.handlers))
        in_body = bound_here(s.body)
        s.body = convert_block(s.body, after_body, ctx, defined)
        for h in getattr(s, "handlers", []):
            h.body = convert_block(h.body, live_out, ctx, defined | in_body)
        in_handlers = bound_here(getattr(s, "handlers", []))
        for field in ("orelse", "finalbody"):
            if getattr(s, field, None):
                setattr(s, field, convert_block(getattr(s, field), live_out, ctx,
                                                defined | in_body | in_handlers))
        return [s]
    return [s]


def _before_else(out: list, node, undefined, ctx) -> list:
    """Undefined inits go before the loop's ag__ call, which precedes the ``else`` block."""
    n_else = len(node.orelse)
    head = out[:len(out) - n_else] if n_else else out
    return with_undefined(head, undefined, ctx) + (out[len(out) - n_else:] if n_else else [])


def loop_options(node) -> list:
    """Take ``tf.autograph.experimental.set_loop_options(...)`` out of a loop body (as TF
    does: a directive, not a call) and return its keywords as (key, value-expression) pairs."""
    out: list = []
    body = []
    for stmt in node.body:
        call = stmt.value if isinstance(stmt, ast.Expr) else None
        if isinstance(call, ast.Call) and _is_converted_call(call) and _names_loop_options(
                call.args[0]):
            kwargs = call.args[2]
            if isinstance(kwargs, ast.Dict):
                out += [(k.value, v) for k, v in zip(kwargs.keys, kwargs.values)
                        if isinstance(k, ast.Constant)]
            continue
        body.append(stmt)
    node.body = body or [ast.Pass()]
    return out


def _is_converted_call(call) -> bool:
    f = call.func
    return (isinstance(f, ast.Attribute) and f.attr == "converted_call"
            and isinstance(f.value, ast.Name) and f.value.id == "ag__" and len(call.args) >= 3)


def _names_loop_options(f) -> bool:
    return (isinstance(f, ast.Attribute) and f.attr == "set_loop_options") or (
        isinstance(f, ast.Name) and f.id == "set_loop_options")


def options_dict(pairs, extra=()) -> ast.Dict:
    pairs = list(extra) + list(pairs)
    return ast.Dict(keys=[ast.Constant(k) for k, _ in pairs], values=[v for _, v in pairs])


def loop_composites(composites: dict, live_in: set) -> dict:
    """The composite names that are loop state: those whose every root is live into the loop
    (``x.y`` of an ``x`` the loop creates afresh is not)."""
    return {k: roots for k, roots in composites.items() if roots <= live_in}


def _own_nodes(fn):
    """The nodes of ``fn``'s own scope (not those of functions or classes nested in it)."""
    todo = list(fn.body)
    while todo:
        n = todo.pop()
        yield n
        if not isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            todo.extend(ast.iter_child_nodes(n))


def transform(fn: ast.FunctionDef, ctx) -> ast.FunctionDef:
    for n in ast.walk(fn):
        if isinstance(n, ast.Name):
            n._ag_user = True
    ctx.total = user_counts(fn.body)
    ctx.user_declared = {name for n in ast.walk(fn) if isinstance(n, (ast.Global, ast.Nonlocal))
                         for name in n.names}
    ctx.user_globals = {name for n in _own_nodes(fn) if isinstance(n, ast.Global)
                        for name in n.names}
    fn.body = convert_block(fn.body, set(), ctx,
                            frozenset(ctx.params) | {"do_return", "retval_"})
    return fn
