"""``ConcreteFunction.inference_fn`` (the tf.function guide calls it).  Expected outputs
recorded once from TensorFlow 2.21.0 running the same program."""

import tfgraph_edu as tf


def test_the_atomic_function_runs_on_flat_tensors():
    @tf.function
    def double_strings(a):
        return a + a

    cf = double_strings.get_concrete_function(tf.TensorSpec(shape=None, dtype=tf.string))
    out = cf.inference_fn(tf.constant("a"))
    assert repr(out) == "<tf.Tensor: shape=(), dtype=string, numpy=b'aa'>"  # TF 2.21

    @tf.function
    def two(a, b):
        return a + b, a * b

    af = two.get_concrete_function(tf.constant(2), tf.constant(3)).inference_fn
    out = af(tf.constant(2), tf.constant(5))
    assert isinstance(out, tuple) and [int(t) for t in out] == [7, 10]  # TF 2.21: a tuple
