"""Generated code of freed functions leaves ``linecache``: a notebook that traces thousands of
functions does not keep all their source alive."""

from __future__ import annotations

import gc
import linecache

import tfgraph_edu as tf
from tfgraph_edu.runtime import compiled


def _entries() -> set[str]:
    return {k for k in linecache.cache if k.startswith("<tfgraph_edu ")}


def test_freed_concrete_functions_leave_linecache():
    gc.collect()
    before = _entries()

    def make():
        @tf.function
        def f(x):
            if tf.reduce_sum(x) > 0:  # a branch graph is compiled too
                y = x * 2.0
            else:
                y = -x
            return y + 1.0

        for shape in ([], [2], [3]):
            f(tf.zeros(shape) + 1.0)
        return f

    f = make()
    made = _entries() - before
    assert len(made) >= 3, made  # three traces (their branches are inlined into them)
    for name in made:
        assert linecache.getline(name, 1).startswith("def ")
    del f
    gc.collect()
    assert not (_entries() & made), "freed functions still hold their source in linecache"
    assert not (set(compiled._BY_FILENAME) & made)


def test_live_functions_keep_their_source():
    @tf.function
    def g(x):
        return x * 3

    g(tf.constant(1))
    gc.collect()
    name = g.concrete_functions[0].compiled.filename
    assert name in linecache.cache
    linecache.checkcache()  # what tracebacks and IPython call: must not drop it
    assert linecache.getline(name, 1).startswith("def ")
