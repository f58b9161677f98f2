"""The fast path: a graph lowered once into straight-line Python over numpy kernels (layer 3).

Each scheduled operation becomes one line ``v3 = k3(v1, c2)`` calling its
kernel directly: no per-op wrapper objects, no dictionary lookups, constants
and kernels bound as globals of the generated function.

Data never becomes code.  The compiled text (``CompiledGraph.code``, also what
``linecache`` holds) contains only names this module makes (``a0``, ``c2``,
``k3``, ``v3``), numbers it writes itself with ``repr`` and the kernels' own
parameter names: node names, attribute keys, strings and arrays reach the
function only as values in its globals, looked up by those made-up names.
``CompiledGraph.source`` is the same text with each line's node name and op type
beside it, escaped, for reading; it is never compiled.  Each line maps back to
its operation, so a failing kernel is reported as TensorFlow reports it.
"""

from __future__ import annotations

import inspect
import itertools
import keyword
import linecache
import math
import operator
import re
import sys
import weakref

import numpy as np

from .. import _gc
from ..ops import control_flow_ops, list_ops
from ..ops._core import ignoring_float_errors
from ..ops.control_flow_ops import GraphFunction
from .errors import graph_execution_error, kernel_message
from .list_ownership import EMPTY, IF, WHILE, WRITE, plan_graph
from .schedule import schedule
from .shared_parts import compile_module

_ALIAS_OPS = frozenset({"Identity", "StopGradient"})


class _Numeric(dict):
    """DType -> whether an operator may compute on it (bool, int, float)."""

    def __missing__(self, dtype):
        self[dtype] = numeric = getattr(dtype.np_dtype, "kind", "O") in "biuf"
        return numeric


_NUMERIC = _Numeric()
_dtype_of = operator.attrgetter("_dtype")
_NONES = itertools.repeat(None)
_BY_FILENAME: weakref.WeakValueDictionary = weakref.WeakValueDictionary()
_uid = itertools.count(1)
CHUNK = 2000  # ops per generated function in very large graphs
MAX_NESTING = 8  # cond/loop bodies inlined this deep; deeper ones are called (CPython
#                  allows 20 statically nested blocks)
_PARAMS: dict = {}  # kernel -> {parameter name: the same name, from its signature}
_PLAIN_NAME = re.compile(r"[A-Za-z0-9.][A-Za-z0-9_.\\/>-]{0,79}")


def _literal(v) -> str | None:
    """Python text for ``v`` when it is a plain number, bool or None (else None)."""
    t = type(v)
    if t is bool or v is None:
        return repr(v)
    if t is int and -2 ** 63 <= v < 2 ** 64:
        return repr(v)
    if t is float and math.isfinite(v) and float(repr(v)) == v:
        return repr(v)
    if t is tuple and len(v) <= 16 and all(type(x) is int and -2 ** 63 <= x < 2 ** 64
                                           for x in v):
        return repr(v)
    return None


def _keywords(kernel) -> dict:
    """The kernel's keyword-capable parameter names, each mapped to itself: the text a
    generated call may use for a keyword is taken from here, never from the graph."""
    found = _PARAMS.get(kernel)
    if found is None:
        try:
            params = inspect.signature(kernel).parameters.values()
        except (TypeError, ValueError):
            params = ()
        found = {p.name: p.name for p in params
                 if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) and p.name.isidentifier()
                 and not keyword.iskeyword(p.name)}
        try:
            _PARAMS[kernel] = found
        except TypeError:  # an unhashable callable
            pass
    return found


def _py_name(name) -> str:
    """A Python identifier made from ``name``: ASCII letters, digits and ``_`` only."""
    text = re.sub(r"[^A-Za-z0-9_]", "_", str(name))[:80] or "graph_fn"
    if not text.isidentifier() or keyword.iskeyword(text):
        text = "_" + text
    return text


def display_name(name) -> str:
    """``name`` as a comment may show it: plain TF names as they are, anything else as an
    escaped, shortened ``repr`` that stays on one line."""
    if isinstance(name, str) and _PLAIN_NAME.fullmatch(name):
        return name
    text = ascii(name)
    return text if len(text) <= 80 else text[:60] + "...'"


class CompiledGraph:
    """``graph`` from ``inputs`` (placeholders) to ``outputs``, as one Python function."""

    def __init__(self, graph, inputs, outputs, name: str = "graph_fn"):
        with _gc.paused():
            self._build(graph, inputs, outputs, name)

    def _build(self, graph, inputs, outputs, name):
        self.name = name
        self.py_name = _py_name(name)
        self.filename = f"<tfgraph_edu {self.py_name} #{next(_uid)}>"
        self._namespace: dict[str, object] = {}
        self._ids = itertools.count()  # one numbering for the ops of every inlined graph
        # id(constant tensor) -> its 0-d value, replaced by its numpy scalar's name once an
        # operator line reads it
        self._scalars: dict[int, object] = {}
        # the body being written: each line's text (indented) and the op it runs, and for
        # the top-level ops, what the layout needs to split it into parts
        self._texts: list[str] = []
        self._line_ops: list = []
        self._starts: list[int] = []  # per top-level op: the index of its first line
        self._reads: list[list[str]] = []  # per top-level op: the names it reads
        self._made: list[list[str]] = []  # per top-level op: the names it defines
        var: dict[int, str] = {}
        args = [f"a{i}" for i in range(len(inputs))]
        for t, a in zip(inputs, args):
            var[id(t)] = a
        ops = schedule(graph, outputs)
        plan = plan_graph(graph, inputs, outputs, frozenset(), 0, self._inlined, ops)
        self._emit(graph, var, outputs, 0, plan, ops, "    ")
        lines, parts = self._layout(args, [var[id(t)] for t in outputs])
        del var, self._scalars, self._texts, self._line_ops, self._starts, self._reads, \
            self._made
        code = "\n".join(lines) + "\n"
        self._lines = code.splitlines(True)  # the one copy, shared with linecache
        linecache.cache[self.filename] = (len(code), None, self._lines, self.filename)
        namespace = self._namespace
        weakref.finalize(self, linecache.cache.pop, self.filename, None)  # freed: forgotten
        if parts:  # see shared_parts.py: parts alike in all but names are compiled once
            compile_module(lines, parts, self.filename, namespace)
        else:
            exec(compile(code, self.filename, "exec"), namespace)  # noqa: S102 - see above
        # TF's float kernels give inf/nan silently: the whole run ignores numpy's float
        # errors once, instead of each kernel setting and resetting them
        self.fn = ignoring_float_errors(namespace[self.py_name])
        _BY_FILENAME[self.filename] = self

    def _emit(self, graph, var, outputs, depth, plan, ops, pad) -> None:
        """Write the lines computing ``outputs`` of ``graph``, indented by ``pad``, into the
        body (``var`` maps its fed tensors to names; ``plan`` says which list writes are
        done in place, see list_ownership.py; ``ops`` is the schedule, None to make it)."""
        namespace = self._namespace
        ids = self._ids
        scalars = self._scalars
        texts, line_ops = self._texts, self._line_ops
        top = depth == 0
        saved_outputs, self._outputs = getattr(self, "_outputs", None), outputs
        try:
            self._emit_ops(graph, var, outputs, depth, plan, ops, pad, namespace, ids, scalars,
                           texts, line_ops, top)
        finally:
            self._outputs = saved_outputs

    def _emit_ops(self, graph, var, outputs, depth, plan, ops, pad, namespace, ids, scalars,
                  texts, line_ops, top) -> None:
        starts, reads, made = self._starts, self._reads, self._made
        for op in schedule(graph, outputs) if ops is None else ops:
            k = next(ids)
            outs = op.outputs
            if outs and id(outs[0]) in var:
                continue
            opdef = op.opdef
            op_type = opdef.name
            if op_type == "Const":
                value = op.attrs["value"]
                namespace[f"c{k}"] = value
                var[id(outs[0])] = f"c{k}"
                if type(value) is np.ndarray and value.ndim == 0:
                    scalars[id(outs[0])] = value
                continue
            if op_type in _ALIAS_OPS:
                var[id(outs[0])] = var[id(op.inputs[0])]
                continue
            input_ids = list(map(id, op.inputs))
            input_names = list(map(var.__getitem__, input_ids))
            n = len(outs)
            defs = [f"v{k}"] if n == 1 else [f"v{k}_{i}" for i in range(n)]
            if top:
                starts.append(len(texts))
                reads.append(input_names)
                made.append(defs)
            if op_type == WRITE and id(op) in plan.in_place:
                namespace[f"k{k}"] = (list_ops.set_item_in_place
                                      if op.attrs.get("resize_if_index_out_of_bounds")
                                      else list_ops.set_item_in_place_fixed)
                texts.append(f"{pad}{defs[0]} = k{k}({', '.join(input_names)})")
                line_ops.append(op)
            elif op_type not in _INLINE or not _INLINE[op_type](self, op, input_names, defs,
                                                                  depth, plan, pad):
                symbol = opdef.operator
                call = (symbol is not None and not op.attrs
                        and self._operator(op, symbol, input_names, input_ids)) \
                    or self._call(op, k, input_names)
                texts.append(f"{pad}{call}" if n == 0 else f"{pad}{defs[0]} = {call}" if n == 1
                             else f"{pad}{', '.join(defs)}, = {call}")
                line_ops.append(op)
            for t, nm in zip(outs, defs):
                var[id(t)] = nm

    def _operator(self, op, symbol, input_names, input_ids) -> str | None:
        """``v1 + c2``: the op's Python operator ``symbol`` (its OpDef's), for numeric and
        bool inputs (a constant scalar input as a numpy scalar, so scalar work never touches
        an array)."""
        if callable(symbol):
            symbol = symbol(op)
        template = _OPERATORS.get(symbol)
        if template is None or not all(map(_NUMERIC.__getitem__, map(_dtype_of, op.inputs))):
            return None
        scalars = self._scalars
        found = list(map(scalars.get, input_ids))
        if not any(map(operator.is_not, found, _NONES)):  # no constant scalar input
            return template.format(*input_names)
        names = list(input_names)
        for j, nm in enumerate(found):
            if nm is not None:
                if type(nm) is not str:  # one name per constant, however many ops read it
                    value, nm = nm, f"c{next(self._ids)}"
                    scalars[input_ids[j]] = nm
                    self._namespace[nm] = value[()]
                names[j] = nm
        return template.format(*names)

    def _call(self, op, k, input_names) -> str:
        """``k3(v1, c2, attr=...)``: the op's kernel (pre-resolved when it can be) called."""
        namespace = self._namespace
        kname = f"k{k}"
        special = op.opdef.specialize(op) if op.opdef.specialize is not None else None
        if special is not None:  # a pre-resolved kernel: attrs and constant inputs baked in
            namespace[kname], used = special
            return f"{kname}({', '.join(input_names[i] for i in used)})"
        kernel = op.opdef.kernel
        kernel = getattr(kernel, "quiet_inner", kernel)  # float errors are off for the run
        namespace[kname] = kernel
        call_args = list(input_names)
        keywords = _keywords(kernel)
        extra = {}
        for j, (attr, value) in enumerate(op.attrs.items()):
            kw = keywords.get(attr) if type(attr) is str else None
            if kw is None:  # not one of the kernel's parameters: passed as data
                extra[attr] = value
                continue
            lit = _literal(value)
            if lit is None:
                lit = f"{kname}_a{j}"
                namespace[lit] = value
            call_args.append(f"{kw}={lit}")
        if extra:
            namespace[f"{kname}_kw"] = extra
            call_args.append(f"**{kname}_kw")
        return f"{kname}({', '.join(call_args)})"

    @staticmethod
    def _inlined(op, depth) -> bool:
        """Whether the If/While ``op`` at nesting ``depth`` is written in place: a well-formed
        one (a crafted graph's malformed op is left to its kernel, which reports it)."""
        if depth >= MAX_NESTING:
            return False
        n_out = len(op.outputs)
        if op.type in WHILE:
            fns = [op.attrs.get("cond"), op.attrs.get("body")]
            n_in, outs = n_out, [1, n_out]
            if not n_out or type(op.attrs.get("maximum_iterations", -1)) is not int:
                return False
        elif op.type in IF and op.inputs:
            fns = [op.attrs.get("then_branch"), op.attrs.get("else_branch")]
            n_in, outs = len(op.inputs) - 1, [n_out, n_out]
        else:
            return False
        return all(isinstance(fn, GraphFunction) and len(fn.inputs) == n_in
                   and len(fn.outputs) == n for fn, n in zip(fns, outs))

    def _nested(self, fn, feeds, depth, plan, pad) -> tuple[list, list, list[str]]:
        """The lines of graph function ``fn`` fed with the names ``feeds``, one level in
        (indented by ``pad``): their texts, their ops and the names of its outputs."""
        var = {id(t): nm for t, nm in zip(fn.inputs, feeds)}
        saved = self._texts, self._line_ops
        self._texts, self._line_ops = texts, line_ops = [], []
        try:
            self._emit(fn.graph, var, fn.outputs, depth + 1, plan, None, pad)
        finally:
            self._texts, self._line_ops = saved
        return texts, line_ops, [var[id(t)] for t in fn.outputs]

    def _line(self, text, op) -> None:
        self._texts.append(text)
        self._line_ops.append(op)

    def _inline_if(self, op, ins, defs, depth, plan, pad) -> bool:
        """``If``: a Python ``if``/``else`` with both branches' code written in place."""
        if not self._inlined(op, depth):
            return False
        plans = plan.nested.get(id(op), (EMPTY, EMPTY))
        inner = pad + "    "
        branches = [self._nested(op.attrs.get(b), ins[1:], depth, p, inner)
                    for b, p in zip(("then_branch", "else_branch"), plans)]
        for header, (texts, line_ops, outs) in zip((f"if {ins[0]}:", "else:"), branches):
            self._line(pad + header, op)
            self._texts += texts
            self._line_ops += line_ops
            if defs:
                self._line(f"{inner}{', '.join(defs)}, = {', '.join(outs)},", op)
            elif not texts:
                self._line(inner + "pass", op)
        return True

    def _inline_while(self, op, ins, defs, depth, plan, pad) -> bool:
        """``While``: a Python ``while`` over the loop variables (the op's output names),
        the condition's and the body's code written in place.  On entry, a list the body
        writes in place is copied when the loop may not take it over, and a numeric scalar
        held as a 0-d array becomes a numpy scalar (numpy's arithmetic is about ten times
        faster on scalars when no operand is an array; the values are the same)."""
        if not self._inlined(op, depth):
            return False
        limit = op.attrs.get("maximum_iterations", -1)
        plans = plan.nested.get(id(op), (EMPTY, EMPTY))
        inner = pad + "    "
        cond_fn, body_fn = op.attrs.get("cond"), op.attrs.get("body")
        test = _counted(op, self._outputs)
        if test is not None:  # TF's counter < maximum_iterations: counted in Python ints
            cond_fn = _Outputs(cond_fn, [test])
            dead = frozenset((0, 1))
            limit = f"v{next(self._ids)}"
        else:
            dead = _dead_loop_vars(op, self._outputs)
        cond = self._nested(cond_fn, defs, depth, plans[0], inner)
        if dead:  # not computed at all: a loop counter nothing reads (TF's loop_counter)
            body_fn = _Outputs(body_fn, [t for j, t in enumerate(body_fn.outputs)
                                         if j not in dead])
        body = self._nested(body_fn, defs, depth, plans[1], inner)
        live = [d for j, d in enumerate(defs) if j not in dead]
        loop_vars = f"{', '.join(defs)},"
        entry = list(ins)
        copies = plan.copies.get(id(op), ())
        for j, t in enumerate(op.outputs):
            if j in copies:
                convert = list_ops.copy_list
            elif t.shape.rank == 0 and getattr(t.dtype.np_dtype, "kind", "O") in "biuf":
                convert = _as_scalar
            else:
                continue
            kname = f"k{next(self._ids)}"
            self._namespace[kname] = convert
            entry[j] = f"{kname}({ins[j]})"
        line = self._line
        line(f"{pad}{loop_vars} = {', '.join(entry)},", op)
        if isinstance(limit, str):
            line(f"{pad}{limit} = int({defs[1]})", op)
        count = f"v{next(self._ids)}" if isinstance(limit, str) or limit >= 0 else None
        if count:
            line(f"{pad}{count} = 0", op)
        line(f"{pad}while True:", op)
        if count:
            line(f"{inner}if {count} >= {limit}:", op)
            line(f"{inner}    break", op)
        self._texts += cond[0]
        self._line_ops += cond[1]
        line(f"{inner}if not {cond[2][0]}:", op)
        line(f"{inner}    break", op)
        self._texts += body[0]
        self._line_ops += body[1]
        changed = [(d, o) for d, o in zip(live, body[2]) if d != o]  # not the passed-through
        if changed:
            line(f"{inner}{', '.join(d for d, _ in changed)}, = "
                 f"{', '.join(o for _, o in changed)},", op)
        if count:
            line(f"{inner}{count} += 1", op)
        return True

    @property
    def code(self) -> str:
        """The text that was compiled: only names this module made."""
        return "".join(self._lines)

    @property
    def source(self) -> str:
        """The compiled code with each line's node name and op type beside it (escaped, for
        reading; never compiled)."""
        lines = self.code.splitlines()
        for i, op in enumerate(self.line_ops):
            if op is not None:
                lines[i - 1] += f"  # {display_name(op.name)} ({display_name(op.type)})"
        return "\n".join(lines) + "\n"

    def _layout(self, args, outs) -> tuple[list[str], list]:
        """The source lines: one function, or - for very large graphs, which CPython compiles
        in more than linear time - a chain of part functions passing live values along, and
        the parts (function name, index of its first line, index after its last).  Sets
        ``line_ops`` (line number -> the op it runs, None for no op)."""
        texts, body_ops, starts = self._texts, self._line_ops, self._starts
        header = f"def {self.py_name}({', '.join(args)}):"
        ret = f"    return [{', '.join(outs)}]"
        if len(starts) <= CHUNK:
            self.line_ops = [None, None, *body_ops, None]
            return [header, *texts, ret], []
        reads, made = self._reads, self._made
        bounds = list(range(0, len(starts), CHUNK))
        ends = bounds[1:] + [len(starts)]
        chain = itertools.chain.from_iterable
        # the names a part reads that an earlier part (or the caller) defines: in SSA code,
        # every name it reads but does not define, except the constants (globals)
        part_ins = [sorted(u for u in set(chain(reads[lo:hi])).difference(chain(made[lo:hi]))
                           if u[0] != "c") for lo, hi in zip(bounds, ends)]
        later = set(outs).union(*part_ins)  # the names read after the part defining them
        lines: list[str] = []
        line_ops: list = [None]
        calls: list[str] = []
        parts = []
        for j, (lo, hi) in enumerate(zip(bounds, ends)):
            ins = ", ".join(part_ins[j])
            keep = list(filter(later.__contains__, chain(made[lo:hi])))
            names = f"({', '.join(keep)}{',' if keep else ''})"
            a, b = starts[lo], (starts[hi] if hi < len(starts) else len(texts))
            part = f"{self.py_name}_part{j}"
            first = len(lines)
            lines.append(f"def {part}({ins}):")
            lines += texts[a:b]
            lines.append(f"    return {names}")
            parts.append((part, first, len(lines)))
            line_ops.append(None)
            line_ops += body_ops[a:b]
            line_ops.append(None)
            calls.append(f"    {names} = {part}({ins})")
        self.line_ops = line_ops
        return [*lines, header, *calls, ret], parts

    def _op_at(self, lineno: int):
        return self.line_ops[lineno] if 0 <= lineno < len(self.line_ops) else None

    def _names_read(self, lineno: int) -> list[str]:
        """The compiler's names a line reads (right of its ``=``), to report their values."""
        line = self._lines[lineno - 1]
        m = _ASSIGNED.match(line)
        return _MADE_NAME.findall(line[m.end():] if m else line)

    def __call__(self, *feeds) -> list:
        try:
            return self.fn(*feeds)
        except Exception as exc:  # noqa: BLE001 - reported as TF's graph error
            raise self._error(exc) from None

    def _error(self, exc):
        """TF's error for ``exc``, naming the innermost graph node that failed (a node of a
        cond branch or loop body when the failure happened inside one)."""
        tb = sys.exc_info()[2]
        found = None
        while tb is not None:
            graph = _BY_FILENAME.get(tb.tb_frame.f_code.co_filename)
            op = graph._op_at(tb.tb_lineno) if graph is not None else None
            if op is not None:
                found = (graph, tb.tb_frame, op, tb.tb_lineno)
            tb = tb.tb_next
        if found is None:
            return exc
        graph, frame, op, lineno = found
        scope = {**graph._namespace, **frame.f_locals}
        values = [scope.get(name) for name in graph._names_read(lineno)]
        cls, message = kernel_message(op, values, exc)
        return graph_execution_error(op, cls, message, self.name)


class _Outputs:
    """A graph function seen with fewer outputs (the compiler's view of a While body whose
    dead loop variables it leaves out)."""

    def __init__(self, fn, outputs):
        self.graph, self.inputs, self.outputs = fn.graph, fn.inputs, outputs


def _only_reader(t, graph, reader) -> bool:
    return all(o is reader for o in graph.operations if any(x is t for x in o.inputs))


def _counted(op, outputs):
    """The learner's condition of While ``op`` when its loop counter and maximum iterations
    are TF's and used for nothing else: cond ``Identity(LogicalAnd(Less(counter, limit),
    test))``, body ``Identity(AddV2(counter, 1))`` and ``Identity(limit)``, the op's first
    two outputs unread.  The compiler then counts with a Python int and tests ``test``;
    else None."""
    cond, body = op.attrs.get("cond"), op.attrs.get("body")
    if len(op.outputs) < 2 or len(cond.outputs) != 1:
        return None
    read = {id(t) for o in op.graph.operations for t in o.inputs} | {
        id(t) for t in outputs or ()}
    if id(op.outputs[0]) in read or id(op.outputs[1]) in read:
        return None
    ident = cond.outputs[0].op
    both = ident.inputs[0].op if ident.type == "Identity" else None
    if both is None or both.type != "LogicalAnd":
        return None
    less, test = both.inputs[0].op, both.inputs[1]
    if less.type != "Less" or [t.op for t in less.inputs] != [t.op for t in cond.inputs[:2]]:
        return None
    if not (_only_reader(cond.inputs[0], cond.graph, less)
            and _only_reader(cond.inputs[1], cond.graph, less)
            and _only_reader(less.outputs[0], cond.graph, both)
            and _only_reader(both.outputs[0], cond.graph, ident)):
        return None
    step, keep = body.outputs[0].op, body.outputs[1].op
    if step.type != "Identity" or keep.type != "Identity" or keep.inputs[0] is not body.inputs[1]:
        return None
    add = step.inputs[0].op
    if add.type != "AddV2" or add.inputs[0] is not body.inputs[0] or \
            add.inputs[1].op.type != "Const" or add.inputs[1].op.attrs["value"].size != 1 or \
            int(add.inputs[1].op.attrs["value"].reshape(())) != 1:
        return None
    if not (_only_reader(body.inputs[0], body.graph, add)
            and _only_reader(body.inputs[1], body.graph, keep)
            and _only_reader(add.outputs[0], body.graph, step)):
        return None
    if any(t.op in (step, keep) for t in body.outputs[2:]):
        return None
    return test


def _dead_loop_vars(op, outputs) -> frozenset:
    """Positions of While ``op``'s loop variables that nothing reads: not its output outside
    (no op reads it, it is not among ``outputs``), not the condition, and in the body only
    stateless ops that lead to that same variable's next value (TF's ``loop_counter`` when
    no ``maximum_iterations`` is given).  Their updates need not be computed."""
    cond, body = op.attrs.get("cond"), op.attrs.get("body")
    n = len(op.outputs)
    read_outside = {id(t) for o in op.graph.operations for t in o.inputs}
    read_outside |= {id(t) for t in outputs or ()}
    read_in_cond = {id(t) for o in cond.graph.operations for t in o.inputs}
    read_in_cond |= {id(t) for t in cond.outputs}
    candidates = [j for j in range(n) if id(op.outputs[j]) not in read_outside
                  and id(cond.inputs[j]) not in read_in_cond
                  and body.outputs[j] is not body.inputs[j]]
    if not candidates:
        return frozenset()
    consumers: dict[int, list] = {}
    for o in body.graph.operations:
        for t in o.inputs:
            consumers.setdefault(id(t.op), []).append(o)
    out_pos: dict[int, set] = {}
    for k, t in enumerate(body.outputs):
        out_pos.setdefault(id(t.op), set()).add(k)
    dead = set()
    for j in candidates:
        seen, stack, ok = set(), [body.inputs[j].op], True
        while stack and ok:
            o = stack.pop()
            if id(o) in seen:
                continue
            seen.add(id(o))
            if o.opdef.stateful or o.control_inputs or out_pos.get(id(o), {j}) != {j}:
                ok = False
            stack.extend(consumers.get(id(o), ()))
        if ok and id(body.outputs[j].op) in seen and not any(
                id(c) in seen for o in body.graph.operations if id(o) not in seen
                for c in o.control_inputs):
            dead.add(j)
    return frozenset(dead)


def _as_scalar(x):
    """A 0-d array as its numpy scalar; anything else as it is."""
    return x[()] if type(x) is np.ndarray and x.ndim == 0 else x


_ASSIGNED = re.compile(r"\s*(?:[av]\d+(?:_\d+)?,?\s*)+= ")
_MADE_NAME = re.compile(r"\b[acv]\d+(?:_\d+)?\b")

# the operators a compiled line may use, by OpDef.operator (text made here, never from data)
_OPERATORS = {"+": "{} + {}", "-": "{} - {}", "*": "{} * {}", "/": "{} / {}",
              "//": "{} // {}", "%": "{} % {}", "<": "{} < {}", "<=": "{} <= {}",
              ">": "{} > {}", ">=": "{} >= {}", "==": "{} == {}", "!=": "{} != {}",
              "&": "{} & {}", "|": "{} | {}", "~": "~{}", "neg": "-{}"}
_INLINE = {"If": CompiledGraph._inline_if, "StatelessIf": CompiledGraph._inline_if,
           "While": CompiledGraph._inline_while, "StatelessWhile": CompiledGraph._inline_while}


def compile_graph(graph, inputs, outputs, name: str = "graph_fn") -> CompiledGraph:
    return CompiledGraph(graph, inputs, outputs, name)


def _compile_nested(graph, inputs, outputs, name):
    """Branches and loop bodies: errors surface at the top-level graph, which names the
    innermost failing node."""
    return CompiledGraph(graph, inputs, outputs, name)


control_flow_ops.set_graph_compiler(_compile_nested)
