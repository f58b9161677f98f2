"""``tf.py_function`` and ``tf.numpy_function``: a graph node that calls back into Python.

The Python callable is an attribute of the node (``func``); running the node calls it,
with eager tensors (``EagerPyFunc``) or numpy arrays (``PyFunc``).  Such a graph cannot
be saved as data, exactly as in TensorFlow, where these ops are not serializable.
"""

from __future__ import annotations

import numpy as np

from .. import dtypes as _dt
from ..errors import InvalidArgumentError
from ..shapes import TensorShape
from . import convert
from ._core import bind, define, using_interpreter


def _tout_list(Tout):
    return [_dt.as_dtype(t) for t in Tout]


def _results(values, Tout, fname):
    if values is None and not Tout:  # Tout=(): a function run for its effect (TF: [])
        return ()
    if not isinstance(values, (list, tuple)):
        values = [values]
    if len(values) != len(Tout):
        raise InvalidArgumentError(None, None, f"{fname} returned {len(values)} values, "
                                               f"but expects {len(Tout)}")
    out = []
    for i, (v, dt) in enumerate(zip(values, Tout)):
        if convert.is_tensor(v):
            arr = np.asarray(v.numpy())
        elif isinstance(v, (np.ndarray, np.generic)):
            arr = np.asarray(v)
        else:  # Python values take the declared dtype
            arr = np.asarray(convert.to_numpy(v, dt))
        got = _dt.NP_TO_DTYPE.get(arr.dtype)
        if got is not dt:
            got_name = getattr(got, "name", str(arr.dtype))
            raise InvalidArgumentError(None, None, f"{i}-th value returned by {fname} is "
                                                   f"{got_name}, but expects {dt.name}")
        out.append(arr)
    return out[0] if len(out) == 1 else tuple(out)


def _eager_kernel(*inputs, func, Tout):
    with using_interpreter(None):  # the default (eager) interpreter: real tensors
        args = [convert.constant(x) for x in inputs]
        return _results(func(*args), Tout, "EagerPyFunc")


def _numpy_kernel(*inputs, func, Tout):
    return _results(func(*inputs), Tout, "PyFunc")


def _shape(*inputs, func, Tout):
    return [(TensorShape(None), dt) for dt in Tout]


def _no_grad(op, *grads):
    raise NotImplementedError(
        "tfgraph_edu cannot differentiate through tf.py_function; compute the gradient "
        "outside it, or write the computation with TensorFlow ops.")


EagerPyFunc = define("EagerPyFunc", ("input*",), _eager_kernel, _shape, _no_grad,
                     stateful=True, state="python", mixed_types=True,
                     num_outputs=lambda a: len(a["Tout"]))
PyFunc = define("PyFunc", ("input*",), _numpy_kernel, _shape, None, stateful=True,
                state="python", mixed_types=True, num_outputs=lambda a: len(a["Tout"]))


def _call(opdef, func, inp, Tout, name):
    single = not isinstance(Tout, (list, tuple))
    tout = _tout_list([Tout] if single else Tout)
    inputs = tuple(convert.to_tensor(x) for x in inp)
    out = bind(opdef, inputs, {"func": func, "Tout": tout}, name)
    if not tout:
        return []
    out = list(out) if isinstance(out, (list, tuple)) else [out]
    return out[0] if single else out


def _decorator(op, func, inp, Tout, name):
    """Without ``inp`` (TF 2.21): a decorator, ``@tf.py_function(Tout=tf.float32)``, whose
    function's positional arguments are the inputs."""
    if Tout is None:
        raise TypeError("missing required argument 'Tout'")
    if inp is not None:
        return _call(op, func, inp, Tout, name)
    if func is None:
        return lambda f: _decorator(op, f, None, Tout, name)

    def wrapper(*args):
        return _call(op, func, list(args), Tout, name)
    wrapper.__name__ = getattr(func, "__name__", "py_function")
    wrapper.__doc__ = getattr(func, "__doc__", None)
    return wrapper


def py_function(func=None, inp=None, Tout=None, name=None):
    """Runs ``func`` on eager tensors, also inside a tf.function (op ``EagerPyFunc``)."""
    return _decorator(EagerPyFunc, func, inp, Tout, name)


def numpy_function(func=None, inp=None, Tout=None, stateful=True, name=None):
    """Runs ``func`` on numpy arrays, also inside a tf.function (op ``PyFunc``); no gradient,
    as in TensorFlow."""
    return _decorator(PyFunc, func, inp, Tout, name)
