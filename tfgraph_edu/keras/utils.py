"""``tf.keras.utils``: seeding, one-hot labels, normalisation, ``pad_sequences`` (layer 10,
models).

As in Keras 3, ``to_categorical`` and ``normalize`` give NumPy arrays for NumPy (or list)
input and tensors for tensor input.
"""

from __future__ import annotations

import random as _py_random

import numpy as np

from ..ops import creation_ops, math_ops, random_ops, reduction_ops
from ..ops.convert import is_tensor, to_tensor
from .preprocessing import pad_sequences  # noqa: F401


def set_random_seed(seed):
    """Seeds Python's ``random``, NumPy's global generator and ``tf.random`` at once."""
    if not isinstance(seed, (int, np.integer)) or isinstance(seed, bool):
        raise ValueError("Expected `seed` argument to be an integer. "
                         f"Received: seed={seed} (of type {type(seed)})")
    _py_random.seed(int(seed))
    np.random.seed(int(seed))
    random_ops.set_seed(int(seed))


def to_categorical(x, num_classes=None):
    """One-hot rows for integer class labels (a trailing axis of 1 is dropped first)."""
    if is_tensor(x):
        if num_classes is None:
            raise ValueError("Attempt to convert a value (None) with an unsupported type "
                             "(<class 'NoneType'>) to a Tensor.")
        return creation_ops.one_hot(x, num_classes)
    x = np.array(x, dtype="int64")
    shape = x.shape
    if shape and shape[-1] == 1 and len(shape) > 1:
        shape = shape[:-1]
    x = x.reshape(-1)
    if not num_classes:
        num_classes = int(np.max(x)) + 1
    out = np.zeros((x.shape[0], num_classes))
    out[np.arange(x.shape[0]), x] = 1
    return out.reshape(shape + (num_classes,))


def normalize(x, axis=-1, order=2):
    """``x`` divided by its ``order``-norm along ``axis`` (rows of norm 0 stay 0)."""
    if is_tensor(x):
        a = math_ops.abs(x)
        if order == 2:
            norm = math_ops.sqrt(reduction_ops.reduce_sum(a * a, axis=axis, keepdims=True))
        else:
            norm = reduction_ops.reduce_sum(a ** order, axis=axis, keepdims=True) ** (1 / order)
        safe = math_ops.maximum(norm, to_tensor(np.finfo(x.dtype.as_numpy_dtype).tiny,
                                                 dtype=x.dtype))
        return x / safe
    x = np.asarray(x)
    norm = np.linalg.norm(x, ord=order, axis=axis, keepdims=True)
    norm[norm == 0] = 1
    return x / norm


from .saving import (  # noqa: E402,F401  (Keras 3 exports these here too)
    get_registered_name,
    get_registered_object,
    register_keras_serializable,
)


def __getattr__(name):
    from .tf_api_names import missing
    raise missing("utils", name)
