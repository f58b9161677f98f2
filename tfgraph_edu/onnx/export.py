"""Graph -> ONNX model (layer 10)."""

from __future__ import annotations

import numpy as np

OPSET = 17
_SAME = {"AddV2": "Add", "Sub": "Sub", "Mul": "Mul", "RealDiv": "Div", "Relu": "Relu",
         "Sigmoid": "Sigmoid", "Tanh": "Tanh", "Exp": "Exp", "Log": "Log", "Sqrt": "Sqrt",
         "Neg": "Neg", "Abs": "Abs", "Pow": "Pow", "Maximum": "Max", "Minimum": "Min",
         "Identity": "Identity", "StopGradient": "Identity", "ReadVariableOp": "Identity",
         "Greater": "Greater", "Less": "Less", "Equal": "Equal", "GreaterEqual": "GreaterOrEqual",
         "LessEqual": "LessOrEqual", "SelectV2": "Where", "LogicalNot": "Not",
         "LogicalAnd": "And", "LogicalOr": "Or", "Sin": "Sin", "Cos": "Cos", "Sign": "Sign",
         "BatchMatMulV2": "MatMul", "FloorDiv": "Div"}


def _const(t):
    return t.op.attrs["value"] if t.op.type == "Const" else None


def export(concrete_function, path, opset: int = OPSET):
    """Write ``concrete_function`` (its optimised graph) as an ONNX model at ``path``;
    returns the ``onnx.ModelProto``."""
    import onnx
    from onnx import helper, numpy_helper

    cf = concrete_function
    graph = cf.optimized_graph
    unsupported = sorted({op.type for op in graph.operations if not _supported(op)})
    if unsupported:
        raise ValueError(f"These ops have no ONNX counterpart in tfgraph_edu's exporter: "
                         f"{', '.join(unsupported)}. Export a function without them (tf.print, "
                         "control flow and random ops stay in Python).")

    def etype(dtype):
        return helper.np_dtype_to_tensor_dtype(np.dtype(dtype.np_dtype))

    n_args = len(cf._arg_placeholders)
    arg_names = {id(t): t for t in graph.inputs[:n_args]}
    captured = dict(zip([id(t) for t in graph.inputs[n_args:]], cf._capture_values))
    name = {}  # id(tensor) -> ONNX value name
    nodes, inits, inputs = [], [], []
    counter = [0]

    def fresh(base):
        counter[0] += 1
        return f"{base}__{counter[0]}"

    def init(value, base):
        n = fresh(base)
        inits.append(numpy_helper.from_array(np.asarray(value), n))
        return n

    for op in graph.operations:
        outs = [t.name for t in op.outputs]
        for t, o in zip(op.outputs, outs):
            name[id(t)] = o
        t0 = op.outputs[0] if op.outputs else None
        if op.type == "Placeholder":
            if id(t0) in arg_names:
                dims = [d if d is not None else f"d{i}" for i, d in enumerate(t0.shape.dims)]
                inputs.append(helper.make_tensor_value_info(outs[0], etype(t0.dtype), dims))
            else:
                value = captured[id(t0)]
                value = value.value if hasattr(value, "var_dtype") else value  # a variable
                inits.append(numpy_helper.from_array(np.asarray(value), outs[0]))
            continue
        if op.type == "Const":
            inits.append(numpy_helper.from_array(np.asarray(op.attrs["value"]), outs[0]))
            continue
        ins = [name[id(t)] for t in op.inputs]
        t = op.type
        if t in _SAME:
            if t == "FloorDiv" and op.outputs[0].dtype.np_dtype.kind in "iu":
                # ONNX's integer Div truncates toward zero and Floor takes only floats:
                # a // b = (a - a mod b) / b with the divisor-signed Mod (Python's %), exact
                m, diff = fresh("mod"), fresh("sub")
                nodes.append(helper.make_node("Mod", ins, [m], fmod=0))
                nodes.append(helper.make_node("Sub", [ins[0], m], [diff]))
                nodes.append(helper.make_node("Div", [diff, ins[1]], outs))
            elif t == "FloorDiv":
                d = fresh("div")
                nodes.append(helper.make_node("Div", ins, [d]))
                nodes.append(helper.make_node("Floor", [d], outs))
            else:
                nodes.append(helper.make_node(_SAME[t], ins[:len(op.inputs)], outs))
        elif t == "Square":
            nodes.append(helper.make_node("Mul", [ins[0], ins[0]], outs))
        elif t == "MatMul":
            a, b = ins
            if op.attrs.get("transpose_a"):
                a2 = fresh("ta")
                nodes.append(helper.make_node("Transpose", [a], [a2], perm=[1, 0]))
                a = a2
            if op.attrs.get("transpose_b"):
                b2 = fresh("tb")
                nodes.append(helper.make_node("Transpose", [b], [b2], perm=[1, 0]))
                b = b2
            nodes.append(helper.make_node("MatMul", [a, b], outs))
        elif t in ("Softmax", "LogSoftmax"):
            nodes.append(helper.make_node(t, ins, outs, axis=-1))
        elif t == "Cast":
            nodes.append(helper.make_node("Cast", ins, outs, to=etype(op.attrs["DstT"])))
        elif t == "Reshape":
            shape = init(np.asarray(_const(op.inputs[1]), np.int64), "shape")
            nodes.append(helper.make_node("Reshape", [ins[0], shape], outs))
        elif t == "Transpose":
            perm = [int(p) for p in np.ravel(_const(op.inputs[1]))]
            nodes.append(helper.make_node("Transpose", [ins[0]], outs, perm=perm))
        elif t in ("Sum", "Mean", "Max", "Min", "Prod"):
            axes = [int(a) for a in np.ravel(_const(op.inputs[1]))]
            keep = int(bool(op.attrs.get("keep_dims")))
            onnx_op = {"Sum": "ReduceSum", "Mean": "ReduceMean", "Max": "ReduceMax",
                       "Min": "ReduceMin", "Prod": "ReduceProd"}[t]
            if t == "Sum":
                nodes.append(helper.make_node(onnx_op, [ins[0], init(np.array(axes, np.int64),
                                                                     "axes")], outs,
                                              keepdims=keep))
            else:
                nodes.append(helper.make_node(onnx_op, [ins[0]], outs, axes=axes, keepdims=keep))
        elif t == "ConcatV2":
            nodes.append(helper.make_node("Concat", ins, outs, axis=int(op.attrs["axis"])))
        elif t == "GatherV2":
            axis = int(np.ravel(_const(op.inputs[2]))[0])
            nodes.append(helper.make_node("Gather", ins[:2], outs, axis=axis))
        elif t == "BroadcastTo":
            shape = init(np.asarray(_const(op.inputs[1]), np.int64), "shape")
            nodes.append(helper.make_node("Expand", [ins[0], shape], outs))
        elif t == "ExpandDims":
            axes = init(np.asarray(np.ravel(_const(op.inputs[1])), np.int64), "axes")
            nodes.append(helper.make_node("Unsqueeze", [ins[0], axes], outs))
        else:  # pragma: no cover - _supported() and this list agree
            raise AssertionError(t)
    outputs = [helper.make_tensor_value_info(
        name[id(t)], etype(t.dtype),
        [d if d is not None else f"o{i}" for i, d in enumerate(t.shape.dims or [])])
        for t in graph.outputs]
    model = helper.make_model(
        helper.make_graph(nodes, cf.name, inputs, outputs, initializer=inits),
        opset_imports=[helper.make_opsetid("", opset)], producer_name="tfgraph_edu")
    model.ir_version = min(model.ir_version, 9)
    onnx.checker.check_model(model)
    onnx.save(model, str(path))
    return model


_NEEDS_CONST = {"Reshape": 1, "Transpose": 1, "Sum": 1, "Mean": 1, "Max": 1, "Min": 1,
                "Prod": 1, "GatherV2": 2, "BroadcastTo": 1, "ExpandDims": 1}


def _supported(op) -> bool:
    t = op.type
    if t in ("Placeholder", "Const", "Square", "MatMul", "Softmax", "LogSoftmax", "Cast",
             "ConcatV2") or t in _SAME:
        return True
    i = _NEEDS_CONST.get(t)
    return i is not None and _const(op.inputs[i]) is not None
