"""Registry cases for the ops the guides need (strings, nn, linalg, extra math, py_function).

References are written with numpy and plain Python, independently of the kernels.
"""

from __future__ import annotations

import math

import numpy as np

import tfgraph_edu as tf

from .cases import Case, f32, i32


def _obj(*values):
    a = np.empty(len(values), dtype=object)
    a[:] = [v.encode() if isinstance(v, str) else v for v in values]
    return a


def _s(v):
    return np.array(v.encode(), dtype=object)


def _log_softmax(x):
    z = x - x.max(-1, keepdims=True)
    return z - np.log(np.exp(z).sum(-1, keepdims=True))


def _softmax(x):
    return np.exp(_log_softmax(x))


LOGITS = f32(3, 4)
ONEHOT = np.eye(4, dtype=np.float32)[[1, 3, 0]]
SOFT_LABELS = np.array([[0.1, 0.2, 0.3, 0.4], [0.0, 0.5, 0.5, 0.0], [1, 0, 0, 0]], np.float32)
SQ = (np.eye(3) * 3 + f32(3, 3, lo=-0.5, hi=0.5)).astype(np.float32)
RHS = f32(3, 2)


def _elu(x):
    return np.where(x > 0, x, np.exp(np.minimum(x, 0)) - 1)


API_CASES = {
    # strings
    "StringJoin": [Case([_obj("a", "bc"), _s("x")], lambda a, b: _obj("a-x", "bc-x"),
                        {"separator": "-"})],
    "StringLength": [Case([_obj("", "abc", "héllo")], lambda x: i32(0, 3, 6), {"unit": "BYTE"}),
                     Case([_obj("héllo")], lambda x: i32(5), {"unit": "UTF8_CHAR"})],
    "StringUpper": [Case([_obj("aB c")], lambda x: _obj("AB C"), {"encoding": ""})],
    "StringLower": [Case([_obj("aB C")], lambda x: _obj("ab c"), {"encoding": ""})],
    "StringToNumber": [Case([_obj("1.5", "-2", " 3e2")],
                            lambda x: np.array([1.5, -2.0, 300.0], np.float32),
                            {"out_type": tf.float32}),
                       Case([_obj("12", "-7")], lambda x: i32(12, -7), {"out_type": tf.int32})],
    "AsString": [Case([i32(3, -1)], lambda x: _obj("3", "-1"), {}),
                 Case([np.float32(2.5)], lambda x: _s("2.500000"), {})],
    "StringSplitScalar": [Case([_s("a bb  c")], lambda x: _obj("a", "bb", "c"),
                               {"sep": "", "maxsplit": -1}),
                          Case([_s("a,b,,c")], lambda x: _obj("a", "b", "", "c"),
                               {"sep": ",", "maxsplit": -1})],
    # nn
    "Softplus": [Case([f32(2, 3, lo=-4, hi=4)], lambda x: np.log1p(np.exp(x)), grad=(0,))],
    "Elu": [Case([f32(2, 3)], _elu, grad=(0,))],
    "EluGrad": [Case([f32(4), np.array([-0.5, 0.0, 1.0, 2.0], np.float32)],
                     lambda g, y: np.where(y > 0, g, g * (y + 1)))],
    "SoftmaxCrossEntropyWithLogits": [
        Case([LOGITS, SOFT_LABELS],
             lambda x, y: ((-(y * _log_softmax(x)).sum(-1)), _softmax(x) - y), grad=(0, 1))],
    "SparseSoftmaxCrossEntropyWithLogits": [
        Case([LOGITS, i32(1, 3, 0)],
             lambda x, y: (-_log_softmax(x)[np.arange(3), y], _softmax(x) - ONEHOT), grad=(0,))],
    # linalg
    "MatrixInverse": [Case([SQ], np.linalg.inv, {"adjoint": False}, grad=(0,))],
    "MatrixDeterminant": [Case([SQ], np.linalg.det, grad=(0,)),
                          Case([np.stack([SQ, SQ.T * 2])], np.linalg.det, grad=(0,))],
    "MatrixSolve": [Case([SQ, RHS], np.linalg.solve, {"adjoint": False}, grad=(0, 1)),
                    Case([SQ, RHS], lambda a, b: np.linalg.solve(a.T, b), {"adjoint": True},
                         grad=(0, 1))],
    "Einsum": [Case([f32(2, 3), f32(3, 4)], lambda a, b: a @ b,
                    {"equation": "ij,jk->ik", "N": 2}, grad=(0, 1)),
               Case([f32(2, 3), f32(2, 3)], lambda a, b: (a * b).sum(1),
                    {"equation": "ij,ij->i", "N": 2}, grad=(0, 1))],
    # extra math
    "LinSpace": [Case([np.float32(-1.0), np.float32(1.0), np.int32(5)],
                      lambda a, b, n: np.array([-1, -0.5, 0, 0.5, 1], np.float32))],
    "Ceil": [Case([np.array([-1.5, 0.2, 2.0], np.float32)], lambda x: np.array([-1, 1, 2]))],
    "Floor": [Case([np.array([-1.5, 0.2, 2.0], np.float32)], lambda x: np.array([-2, 0, 2]))],
    "Round": [Case([np.array([0.5, 1.5, 2.5, -0.5, 2.6], np.float32)],
                   lambda x: np.array([round(v) for v in x.tolist()]))],  # Python: half to even
    "Log1p": [Case([f32(2, 3, lo=0.0, hi=2.0)], lambda x: np.array(
        [[math.log1p(v) for v in r] for r in x.tolist()]), grad=(0,))],
    "Reciprocal": [Case([f32(2, 3, lo=0.5, hi=2.0)], lambda x: 1.0 / x, grad=(0,))],
    "IsNan": [Case([np.array([np.nan, 1.0, np.inf], np.float32)],
                   lambda x: np.array([True, False, False]))],
}

def _conv_ref(x, w, stride, padding):
    """Direct convolution by loops over output positions (independent of the kernel)."""
    kh, kw, _, co = w.shape
    n, h, wd, _ = x.shape
    if padding == "SAME":
        oh, ow = -(-h // stride), -(-wd // stride)
        ph = max((oh - 1) * stride + kh - h, 0)
        pw = max((ow - 1) * stride + kw - wd, 0)
        x = np.pad(x, ((0, 0), (ph // 2, ph - ph // 2), (pw // 2, pw - pw // 2), (0, 0)))
    else:
        oh, ow = (h - kh) // stride + 1, (wd - kw) // stride + 1
    out = np.zeros((n, oh, ow, co))
    for a in range(oh):
        for b in range(ow):
            patch = x[:, a * stride:a * stride + kh, b * stride:b * stride + kw, :]
            out[:, a, b, :] = np.tensordot(patch, w, axes=([1, 2, 3], [0, 1, 2]))
    return out


def _pool_ref(x, k, stride):
    n, h, wd, c = x.shape
    oh, ow = (h - k) // stride + 1, (wd - k) // stride + 1
    out = np.zeros((n, oh, ow, c))
    for a in range(oh):
        for b in range(ow):
            out[:, a, b, :] = x[:, a * stride:a * stride + k, b * stride:b * stride + k].max((1, 2))
    return out


IMG = f32(2, 5, 6, 3)
FIL = f32(3, 2, 3, 4)
IMG3 = f32(2, 3, 2)
API_CASES.update({
    "StringBytesSplit": [Case([_s("Duck")], lambda x: _obj(b"D", b"u", b"c", b"k"))],
    "UnicodeSplit": [Case([_s("aé🦆")], lambda x: _obj("a", "é", "🦆"),
                          {"input_encoding": "UTF-8"})],
    "UnicodeDecode": [Case([_s("aé🦆")], lambda x: i32(97, 233, 129414),
                           {"input_encoding": "UTF-8"})],
    "DecodeRaw": [Case([_s("Duck")], lambda x: np.array([68, 117, 99, 107], np.uint8),
                       {"out_type": tf.uint8, "little_endian": True}),
                  Case([_obj(b"\x01\x00", b"\x00\x01")], lambda x: np.array([[1], [256]],
                                                                                np.int16),
                       {"out_type": tf.int16, "little_endian": True})],
    "SparseToDense": [Case([np.array([[0, 0], [1, 2]], np.int64), np.array([3, 4], np.int64),
                            i32(1, 2), np.int32(0)],
                           lambda i, s, v, d: np.array([[1, 0, 0, 0], [0, 0, 2, 0],
                                                        [0, 0, 0, 0]]),
                           {"validate_indices": True})],
    "AdjustContrastv2": [Case([IMG3, np.float32(0.5)],
                              lambda x, f: (x - x.mean((0, 1))) * f + x.mean((0, 1)))],
    "Conv2D": [Case([IMG, FIL], lambda x, w: _conv_ref(x, w, 1, "VALID"),
                    {"strides": [1, 1, 1, 1], "padding": "VALID"}, grad=(0, 1)),
               Case([IMG, FIL], lambda x, w: _conv_ref(x, w, 2, "SAME"),
                    {"strides": [1, 2, 2, 1], "padding": "SAME"}, grad=(0, 1))],
    "MaxPool": [Case([IMG], lambda x: _pool_ref(x, 2, 2),
                     {"ksize": [1, 2, 2, 1], "strides": [1, 2, 2, 1], "padding": "VALID"},
                     grad=(0,))],
    "PadV2": [Case([f32(2, 2), np.array([[0, 1], [2, 0]], np.int32), np.float32(-3.0)],
                   lambda x, p, c: np.pad(x, ((0, 1), (2, 0)), constant_values=-3.0),
                   grad=(0,))],
})

# segment reductions: distinct values (no ties), numpy references row by row
_SEG = np.array([[0.5, -1.0], [2.0, 3.0], [-1.5, 0.25], [4.0, 1.0], [0.75, -2.0]], np.float32)
_SEG_IDS = np.array([0, 0, 2, 2, 2], np.int32)
_USEG_IDS = np.array([1, 0, 2, 3, 1], np.int32)  # every bucket written (finite loss)


def _by_segment(data, ids, n, reduce, empty):
    return np.array([reduce(data[ids == k], axis=0) if (ids == k).any()
                     else np.full(data.shape[1:], empty, data.dtype) for k in range(n)],
                    data.dtype)


API_CASES.update({
    "SegmentSum": [Case([_SEG, _SEG_IDS], lambda d, i: _by_segment(d, i, 3, np.sum, 0),
                        grad=(0,))],
    "SegmentMean": [Case([_SEG, _SEG_IDS], lambda d, i: _by_segment(d, i, 3, np.mean, 0),
                         grad=(0,))],
    "SegmentMax": [Case([_SEG, _SEG_IDS], lambda d, i: _by_segment(d, i, 3, np.max, 0),
                        grad=(0,))],
    "SegmentMin": [Case([_SEG, _SEG_IDS], lambda d, i: _by_segment(d, i, 3, np.min, 0),
                        grad=(0,))],
    "UnsortedSegmentMax": [Case(
        [_SEG, _USEG_IDS, np.int32(4)],
        lambda d, i, n: _by_segment(d, i, 4, np.max, np.finfo(np.float32).min), grad=(0,))],
    "UnsortedSegmentMin": [Case(
        [_SEG, _USEG_IDS, np.int32(4)],
        lambda d, i, n: _by_segment(d, i, 4, np.min, np.finfo(np.float32).max), grad=(0,))],
})

API_TESTED_ELSEWHERE = {
    "Conv2DBackpropInput": "Conv2D's gradient case (central differences)",
    "Conv2DBackpropFilter": "Conv2D's gradient case (central differences)",
    "MaxPoolGrad": "MaxPool's gradient case (central differences)",
    "EagerPyFunc": "tests/guides/test_api_ops.py (py_function)",
    "PyFunc": "tests/guides/test_api_ops.py (numpy_function)",
    "MakeIterator": "tests/guides/test_data.py (for over a dataset in tf.function)",
    "IteratorHasNext": "tests/guides/test_data.py",
    "IteratorGetNext": "tests/guides/test_data.py",
}
