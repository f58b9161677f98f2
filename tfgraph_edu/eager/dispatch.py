"""The eager interpreter: run an op's numpy kernel now (layer 4).

``bind`` (ops/_core.py) sends every op here unless a graph is being built.
The hot path is short on purpose: read the inputs' numpy values, check the
type attribute, call the kernel, wrap the result.  Python values among the
inputs, errors, and tape recording take the slow paths.
"""

from __future__ import annotations

from .. import dtypes as _dt
from ..errors import InvalidArgumentError, OpError
from ..ops import _core, debug_ops
from ..ops._core import type_name
from ..ops._rules import NO_KERNEL_PREFIX
from ..ops.convert import INT_BOUNDS, is_tensor, target_dtypes, to_numpy
from . import tape as _tape
from .tensor import EagerTensor

_NP_TO_DTYPE = _dt.NP_TO_DTYPE
_new = object.__new__
_active_tapes = _tape.ACTIVE
_ET = EagerTensor
_CHECKING = debug_ops.CHECKING  # tf.debugging.enable_check_numerics


def _wrap(value) -> EagerTensor:
    t = _new(EagerTensor)
    t._value = value
    return t


class EagerInterpreter:
    """Runs each op as soon as it is bound."""

    executing_eagerly = True

    def apply(self, opdef, inputs, attrs, name):
        """Run ``opdef`` now.  Binary and unary ops of one type attribute with one output
        (``OpDef.fast_arity``) take the two short branches; the rest ``_apply_general``."""
        arity = opdef.fast_arity
        if arity == 2 and len(inputs) == 2:
            x, y = inputs
            if x.__class__ is not _ET or y.__class__ is not _ET:
                x, y = inputs = self.convert_inputs(opdef, inputs)
            vx, vy = x._value, y._value
            d = vx.dtype
            if d not in opdef.np_allowed:  # TF checks the type before the pair
                raise _not_allowed(opdef, d, name)
            if vy.dtype != d:
                raise _mismatch(opdef, (vx, vy), 1, name)
            try:
                out = opdef.kernel(vx, vy, **attrs) if attrs else opdef.kernel(vx, vy)
            except Exception as exc:  # noqa: BLE001 - turned into TF's error below
                raise _kernel_error(opdef, inputs, attrs, exc, name) from None
        elif arity == 1 and len(inputs) == 1:
            x = inputs[0]
            if x.__class__ is not _ET:
                x, = inputs = self.convert_inputs(opdef, inputs)
            vx = x._value
            if vx.dtype not in opdef.np_allowed:
                raise _not_allowed(opdef, vx.dtype, name)
            try:
                out = opdef.kernel(vx, **attrs) if attrs else opdef.kernel(vx)
            except Exception as exc:  # noqa: BLE001 - turned into TF's error below
                raise _kernel_error(opdef, inputs, attrs, exc, name) from None
        else:
            return self._apply_general(opdef, inputs, attrs, name)
        if _CHECKING[0] and opdef.name not in debug_ops.MOVES_VALUES_ONLY:
            _check_numerics(opdef, inputs, [out])
        result = _new(_ET)
        result._value = out
        if _active_tapes:
            _tape.record(opdef, inputs, attrs, [result])
        return result

    def _apply_general(self, opdef, inputs, attrs, name):
        try:
            vals = [x._value for x in inputs]
        except AttributeError:
            inputs = self.convert_inputs(opdef, inputs)
            vals = [x._value for x in inputs]
        T = opdef.T
        if T:
            d0 = vals[T[0]].dtype
            allowed = opdef.np_allowed
            if allowed is not None and d0 not in allowed:  # TF checks this first
                raise _not_allowed(opdef, d0, name)
            for i in opdef.T_rest:
                if vals[i].dtype != d0:
                    raise _mismatch(opdef, vals, i, name)
        elif opdef.same_dtype and len(vals) > 1:
            d0 = vals[0].dtype
            for i in range(1, len(vals)):
                if vals[i].dtype != d0:
                    raise _mismatch(opdef, vals, i, name)
        try:
            out = opdef.kernel(*vals, **attrs) if attrs else opdef.kernel(*vals)
        except Exception as exc:  # noqa: BLE001 - turned into TF's error below
            raise _kernel_error(opdef, inputs, attrs, exc, name) from None
        n = opdef.num_outputs
        if n.__class__ is not int:
            n = n(attrs)
        if _CHECKING[0] and n and opdef.name not in debug_ops.MOVES_VALUES_ONLY:
            _check_numerics(opdef, inputs, [out] if n == 1 else list(out))
        if n == 1:
            result = _wrap(out)
        elif n == 0:
            result = None
        else:
            result = [_wrap(o) for o in out]
        if _active_tapes:
            _tape.record(opdef, inputs, attrs, [result] if n == 1 else (result or []))
        return result

    def convert_inputs(self, opdef, inputs):
        """Turn Python values, numpy arrays and variables into EagerTensors."""
        if opdef.fast_arity == 2 and len(inputs) == 2:  # tensor <op> Python number, either order
            x, y = inputs
            if x.__class__ is _ET and (y.__class__ is float or y.__class__ is int):
                v = _scalar_like(y, x._value.dtype)
                if v is not None:
                    return (x, v)
            elif y.__class__ is _ET and (x.__class__ is float or x.__class__ is int):
                v = _scalar_like(x, y._value.dtype)
                if v is not None:
                    return (v, y)
        targets = None
        out = []
        for i, x in enumerate(inputs):
            cls = type(x)
            if cls is EagerTensor:
                out.append(x)
                continue
            if cls is not float and cls is not int:
                as_tensor = getattr(x, "_as_tensor", None)
                if as_tensor is not None:
                    out.append(as_tensor())
                    continue
                if is_tensor(x):
                    raise _graph_tensor_leak(x)
            if targets is None:
                targets = target_dtypes(opdef, inputs)
            try:
                out.append(_wrap(to_numpy(x, targets[i])))
            except TypeError:
                if opdef.name not in _HINT_ONLY or is_tensor(x):
                    raise
                # TF 2.21 converts the other operand of AddV2 (`x + 1.5`, `tf.add`) with the
                # tensor's dtype as a hint only: a value that cannot take it keeps its own
                # dtype, and the op refuses the pair (InvalidArgumentError, not TypeError)
                out.append(_wrap(to_numpy(x)))
        return out


_HINT_ONLY = frozenset({"AddV2"})  # ops whose Python operands take the dtype as a hint only
_SCALARS: dict = {}  # (type, value, numpy dtype) -> EagerTensor: TF's eager scalar cache


def _scalar_like(value, np_dtype):
    """A Python int/float as a tensor of ``np_dtype`` (TF's matching conversion), or None
    when the general path must decide (another kind, or out of range).  Non-zero values
    are cached (zero is not: 0.0 == -0.0 would share one entry)."""
    key = (value.__class__, value, np_dtype)
    t = _SCALARS.get(key)
    if t is not None:
        return t
    kind = np_dtype.kind
    if kind == "f" or (value.__class__ is int and kind in "iu"
                       and INT_BOUNDS[np_dtype][0] <= value <= INT_BOUNDS[np_dtype][1]):
        try:
            t = _wrap(np_dtype.type(value))
        except OverflowError:  # an int too big for a float
            return None
        if value and value == value and len(_SCALARS) < 4096:
            _SCALARS[key] = t
        return t
    return None


def _mismatch(opdef, vals, i, name):
    want = _NP_TO_DTYPE[vals[opdef.T[0] if opdef.T else 0].dtype]
    got = _NP_TO_DTYPE[vals[i].dtype]
    return InvalidArgumentError(
        None, None,
        f"cannot compute {opdef.name} as input #{i}(zero-based) was expected to be a "
        f"{type_name(want)} tensor but is a {type_name(got)} tensor [Op:{opdef.name}]"
        )


def _not_allowed(opdef, np_dtype, name):
    got = _NP_TO_DTYPE[np_dtype]
    allowed = ", ".join(sorted(type_name(d) for d in opdef.dtypes))
    return InvalidArgumentError(
        None, None,
        f"Value for attr 'T' of {got.name} is not in the list of allowed values: {allowed}"
        f"\n\t; NodeDef: {{{{node {opdef.name}}}}} [Op:{opdef.name}]"
        )


def _kernel_error(opdef, inputs, attrs, exc, name):
    """TF's error for a failed kernel: the shape rule's message, else the kernel's, between
    the wrapped function TF 2.21 names (``{{function_node __wrapped__Op_device_…}}``) and
    ``[Op:Op]``."""
    prefix = (f"{{{{function_node __wrapped__{opdef.name}_device_/job:localhost/replica:0/"
              "task:0/device:CPU:0}} ")
    suffix = f" [Op:{opdef.name}]"
    if isinstance(exc, OpError):
        if exc.message.startswith(("{{function_node", NO_KERNEL_PREFIX)):
            return type(exc)(None, None, exc.message + suffix)
        return type(exc)(None, None, prefix + exc.message + suffix)
    try:
        opdef.shape(*inputs, **(attrs or {}))
    except OpError as shape_exc:
        return type(shape_exc)(None, None, prefix + shape_exc.message + suffix)
    except Exception:  # noqa: BLE001 - fall back to the kernel's own words
        pass
    return InvalidArgumentError(None, None, f"{prefix}{type(exc).__name__}: {exc}{suffix}")


def _check_numerics(opdef, inputs, outs) -> None:
    err = debug_ops.eager_error(opdef.name, inputs, outs)
    if err is not None:
        raise err


def _graph_tensor_leak(x):
    return TypeError(
        "An op outside of the function building code is being passed a \"Graph\" tensor "
        f"({x!r}). It is possible to have Graph tensors leak out of the function building "
        "context by including a tf.init_scope in your function building code, or by storing "
        "a tensor created inside a tf.function (for example in a Python list or attribute) "
        "and using it after the function returned. Return the value from the function "
        "instead, or keep it as a tf.Variable.")


EAGER = EagerInterpreter()
_core.set_default_interpreter(EAGER)


def executing_eagerly() -> bool:
    """True unless a graph is being built (``tf.executing_eagerly``)."""
    return _core.interpreter().executing_eagerly
