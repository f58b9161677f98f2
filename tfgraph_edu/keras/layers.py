"""``tf.keras.layers``: Layer, Dense, Flatten, Dropout (layer 10, models)."""

from __future__ import annotations

import math

from ..eager.context import init_scope, name_scope
from ..eager.variables import Variable
from ..ops import creation_ops, math_ops, random_ops, shape_ops
from ..ops.convert import to_tensor
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
    def submodules(self) -> tuple:
        return tuple(v for v in self._walk(set()) if isinstance(v, Module))

    def build(self, input_shape):
        self.built = True

    def call(self, inputs, training=None):
        return inputs

    def add_weight(self, name=None, shape=(), initializer="zeros", trainable=True,
                   dtype="float32"):
        with init_scope():  # weights are state: created once, outside any trace
            shape = [int(d) for d in shape]
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
            return Variable(value, trainable=trainable and self.trainable,
                            name=f"{self.name}/{name}")

    def __call__(self, inputs, training=None, **kwargs):
        from .functional import is_symbolic, symbolic_call
        if training is not None:
            kwargs["training"] = training
        if is_symbolic(inputs):  # functional API: record the call, compute shapes
            return symbolic_call(self, inputs, kwargs)
        return self._call_eager_or_traced(inputs, kwargs)

    def _call_eager_or_traced(self, inputs, kwargs):
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
