"""``tf.keras.layers``: Layer, Dense, Flatten, Dropout (layer 10, models)."""

from __future__ import annotations

import math

from ..eager.context import init_scope
from ..eager.variables import Variable
from ..ops import array_ops, math_ops, random_ops
from ..ops.convert import to_tensor
from ..shapes import TensorShape
from .module import Module

ACTIVATIONS = {
    None: lambda x: x, "linear": lambda x: x, "relu": math_ops.relu,
    "sigmoid": math_ops.sigmoid, "tanh": math_ops.tanh,
    "softmax": lambda x: math_ops.softmax(x),
}


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

    def __init__(self, trainable=True, name=None, **kwargs):
        if name is None:  # Keras numbers its layers: dense, dense_1, ...
            from .module import _snake
            base = _snake(type(self).__name__)
            n = Layer._counts.get(base, 0)
            Layer._counts[base] = n + 1
            name = base if n == 0 else f"{base}_{n}"
        super().__init__(name=name)
        self.trainable = trainable
        self.built = False

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
    def submodules(self) -> tuple:
        return tuple(v for v in self._walk(set()) if isinstance(v, Module))

    def build(self, input_shape):
        self.built = True

    def call(self, inputs, training=None):
        return inputs

    def add_weight(self, name=None, shape=(), initializer="zeros", trainable=True,
                   dtype="float32"):
        with init_scope():  # weights are state: created once, outside any trace
            if initializer == "zeros":
                value = array_ops.zeros(list(shape), dtype)
            elif initializer == "ones":
                value = array_ops.ones(list(shape), dtype)
            elif initializer == "glorot_uniform":
                fan_in = shape[0] if len(shape) > 1 else 1
                fan_out = shape[-1]
                limit = math.sqrt(6.0 / (fan_in + fan_out))
                value = random_ops.uniform(list(shape), -limit, limit, dtype=dtype)
            else:
                raise ValueError(f"Unknown initializer {initializer!r}")
            return Variable(value, trainable=trainable and self.trainable,
                            name=f"{self.name}/{name}")

    def __call__(self, inputs, training=None, **kwargs):
        if not self.built:
            x = inputs if not isinstance(inputs, (list, tuple)) else inputs[0]
            self.build(TensorShape(getattr(x, "shape", to_tensor(x).shape)))
            self.built = True
        return self.call(inputs, training=training, **kwargs) if _takes_training(self) \
            else self.call(inputs, **kwargs)


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
        x = math_ops.matmul(to_tensor(inputs), self.kernel)
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
            return array_ops.reshape(x, [-1, n])
        return array_ops.reshape(x, [array_ops.shape(x)[0], -1])


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
            random_ops.uniform(array_ops.shape(x), seed=self.seed), self.rate), x.dtype)
        return x * keep / (1.0 - self.rate)
