"""Sample inputs and independent numpy references for every op in the registry.

Each Case gives the op's inputs (numpy values), its attributes, a reference
written directly with numpy (not with tfgraph_edu's kernels), and the inputs
whose gradient is checked against central differences.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

import tfgraph_edu as tf

rng = np.random.default_rng(0)


def f32(*shape, lo=-2.0, hi=2.0):
    return rng.uniform(lo, hi, shape).astype(np.float32)


def i32(*values):
    return np.array(values, dtype=np.int32)


@dataclass
class Case:
    inputs: list
    ref: Callable
    attrs: dict = field(default_factory=dict)
    grad: tuple = ()  # inputs to check by central differences
    label: str = ""


def _unbroadcast_ok(x):
    return x


A, B = f32(2, 3), f32(3)
POS = f32(2, 3, lo=0.5, hi=3.0)
M1, M2 = f32(2, 3), f32(3, 4)
BOOL1 = np.array([True, False, True, False])
BOOL2 = np.array([True, True, False, False])
I1, I2 = i32(7, -7, 3, 0), i32(2, 2, -2, 5)


def sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def softmax(x):
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def strided(x, idx):
    return x[idx]


CASES: dict[str, list[Case]] = {
    "AddV2": [Case([A, B], np.add, grad=(0, 1)), Case([I1, I2], np.add)],
    "Sub": [Case([A, B], np.subtract, grad=(0, 1))],
    "Mul": [Case([A, B], np.multiply, grad=(0, 1))],
    "RealDiv": [Case([A, POS[0]], np.true_divide, grad=(0, 1))],
    "FloorDiv": [Case([I1, I2], lambda x, y: np.floor_divide(x, y)),
                 Case([A, POS], np.floor_divide)],
    "FloorMod": [Case([I1, I2], np.mod), Case([A, POS], np.mod, grad=(0,))],
    "Pow": [Case([POS, f32(3)], np.power, grad=(0, 1)), Case([I1, i32(2, 2, 3, 1)], np.power)],
    "Maximum": [Case([A, B], np.maximum, grad=(0, 1))],
    "Minimum": [Case([A, B], np.minimum, grad=(0, 1))],
    "Neg": [Case([A], np.negative, grad=(0,))],
    "Abs": [Case([A], np.abs, grad=(0,)), Case([I1], np.abs)],
    "Sign": [Case([A], np.sign, grad=(0,))],
    "Square": [Case([A], np.square, grad=(0,))],
    "Sqrt": [Case([POS], np.sqrt, grad=(0,))],
    "Exp": [Case([A], np.exp, grad=(0,))],
    "Log": [Case([POS], np.log, grad=(0,))],
    "Sin": [Case([A], np.sin, grad=(0,))],
    "Cos": [Case([A], np.cos, grad=(0,))],
    "Tanh": [Case([A], np.tanh, grad=(0,))],
    "Sigmoid": [Case([A], sigmoid, grad=(0,))],
    "Relu": [Case([A], lambda x: np.where(x > 0, x, 0), grad=(0,))],
    "ReluGrad": [Case([A, A], lambda g, y: g * (y > 0))],
    "Softmax": [Case([A], softmax, grad=(0,))],
    "LogSoftmax": [Case([A], lambda x: np.log(softmax(x)), grad=(0,))],
    "Greater": [Case([A, B], np.greater)],
    "GreaterEqual": [Case([I1, I2], np.greater_equal)],
    "Less": [Case([A, B], np.less)],
    "LessEqual": [Case([I1, I2], np.less_equal)],
    "Equal": [Case([I1, i32(7, 0, 3, 1)], np.equal)],
    "NotEqual": [Case([I1, i32(7, 0, 3, 1)], np.not_equal)],
    "LogicalAnd": [Case([BOOL1, BOOL2], np.logical_and)],
    "LogicalOr": [Case([BOOL1, BOOL2], np.logical_or)],
    "LogicalNot": [Case([BOOL1], np.logical_not)],
    "MatMul": [Case([M1, M2], np.matmul, {"transpose_a": False, "transpose_b": False},
                    grad=(0, 1)),
               Case([M1.T.copy(), M2.T.copy()], lambda a, b: a.T @ b.T,
                    {"transpose_a": True, "transpose_b": True}, grad=(0, 1)),
               Case([M1.T.copy(), M2], lambda a, b: a.T @ b,
                    {"transpose_a": True, "transpose_b": False}, grad=(0, 1)),
               Case([M1, M2.T.copy()], lambda a, b: a @ b.T,
                    {"transpose_a": False, "transpose_b": True}, grad=(0, 1))],
    "BatchMatMulV2": [Case([f32(2, 2, 3), f32(3, 4)], np.matmul, {"adj_x": False, "adj_y": False},
                           grad=(0, 1)),
                      Case([f32(2, 3, 2), f32(3, 4)], lambda a, b: np.swapaxes(a, 1, 2) @ b,
                           {"adj_x": True, "adj_y": False}, grad=(0, 1)),
                      Case([f32(2, 2, 3), f32(4, 3)], lambda a, b: a @ b.T,
                           {"adj_x": False, "adj_y": True}, grad=(0, 1)),
                      Case([f32(3, 2), f32(2, 4, 3)],
                           lambda a, b: a.T @ np.swapaxes(b, 1, 2),
                           {"adj_x": True, "adj_y": True}, grad=(0, 1))],
    "Cast": [Case([A], lambda x: np.trunc(x).astype(np.int32),
                  {"SrcT": tf.float32, "DstT": tf.int32, "Truncate": False}),
             Case([A], lambda x: x.astype(np.float64),
                  {"SrcT": tf.float32, "DstT": tf.float64, "Truncate": False}, grad=(0,))],
    "AddN": [Case([A, A * 2, A * 3], lambda *xs: sum(xs), grad=(0, 1, 2))],
    "CheckNumericsV2": [Case([A], lambda x: x, {"message": "m"}, grad=(0,))],
    # array ops
    "Identity": [Case([A], lambda x: x, grad=(0,))],
    "StopGradient": [Case([A], lambda x: x)],
    "Shape": [Case([A], lambda x: np.array(x.shape, np.int32), {"out_type": tf.int32})],
    "Size": [Case([A], lambda x: np.int32(x.size), {"out_type": tf.int32})],
    "Rank": [Case([A], lambda x: np.int32(x.ndim))],
    "Reshape": [Case([A, i32(3, -1)], lambda x, s: x.reshape(3, 2), grad=(0,))],
    "Fill": [Case([i32(2, 3), np.float32(1.5)], lambda d, v: np.full((2, 3), v, np.float32),
                  grad=(1,))],
    "ZerosLike": [Case([A], np.zeros_like)],
    "OnesLike": [Case([A], np.ones_like)],
    "Transpose": [Case([f32(2, 3, 4), i32(2, 0, 1)], lambda x, p: np.transpose(x, (2, 0, 1)),
                       grad=(0,))],
    "InvertPermutation": [Case([i32(2, 0, 1)], lambda p: np.argsort(p).astype(np.int32))],
    "ExpandDims": [Case([A, i32(1)], lambda x, a: x[:, None, :], grad=(0,))],
    "Squeeze": [Case([f32(2, 1, 3)], lambda x: x[:, 0, :], {"squeeze_dims": ()}, grad=(0,))],
    "ConcatV2": [Case([A, f32(1, 3)], lambda a, b: np.concatenate([a, b], 0), {"axis": 0},
                      grad=(0, 1))],
    "Pack": [Case([B, B * 2], lambda a, b: np.stack([a, b], 1), {"axis": 1, "N": 2},
                  grad=(0, 1))],
    "Unpack": [Case([A], lambda x: (x[:, 0], x[:, 1], x[:, 2]), {"num": 3, "axis": 1},
                    grad=(0,))],
    "SplitV": [Case([A, i32(1, 2)], lambda x, s: (x[:, :1], x[:, 1:]),
                    {"axis": 1, "num_split": 2}, grad=(0,))],
    "Tile": [Case([A, i32(2, 1)], lambda x, m: np.concatenate([x, x], 0), grad=(0,))],
    "BroadcastTo": [Case([B, i32(2, 3)], lambda x, s: np.stack([x, x]), grad=(0,))],
    "BroadcastGradientArgs": [Case([i32(2, 3), i32(3)], lambda a, b: (i32(), i32(0)))],
    "Pad": [Case([A, np.array([[1, 0], [0, 2]], np.int32)],
                  lambda x, p: np.pad(x, ((1, 0), (0, 2))), grad=(0,))],
    "Slice": [Case([A, i32(0, 1), i32(2, -1)], lambda x, b, s: x[0:2, 1:], grad=(0,))],
    "StridedSlice": [
        Case([A, i32(1, 0), i32(2, 3), i32(1, 2)], lambda x, *_: x[1, ::2],
             {"begin_mask": 2, "end_mask": 2, "ellipsis_mask": 0, "new_axis_mask": 0,
              "shrink_axis_mask": 1}, grad=(0,)),
        Case([f32(2, 3, 4), i32(0, 0), i32(0, 0), i32(1, 1)], lambda x, *_: x[..., None],
             {"begin_mask": 0, "end_mask": 0, "ellipsis_mask": 1, "new_axis_mask": 2,
              "shrink_axis_mask": 0}, grad=(0,))],
    "StridedSliceGrad": [
        Case([i32(2, 3), i32(1, 0), i32(2, 3), i32(1, 2), f32(2)],
             lambda s, b, e, st, dy: np.array([[0, 0, 0], [dy[0], 0, dy[1]]], np.float32),
             {"begin_mask": 2, "end_mask": 2, "ellipsis_mask": 0, "new_axis_mask": 0,
              "shrink_axis_mask": 1}, grad=(4,))],
    "GatherV2": [Case([A, i32(1, 0, 1), np.int32(0)], lambda p, i, a: p[[1, 0, 1]], grad=(0,)),
                 Case([A, i32(2, 0), np.int32(1)], lambda p, i, a: p[:, [2, 0]], grad=(0,))],
    "UnsortedSegmentSum": [Case([A, i32(1, 1), np.int32(3)],
                                lambda d, i, n: np.stack([0 * d[0], d[0] + d[1], 0 * d[0]]),
                                grad=(0,))],
    "OneHot": [Case([i32(0, 2), np.int32(3), np.float32(1), np.float32(0)],
                    lambda i, d, on, off: np.eye(3, dtype=np.float32)[[0, 2]], {"axis": -1})],
    "SelectV2": [Case([BOOL1[:3], B, B * 3], lambda c, t, e: np.where(c, t, e), grad=(1, 2))],
    "Where": [Case([BOOL1], lambda c: np.array([[0], [2]], np.int64))],
    "Range": [Case([np.int32(1), np.int32(8), np.int32(3)], lambda *_: i32(1, 4, 7),
                   {"Tidx": tf.int32})],
    "MatrixDiag": [Case([B], np.diag, grad=(0,))],
    "MatrixDiagPart": [Case([f32(3, 3)], np.diagonal, grad=(0,))],
    "ReverseV2": [Case([A, i32(1)], lambda x, a: x[:, ::-1], grad=(0,))],
    # reductions
    "Sum": [Case([A, i32(1)], lambda x, a: x.sum(1), {"keep_dims": False}, grad=(0,)),
            Case([A, i32(0, 1)], lambda x, a: x.sum(keepdims=True), {"keep_dims": True},
                 grad=(0,))],
    "Mean": [Case([A, i32(0)], lambda x, a: x.mean(0), {"keep_dims": False}, grad=(0,)),
             Case([i32(1, 2, 4), i32(0)], lambda x, a: np.int32(2), {"keep_dims": False})],
    "Prod": [Case([POS, i32(1)], lambda x, a: x.prod(1), {"keep_dims": False}, grad=(0,))],
    "Max": [Case([A, i32(1)], lambda x, a: x.max(1), {"keep_dims": False}, grad=(0,))],
    "Min": [Case([A, i32(0)], lambda x, a: x.min(0, keepdims=True), {"keep_dims": True},
                  grad=(0,))],
    "All": [Case([np.stack([BOOL1, BOOL2]), i32(0)], lambda x, a: x.all(0),
                 {"keep_dims": False})],
    "Any": [Case([np.stack([BOOL1, BOOL2]), i32(1)], lambda x, a: x.any(1),
                 {"keep_dims": False})],
    "ArgMax": [Case([A, np.int32(1)], lambda x, a: x.argmax(1), {"output_type": tf.int64})],
    "ArgMin": [Case([A, np.int32(0)], lambda x, a: x.argmin(0).astype(np.int32),
                    {"output_type": tf.int32})],
    "Cumsum": [Case([A, np.int32(1)], lambda x, a: np.cumsum(x, 1),
                    {"exclusive": False, "reverse": False}, grad=(0,)),
               Case([A, np.int32(1)], lambda x, a: np.cumsum(x[:, ::-1], 1)[:, ::-1] - x,
                    {"exclusive": True, "reverse": True}, grad=(0,))],
    "StringFormat": [Case([i32(1, 2, 3), np.float32(2.5)],
                          lambda a, b: np.array(b"a: [1 2 3] b: 2.5", dtype=object),
                          {"template": "a: {} b: {}", "placeholder": "{}", "summarize": 3})],
    "DynamicStitch": [Case([i32(0, 2), i32(1), i32(10, 30), i32(20)],
                           lambda *_: i32(10, 20, 30), {"N": 2})],
}

# Ops exercised by their own tests rather than the generic table: their kernels
# need state (variables, randomness) or have no inputs.
TESTED_ELSEWHERE = {
    "Const": "tests/eager/test_tensor.py (tf.constant)",
    "BiasAdd": "tests/ops/test_bias_add.py (values and errors recorded from TF 2.21)",
    "BiasAddGrad": "tests/ops/test_bias_add.py (the gradient, recorded from TF 2.21)",
    "Placeholder": "tests/graph/test_graph_builder.py",
    "NoOp": "tests/graph/test_graph_builder.py",
    "Assert": "tests/autograph/test_loop_locals.py (a loop that must iterate once)",
    "ReadVariableOp": "tests/eager/test_variables.py",
    "AssignVariableOp": "tests/eager/test_variables.py",
    "AssignAddVariableOp": "tests/eager/test_variables.py",
    "AssignSubVariableOp": "tests/eager/test_variables.py",
    "RandomStandardNormal": "tests/ops/test_random.py",
    "StringToHashBucketFast": "tests/ops/test_string_hash.py (TF 2.21's buckets)",
    "Substr": "tests/ops/test_string_hash.py (TF 2.21's substrings)",
    **{name: "tests/ops/test_random_generator.py" for name in (
        "RngReadAndSkip", "StatelessRandomNormalV2", "StatelessRandomUniformV2",
        "StatelessTruncatedNormalV2", "StatelessRandomUniformIntV2",
        "StatelessRandomUniformFullIntV2", "StatelessRandomGetKeyCounter")},
    "RandomUniform": "tests/ops/test_random.py",
    "RandomShuffle": "tests/ops/test_random_shuffle.py",
    "Cumprod": "tests/ops/test_cumprod_trace_broadcast.py",
    "BroadcastArgs": "tests/ops/test_cumprod_trace_broadcast.py",
    "RandomUniformInt": "tests/ops/test_random.py",
    "TruncatedNormal": "tests/ops/test_random.py",
    "PrintV2": "tests/function/test_print.py",
    "Timestamp": "tests/ops/test_timestamp.py (the clock: no fixed value to compare)",
    "If": "tests/function/test_control_flow.py",
    "TensorListReserve": "tests/function/test_tensor_array.py",
    "TensorListSetItem": "tests/function/test_tensor_array.py",
    "TensorListGetItem": "tests/function/test_tensor_array.py",
    "TensorListStack": "tests/function/test_tensor_array.py",
    "TensorListLength": "tests/function/test_tensor_array.py",
    "TensorListFromTensor": "tests/function/test_tensor_array.py",
    "StatelessIf": "tests/function/test_control_flow.py",
    "While": "tests/function/test_control_flow.py",
    "StatelessWhile": "tests/function/test_control_flow.py",
    "IdentityN": "tests/gradients/test_custom_gradient.py",
    "PartitionedCall": "tests/gradients/test_function_calls.py",
    "TensorListAddN": "tests/gradients/test_tensor_array_gradients.py",
    **{name: "tests/ops/test_probe_differences.py (values recorded from TF)" for name in (
        "Invert", "BitwiseAnd", "BitwiseOr", "BitwiseXor", "LeftShift", "RightShift",
        "ComplexAbs", "Real", "Imag", "Angle", "Conj", "Complex")},
}

from .cases_api import API_CASES, API_TESTED_ELSEWHERE  # noqa: E402 - needs Case defined above

CASES.update(API_CASES)
TESTED_ELSEWHERE.update(API_TESTED_ELSEWHERE)

from .cases_apis import APIS_CASES, APIS_TESTED_ELSEWHERE  # noqa: E402

CASES.update(APIS_CASES)
TESTED_ELSEWHERE.update(APIS_TESTED_ELSEWHERE)
