"""The fast path: a graph lowered once into straight-line Python over numpy kernels (layer 3).

Each scheduled operation becomes one line ``v3 = k3(v1, c2)`` calling its
kernel directly: no per-op wrapper objects, no dictionary lookups, constants
and kernels bound as globals of the generated function.  The source is kept
(``CompiledGraph.source``) and registered in ``linecache`` so it can be shown
and appears in tracebacks; each line maps back to its operation, so a failing
kernel is reported as TensorFlow reports it, naming the node.
"""

from __future__ import annotations

import itertools
import linecache
import re
import sys
import weakref

from .. import _gc
from ..ops import control_flow_ops
from .errors import graph_execution_error, kernel_message
from .schedule import schedule

_ALIAS_OPS = frozenset({"Identity", "StopGradient"})
_BY_FILENAME: weakref.WeakValueDictionary = weakref.WeakValueDictionary()
_LITERALS = (bool, int, float, str, type(None))
_uid = itertools.count(1)
CHUNK = 2000  # ops per generated function in very large graphs


def _literal(v) -> str | None:
    if type(v) in _LITERALS:
        r = repr(v)
        if type(v) is not float or float(r) == v:
            return r
    if isinstance(v, tuple) and all(type(x) in (int, bool) for x in v):
        return repr(v)
    return None


class CompiledGraph:
    """``graph`` from ``inputs`` (placeholders) to ``outputs``, as one Python function."""

    def __init__(self, graph, inputs, outputs, name: str = "graph_fn"):
        with _gc.paused():
            self._build(graph, inputs, outputs, name)

    def _build(self, graph, inputs, outputs, name):
        self.name = name
        self.filename = f"<tfgraph_edu {name} #{next(_uid)}>"
        self.line_ops: dict[int, object] = {}
        self.line_inputs: dict[int, list[str]] = {}
        namespace: dict[str, object] = {}
        var: dict[int, str] = {}
        args = [f"a{i}" for i in range(len(inputs))]
        for t, a in zip(inputs, args):
            var[id(t)] = a
        entries: list[tuple] = []  # (line, op, input names, defined names)
        for k, op in enumerate(schedule(graph, outputs)):
            if op.outputs and id(op.outputs[0]) in var:
                continue
            if op.type == "Const":
                namespace[f"c{k}"] = op.attrs["value"]
                var[id(op.outputs[0])] = f"c{k}"
                continue
            if op.type in _ALIAS_OPS:
                var[id(op.outputs[0])] = var[id(op.inputs[0])]
                continue
            kname = f"k{k}"
            input_names = [var[id(t)] for t in op.inputs]
            special = op.opdef.specialize(op) if op.opdef.specialize is not None else None
            if special is not None:  # a pre-resolved kernel: attrs and constant inputs baked in
                namespace[kname], used = special
                call_args = [input_names[i] for i in used]
            else:
                namespace[kname] = op.opdef.kernel
                call_args = list(input_names)
                for attr, value in op.attrs.items():
                    lit = _literal(value)
                    if lit is None:
                        gname = f"{kname}_{attr}"
                        namespace[gname] = value
                        lit = gname
                    call_args.append(f"{attr}={lit}")
            call = f"{kname}({', '.join(call_args)})"
            n = len(op.outputs)
            if n == 0:
                defs = []
                line = call
            elif n == 1:
                var[id(op.outputs[0])] = f"v{k}"
                defs = [f"v{k}"]
                line = f"v{k} = {call}"
            else:
                defs = [f"v{k}_{i}" for i in range(n)]
                for t, nm in zip(op.outputs, defs):
                    var[id(t)] = nm
                line = f"{', '.join(defs)}, = {call}"
            entries.append((f"{line}  # {op.name} ({op.type})", op, input_names, defs))
        outs = [var[id(t)] for t in outputs]
        self.py_name = re.sub(r"\W", "_", name)
        self.source = self._layout(entries, args, outs)
        linecache.cache[self.filename] = (len(self.source), None,
                                          self.source.splitlines(True), self.filename)
        code = compile(self.source, self.filename, "exec")
        exec(code, namespace)  # noqa: S102 - our own generated code, no user data
        self.fn = namespace[self.py_name]
        self._namespace = namespace
        _BY_FILENAME[self.filename] = self

    def _layout(self, entries, args, outs) -> str:
        """The source: one function, or - for very large graphs, which CPython compiles in
        more than linear time - a chain of part functions passing live values along."""
        lines = [f"def {self.py_name}({', '.join(args)}):"]
        if len(entries) <= CHUNK:
            for text, op, input_names, _ in entries:
                lines.append("    " + text)
                self.line_ops[len(lines)] = op
                self.line_inputs[len(lines)] = input_names
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
            for text, op, input_names, _ in part:
                head.append("    " + text)
                self.line_ops[len(head)] = op
                self.line_inputs[len(head)] = input_names
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
            if graph is not None and tb.tb_lineno in graph.line_ops:
                found = (graph, tb.tb_frame, graph.line_ops[tb.tb_lineno], tb.tb_lineno)
            tb = tb.tb_next
        if found is None:
            return exc
        graph, frame, op, lineno = found
        scope = {**graph._namespace, **frame.f_locals}
        values = [scope.get(name) for name in graph.line_inputs[lineno]]
        cls, message = kernel_message(op, values, exc)
        return graph_execution_error(op, cls, message, self.name)


def compile_graph(graph, inputs, outputs, name: str = "graph_fn") -> CompiledGraph:
    return CompiledGraph(graph, inputs, outputs, name)


def _compile_nested(graph, inputs, outputs, name):
    """Branches and loop bodies: errors surface at the top-level graph, which names the
    innermost failing node."""
    return CompiledGraph(graph, inputs, outputs, name)


control_flow_ops.set_graph_compiler(_compile_nested)
