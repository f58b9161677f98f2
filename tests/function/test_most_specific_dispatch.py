"""A call goes to the most specific concrete function whose signature covers it, not to the
latest traced (TensorFlow's guide, "Rules of tracing": a call with shape [1, 2] can use a
[None, None] trace, but a [1, None] one, if it exists, is preferred as more specific)."""

import tfgraph_edu as tf

SPECS = {"both": [None, None], "rows1": [1, None], "cols2": [None, 2]}


def test_the_more_specific_trace_serves_the_call():
    @tf.function
    def ident(x):
        return x

    cfs = {name: ident.get_concrete_function(tf.TensorSpec(SPECS[name], tf.float32))
           for name in ("rows1", "both")}  # the general one traced last
    ident(tf.ones([1, 5]))  # both cover it: [1, None] is more specific
    ident(tf.ones([3, 5]))  # only [None, None] covers it
    assert cfs["rows1"].call_count == 1 and cfs["both"].call_count == 1
    assert ident.experimental_get_tracing_count() == 2  # no new trace for either call


def test_incomparable_candidates_still_dispatch_without_tracing():
    @tf.function
    def ident(x):
        return x

    for name in ("rows1", "cols2"):
        ident.get_concrete_function(tf.TensorSpec(SPECS[name], tf.float32))
    assert ident(tf.ones([1, 2])).shape == [1, 2]  # covered by both, neither more specific
    assert ident.experimental_get_tracing_count() == 2
