"""``tf.custom_gradient``: a function that says what its own gradient is (layer 4).

The decorated function returns ``(result, grad_fn)``.  Its result is passed
through one op whose gradient is ``grad_fn``: eagerly, an entry recorded on the
active tapes; inside a graph, an ``IdentityN`` node whose ``_gradient_op_type``
attribute names ``grad_fn`` (as TensorFlow's gradient override does), so a tape
inside the function and the gradient of the whole tf.function both use it.

As in TensorFlow, the variables the function reads (other than its arguments)
are the ``variables`` passed to ``grad_fn``, which then returns
``(input_gradients, variable_gradients)``.
"""

from __future__ import annotations

import functools
import inspect
import itertools
import secrets

from ..ops import identity_ops
from ..ops._core import bind, interpreter
from ..ops.convert import to_tensor
from . import tape as _tape
from .tensor import EagerTensor

__all__ = ["custom_gradient"]

_uid = itertools.count(1)
# keys are saved with graphs: a per-process token keeps another process's keys from matching
_PROCESS = secrets.token_hex(4)


def custom_gradient(f=None):
    """Decorator: ``f(*args)`` returns ``(y, grad_fn)``; ``grad_fn(*dys)`` returns the
    gradients of the arguments (see TensorFlow's ``tf.custom_gradient``)."""
    if f is None:
        return custom_gradient

    @functools.wraps(f)
    def decorated(*args, **kwargs):
        return _call(f, args, kwargs)
    # AutoGraph runs library wrappers as they are (TensorFlow does not convert inside them)
    decorated.__ag_do_not_convert__ = True
    return decorated


class _CustomOp:
    """The tape entry's 'OpDef' for an eager call: its gradient is the user's."""

    def __init__(self, name, grad):
        self.name = name
        self.grad = grad


def _call(f, args, kwargs):
    eager = interpreter().executing_eagerly
    if kwargs and not eager:
        raise ValueError("The custom_gradient decorator currently supports keywords arguments "
                         "only when eager execution is enabled.")
    with _tape.GradientTape() as watcher:  # which variables f reads
        result, grad_fn = f(*args, **kwargs)
    flat_args = _tape._flatten(list(args), [])
    variables = [v for v in watcher.watched_variables()
                 if all(v is not a for a in flat_args)]
    spec = inspect.getfullargspec(grad_fn)
    takes_variables = ("variables" in spec.args or "variables" in spec.kwonlyargs
                       or spec.varkw is not None)
    if variables and not takes_variables:
        raise TypeError("@tf.custom_gradient grad_fn must accept keyword argument 'variables', "
                        f"since function uses variables: {variables}")
    flat_result = [to_tensor(r) for r in _tape._flatten(result, [])]
    inputs = [to_tensor(a) for a in flat_args] + [v.handle for v in variables]
    n = len(flat_result)

    def gradient(op, *grads):
        result_grads = list(grads[:n])
        if variables:
            input_grads, variable_grads = grad_fn(*result_grads, variables=variables)
            if len(variable_grads) != len(variables):
                raise ValueError("Must return gradient for each variable from @custom_gradient "
                                 "grad_fn.")
        else:
            input_grads = grad_fn(*result_grads)
            variable_grads = []
        flat_grads = _tape._flatten(input_grads, [])
        if len(flat_grads) != len(flat_args):
            raise ValueError(f"custom_gradient function expected to return {len(flat_args)} "
                             f"gradients, but returned {len(flat_grads)} instead.")
        return [None] * n + list(flat_grads) + list(variable_grads)

    name = getattr(f, "__name__", "custom_gradient")
    if eager:
        outs = [EagerTensor(t._value) for t in flat_result]
        _tape.record(_CustomOp(name, gradient), flat_result + inputs, None, outs)
    else:
        key = f"CustomGradient-{next(_uid)}-{_PROCESS}"
        identity_ops.GRADIENT_OVERRIDES[key] = gradient
        all_in = flat_result + inputs
        outs = bind(identity_ops.IdentityN, tuple(all_in),
                    {"T": tuple(t.dtype for t in all_in), "_gradient_op_type": key}, "IdentityN")
        outs = [outs] if len(all_in) == 1 else list(outs)
    return _tape._pack_like(result, iter(outs[:n]))
