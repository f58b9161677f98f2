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
from . import array_ops, convert, math_ops, reduction_ops
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
    with np.errstate(over="ignore"):
        return np.where(x > 0, x, np.expm1(np.minimum(x, 0))).astype(x.dtype, copy=False)


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
    g_logits = math_ops.multiply(array_ops.expand_dims(g, -1), op.outputs[1])
    if gg is not None:
        g_logits = math_ops.add(g_logits, _softmax_jvp(op, gg))
    if op.inputs[1].dtype.is_integer:  # sparse: integer labels have no gradient
        return g_logits, None
    g_labels = math_ops.multiply(array_ops.expand_dims(g, -1),
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
    return array_ops.reshape(t, [-1, t.shape[-1]])


def softmax_cross_entropy_with_logits(labels, logits, axis=-1, name=None):
    """-sum(labels * log_softmax(logits)) over the last axis; gradients flow to logits only."""
    if axis not in (-1, None):
        raise NotImplementedError("tfgraph_edu implements the class axis as the last axis only.")
    logits = convert.to_tensor(logits)
    labels = array_ops.stop_gradient(convert.to_tensor(labels, dtype=logits.dtype))
    batch_shape = logits.shape.dims[:-1] if logits.shape.rank is not None else None
    loss, _ = bind(SoftmaxCrossEntropyWithLogits,
                   (_flatten_to_2d(logits), _flatten_to_2d(labels)), None, name)
    if logits.shape.rank != 2 and batch_shape is not None and None not in batch_shape:
        loss = array_ops.reshape(loss, batch_shape)
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
                   (_flatten_to_2d(logits), array_ops.reshape(labels, [-1])), None, name)
    if batch_shape is not None and None not in batch_shape:
        loss = array_ops.reshape(loss, batch_shape)
    return loss


def sigmoid_cross_entropy_with_logits(labels=None, logits=None, name=None):
    """max(x, 0) - x * z + log(1 + exp(-|x|)), TensorFlow's stable formula, from public ops."""
    logits = convert.to_tensor(logits)
    labels = convert.to_tensor(labels, dtype=logits.dtype)
    if not logits.shape.is_compatible_with(labels.shape):
        raise ValueError(f"`logits` and `labels` must have the same shape, received "
                         f"({logits.shape} vs {labels.shape}).")
    relu_logits = math_ops.maximum(logits, array_ops.zeros_like(logits))
    neg_abs = math_ops.negative(math_ops.abs(logits))
    return math_ops.add(math_ops.subtract(relu_logits, math_ops.multiply(logits, labels)),
                        softplus(neg_abs), name=name)
