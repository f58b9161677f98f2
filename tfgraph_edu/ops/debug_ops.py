"""``tf.debugging.enable_check_numerics``: the ``CheckNumericsV2`` op and its switch, and
``tf.debugging.check_numerics`` (op ``CheckNumerics``) (layer 1).

While checking is on, every eager op whose float output holds an Inf or a NaN fails with
TensorFlow's report, and every graph traced meanwhile gets a ``CheckNumericsV2`` node after
each float output (``Log/CheckNumericsV2``), which fails the same way when the graph runs.
Ops that only move values (reshape, gather, concat, identity...) cannot make an Inf or a NaN
from finite inputs and are not checked, as in TensorFlow.
"""

from __future__ import annotations

import numpy as np

from .. import dtypes as _dt
from ..errors import InvalidArgumentError
from ._core import bind, define

CHECKING = [False]  # the switch; read by the eager interpreter and the graph builder

MOVES_VALUES_ONLY = frozenset({
    "Concat", "ConcatV2", "ExpandDims", "Fill", "Gather", "GatherV2", "GatherNd", "Identity",
    "IdentityN", "Pack", "Unpack", "Reshape", "Shape", "Slice", "Squeeze", "StridedSlice",
    "Transpose", "Tile", "BroadcastTo", "StopGradient", "ZerosLike", "OnesLike", "Placeholder",
    "Const", "ReadVariableOp", "CheckNumericsV2", "CheckNumerics", "Split", "SplitV", "Pad",
    "ReverseV2",
})


def enable_check_numerics(stack_height_limit=30, path_length_limit=50) -> None:
    """Check every float result for Inf and NaN from now on (eager ops, graphs traced)."""
    CHECKING[0] = True


def disable_check_numerics() -> None:
    CHECKING[0] = False


def wants_check(opdef, dtype) -> bool:
    return dtype.is_floating and opdef.name not in MOVES_VALUES_ONLY


def _counts(value) -> list[tuple[str, int]]:
    v = np.asarray(value)
    found = [("-Inf", int(np.count_nonzero(np.isneginf(v)))),
             ("+Inf", int(np.count_nonzero(np.isposinf(v)))),
             ("NaN", int(np.count_nonzero(np.isnan(v))))]
    return [(kind, n) for kind, n in found if n]


def _summary(counts) -> str:
    kinds = [kind for kind, _ in counts]
    if len(kinds) == 3:
        return "Tensor had -Inf, +Inf, and NaN values"
    return f"Tensor had {' and '.join(kinds)} values"


def _inputs_text(inputs, show) -> str:
    if len(inputs) == 1:
        return f"  Input tensor: {show(inputs[0])}\n"
    if not inputs:
        return ""
    lines = "".join(f"         {i}: {show(t)}\n" for i, t in enumerate(inputs))
    return f"  Input tensors ({len(inputs)}):\n{lines}"


def _header(kind, op_type, index, n_outputs, dtype, shape) -> str:
    return (f"\n\n!!! Detected Infinity or NaN in output {index} of {kind} op \"{op_type}\" "
            f"(# of outputs: {n_outputs}) !!!\n  dtype: {dtype}\n  shape: {shape}\n")


def eager_error(op_type: str, inputs, outputs) -> InvalidArgumentError | None:
    """TF's report for the first output of eager op ``op_type`` (a function call's is its
    name) holding Inf or NaN; None if all are finite."""
    for i, out in enumerate(outputs):
        dtype = _dt.NP_TO_DTYPE.get(getattr(out, "dtype", None))
        if dtype is None or not dtype.is_floating or np.all(np.isfinite(out)):
            continue
        counts = _counts(out)
        counted = "".join(f"  # of {'+NaN' if k == 'NaN' else k} elements: {n}\n"
                          for k, n in counts)
        text = (_header("eagerly-executing", op_type, i, len(outputs), dtype,
                        tuple(np.shape(out))) + counted + "\n"
                + _inputs_text(list(inputs), str) + f"\n : {_summary(counts)} "
                "[Op:CheckNumericsV2]")
        return InvalidArgumentError(None, None, text)
    return None


def graph_message(op, index, tensor) -> str:
    """The report a graph's CheckNumericsV2 node gives (made when the graph is traced)."""
    source = op.source
    trace = ""
    if source:
        file, line, *func = source
        trace = (f"\n  Stack trace of op's creation (\"->\": inferred user code):\n    + {file} "
                 f"(L{line}) {func[0] if func else ''}\n -> |   \n")
    return (_header("graph", op.type, index, len(op.outputs), tensor.dtype,
                    _shape_text(tensor.shape)) + "\n"
            + _inputs_text(op.inputs, str)
            + f"  Graph name: \"{getattr(op.graph, 'function_name', op.graph.name)}\"\n" + trace)


def _shape_text(shape) -> str:
    return str(tuple(shape.as_list())) if shape.rank is not None else "<unknown>"


def _check_kernel(tensor, message=""):
    if np.all(np.isfinite(tensor)):
        return tensor
    raise InvalidArgumentError(None, None, f"{message}\n : {_summary(_counts(tensor))}")


CheckNumericsV2 = define(
    "CheckNumericsV2", ("tensor",), _check_kernel,
    lambda tensor, message="": (tensor.shape, tensor.dtype), lambda op, g: (g,),
    T=(0,), dtypes=_dt.FLOATS)


# -- CheckNumerics (tf.debugging.check_numerics) --------------------------------------------------
def _check_numerics_kernel(tensor, message=""):
    nan, inf = bool(np.isnan(tensor).any()), bool(np.isinf(tensor).any())
    if nan or inf:
        what = "Inf and NaN" if nan and inf else "NaN" if nan else "Inf"
        raise InvalidArgumentError(None, None, f"{message} : Tensor had {what} values")
    return tensor


def _check_numerics_grad(op, g):
    # the gradient is checked too; TF 2.21 writes the message as Python bytes: b'm'
    message = f"Not a number (NaN) or infinity (Inf) values detected in gradient. " \
              f"{op.get_attr('message').encode()!r}"
    return (bind(CheckNumerics, (g,), {"message": message}),)


CheckNumerics = define(
    "CheckNumerics", ("tensor",), _check_numerics_kernel,
    lambda tensor, message="": (tensor.shape, tensor.dtype), _check_numerics_grad,
    T=(0,), dtypes=_dt.FLOATS, stateful=True, state="check")


def check_numerics(tensor, message, name=None):
    """``tf.debugging.check_numerics``: ``tensor`` unchanged, or InvalidArgumentError
    "<message> : Tensor had NaN values" (Inf, Inf and NaN) (op ``CheckNumerics``)."""
    return bind(CheckNumerics, (tensor,), {"message": str(message)}, name)
