"""A symbolic tensor of unknown rank prints without a shape (the saved_model guide traces one).
Expected text recorded once from TensorFlow 2.21.0."""

import tfgraph_edu as tf


def test_unknown_rank_leaves_the_shape_out(capsys):
    @tf.function(input_signature=[tf.TensorSpec(None, tf.float32)])
    def f(x):
        print(x)
        print(repr(x))
        return x

    f(tf.constant(1.0))
    assert capsys.readouterr().out == ('Tensor("x:0", dtype=float32)\n'
                                       "<tf.Tensor 'x:0' shape=<unknown> dtype=float32>\n")
