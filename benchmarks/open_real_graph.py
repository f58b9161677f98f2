"""How long a 10,000-node GraphDef written by real TensorFlow takes to open (issue 26: at
most 2 s to parse and convert into the viewer's graph model).

    PYTHONPATH=$PWD .venv/bin/python benchmarks/open_real_graph.py

The GraphDef is made once by real TensorFlow (a tf.function whose Python loop unrolls 1,450
dense layers in name scopes, plus a tf.cond, so the library holds two branches) and kept in
``benchmarks/.cache/real_10k.pb``; making it runs this script with ``--make`` under the
Python of ``$TF_PYTHON`` (default ``.venv-tf/bin/python``, the venv of ``make check-tf``).
Printed: the best of 5 opens (read + parse + convert), wall and CPU time, and, apart,
drawing it as DOT and building the GraphViewer on it.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
CACHE = os.path.join(HERE, ".cache", "real_10k.pb")
LAYERS = 1450


def make(path: str) -> None:
    import tensorflow as tf

    @tf.function
    def deep(x):
        for i in range(LAYERS):
            with tf.name_scope(f"layer{i}"):
                w = tf.fill([4, 4], 0.5)
                x = tf.nn.relu(tf.matmul(x, w) + 0.1)
        if tf.reduce_sum(x) > 0:
            x = x * 2.0
        return x

    gd = deep.get_concrete_function(tf.TensorSpec([None, 4], tf.float32)).graph.as_graph_def()
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(gd.SerializeToString())
    print(f"wrote {path}: {len(gd.node)} nodes, {len(gd.library.function)} functions")


def main() -> None:
    if sys.argv[1:2] == ["--make"]:
        make(sys.argv[2])
        return
    if not os.path.exists(CACHE):
        python = os.environ.get("TF_PYTHON", os.path.join(HERE, "..", ".venv-tf", "bin",
                                                          "python"))
        if not os.path.exists(python):  # make bench without TF: say so, fail nothing
            print(f"skipped: making the GraphDef needs real TensorFlow once ({python} is "
                  "missing: run `make check-tf` first, or set TF_PYTHON)")
            return
        subprocess.run([python, __file__, "--make", CACHE], check=True,
                       env={**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3"})
    from tfgraph_edu.formats import open_graph
    from tfgraph_edu.viz.dot import graph_to_dot
    open_graph(CACHE)  # imports and protobuf's first use
    times, cpu = [], []
    for _ in range(5):
        start, start_cpu = time.perf_counter(), time.process_time()
        opened = open_graph(CACHE)
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    graph = opened.graph
    start = time.perf_counter()
    dot = graph_to_dot(graph)
    draw = time.perf_counter() - start
    size = os.path.getsize(CACHE)
    print(f"real TF GraphDef: {len(graph.operations)} nodes, {len(opened.library)} library "
          f"functions, {size / 1e6:.2f} MB")
    print(f"open_graph (read + parse + convert): best {min(times):.3f} s, "
          f"worst {max(times):.3f} s of 5 (goal <= 2 s: {min(times) / 2.0:.2f} of it); "
          f"CPU time best {min(cpu):.3f} s (wall time counts other processes' share of a "
          f"loaded machine; load average now {os.getloadavg()[0]:.1f})")
    print(f"graph_to_dot (apart): {draw:.3f} s, {len(dot) / 1e6:.1f} MB of DOT")
    try:
        from tfgraph_edu.jupyter.widgets import GraphViewer
    except ImportError:  # the jupyter extra is not installed
        return
    start, start_cpu = time.perf_counter(), time.process_time()
    viewer = GraphViewer(opened)
    print(f"GraphViewer(opened) (apart: details, DOT, Graphviz's SVG): "
          f"{time.perf_counter() - start:.3f} s wall, {time.process_time() - start_cpu:.3f} s "
          f"CPU of this process (Graphviz runs in its own), {len(viewer.collapsed)} scopes "
          "start collapsed")


if __name__ == "__main__":
    main()
