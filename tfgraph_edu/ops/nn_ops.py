"""Neural-network ops: softplus, elu, and the softmax / sigmoid cross-entropies (layer 1).

The cross-entropy ops return the loss and its gradient with respect to the logits
(``backprop``) in one kernel, as TensorFlow's ``SoftmaxCrossEntropyWithLogits``
does; the op's gradient multiplies that saved backprop by the incoming gradient.
"""

from __future__ import annotations

import numpy as np

from .. import dtypes as _dt
from ..errors import InvalidArgumentError
from ..shapes import TensorShape
from . import convert, creation_ops, identity_ops, math_ops, reduction_ops, shape_ops, winograd
from ._core import bind, define, shape_error
from ._rules import fmt, same

F = _dt.FLOATS


def _softplus_kernel(x):
    with np.errstate(over="ignore"):
        return np.logaddexp(x.dtype.type(0), x).astype(x.dtype, copy=False)


Softplus = define("Softplus", ("features",), _softplus_kernel, same,
                  lambda op, g: (math_ops.multiply(g, math_ops.sigmoid(op.inputs[0])),),
                  T=(0,), dtypes=F)


def softplus(features, name=None):
    """log(exp(features) + 1), computed without overflow (op ``Softplus``)."""
    return bind(Softplus, (features,), None, name)


def _elu_kernel(x):
    # TF's kernel subtracts 1 from exp(x) in the input's dtype (not expm1): near 0 the
    # float32 result is exp's rounding, -1.0001659e-04 for -1e-4, as TF prints it
    with np.errstate(over="ignore"):
        return np.where(x > 0, x, np.exp(np.minimum(x, 0)) - x.dtype.type(1)).astype(
            x.dtype, copy=False)


EluGrad = define("EluGrad", ("gradients", "outputs"),
                 lambda g, y: np.where(y > 0, g, g * (y + 1)).astype(g.dtype, copy=False),
                 lambda g, y: (g.shape, g.dtype), None, T=(0, 1), dtypes=F)
Elu = define("Elu", ("features",), _elu_kernel, same,
             lambda op, g: (bind(EluGrad, (g, op.outputs[0])),), T=(0,), dtypes=F)


def elu(features, name=None):
    """features if > 0 else exp(features) - 1 (op ``Elu``)."""
    return bind(Elu, (features,), None, name)


# -- softmax cross-entropy -------------------------------------------------------------------
def _log_softmax(z):
    z = z - np.max(z, axis=-1, keepdims=True)
    return z - np.log(np.sum(np.exp(z), axis=-1, keepdims=True))


def _sce_kernel(features, labels):
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        logp = _log_softmax(features)
        loss = -np.sum(np.where(labels == 0, 0, labels * logp), axis=-1)
        backprop = np.exp(logp) - labels
    return loss.astype(features.dtype), backprop.astype(features.dtype)


def _sce_shape(features, labels):
    fs, ls = features.shape, labels.shape
    if fs.rank is not None and fs.rank != 2:
        raise shape_error(f"logits and labels must be either 2-dimensional, or broadcasted to "
                          f"be 2-dimensional, logits_size={fmt(fs)}")
    if not fs.is_compatible_with(ls):
        raise shape_error(f"logits and labels must be broadcastable: logits_size={fmt(fs)} "
                          f"labels_size={fmt(ls)}")
    batch = fs.dims[0] if fs.rank is not None else None
    return [(TensorShape([batch]), features.dtype), (fs, features.dtype)]


def _softmax_jvp(op, gg):
    """The backprop output's own gradient: gg times the Jacobian of softmax(logits)."""
    sm = math_ops.softmax(op.inputs[0])
    inner = reduction_ops.reduce_sum(math_ops.multiply(gg, sm), axis=-1, keepdims=True)
    return math_ops.multiply(math_ops.subtract(gg, inner), sm)


def _xent_grad(op, g, gg=None):
    g_logits = math_ops.multiply(shape_ops.expand_dims(g, -1), op.outputs[1])
    if gg is not None:
        g_logits = math_ops.add(g_logits, _softmax_jvp(op, gg))
    if op.inputs[1].dtype.is_integer:  # sparse: integer labels have no gradient
        return g_logits, None
    g_labels = math_ops.multiply(shape_ops.expand_dims(g, -1),
                                 math_ops.negative(math_ops.log_softmax(op.inputs[0])))
    if gg is not None:
        g_labels = math_ops.subtract(g_labels, gg)
    return g_logits, g_labels


SoftmaxCrossEntropyWithLogits = define(
    "SoftmaxCrossEntropyWithLogits", ("features", "labels"), _sce_kernel, _sce_shape,
    _xent_grad, T=(0, 1), dtypes=F, num_outputs=2)


def _flatten_to_2d(t):
    rank = t.shape.rank
    if rank == 2:
        return t
    return shape_ops.reshape(t, [-1, t.shape[-1]])


def softmax_cross_entropy_with_logits(labels, logits, axis=-1, name=None):
    """-sum(labels * log_softmax(logits)) over the last axis; gradients flow to logits only."""
    if axis not in (-1, None):
        raise NotImplementedError("tfgraph_edu implements the class axis as the last axis only.")
    logits = convert.to_tensor(logits)
    labels = identity_ops.stop_gradient(convert.to_tensor(labels, dtype=logits.dtype))
    batch_shape = logits.shape.dims[:-1] if logits.shape.rank is not None else None
    loss, _ = bind(SoftmaxCrossEntropyWithLogits,
                   (_flatten_to_2d(logits), _flatten_to_2d(labels)), None, name)
    if logits.shape.rank != 2 and batch_shape is not None and None not in batch_shape:
        loss = shape_ops.reshape(loss, batch_shape)
    return loss


def _ssce_kernel(features, labels):
    n = features.shape[-1]
    bad = (labels < 0) | (labels >= n)
    if np.any(bad):
        i = int(np.argmax(bad.reshape(-1)))
        raise InvalidArgumentError(
            None, None, f"Received a label value of {int(labels.reshape(-1)[i])} which is "
                        f"outside the valid range of [0, {n}).  Label values: "
                        + " ".join(str(int(v)) for v in labels.reshape(-1)))
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        logp = _log_softmax(features)
        rows = np.arange(features.shape[0])
        loss = -logp[rows, labels]
        backprop = np.exp(logp)
        backprop[rows, labels] -= 1
    return loss.astype(features.dtype), backprop.astype(features.dtype)


def _ssce_shape(features, labels):
    fs, ls = features.shape, labels.shape
    if fs.rank is not None and fs.rank != 2:
        raise shape_error(f"logits must be 2-D, but got shape {fmt(fs)}")
    if ls.rank is not None and ls.rank != 1:
        raise shape_error(f"labels must be 1-D, but got shape {fmt(ls)}")
    batch = fs.dims[0] if fs.rank is not None else None
    return [(TensorShape([batch]), features.dtype), (fs, features.dtype)]


SparseSoftmaxCrossEntropyWithLogits = define(
    "SparseSoftmaxCrossEntropyWithLogits", ("features", "labels"), _ssce_kernel, _ssce_shape,
    _xent_grad, T=(0,), dtypes=F, num_outputs=2)


def sparse_softmax_cross_entropy_with_logits(labels, logits, name=None):
    """-log_softmax(logits)[label] per example; labels are class indices (int32/int64)."""
    logits = convert.to_tensor(logits)
    labels = convert.to_tensor(labels)
    if not labels.dtype.is_integer:
        raise TypeError(f"Value passed to parameter 'labels' has DataType {labels.dtype.name} "
                        "not in list of allowed values: int32, int64")
    lr, gr = labels.shape.rank, logits.shape.rank
    if lr is not None and gr is not None and lr != gr - 1:
        raise ValueError(f"Rank mismatch: Rank of labels (received {lr}) should equal rank of "
                         f"logits minus 1 (received {gr}).")
    if gr == 2:
        loss, _ = bind(SparseSoftmaxCrossEntropyWithLogits, (logits, labels), None, name)
        return loss
    batch_shape = logits.shape.dims[:-1] if gr is not None else None
    loss, _ = bind(SparseSoftmaxCrossEntropyWithLogits,
                   (_flatten_to_2d(logits), shape_ops.reshape(labels, [-1])), None, name)
    if batch_shape is not None and None not in batch_shape:
        loss = shape_ops.reshape(loss, batch_shape)
    return loss


def sigmoid_cross_entropy_with_logits(labels=None, logits=None, name=None):
    """max(x, 0) - x * z + log(1 + exp(-|x|)), TensorFlow's stable formula, from public ops."""
    logits = convert.to_tensor(logits)
    labels = convert.to_tensor(labels, dtype=logits.dtype)
    if not logits.shape.is_compatible_with(labels.shape):
        raise ValueError(f"`logits` and `labels` must have the same shape, received "
                         f"({logits.shape} vs {labels.shape}).")
    relu_logits = math_ops.maximum(logits, creation_ops.zeros_like(logits))
    neg_abs = math_ops.negative(math_ops.abs(logits))
    return math_ops.add(math_ops.subtract(relu_logits, math_ops.multiply(logits, labels)),
                        softplus(neg_abs), name=name)


# -- convolution and max pooling (NHWC, filters HWIO) -----------------------------------------
def _out_and_pad(size, k, stride, padding):
    if padding == "VALID":
        return (size - k) // stride + 1, 0, 0
    out = -(-size // stride)
    total = max((out - 1) * stride + k - size, 0)
    return out, total // 2, total - total // 2


def _geometry(x_shape, kh, kw, strides, padding):
    sh, sw = strides[1], strides[2]
    oh, pt, pb = _out_and_pad(x_shape[1], kh, sh, padding)
    ow, pl, pr = _out_and_pad(x_shape[2], kw, sw, padding)
    return sh, sw, oh, ow, (pt, pb, pl, pr)


def _padded(x, pads, value=0.0):
    pt, pb, pl, pr = pads
    if not any(pads):
        return x
    return np.pad(x, ((0, 0), (pt, pb), (pl, pr), (0, 0)), constant_values=value)


def _window(xp, i, j, sh, sw, oh, ow):
    return xp[:, i:i + sh * (oh - 1) + 1:sh, j:j + sw * (ow - 1) + 1:sw, :]


def _check_nhwc(data_format):
    if data_format not in ("NHWC", None):
        raise NotImplementedError("tfgraph_edu implements NHWC (channels last) only.")


# Convolutions are matrix products over patches (im2col): the (N*OH*OW, KH*KW*C) matrix of
# every output position's window, built with one strided copy per filter tap, times the filter as
# a (KH*KW*C, CO) matrix.  One BLAS call does the work of the whole layer; when the patches would
# take more than _PATCH_BYTES, they are built one filter row at a time (KH calls).
_PATCH_BYTES = 64 << 20


# Big float32 3x3 stride-1 layers (and their two gradients) take Winograd's F(4x4, 3x3) instead:
# 4x fewer multiplications, at the price of float32 rounding in its transforms (a few 1e-6 of the
# output's size), so only from _WINOGRAD_MACS multiply-adds and _WINOGRAD_CHANNELS channels on.
_WINOGRAD_MACS = 80_000_000   # measured: about where it starts to beat the patch matrix
_WINOGRAD_CHANNELS = 16


def _winograd(dtype, kh, kw, ci, co, sh, sw, n, oh, ow):
    return (dtype == np.float32 and kh == kw == 3 and sh == sw == 1
            and min(ci, co) >= _WINOGRAD_CHANNELS and n * oh * ow * 9 * ci * co >= _WINOGRAD_MACS)


def _filter_rows(kh, kw, ci, n, oh, ow, itemsize):
    """Row blocks of the filter whose patch matrices fit in _PATCH_BYTES: [(start, stop)]."""
    if n * oh * ow * kh * kw * ci * itemsize <= _PATCH_BYTES:
        return [(0, kh)]
    return [(i, i + 1) for i in range(kh)]


def _patches(xp, rows, kw, sh, sw, oh, ow):
    """The windows of padded ``xp`` under filter rows ``rows`` as a (N*OH*OW, R*KW*C) matrix."""
    i0, i1 = rows
    n, c = xp.shape[0], xp.shape[3]
    cols = np.empty((n, oh, ow, i1 - i0, kw, c), xp.dtype)
    for i in range(i0, i1):  # one strided copy per filter tap (channels stay contiguous)
        for j in range(kw):
            cols[:, :, :, i - i0, j] = _window(xp, i, j, sh, sw, oh, ow)
    return cols.reshape(n * oh * ow, (i1 - i0) * kw * c)


def _conv_kernel(x, w, strides, padding, data_format="NHWC", dilations=None):
    kh, kw, ci, co = w.shape
    sh, sw, oh, ow, pads = _geometry(x.shape, kh, kw, strides, padding)
    n = x.shape[0]
    if min(n, oh, ow, co) <= 0:
        return np.zeros((n, oh, ow, co), dtype=x.dtype)
    xp = _padded(x, pads)
    if _winograd(x.dtype, kh, kw, ci, co, sh, sw, n, oh, ow):
        return winograd.conv3x3(xp, w, oh, ow)
    out = None
    for i0, i1 in _filter_rows(kh, kw, ci, n, oh, ow, x.itemsize):
        part = _patches(xp, (i0, i1), kw, sh, sw, oh, ow) @ w[i0:i1].reshape(-1, co)
        out = part if out is None else np.add(out, part, out=out)
    return out.reshape(n, oh, ow, co)


def _conv_dim(size, k, stride, padding):
    if size is None or k is None:
        return None
    return _out_and_pad(size, k, stride, padding)[0]


def _conv_shape(x, w, strides, padding, data_format="NHWC", dilations=None):
    xs, ws = x.shape, w.shape
    if xs.rank is not None and xs.rank != 4:
        raise shape_error(f"input must be 4-dimensional{fmt(xs)}")
    if ws.rank is not None and ws.rank != 4:
        raise shape_error(f"filter must be 4-dimensional: {fmt(ws)}")
    if xs.rank is None or ws.rank is None:
        return TensorShape([None] * 4), x.dtype
    n, h, wd, c = xs.dims
    kh, kw, ci, co = ws.dims
    if c is not None and ci is not None and c != ci:
        raise shape_error(f"input depth must be evenly divisible by filter depth: {c} vs {ci}")
    return TensorShape([n, _conv_dim(h, kh, strides[1], padding),
                        _conv_dim(wd, kw, strides[2], padding), co]), x.dtype


def _conv_grad(op, g):
    x, w = op.inputs
    attrs = {k: op.get_attr(k) for k in ("strides", "padding")}
    dx = bind(Conv2DBackpropInput, (shape_ops.shape(x), w, g), attrs)
    dw = bind(Conv2DBackpropFilter, (x, shape_ops.shape(w), g), attrs)
    return dx, dw


def _conv_input_grad_kernel(input_sizes, w, dy, strides, padding, data_format="NHWC",
                            dilations=None):
    shape = tuple(int(d) for d in input_sizes)
    kh, kw, ci, co = w.shape
    sh, sw, oh, ow, pads = _geometry(shape, kh, kw, strides, padding)
    pt, pb, pl, pr = pads
    n = shape[0]
    if _winograd(dy.dtype, kh, kw, ci, co, sh, sw, n, oh, ow):
        # stride 1: the input's gradient is the convolution of the output's gradient, padded to
        # the full overlap, with the filter turned half a turn and its channels swapped
        dyp = np.pad(dy, ((0, 0), (kh - 1 - pt, kh - 1 - pb), (kw - 1 - pl, kw - 1 - pr), (0, 0)))
        return winograd.conv3x3(dyp, np.ascontiguousarray(w[::-1, ::-1].transpose(0, 1, 3, 2)),
                                shape[1], shape[2])
    dxp = np.zeros((n, shape[1] + pt + pb, shape[2] + pl + pr, shape[3]), dy.dtype)
    if min(n, oh, ow, co) > 0:
        dy2 = dy.reshape(n * oh * ow, co)
        for i0, i1 in _filter_rows(kh, kw, ci, n, oh, ow, dy.itemsize):
            # the gradient of each patch, then each filter tap's share added where it was read
            dcols = (dy2 @ w[i0:i1].reshape(-1, co).T).reshape(n, oh, ow, i1 - i0, kw, ci)
            for i in range(i0, i1):
                for j in range(kw):
                    _window(dxp, i, j, sh, sw, oh, ow)[...] += dcols[:, :, :, i - i0, j]
    return dxp[:, pt:pt + shape[1], pl:pl + shape[2], :]


def _conv_filter_grad_kernel(x, filter_sizes, dy, strides, padding, data_format="NHWC",
                             dilations=None):
    kh, kw, ci, co = (int(d) for d in filter_sizes)
    sh, sw, oh, ow, pads = _geometry(x.shape, kh, kw, strides, padding)
    n = x.shape[0]
    dw = np.zeros((kh, kw, ci, co), dtype=x.dtype)
    if min(n, oh, ow, co) > 0 and _winograd(x.dtype, kh, kw, ci, co, sh, sw, n, oh, ow):
        return winograd.filter_grad3x3(_padded(x, pads), dy)
    if min(n, oh, ow, co) > 0:
        xp = _padded(x, pads)
        dy2 = dy.reshape(n * oh * ow, co)
        for i0, i1 in _filter_rows(kh, kw, ci, n, oh, ow, x.itemsize):
            part = _patches(xp, (i0, i1), kw, sh, sw, oh, ow).T @ dy2
            dw[i0:i1] = part.reshape(i1 - i0, kw, ci, co)
    return dw


def _sizes_shape(sizes):
    from ._core import constant_value
    v = constant_value(sizes)
    return TensorShape(None if v is None else [int(d) for d in v])


def _no_second_order(op, *grads):
    raise NotImplementedError(f"tfgraph_edu has no gradient of {op.type} (a second derivative "
                              "through a convolution or pooling).")


Conv2D = define("Conv2D", ("input", "filter"), _conv_kernel, _conv_shape, _conv_grad,
                T=(0, 1), dtypes=F)
Conv2DBackpropInput = define(
    "Conv2DBackpropInput", ("input_sizes", "filter", "out_backprop"), _conv_input_grad_kernel,
    lambda s, w, dy, **a: (_sizes_shape(s), w.dtype), _no_second_order, T=(1, 2), dtypes=F,
    input_dtypes={0: _dt.int32})
Conv2DBackpropFilter = define(
    "Conv2DBackpropFilter", ("input", "filter_sizes", "out_backprop"), _conv_filter_grad_kernel,
    lambda x, s, dy, **a: (_sizes_shape(s), x.dtype), _no_second_order, T=(0, 2), dtypes=F,
    input_dtypes={1: _dt.int32})


def _norm4(v, name):
    if isinstance(v, int):
        return [1, v, v, 1]
    v = list(v)
    if len(v) == 1:
        return [1, v[0], v[0], 1]
    if len(v) == 2:
        return [1, v[0], v[1], 1]
    if len(v) == 4:
        return v
    raise ValueError(f"{name} should be of length 1, 2 or 4. Received: {name}={v}")


def conv2d(input, filters, strides, padding, data_format="NHWC", dilations=None,
           name=None):  # noqa: A002
    """2-D convolution of NHWC ``input`` with HWIO ``filters`` (op ``Conv2D``)."""
    _check_nhwc(data_format)
    if dilations not in (None, 1, [1, 1, 1, 1], (1, 1, 1, 1)):
        raise NotImplementedError("tfgraph_edu's conv2d does not implement dilations.")
    padding = padding.upper() if isinstance(padding, str) else padding
    if padding not in ("SAME", "VALID"):
        raise ValueError(f"padding must be 'SAME' or 'VALID', got {padding!r}")
    return bind(Conv2D, (input, filters), {"strides": _norm4(strides, "strides"),
                                          "padding": padding}, name)


def _pool_kernel(x, ksize, strides, padding, data_format="NHWC"):
    kh, kw = ksize[1], ksize[2]
    sh, sw, oh, ow, pads = _geometry(x.shape, kh, kw, strides, padding)
    xp = _padded(x, pads, -np.inf)
    out = np.empty((x.shape[0], oh, ow, x.shape[3]), dtype=x.dtype)
    np.copyto(out, _window(xp, 0, 0, sh, sw, oh, ow))  # the first tap, then the others' max
    for i in range(kh):
        for j in range(kw):
            if i or j:
                np.maximum(out, _window(xp, i, j, sh, sw, oh, ow), out=out)
    return out


def _pool_shape(x, ksize, strides, padding, data_format="NHWC"):
    xs = x.shape
    if xs.rank is not None and xs.rank != 4:
        raise shape_error(f"input must be 4-dimensional{fmt(xs)}")
    if xs.rank is None:
        return TensorShape([None] * 4), x.dtype
    n, h, w, c = xs.dims
    return TensorShape([n, _conv_dim(h, ksize[1], strides[1], padding),
                        _conv_dim(w, ksize[2], strides[2], padding), c]), x.dtype


def _pool_grad_kernel(x, y, dy, ksize, strides, padding, data_format="NHWC"):
    kh, kw = ksize[1], ksize[2]
    sh, sw, oh, ow, pads = _geometry(x.shape, kh, kw, strides, padding)
    pt, pb, pl, pr = pads
    xp = _padded(x, pads, -np.inf)
    dxp = np.zeros(xp.shape, dtype=dy.dtype)
    taken = np.zeros(y.shape, dtype=bool)
    for i in range(kh):  # each output's gradient goes to the first maximum of its window
        for j in range(kw):
            hit = (_window(xp, i, j, sh, sw, oh, ow) == y) & ~taken
            _window(dxp, i, j, sh, sw, oh, ow)[...] += np.where(hit, dy, 0)
            taken |= hit
    return dxp[:, pt:pt + x.shape[1], pl:pl + x.shape[2], :]


def _maxpool_grad(op, g):
    attrs = {k: op.get_attr(k) for k in ("ksize", "strides", "padding")}
    return (bind(MaxPoolGrad, (op.inputs[0], op.outputs[0], g), attrs),)


MaxPool = define("MaxPool", ("input",), _pool_kernel, _pool_shape, _maxpool_grad, T=(0,),
                 dtypes=F)
MaxPoolGrad = define("MaxPoolGrad", ("orig_input", "orig_output", "grad"), _pool_grad_kernel,
                     lambda x, y, g, **a: (x.shape, x.dtype), _no_second_order, T=(0, 1, 2),
                     dtypes=F)


def max_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):  # noqa: A002
    """Max over ``ksize`` windows of NHWC ``input`` (op ``MaxPool``)."""
    _check_nhwc(data_format)
    padding = padding.upper()
    return bind(MaxPool, (input,), {"ksize": _norm4(ksize, "ksize"),
                                    "strides": _norm4(strides, "strides"),
                                    "padding": padding}, name)


def max_pool(input, ksize, strides, padding, data_format=None, name=None):  # noqa: A002
    """``tf.nn.max_pool``: TF's N-D pooling; tfgraph_edu implements the 4-D (NHWC) case."""
    x = convert.to_tensor(input)
    if x.shape.rank is not None and x.shape.rank != 4:
        raise NotImplementedError(
            f"tfgraph_edu's tf.nn.max_pool implements 4-D (NHWC) input only, got rank "
            f"{x.shape.rank}; reshape to [batch, height, width, channels].")
    return max_pool2d(x, ksize, strides, padding, data_format or "NHWC", name)


def embedding_lookup(params, ids, max_norm=None, name=None):
    """``tf.nn.embedding_lookup``: the rows ``ids`` of one ``params`` table (a gather)."""
    if max_norm is not None or isinstance(params, (list, tuple)):
        raise NotImplementedError("tfgraph_edu's tf.nn.embedding_lookup takes one params "
                                  "tensor and max_norm=None only yet.")
    from .indexing_ops import gather
    return gather(params, ids, name=name)


# -- BiasAdd ---------------------------------------------------------------------------------
def _channel_axis(ndim: int, data_format: str) -> int:
    return 1 if data_format.startswith("NC") else ndim - 1


def _bias_add_kernel(value, bias, data_format="NHWC"):
    v, b = np.asarray(value), np.asarray(bias)
    if b.ndim != 1:
        raise InvalidArgumentError(None, None, f"Biases must be 1D: {fmt(TensorShape(b.shape))}")
    if v.ndim < 2:
        raise InvalidArgumentError(None, None, "Input tensor must be at least 2D: "
                                               f"{fmt(TensorShape(v.shape))}")
    axis = _channel_axis(v.ndim, data_format)
    if v.shape[axis] != b.shape[0]:
        where = "last" if axis == v.ndim - 1 else "channel"
        raise InvalidArgumentError(
            None, None, f"Must provide as many biases as the {where} dimension of the input "
                        f"tensor: {fmt(TensorShape(b.shape))} vs. {fmt(TensorShape(v.shape))}")
    shape = [1] * v.ndim
    shape[axis] = b.shape[0]
    return v + b.reshape(shape)


def _bias_add_shape(value, bias, data_format="NHWC"):
    s, b = value.shape, bias.shape
    if b.rank is not None and b.rank != 1:
        raise shape_error(f"Shape must be rank 1 but is rank {b.rank}")
    if s.rank is not None:
        if s.rank < 2:
            raise shape_error(f"Shape must be at least rank 2 but is rank {s.rank}")
        c = s.dims[_channel_axis(s.rank, data_format)]
        n = b.dims[0] if b.rank == 1 else None
        if c is not None and n is not None and c != n:
            raise shape_error(f"Dimensions must be equal, but are {c} and {n}")
    return s, value.dtype


def _bias_add_grad(op, g):
    fmt_ = op.attrs.get("data_format", "NHWC")
    return g, bind(BiasAddGrad, (g,), {"data_format": fmt_}, "BiasAddGrad")


def _bias_grad_kernel(out_backprop, data_format="NHWC"):
    g = np.asarray(out_backprop)
    axis = _channel_axis(g.ndim, data_format)
    return g.sum(axis=tuple(i for i in range(g.ndim) if i != axis)).astype(g.dtype, copy=False)


def _bias_grad_shape(out_backprop, data_format="NHWC"):
    s = out_backprop.shape
    if s.rank is None:
        return TensorShape([None]), out_backprop.dtype
    return TensorShape([s.dims[_channel_axis(s.rank, data_format)]]), out_backprop.dtype


BiasAddGrad = define("BiasAddGrad", ("out_backprop",), _bias_grad_kernel, _bias_grad_shape,
                     None, T=(0,), dtypes=_dt.NUMERIC)
BiasAdd = define("BiasAdd", ("value", "bias"), _bias_add_kernel, _bias_add_shape,
                 _bias_add_grad, T=(0, 1), dtypes=_dt.NUMERIC)


def bias_add(value, bias, data_format=None, name=None):
    """``value`` plus the 1-D ``bias`` along its channel dimension: the last one, or the
    second with ``data_format`` ``"NC..."`` (op ``BiasAdd``)."""
    if data_format is None:
        data_format = "NHWC"
    elif data_format.startswith("NC"):
        data_format = "NCHW"
    elif data_format.startswith("N") and data_format.endswith("C"):
        data_format = "NHWC"
    else:
        raise ValueError("data_format must be of the form `N...C` or `NC...`")
    value = convert.to_tensor(value)
    bias = convert.to_tensor(bias, dtype=value.dtype)
    return bind(BiasAdd, (value, bias), {"data_format": data_format}, name or "BiasAdd")
