"""Ops that only exist in graphs: Placeholder and NoOp (layer 1)."""

from __future__ import annotations

from ..errors import InvalidArgumentError
from ._core import define


def _placeholder_kernel(dtype, shape):
    raise InvalidArgumentError(
        None, None, f"You must feed a value for placeholder tensor with dtype {dtype.name} and "
        f"shape {shape}")


Placeholder = define("Placeholder", (), _placeholder_kernel,
                     lambda dtype, shape, **_: (shape, dtype), None)
NoOp = define("NoOp", (), lambda: (), lambda: [], None, num_outputs=0)
