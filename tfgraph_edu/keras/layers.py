"""``tf.keras.layers``: Layer, Dense, Flatten, Dropout (layer 10, models)."""

from __future__ import annotations

import math

import numpy as np

from .. import dtypes as _dt
from ..eager.context import init_scope, name_scope
from ..eager.variables import Variable
from ..ops import creation_ops, math_ops, random_ops, shape_ops
from ..ops.convert import is_tensor, to_tensor
from ..shapes import TensorShape
from .module import Module

ACTIVATIONS = {
    None: lambda x: x, "linear": lambda x: x, "relu": math_ops.relu,
    "sigmoid": math_ops.sigmoid, "tanh": math_ops.tanh,
    "softmax": lambda x: math_ops.softmax(x),
}


def keras_snake(name: str) -> str:
    """Keras's layer-name rule: ``Conv2D`` -> ``conv2d``, ``MaxPooling2D`` ->
    ``max_pooling2d``, ``LSTMCell`` -> ``lstm_cell`` (an underscore before a capitalised
    word, and between a lower-case letter and a capital)."""
    out = []
    for i, ch in enumerate(name):
        if i and ch.isupper():
            nxt = name[i + 1] if i + 1 < len(name) else ""
            if nxt.islower() or name[i - 1].islower():
                out.append("_")
        out.append(ch)
    return "".join(out).lower()


def get_activation(name):
    if callable(name):
        return name
    try:
        return ACTIVATIONS[name]
    except KeyError:
        raise ValueError(f"Unknown activation function: '{name}'. Known: "
                         f"{', '.join(k for k in ACTIVATIONS if k)}") from None


class Layer(Module):
    """Builds its weights on the first call (from the input's shape), then runs ``call``."""

    _counts: dict[str, int] = {}

    def __init__(self, trainable=True, name=None, dtype=None, input_shape=None, **kwargs):
        if name is None:  # Keras numbers its layers: dense, dense_1, ...
            base = keras_snake(type(self).__name__)
            n = Layer._counts.get(base, 0)
            Layer._counts[base] = n + 1
            name = base if n == 0 else f"{base}_{n}"
        super().__init__(name=name)
        self.trainable = trainable
        # Keras 3's dtype policy, one dtype for weights and computation (float32 by default)
        self._layer_dtype = _dt.as_dtype(getattr(dtype, "name", dtype) or _dt.float32)
        self.built = False
        self._inbound_nodes: list = []
        self._output_shape = None
        self._input_shape_arg = None if input_shape is None else tuple(input_shape)

    # Keras orders weights by creation (its own first, then sub-layers as set), not by
    # attribute name as tf.Module does.
    @property
    def variables(self) -> tuple:
        return tuple(v for v in self._walk(set()) if isinstance(v, Variable))

    @property
    def trainable_variables(self) -> tuple:
        return tuple(v for v in self.variables if v.trainable)

    @property
    def non_trainable_variables(self) -> tuple:
        return tuple(v for v in self.variables if not v.trainable)

    weights = variables
    trainable_weights = trainable_variables
    non_trainable_weights = non_trainable_variables

    @property
    def trainable(self) -> bool:
        return self.__dict__.get("_trainable", True)

    @trainable.setter
    def trainable(self, value) -> None:
        """Freezes (``False``) or unfreezes the layer and every layer inside it, as Keras 3
        does: its weights move to ``non_trainable_weights`` and ``fit`` stops updating them
        (after the next ``compile``; a train step already traced keeps its list of weights,
        as in Keras).  Weights created non-trainable (BatchNormalization's moving statistics)
        stay non-trainable when unfrozen.  Tapes still watch frozen weights, as in Keras 3."""
        value = bool(value)
        self.__dict__["_trainable"] = value
        for item in self._walk(set()):
            if isinstance(item, Layer):
                item.__dict__["_trainable"] = value
            elif isinstance(item, Variable):
                item._trainable = value and item._tape_watchable

    @property
    def submodules(self) -> tuple:
        return tuple(v for v in self._walk(set()) if isinstance(v, Module))

    @property
    def dtype(self) -> str:
        """The dtype of the layer's weights, as Keras 3 names it (``'float32'``)."""
        return self._layer_dtype.name

    compute_dtype = variable_dtype = dtype

    def _input_dtypes(self, count):
        """The dtype each input leaf is cast to if it is a float (the layer's dtype)."""
        return [self._layer_dtype] * count

    def _standardize_inputs(self, inputs):
        """Keras 3's conversion of a layer's inputs: NumPy arrays become tensors, float
        inputs of another precision are cast to the layer's dtype (a float64 array gives a
        float32 result), integer and other inputs keep theirs; a Python number or list in
        the inputs is refused with Keras's ValueError."""
        flat = _flat_inputs(inputs)
        if not any(isinstance(x, np.ndarray | np.generic) or (
                is_tensor(x) and x.dtype.is_floating and x.dtype is not self._layer_dtype)
                or not (is_tensor(x) or x is None or hasattr(x, "_as_tensor"))
                for x in flat):
            return inputs  # the common case: tensors of the layer's dtype already
        out = []
        for x, dtype in zip(flat, self._input_dtypes(len(flat))):
            if isinstance(x, np.ndarray | np.generic) or hasattr(x, "__array__") and not (
                    is_tensor(x) or hasattr(x, "_as_tensor")):
                x = to_tensor(np.asarray(x))
            elif not (is_tensor(x) or x is None or hasattr(x, "_as_tensor")):
                raise ValueError(
                    "Only input tensors may be passed as positional arguments. The following "
                    "argument value should be passed as a keyword argument: "
                    f"{x} (of type {type(x)})")
            if is_tensor(x) and x.dtype.is_floating and x.dtype is not dtype:
                x = math_ops.cast(x, dtype)
            out.append(x)
        return _pack_inputs(inputs, iter(out))

    def build(self, input_shape):
        self.built = True

    def call(self, inputs, training=None):
        raise NotImplementedError(f"Layer {type(self).__name__} does not have a `call` method "
                                  "implemented.")

    def add_weight(self, name=None, shape=(), initializer="zeros", trainable=True,
                   dtype=None):
        with init_scope():  # weights are state: created once, outside any trace
            shape = [int(d) for d in shape]
            dtype = self.dtype if dtype is None else dtype
            if callable(initializer):  # e.g. kernel_initializer=tf.random.normal
                value = to_tensor(initializer(shape, dtype=dtype))
            elif initializer == "zeros":
                value = creation_ops.zeros(shape, dtype)
            elif initializer == "ones":
                value = creation_ops.ones(shape, dtype)
            elif initializer in ("glorot_uniform", "orthogonal"):
                # fans as Keras computes them: a kernel's receptive field counts too
                receptive = math.prod(shape[:-2]) if len(shape) > 2 else 1
                fan_in = (shape[-2] if len(shape) > 1 else shape[0]) * receptive
                fan_out = shape[-1] * receptive
                limit = math.sqrt(6.0 / (fan_in + fan_out))
                value = random_ops.uniform(shape, -limit, limit, dtype=dtype)
            else:
                raise ValueError(f"Unknown initializer {initializer!r}")
            variable = Variable(value, trainable=trainable, name=f"{self.name}/{name}")
            variable._trainable = trainable and self.trainable  # a frozen layer's weight
            return variable

    def __call__(self, inputs, training=None, **kwargs):
        from .functional import is_symbolic, symbolic_call
        if training is not None:
            kwargs["training"] = training
        if is_symbolic(inputs):  # functional API: record the call, compute shapes
            return symbolic_call(self, inputs, kwargs)
        return self._call_eager_or_traced(inputs, kwargs)

    def _call_eager_or_traced(self, inputs, kwargs):
        inputs = self._standardize_inputs(inputs)
        if not self.built:
            x = inputs if not isinstance(inputs, (list, tuple)) else inputs[0]
            self.build(TensorShape(getattr(x, "shape", None) or to_tensor(x).shape))
            self.built = True
        training = kwargs.pop("training", None)
        with name_scope(self.name):  # a traced model's graph groups by layer, as in Keras
            out = self.call(inputs, training=training, **kwargs) if _takes_training(self) \
                else self.call(inputs, **kwargs)
        shape = getattr(out, "shape", None)
        if isinstance(shape, TensorShape) and shape.rank:
            self._output_shape = TensorShape([None] + shape.dims[1:])
        return out

    def __repr__(self):
        return f"<{type(self).__name__} name={self.name}, built={self.built}>"

    def count_params(self) -> int:
        return sum(math.prod(v.shape.as_list()) for v in self.variables)


def _flat_inputs(inputs) -> list:
    if isinstance(inputs, (list, tuple)):
        return [leaf for x in inputs for leaf in _flat_inputs(x)]
    if isinstance(inputs, dict):
        return [leaf for k in sorted(inputs, key=str) for leaf in _flat_inputs(inputs[k])]
    return [inputs]


def _pack_inputs(inputs, leaves):
    if isinstance(inputs, list):
        return [_pack_inputs(x, leaves) for x in inputs]
    if isinstance(inputs, tuple):
        packed = [_pack_inputs(x, leaves) for x in inputs]
        return type(inputs)(*packed) if hasattr(inputs, "_fields") else type(inputs)(packed)
    if isinstance(inputs, dict):
        return {k: _pack_inputs(inputs[k], leaves) for k in sorted(inputs, key=str)}
    return next(leaves)


def _takes_training(layer) -> bool:
    import inspect
    try:
        return "training" in inspect.signature(layer.call).parameters
    except (TypeError, ValueError):
        return False


class Dense(Layer):
    """``activation(inputs @ kernel + bias)``."""

    def __init__(self, units, activation=None, use_bias=True,
                 kernel_initializer="glorot_uniform", bias_initializer="zeros", **kwargs):
        super().__init__(**kwargs)
        self.units = int(units)
        self.activation_name = activation
        self.activation = get_activation(activation)
        self.use_bias = use_bias
        self._initializers = (kernel_initializer, bias_initializer)

    def build(self, input_shape):
        last = TensorShape(input_shape).dims[-1]
        if last is None:
            raise ValueError(f"The last dimension of the inputs to Dense '{self.name}' must "
                             "be known.")
        self.kernel = self.add_weight("kernel", (last, self.units), self._initializers[0])
        self.bias = (self.add_weight("bias", (self.units,), self._initializers[1])
                     if self.use_bias else None)
        self.built = True

    def call(self, inputs):
        x = to_tensor(inputs)
        if x.dtype is not self.kernel.dtype:  # integer inputs: Keras's matmul gives floats
            x = math_ops.cast(x, self.kernel.dtype)
        x = math_ops.matmul(x, self.kernel)
        if self.bias is not None:
            x = x + self.bias
        return self.activation(x)


class Flatten(Layer):
    """Keeps the batch dimension, flattens the rest."""

    def call(self, inputs):
        x = to_tensor(inputs)
        rest = x.shape.dims[1:]
        if all(d is not None for d in rest):
            n = 1
            for d in rest:
                n *= d
            return shape_ops.reshape(x, [-1, n])
        return shape_ops.reshape(x, [shape_ops.shape(x)[0], -1])


class Dropout(Layer):
    """While training, zeroes a fraction ``rate`` of the inputs and scales the rest up."""

    def __init__(self, rate, seed=None, **kwargs):
        super().__init__(**kwargs)
        if not 0 <= rate < 1:
            raise ValueError(f"Invalid value received for argument `rate`: {rate}. Expected "
                             "a float value between 0 and 1.")
        self.rate = float(rate)
        self.seed = seed

    def call(self, inputs, training=None):
        x = to_tensor(inputs)
        if not training or self.rate == 0:
            return x
        keep = math_ops.cast(math_ops.greater_equal(
            random_ops.uniform(shape_ops.shape(x), seed=self.seed), self.rate), x.dtype)
        return x * keep / (1.0 - self.rate)
