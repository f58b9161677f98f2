"""Property tests: broadcasting binary ops agree with numpy, shape rules, and gradients."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import tfgraph_edu as tf
from tfgraph_edu.ops._rules import broadcast_shapes
from tfgraph_edu.shapes import TensorShape

BINARY = {
    tf.add: np.add, tf.subtract: np.subtract, tf.multiply: np.multiply,
    tf.maximum: np.maximum, tf.minimum: np.minimum,
}


@st.composite
def broadcastable_pair(draw):
    shapes = draw(hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=4,
                                                     max_side=4))
    a, b = shapes.input_shapes
    elements = st.floats(-10, 10, width=32)
    x = draw(hnp.arrays(np.float32, a, elements=elements))
    y = draw(hnp.arrays(np.float32, b, elements=elements))
    return x, y, shapes.result_shape


@settings(max_examples=60, deadline=None)
@given(broadcastable_pair(), st.sampled_from(sorted(BINARY, key=lambda f: f.__name__)))
def test_binary_ops_broadcast_like_numpy(pair, op):
    x, y, result_shape = pair
    out = op(x, y)
    assert tuple(out.shape.as_list()) == result_shape
    np.testing.assert_array_equal(out.numpy(), BINARY[op](x, y))
    assert broadcast_shapes(TensorShape(x.shape), TensorShape(y.shape)).as_list() == list(
        result_shape)


@settings(max_examples=40, deadline=None)
@given(broadcastable_pair())
def test_gradients_are_summed_back_to_each_operand_shape(pair):
    x, y, result_shape = pair
    tx, ty = tf.constant(x), tf.constant(y)
    with tf.GradientTape() as tape:
        tape.watch([tx, ty])
        z = tf.reduce_sum(tx * ty)
    gx, gy = tape.gradient(z, [tx, ty])
    full = np.ones(result_shape, np.float32)

    # numpy reference: the gradient of sum(x*y) wrt x is y broadcast, summed over broadcast axes
    def unbroadcast(g, shape):
        lead = g.ndim - len(shape)
        g = g.sum(axis=tuple(range(lead))) if lead else g
        axes = tuple(i for i, d in enumerate(shape) if d == 1 and g.shape[i] != 1)
        return g.sum(axis=axes, keepdims=True) if axes else g
    np.testing.assert_allclose(gx.numpy(), unbroadcast(full * y, x.shape), rtol=1e-5, atol=1e-4)
    np.testing.assert_allclose(gy.numpy(), unbroadcast(full * x, y.shape), rtol=1e-5, atol=1e-4)


@settings(max_examples=40, deadline=None)
@given(hnp.array_shapes(min_dims=1, max_dims=3, max_side=5),
       hnp.array_shapes(min_dims=1, max_dims=3, max_side=5))
def test_incompatible_shapes_raise_tensorflows_error(a, b):
    try:
        np.broadcast_shapes(a, b)
        compatible = True
    except ValueError:
        compatible = False
    try:
        tf.add(tf.zeros(a), tf.zeros(b))
        raised = None
    except tf.errors.InvalidArgumentError as e:
        raised = str(e)
    if compatible:
        assert raised is None
    else:
        fa = "[" + ",".join(map(str, a)) + "]"
        fb = "[" + ",".join(map(str, b)) + "]"
        # TF 2.21.0's message (recorded): it also ends with " name: ", which ours leaves out
        assert raised == ("{{function_node __wrapped__AddV2_device_/job:localhost/replica:0/"
                          f"task:0/device:CPU:0}}}} Incompatible shapes: {fa} vs. {fb} [Op:AddV2]")


@settings(max_examples=40, deadline=None)
@given(hnp.array_shapes(min_dims=1, max_dims=4, max_side=4), st.data())
def test_reductions_match_numpy(shape, data):
    x = np.random.default_rng(0).normal(size=shape).astype(np.float32)
    axis = data.draw(st.one_of(st.none(), st.integers(-len(shape), len(shape) - 1)))
    keep = data.draw(st.booleans())
    for ours, ref in ((tf.reduce_sum, np.sum), (tf.reduce_mean, np.mean),
                      (tf.reduce_max, np.max), (tf.reduce_min, np.min)):
        got = ours(x, axis=axis, keepdims=keep)
        want = ref(x, axis=axis, keepdims=keep)
        assert tuple(got.shape.as_list()) == np.shape(want)
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-5, atol=1e-5)
