"""Ops that pass their inputs through: Identity, StopGradient, IdentityN (layer 1).

IdentityN is how ``tf.custom_gradient`` (eager/custom_gradient.py) gives a graph its own
gradient: the op's ``_gradient_op_type`` attribute names an entry of ``GRADIENT_OVERRIDES``.
"""

from __future__ import annotations

from ._core import bind, define
from ._rules import same

# -- Identity, StopGradient, IdentityN ------------------------------------------------------------
Identity = define("Identity", ("input",), lambda x: x, same, lambda op, g: (g,), T=(0,))
StopGradient = define("StopGradient", ("input",), lambda x: x, same, lambda op, g: (None,),
                      T=(0,))


# tf.custom_gradient: "_gradient_op_type" attr of an IdentityN op -> its gradient function
GRADIENT_OVERRIDES: dict = {}


def _identity_n_kernel(*xs, **_):
    return xs[0] if len(xs) == 1 else tuple(xs)


def _identity_n_grad(op, *grads):
    key = op.attrs.get("_gradient_op_type")
    if key is None:
        return grads
    fn = GRADIENT_OVERRIDES.get(key)
    if fn is None:
        raise LookupError(
            f"No gradient defined for operation '{getattr(op, 'name', 'IdentityN')}' (op type: "
            f"IdentityN): its tf.custom_gradient ({key}) is not available here (a loaded "
            "SavedModel keeps only the forward computation).")
    return fn(op, *grads)


IdentityN = define("IdentityN", ("input*",), _identity_n_kernel,
                   lambda *xs, **_: [(x.shape, x.dtype) for x in xs], _identity_n_grad,
                   mixed_types=True, num_outputs=lambda attrs: len(attrs["T"]),
                   attrs=("T", "_gradient_op_type"),
                   doc="Each input passed through; tf.custom_gradient sets its gradient.")


def identity(input, name=None):  # noqa: A002 - TensorFlow's argument name
    """Returns a tensor with the same value (op ``Identity``)."""
    return bind(Identity, (input,), None, name)


def stop_gradient(input, name=None):  # noqa: A002
    """Identity whose gradient is None: the tape stops here (op ``StopGradient``)."""
    return bind(StopGradient, (input,), None, name)

