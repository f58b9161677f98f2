"""What Keras 3 checks and reports around a layer's ``call`` (layer 10, models).

- ``InputSpec``: the rank and axis sizes a layer accepts; a wrong input is refused before
  ``call`` runs, with Keras 3's ``ValueError`` (``Layer "dense" expects 1 input(s)…``,
  ``Input 0 with name 'None' of layer 'dense' is incompatible with the layer: …``).
- ``call_with_context``: an exception raised in ``call`` comes back as the same exception
  class with Keras 3's message: ``Exception encountered when calling Dense.call().``, the
  original message in bold (ANSI ``ESC[1m`` … ``ESC[0m``, as Keras 3 prints it in a terminal
  and in Jupyter alike), then the arguments the call received.  Only the innermost layer
  adds this, as in Keras.
"""

from __future__ import annotations

import inspect

import numpy as np

from ..eager.variables import Variable as _TFVariable
from ..ops.convert import is_tensor

BOLD, RESET = "\x1b[1m", "\x1b[0m"


class InputSpec:
    """``tf.keras.layers.InputSpec``: the rank (``ndim``, ``min_ndim``, ``max_ndim``) and
    axis sizes (``axes={-1: 3}``) a layer's input must have."""

    def __init__(self, dtype=None, shape=None, ndim=None, max_ndim=None, min_ndim=None,
                 axes=None, allow_last_axis_squeeze=False, name=None, optional=False):
        if dtype is not None or shape is not None or allow_last_axis_squeeze:
            raise NotImplementedError("tfgraph_edu's InputSpec checks ndim, min_ndim, "
                                      "max_ndim and axes only (not dtype, shape or "
                                      "allow_last_axis_squeeze) yet.")
        self.ndim, self.max_ndim, self.min_ndim = ndim, max_ndim, min_ndim
        self.axes = {int(k): int(v) for k, v in (axes or {}).items()}
        self.name = name
        self.optional = optional

    def __repr__(self):
        parts = [f"{k}={v}" for k, v in (("ndim", self.ndim), ("max_ndim", self.max_ndim),
                                         ("min_ndim", self.min_ndim),
                                         ("axes", self.axes or None)) if v is not None]
        return f"InputSpec({', '.join(parts)})"


def _flat(value) -> list:
    if isinstance(value, (list, tuple)):
        return [leaf for v in value for leaf in _flat(v)]
    if isinstance(value, dict):
        return [leaf for k in sorted(value, key=str) for leaf in _flat(value[k])]
    return [value]


def check_input_spec(layer, inputs) -> None:
    """Raise Keras 3's ValueError when ``inputs`` do not fit ``layer.input_spec``."""
    spec = getattr(layer, "input_spec", None)
    if spec is None:
        return
    specs = list(spec) if isinstance(spec, (list, tuple)) else [spec]
    flat = _flat(inputs)
    if len(flat) != len(specs):
        shown = list(inputs) if isinstance(inputs, tuple) else inputs  # Keras shows a list
        raise ValueError(f'Layer "{layer.name}" expects {len(specs)} input(s), but it '
                         f"received {len(flat)} input tensors. Inputs received: {shown}")
    for i, (s, x) in enumerate(zip(specs, flat)):
        shape = getattr(x, "shape", None)
        if s is None or shape is None or getattr(shape, "rank", 0) is None:
            continue
        dims = tuple(shape.as_list()) if hasattr(shape, "as_list") else tuple(shape)
        head = (f"Input {i} with name '{s.name}' of layer '{layer.name}' is incompatible "
                "with the layer: ")
        rank = len(dims)
        for kind, bad in (("ndim", s.ndim is not None and rank != s.ndim),
                          ("max_ndim", s.max_ndim is not None and rank > s.max_ndim),
                          ("min_ndim", s.min_ndim is not None and rank < s.min_ndim)):
            if bad:
                raise ValueError(f"{head}expected {kind}={getattr(s, kind)}, found "
                                 f"ndim={rank}. Full shape received: {dims}")
        for axis, size in s.axes.items():
            if -rank <= axis < rank and dims[axis] is not None and dims[axis] != size:
                raise ValueError(f"{head}expected axis {axis} of input shape to have value "
                                 f"{size}, but received input with shape {dims}")


def _format(value):
    """One argument as Keras 3 shows it: tensors by shape and dtype, other values by repr."""
    if isinstance(value, (list, tuple)) and not hasattr(value, "_fields"):
        return type(value)(_format(v) for v in value)
    if isinstance(value, dict):
        return {k: _format(v) for k, v in value.items()}
    if is_tensor(value) or isinstance(value, _TFVariable):
        return f"tf.Tensor(shape={value.shape}, dtype={value.dtype.name})"
    if isinstance(value, np.ndarray):  # Keras converts NumPy arguments (floats to float32)
        dtype = "float32" if value.dtype.kind == "f" else value.dtype.name
        shape = "(" + ", ".join(str(d) for d in value.shape) + ("," if value.ndim == 1
                                                                else "") + ")"
        return f"tf.Tensor(shape={shape}, dtype={dtype})"
    return repr(value)


def _arguments_text(fn, args, kwargs):
    """The ``Arguments received by …`` lines, or None when the arguments do not bind."""
    try:
        signature = inspect.signature(fn)
        bound = signature.bind(*args, **kwargs)
    except (TypeError, ValueError):
        return None
    lines = []
    for param in signature.parameters.values():
        if param.name in bound.arguments:
            value = _format(bound.arguments[param.name])
        else:
            value = param.default
        lines.append(f"  • {param.name}={value}")
    return "\n".join(lines)


def _rewrapped(error, text):
    from ..errors import OpError
    if isinstance(error, OpError):
        try:
            new = type(error)(error.node_def, error.op, text)
        except TypeError:
            new = RuntimeError(text)
    else:
        try:
            new = type(error)(text)
        except TypeError:
            new = RuntimeError(text)
    new._keras_call_info_injected = True
    return new


def call_with_context(layer, inputs, kwargs, symbolic=None):
    """``layer.call(inputs, **kwargs)``; an exception from it gets Keras 3's context
    (see the module docstring).  ``symbolic``: the KerasTensors of a functional-API call,
    for which Keras 3 reports that it could not infer the output shape."""
    kwargs = dict(kwargs)
    positional = kwargs.pop("_positional", ())
    try:
        return layer.call(inputs, *positional, **kwargs)
    except Exception as e:
        if getattr(e, "_keras_call_info_injected", False):
            raise
        cls = type(layer).__name__
        message = getattr(e, "message", None) if hasattr(e, "node_def") else None
        if message is None:
            message = e.args[0] if e.args else ""
        if symbolic is not None:
            message = (f"Could not automatically infer the output shape / dtype of "
                       f"'{layer.name}' (of type {cls}). Either the `{cls}.call()` method is "
                       f"incorrect, or you need to implement the `{cls}.compute_output_spec() "
                       f"/ compute_output_shape()` method. Error encountered:\n\n{message}")
            extra = {k: _format(v) for k, v in kwargs.items() if k not in ("training", "mask")}
            arguments = (f"  • args={(repr(symbolic),)}\n"
                         f"  • kwargs={extra or inspect.Parameter.empty}")
        else:
            arguments = _arguments_text(layer.call, (inputs, *positional), kwargs)
            if arguments is None:
                raise
        name = f"{cls}.call()"
        text = (f"Exception encountered when calling {name}.\n\n{BOLD}{message}{RESET}\n\n"
                f"Arguments received by {name}:\n{arguments}")
        raise _rewrapped(e, text).with_traceback(e.__traceback__) from None
