"""Graph files between tfgraph_edu and real TensorFlow (``make check-tf``; optional).

1. **Export**: guide functions traced by tfgraph_edu are written as GraphDefs (``.pb`` and
   ``.pbtxt``, ``tfgraph_edu.formats.export``); real TF parses them
   (``tf.compat.v1.GraphDef.FromString``, ``text_format.Parse``), imports them
   (``tf.graph_util.import_graph_def``) and runs them in a ``tf.compat.v1.Session``: the
   results must equal tfgraph_edu's.  With ``tensorboard`` installed, an event file holding
   the graph is loaded by TensorBoard's own loader (``EventAccumulator``) and prepared for its
   Graphs tab (``process_graph.prepare_graph_for_ui``).
2. **Structural parity** (issue 26): for the same guide functions, the op-type multisets of
   TF's ``as_graph_def()`` and of tfgraph_edu's graph, per function (the top-level graph and
   each library function, bodies matched in order of appearance), printed as a table: ops TF
   has that we do not, ops we have that TF does not, and the share of ops in common.

    PYTHONPATH=$PWD .venv-tf/bin/python benchmarks/against_tf/graph_files.py [-v]

Exit status 1 if an export fails to load or run as in tfgraph_edu.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402
import tensorflow as real_tf  # noqa: E402

import tfgraph_edu as ours  # noqa: E402
from tfgraph_edu.formats import open_graph  # noqa: E402
from tfgraph_edu.formats.export import save_graph_def, save_graph_event  # noqa: E402

real_tf.get_logger().setLevel("ERROR")


def guide_functions(tf):
    """name -> (tf.function, argument specs, argument values): the intro_to_graphs guide's
    simple_relu, a cond function, a tf.range loop (written once, run with either tf)."""

    @tf.function
    def simple_relu(x):
        if tf.greater(x, 0):
            return x
        else:
            return 0

    @tf.function
    def cond_fn(x):
        if tf.reduce_sum(x) > 0:
            return x * x
        return -x

    @tf.function
    def range_loop(x, n):
        total = tf.constant(0.0)
        for i in tf.range(n):
            total += x * tf.cast(i, tf.float32)
        return total

    @tf.function
    def dense(x, w, b):
        return tf.nn.relu(tf.matmul(x, w) + b)

    return {
        "simple_relu": (simple_relu, [tf.TensorSpec([], tf.int32)], [np.int32(3)]),
        "cond_fn": (cond_fn, [tf.TensorSpec([None], tf.float32)],
                    [np.array([1.0, -2.5, 4.0], np.float32)]),
        "range_loop": (range_loop, [tf.TensorSpec([], tf.float32), tf.TensorSpec([], tf.int32)],
                       [np.float32(1.5), np.int32(5)]),
        "dense": (dense, [tf.TensorSpec([2, 3], tf.float32), tf.TensorSpec([3, 4], tf.float32),
                          tf.TensorSpec([4], tf.float32)],
                  [np.arange(6, dtype=np.float32).reshape(2, 3) - 2,
                   np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4),
                   np.array([0.5, -0.5, 0.0, 1.0], np.float32)]),
    }


def check_export(name, fn, specs, values, folder, verbose) -> list[str]:
    """Problems found (empty: TF loaded and ran both files as tfgraph_edu runs them)."""
    from google.protobuf import text_format
    problems = []
    cf = fn.get_concrete_function(*[ours.TensorSpec(s.shape, getattr(ours, s.dtype.name))
                                    for s in specs])
    want = cf(*[ours.constant(v) for v in values])
    want = [np.asarray(w) for w in (want if isinstance(want, (list, tuple)) else [want])]
    graph = cf.graph
    feeds = {t.op.name: v for t, v in zip(graph.inputs, values)}
    fetches = [t.name for t in graph.outputs]
    for ext in ("pb", "pbtxt"):
        path = save_graph_def(cf, os.path.join(folder, f"{name}.{ext}"))
        try:
            gd = real_tf.compat.v1.GraphDef()
            if ext == "pb":
                with open(path, "rb") as f:
                    gd = real_tf.compat.v1.GraphDef.FromString(f.read())
            else:
                with open(path) as f:
                    text_format.Parse(f.read(), gd)
            g = real_tf.Graph()
            with g.as_default():
                real_tf.graph_util.import_graph_def(gd, name="")
            with real_tf.compat.v1.Session(graph=g) as sess:
                got = sess.run(fetches, {f"{k}:0": v for k, v in feeds.items()})
            for w, h in zip(want, got):
                if w.shape != np.shape(h) or not np.allclose(w, h, rtol=2e-6):
                    problems.append(f"{name}.{ext}: TF computes {h!r}, tfgraph_edu {w!r}")
            if verbose:
                print(f"  {name}.{ext}: TF imported {len(gd.node)} nodes, "
                      f"{len(gd.library.function)} functions, ran to {got}")
        except Exception as exc:  # noqa: BLE001 - reported
            problems.append(f"{name}.{ext}: {type(exc).__name__}: {str(exc)[:400]}")
        # and our own reader opens what we wrote
        opened = open_graph(path)
        if len(opened.graph.operations) != len(graph.operations):
            problems.append(f"{name}.{ext}: read back {len(opened.graph.operations)} ops of "
                            f"{len(graph.operations)}")
    try:
        from tensorboard.backend import process_graph
        from tensorboard.backend.event_processing.event_accumulator import EventAccumulator
    except ImportError:
        return problems
    logdir = os.path.join(folder, f"{name}_logs")
    save_graph_event(cf, logdir)
    acc = EventAccumulator(logdir)
    acc.Reload()
    gd = acc.Graph()
    process_graph.prepare_graph_for_ui(gd)
    if len(gd.node) != len(graph.operations):
        problems.append(f"{name}: TensorBoard loaded {len(gd.node)} nodes of "
                        f"{len(graph.operations)}")
    elif verbose:
        print(f"  {name}: TensorBoard loaded the event file ({len(gd.node)} nodes, "
              f"{len(gd.library.function)} functions)")
    return problems


# -- structural parity ----------------------------------------------------------------------
def _tf_functions(gd) -> list[tuple[str, Counter]]:
    """(function, op types) of TF's GraphDef: the graph, then its library functions in order
    of first call (depth first), their arguments not counted (they are not nodes)."""
    lib = {f.signature.name: f for f in gd.library.function}
    out, seen = [("graph", Counter(n.op for n in gd.node))], set()

    def visit(nodes):
        for n in nodes:
            for k in sorted(n.attr):
                f = n.attr[k].func.name
                if f and f in lib and f not in seen:
                    seen.add(f)
                    out.append((f"{n.op}.{k}", Counter(m.op for m in lib[f].node_def)))
                    visit(lib[f].node_def)
    visit(gd.node)
    return out


def _our_functions(graph) -> list[tuple[str, Counter]]:
    out, seen = [("graph", Counter(op.type for op in graph.operations))], set()

    def visit(g):
        for op in g.operations:
            for k in sorted(op.attrs):
                v = op.attrs[k]
                if hasattr(v, "graph") and hasattr(v, "function_name") and id(v) not in seen:
                    seen.add(id(v))
                    inputs = {id(t.op) for t in v.inputs}
                    out.append((f"{op.type}.{k}", Counter(o.type for o in v.graph.operations
                                                          if id(o) not in inputs)))
                    visit(v.graph)
    visit(graph)
    return out


def parity(name, fn_tf, fn_ours, specs, verbose) -> tuple[int, int, int]:
    tf_cf = fn_tf.get_concrete_function(*specs)
    our_cf = fn_ours.get_concrete_function(*[ours.TensorSpec(s.shape, getattr(ours, s.dtype.name))
                                             for s in specs])
    theirs, mine = _tf_functions(tf_cf.graph.as_graph_def()), _our_functions(our_cf.graph)
    tf_total = sum(sum(c.values()) for _, c in theirs)
    our_total = sum(sum(c.values()) for _, c in mine)
    common = 0
    print(f"{name}: TF {len(theirs)} graphs / {tf_total} ops (library included), "
          f"tfgraph_edu {len(mine)} graphs / {our_total} ops")
    for i in range(max(len(theirs), len(mine))):
        t_name, t = theirs[i] if i < len(theirs) else ("-", Counter())
        o_name, o = mine[i] if i < len(mine) else ("-", Counter())
        both = sum((t & o).values())
        common += both
        only_tf, only_us = t - o, o - t
        print(f"  {t_name:28} TF {sum(t.values()):3} ops | ours {sum(o.values()):3} ops"
              f" ({o_name}) | in common {both}")
        if verbose or only_tf or only_us:
            print(f"      only in TF:  {dict(sorted(only_tf.items()))}")
            print(f"      only in ours: {dict(sorted(only_us.items()))}")
    return tf_total, our_total, common


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args(argv)
    problems = []
    mine, theirs = guide_functions(ours), guide_functions(real_tf)
    print("== export: tfgraph_edu graphs as GraphDefs, loaded and run by real TF "
          f"{real_tf.__version__}")
    with tempfile.TemporaryDirectory() as folder:
        for name, (fn, _, values) in mine.items():
            found = check_export(name, fn, theirs[name][1], values, folder, args.verbose)
            print(f"{name}: {'ok' if not found else 'FAILED'}")
            problems += found
    for p in problems:
        print("  " + p)
    print("\n== structural parity: op types per function, TF's as_graph_def() against ours")
    totals = [0, 0, 0]
    for name in mine:
        t = parity(name, theirs[name][0], mine[name][0], theirs[name][1], args.verbose)
        totals = [a + b for a, b in zip(totals, t)]
    tf_total, our_total, common = totals
    print(f"\nall: TF {tf_total} ops, tfgraph_edu {our_total}; in common {common} "
          f"({common / tf_total:.0%} of TF's ops; Jaccard "
          f"{common / (tf_total + our_total - common):.2f})")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
