"""TensorFlow's "Graph execution error" for a kernel that failed inside a graph (layer 3)."""

from __future__ import annotations

from ..errors import InvalidArgumentError, OpError
from ..graph.graph import op_stack
from ..ops._rules import NO_KERNEL_PREFIX


class _Value:
    """What a shape rule needs to know about a runtime value."""

    __slots__ = ("_v",)

    def __init__(self, v):
        self._v = v

    @property
    def shape(self):
        from ..shapes import TensorShape
        return TensorShape(list(getattr(self._v, "shape", ())))

    @property
    def dtype(self):
        from .. import dtypes as _dt
        return _dt.NP_TO_DTYPE.get(getattr(self._v, "dtype", None))

    def _constant_value(self):
        return self._v


def _no_kernel_in_graph(op, eager_message: str) -> str:
    """TF's words for a node whose dtype has no CPU kernel, met while running a graph."""
    head, _, kernels = eager_message.partition("\n")
    attrs = head[head.index("[") + 1:head.rindex("]")] if "[" in head else ""
    registered = kernels.partition("\n")[2]
    return (f"No OpKernel was registered to support Op '{op.opdef.name}' used by "
            f"{{{{node {op.name}}}}} with these attrs: [{attrs}]\nRegistered devices: [CPU]\n"
            f"Registered kernels:\n{registered}")


def kernel_message(op, values, exc) -> tuple[type, str]:
    """(error class, message) for ``exc`` raised by ``op``'s kernel on ``values``."""
    if isinstance(exc, OpError):
        if exc.message.startswith(NO_KERNEL_PREFIX):  # no CPU kernel for this dtype
            return InvalidArgumentError, _no_kernel_in_graph(op, exc.message)
        return type(exc), exc.message
    try:
        op.opdef.shape(*[_Value(v) for v in values], **op.attrs)
    except OpError as shape_exc:
        return type(shape_exc), shape_exc.message
    except Exception:  # noqa: BLE001 - fall back to the kernel's own words
        pass
    return InvalidArgumentError, f"{type(exc).__name__}: {exc}"


def graph_execution_error(op, cls, message: str, function_name: str | None):
    """The error TF raises: where the node was defined, the kernel's message, the node."""
    lines = ["Graph execution error:", ""]
    stack = op_stack(op)
    if stack:  # each frame, then the blank line where TF would show its code
        lines.append(f"Detected at node {op.name} defined at (most recent call last):")
        for filename, lineno, func in stack:
            lines += [f'  File "{filename}", line {lineno}, in {func}', ""]
    lines.append(message.lstrip("\n"))
    suffix = f" [Op:{function_name}]" if function_name else ""
    lines.append(f"\t [[{{{{node {op.name}}}}}]]{suffix}")
    err = cls(None, op, "\n".join(lines))
    return err
