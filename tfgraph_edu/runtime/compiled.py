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
import re
import sys
import weakref

from .. import _gc
from ..ops import control_flow_ops
from .errors import graph_execution_error, kernel_message
from .schedule import schedule

_ALIAS_OPS = frozenset({"Identity", "StopGradient"})
_BY_FILENAME: weakref.WeakValueDictionary = weakref.WeakValueDictionary()
_uid = itertools.count(1)
CHUNK = 2000  # ops per generated function in very large graphs
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


def _plan(graph, inputs, outputs):
    """The names of the values: ``(var, consts, lines)`` with ``var`` mapping id(tensor) to
    its name (``a0`` fed, ``c3`` constant, ``v5`` / ``v5_1`` computed, an Identity's
    input's name), ``consts`` the (name, Const op) pairs and ``lines`` the (k, op) pairs
    that get a line.  Compilation and error reporting both use it."""
    var: dict[int, str] = {}
    for i, t in enumerate(inputs):
        var[id(t)] = f"a{i}"
    consts, lines = [], []
    for k, op in enumerate(schedule(graph, outputs)):
        outs = op.outputs
        if outs and id(outs[0]) in var:
            continue
        if op.type == "Const":
            var[id(outs[0])] = name = sys.intern(f"c{k}")
            consts.append((name, op))
        elif op.type in _ALIAS_OPS:
            var[id(outs[0])] = var[id(op.inputs[0])]
        else:
            if len(outs) == 1:
                var[id(outs[0])] = f"v{k}"
            else:
                for i, t in enumerate(outs):
                    var[id(t)] = f"v{k}_{i}"
            lines.append((k, op))
    return var, consts, lines


class CompiledGraph:
    """``graph`` from ``inputs`` (placeholders) to ``outputs``, as one Python function."""

    def __init__(self, graph, inputs, outputs, name: str = "graph_fn"):
        with _gc.paused():
            self._build(graph, inputs, outputs, name)

    def _build(self, graph, inputs, outputs, name):
        self.name = name
        self.py_name = _py_name(name)
        self.filename = f"<tfgraph_edu {self.py_name} #{next(_uid)}>"
        self._graph, self._inputs, self._outputs = graph, list(inputs), list(outputs)
        self.line_ops: list = [None]  # line number -> its operation (None: no operation)
        namespace: dict[str, object] = {}
        var, consts, lines = _plan(graph, inputs, outputs)
        args = [f"a{i}" for i in range(len(inputs))]
        for cname, op in consts:
            namespace[cname] = op.attrs["value"]
        entries: list[tuple] = []  # (line, op, input names, defined names)
        for k, op in lines:
            kname = sys.intern(f"k{k}")
            input_names = [var[id(t)] for t in op.inputs]
            special = op.opdef.specialize(op) if op.opdef.specialize is not None else None
            if special is not None:  # a pre-resolved kernel: attrs and constant inputs baked in
                namespace[kname], used = special
                call_args = [input_names[i] for i in used]
            else:
                kernel = op.opdef.kernel
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
                        lit = sys.intern(f"{kname}_a{j}")
                        namespace[lit] = value
                    call_args.append(f"{kw}={lit}")
                if extra:
                    namespace[sys.intern(f"{kname}_kw")] = extra
                    call_args.append(f"**{kname}_kw")
            call = f"{kname}({', '.join(call_args)})"
            defs = [var[id(t)] for t in op.outputs]
            if not defs:
                line = call
            elif len(defs) == 1:
                line = f"{defs[0]} = {call}"
            else:
                line = f"{', '.join(defs)}, = {call}"
            entries.append((line, op, input_names, defs))
        outs = [var[id(t)] for t in outputs]
        code = self._layout(entries, args, outs)
        del entries, var
        self._lines = code.splitlines(True)  # the one copy, shared with linecache
        linecache.cache[self.filename] = (len(code), None, self._lines, self.filename)
        weakref.finalize(self, linecache.cache.pop, self.filename, None)  # freed: forgotten
        exec(compile(code, self.filename, "exec"), namespace)  # noqa: S102 - see above
        self.fn = namespace[self.py_name]
        self._namespace = namespace
        _BY_FILENAME[self.filename] = self

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

    def _layout(self, entries, args, outs) -> str:
        """The source: one function, or - for very large graphs, which CPython compiles in
        more than linear time - a chain of part functions passing live values along."""
        lines = [f"def {self.py_name}({', '.join(args)}):"]
        if len(entries) <= CHUNK:
            self.line_ops.append(None)  # the def line
            for text, op, _, _ in entries:
                lines.append("    " + text)
                self.line_ops.append(op)
            lines.append(f"    return [{', '.join(outs)}]")
            return "\n".join(lines) + "\n"
        parts = [entries[i:i + CHUNK] for i in range(0, len(entries), CHUNK)]
        used_later: list[set] = [set() for _ in parts]
        acc = set(outs)
        for j in range(len(parts) - 1, -1, -1):
            used_later[j] = set(acc)
            for _, _, input_names, _ in parts[j]:
                acc.update(input_names)
        head: list[str] = []
        calls: list[str] = []
        defined: set[str] = set(args)
        for j, part in enumerate(parts):
            defs = [d for _, _, _, ds in part for d in ds]
            ins = sorted({u for _, _, input_names, _ in part for u in input_names
                          if u in defined})
            keep = [d for d in defs if d in used_later[j]]
            head.append(f"def {self.py_name}_part{j}({', '.join(ins)}):")
            self.line_ops.append(None)
            for text, op, _, _ in part:
                head.append("    " + text)
                self.line_ops.append(op)
            self.line_ops.append(None)
            head.append(f"    return ({', '.join(keep)}{',' if keep else ''})")
            calls.append(f"    ({', '.join(keep)}{',' if keep else ''}) = "
                         f"{self.py_name}_part{j}({', '.join(ins)})")
            defined.update(defs)
        lines = head + lines + calls + [f"    return [{', '.join(outs)}]"]
        return "\n".join(lines) + "\n"

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
            if graph is not None and tb.tb_lineno < len(graph.line_ops) and \
                    graph.line_ops[tb.tb_lineno] is not None:
                found = (graph, tb.tb_frame, graph.line_ops[tb.tb_lineno])
            tb = tb.tb_next
        if found is None:
            return exc
        graph, frame, op = found
        var = _plan(graph._graph, graph._inputs, graph._outputs)[0]  # rare: names again
        scope = {**graph._namespace, **frame.f_locals}
        values = [scope.get(var[id(t)]) for t in op.inputs]
        cls, message = kernel_message(op, values, exc)
        return graph_execution_error(op, cls, message, self.name)


def compile_graph(graph, inputs, outputs, name: str = "graph_fn") -> CompiledGraph:
    return CompiledGraph(graph, inputs, outputs, name)


def _compile_nested(graph, inputs, outputs, name):
    """Branches and loop bodies: errors surface at the top-level graph, which names the
    innermost failing node."""
    return CompiledGraph(graph, inputs, outputs, name)


control_flow_ops.set_graph_compiler(_compile_nested)
