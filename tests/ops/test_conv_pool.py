"""Conv2D and MaxPool: ``tf.nn.conv2d``/``max_pool2d``/``max_pool`` give TF's values, and the
patch-matrix kernels (whole, or one filter row at a time for big layers) and the Winograd
kernels of big float32 3x3 layers agree with the definition of a convolution and with central
differences of it."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import tfgraph_edu as tf
from tfgraph_edu.ops import nn_ops, winograd

# Recorded once from TensorFlow 2.21 (x = range(40) as 1x4x5x2, w = range(24) - 5 as 2x3x2x2).
TF_CONV_SAME_S2 = [[[[676.0, 728.0], [1114.0, 1228.0], [660.0, 760.0]],
                    [[1956.0, 2168.0], [2554.0, 2908.0], [1300.0, 1560.0]]]]
TF_CONV_VALID_S12 = [[[[970.0, 1060.0], [1258.0, 1396.0]], [[1690.0, 1900.0], [1978.0, 2236.0]],
                      [[2410.0, 2740.0], [2698.0, 3076.0]]]]
TF_POOL_SAME_2 = [[[[12.0, 13.0], [16.0, 17.0], [18.0, 19.0]],
                   [[32.0, 33.0], [36.0, 37.0], [38.0, 39.0]]]]
TF_POOL_VALID_3 = [[[[24.0, 25.0], [26.0, 27.0], [28.0, 29.0]],
                    [[34.0, 35.0], [36.0, 37.0], [38.0, 39.0]]]]


def _xw():
    x = tf.reshape(tf.range(40, dtype=tf.float32), (1, 4, 5, 2))
    w = tf.reshape(tf.range(24, dtype=tf.float32) - 5, (2, 3, 2, 2))
    return x, w


def test_tf_nn_names_give_tfs_values():
    x, w = _xw()
    assert tf.nn.conv2d(x, w, strides=2, padding="SAME").numpy().tolist() == TF_CONV_SAME_S2
    assert tf.nn.conv2d(x, w, strides=[1, 1, 2, 1],
                        padding="VALID").numpy().tolist() == TF_CONV_VALID_S12
    assert tf.nn.max_pool2d(x, ksize=2, strides=2, padding="SAME").numpy().tolist() == \
        TF_POOL_SAME_2
    assert tf.nn.max_pool(x, ksize=3, strides=1, padding="VALID").numpy().tolist() == \
        TF_POOL_VALID_3


def test_max_pool_of_another_rank_is_refused_by_name():
    with pytest.raises(NotImplementedError, match="tf.nn.max_pool"):
        tf.nn.max_pool(tf.zeros([1, 4, 2]), 2, 2, "VALID")


def _definition(x, w, stride, padding):
    """A convolution written from its definition: one output position at a time (float64)."""
    (n, h, wd, _), (kh, kw, _, co) = x.shape, w.shape
    sh, sw = stride
    if padding == "SAME":
        oh, ow = -(-h // sh), -(-wd // sw)
        ph = max((oh - 1) * sh + kh - h, 0)
        pw = max((ow - 1) * sw + kw - wd, 0)
        x = np.pad(x, ((0, 0), (ph // 2, ph - ph // 2), (pw // 2, pw - pw // 2), (0, 0)))
    else:
        oh, ow = (h - kh) // sh + 1, (wd - kw) // sw + 1
    out = np.zeros((n, oh, ow, co))
    for b, i, j, o in itertools.product(range(n), range(oh), range(ow), range(co)):
        out[b, i, j, o] = np.sum(x[b, i * sh:i * sh + kh, j * sw:j * sw + kw, :] * w[..., o])
    return out


CASES = [((2, 5, 6, 3), (3, 3, 3, 4), (1, 1), "SAME"),
         ((1, 7, 6, 2), (2, 3, 2, 3), (2, 3), "VALID"),
         ((2, 6, 5, 1), (3, 2, 1, 2), (2, 1), "SAME"),
         ((1, 4, 4, 2), (1, 1, 2, 2), (1, 1), "VALID")]


@pytest.fixture(params=["whole", "row by row"])
def patch_budget(request, monkeypatch):
    if request.param == "row by row":
        monkeypatch.setattr(nn_ops, "_PATCH_BYTES", 0)
    return request.param


@pytest.mark.parametrize("xs, ws, stride, padding", CASES)
def test_conv_and_its_gradients_match_the_definition(patch_budget, xs, ws, stride, padding):
    rng = np.random.default_rng(7)
    x0, w0 = rng.normal(size=xs), rng.normal(size=ws)
    x, w = tf.constant(x0), tf.constant(w0)
    strides = [1, *stride, 1]
    with tf.GradientTape() as tape:
        tape.watch([x, w])
        y = tf.nn.conv2d(x, w, strides, padding)
        loss = tf.reduce_sum(y * y)
    np.testing.assert_allclose(y.numpy(), _definition(x0, w0, stride, padding), rtol=1e-12,
                               atol=1e-12)
    dx, dw = tape.gradient(loss, [x, w])
    np.testing.assert_allclose(dx.numpy(), _numeric(x0, w0, stride, padding, 0), rtol=1e-5,
                               atol=1e-5)
    np.testing.assert_allclose(dw.numpy(), _numeric(x0, w0, stride, padding, 1), rtol=1e-5,
                               atol=1e-5)


def _numeric(x0, w0, stride, padding, which):
    """Central differences of sum(conv(x, w)**2) by x (which=0) or w (which=1), in float64."""
    args = [np.asarray(x0, np.float64), np.asarray(w0, np.float64)]
    g = np.zeros_like(args[which])
    for idx in np.ndindex(g.shape):
        total = []
        for step in (1e-6, -1e-6):
            moved = list(args)
            moved[which] = args[which].copy()
            moved[which][idx] += step
            total.append(np.sum(_definition(*moved, stride, padding) ** 2))
        g[idx] = (total[0] - total[1]) / 2e-6
    return g


@pytest.mark.parametrize("chunk", ["whole", "one tile row at a time"])
@pytest.mark.parametrize("xs, co, padding", [((2, 6, 7, 3), 4, "SAME"), ((1, 9, 5, 2), 3, "VALID"),
                                             ((3, 4, 4, 1), 2, "SAME")])
def test_winograd_layers_match_the_definition(monkeypatch, xs, co, padding, chunk):
    # float32 3x3 stride-1 layers from these sizes on take Winograd's F(4x4, 3x3); the sizes here
    # are not multiples of the 4x4 tile, so the ragged last tiles are checked too
    if chunk != "whole":
        monkeypatch.setattr(winograd, "CHUNK_BYTES", 0)
    monkeypatch.setattr(nn_ops, "_WINOGRAD_MACS", 0)
    monkeypatch.setattr(nn_ops, "_WINOGRAD_CHANNELS", 1)
    calls = []
    for name in ("conv3x3", "filter_grad3x3"):
        real = getattr(winograd, name)
        monkeypatch.setattr(winograd, name,
                            lambda *a, _real=real, _name=name: calls.append(_name) or _real(*a))
    rng = np.random.default_rng(11)
    x0 = rng.normal(size=xs).astype(np.float32)
    w0 = rng.normal(size=(3, 3, xs[3], co)).astype(np.float32)
    x, w = tf.constant(x0), tf.constant(w0)
    with tf.GradientTape() as tape:
        tape.watch([x, w])
        y = tf.nn.conv2d(x, w, 1, padding)
        loss = tf.reduce_sum(y * y)
    dx, dw = tape.gradient(loss, [x, w])
    assert calls == ["conv3x3", "conv3x3", "filter_grad3x3"]
    assert y.dtype == dx.dtype == dw.dtype == tf.float32
    for got, want in [(y, _definition(x0.astype(np.float64), w0, (1, 1), padding)),
                      (dx, _numeric(x0, w0, (1, 1), padding, 0)),
                      (dw, _numeric(x0, w0, (1, 1), padding, 1))]:
        # float32 transforms: errors of a few 1e-6 of the largest value (not last digits)
        np.testing.assert_allclose(got.numpy(), want, rtol=0, atol=1e-5 * np.abs(want).max())


def test_winograd_matrices_satisfy_the_minimal_filtering_identity():
    # sum_s AT[i, s] G[s, j] BT[s, t] is 1 exactly when input index t = output index i + tap j
    got = np.einsum("is,sj,st->ijt", winograd._AT, winograd._G, winograd._BT)
    i, j, t = np.indices(got.shape)
    np.testing.assert_allclose(got, (t == i + j).astype(float), rtol=0, atol=1e-13)


def test_winograd_rounding_on_a_wide_layer_stays_near_a_direct_sum():
    # 64 channels in and out: the rounding of the float32 transforms, against a float64 direct sum;
    # TF 2.21's oneDNN convolution measured on the README's 1x200x200x100 layer: 1.2e-6 of max|y|
    rng = np.random.default_rng(5)
    x = rng.normal(size=(1, 30, 30, 64)).astype(np.float32)
    w = rng.normal(size=(3, 3, 64, 64)).astype(np.float32)
    xp = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0))).astype(np.float64)
    want = sum(np.tensordot(xp[:, i:i + 30, j:j + 30], w[i, j].astype(np.float64), 1)
               for i in range(3) for j in range(3))
    got = winograd.conv3x3(xp.astype(np.float32), w, 30, 30)
    assert np.abs(got - want).max() / np.abs(want).max() < 5e-6


def test_winograd_is_kept_for_big_float32_3x3_stride_1_layers():
    assert nn_ops._winograd(np.float32, 3, 3, 100, 100, 1, 1, 1, 200, 200)
    assert nn_ops._winograd(np.float32, 3, 3, 32, 64, 1, 1, 32, 24, 24)
    assert not nn_ops._winograd(np.float64, 3, 3, 100, 100, 1, 1, 1, 200, 200)
    assert not nn_ops._winograd(np.float32, 3, 3, 100, 100, 2, 2, 1, 200, 200)
    assert not nn_ops._winograd(np.float32, 5, 5, 100, 100, 1, 1, 1, 200, 200)
    assert not nn_ops._winograd(np.float32, 3, 3, 1, 32, 1, 1, 32, 28, 28)   # MNIST's first layer
    assert not nn_ops._winograd(np.float32, 3, 3, 16, 16, 1, 1, 1, 10, 10)   # too small to pay


def test_conv_inside_a_function_matches_eager():
    rng = np.random.default_rng(3)
    x = tf.constant(rng.normal(size=(2, 6, 6, 3)).astype(np.float32))
    w = tf.constant(rng.normal(size=(3, 3, 3, 5)).astype(np.float32))

    def f(x, w):
        with tf.GradientTape() as tape:
            tape.watch(w)
            y = tf.nn.max_pool2d(tf.nn.conv2d(x, w, 1, "SAME"), 2, 2, "VALID")
            total = tf.reduce_sum(y)
        return y, tape.gradient(total, w)
    for a, b in zip(f(x, w), tf.function(f)(x, w)):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-5, atol=1e-5)
