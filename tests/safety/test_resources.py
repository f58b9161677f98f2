"""Resource bounds a learner can hit: a runaway unroll stops at the node limit with TF's
ResourceExhaustedError and the fix, and a graph node costs about a kilobyte (tracemalloc)."""

from __future__ import annotations

import gc
import sys
import time
import tracemalloc

import pytest

import tfgraph_edu as tf
from tfgraph_edu.graph import limits


@pytest.fixture
def small_limit():
    old = limits.MAX_NODES
    limits.set_max_nodes(3000)
    yield 3000
    limits.set_max_nodes(old)


def test_a_million_op_unroll_stops_at_the_limit_with_the_fix(small_limit):
    @tf.function
    def f(x):
        for _ in range(1_000_000):
            x = x * 1.5 + 1.0  # the line that unrolls
        return x

    start = time.perf_counter()
    with pytest.raises(tf.errors.ResourceExhaustedError) as info:
        f(tf.constant(1.0))
    assert time.perf_counter() - start < 60
    message = str(info.value)
    assert "3000 nodes" in message and "tf.range(...)" in message
    assert "x = x * 1.5 + 1.0  # the line that unrolls" in message  # the user's line
    # the same loop over tf.range stays small and computes
    @tf.function
    def g(x):
        for _ in tf.range(50):
            x = x * 1.5 + 1.0
        return x

    assert float(g(tf.constant(0.0))) == pytest.approx(sum(1.5 ** k for k in range(50)),
                                                      rel=1e-5)


def test_a_loaded_model_over_the_limit_is_refused(small_limit, tmp_path):
    class M(tf.Module):
        @tf.function
        def f(self, x):
            for _ in range(1000):  # 2000 nodes: under the limit while tracing
                x = x + 1.0
            return x

    m = M()
    m.f(tf.constant(1.0))
    tf.saved_model.save(m, tmp_path / "m")
    limits.set_max_nodes(1500)
    with pytest.raises(tf.saved_model.SavedModelError, match="max_nodes"):
        tf.saved_model.load(tmp_path / "m")
    assert float(tf.saved_model.load(tmp_path / "m", max_nodes=10_000).f(
        tf.constant(1.0))) == 1001.0


def test_set_max_nodes_checks_its_argument():
    for bad in (0, -5, 1.5, "10", True):
        with pytest.raises(ValueError):
            limits.set_max_nodes(bad)


def test_memory_per_node_of_an_unrolled_graph():
    n = 1500

    def unrolled(x, n=1500):
        for _ in range(n):
            x = x * 1.0001 + 0.5
        return x

    tf.function(lambda x: unrolled(x, 20))(tf.constant(1.0))  # warm every code path up
    f = tf.function(unrolled)
    # compile() interns the generated names in CPython's one table of interned strings, which
    # doubles in a single allocation when it fills (1.9 MB at 87k strings, 3.8 MB next): a
    # process-wide cost that lands in whichever measurement crosses the threshold (inside
    # this suite it did, adding ~320 B per node). Grow the table first, so only what the
    # function keeps per node is counted.
    roomy = [sys.intern(f"_room_{i}") for i in range(200_000)]
    gc.collect()
    tracemalloc.start()
    try:
        f(tf.constant(1.0))  # traced, optimised and compiled
        gc.collect()
        retained, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    del roomy
    nodes = len(f.concrete_functions[-1].graph.operations)
    assert nodes >= 4 * n
    per_node = retained / nodes
    print(f"\n{per_node:.0f} bytes per node (graph, optimised graph, compiled code)")
    # a regression guard: ~1070 B here and in a plain process (graph ~620, optimised graph
    # and report ~310, compiled code ~120)
    assert per_node < 1250, per_node
