"""``tf.keras.layers``: InputLayer, Reshape, Lambda, Activation, Conv2D, MaxPooling2D,
Masking, GlobalAveragePooling1D, BatchNormalization (layer 10, models)."""

from __future__ import annotations

import math

from .. import dtypes as _dt
from ..ops import (
    concat_ops,
    creation_ops,
    indexing_ops,
    math_ops,
    nn_ops,
    reduction_ops,
    shape_ops,
)
from ..ops.convert import to_tensor
from ..shapes import TensorShape
from .call_context import InputSpec
from .functional import KerasTensor, _unique
from .layers import Layer, _traced_output_shape, get_activation


class InputLayer(Layer):
    """The layer behind ``tf.keras.Input``: its output is the model's input KerasTensor."""

    def __init__(self, shape=None, batch_size=None, dtype=None, name=None, batch_shape=None,
                 input_shape=None, sparse=None, **kwargs):
        super().__init__(name=name or _unique("input_layer"))
        if batch_shape is None:
            shape = input_shape if shape is None else shape
            if shape is None:
                raise ValueError("You must pass a `shape` argument.")
            batch_shape = (batch_size,) + tuple(shape)
        self.batch_shape = tuple(batch_shape)
        self.built = True
        self.sparse = bool(sparse)
        output = KerasTensor(self.batch_shape, dtype or _dt.float32,
                             _unique("keras_tensor"), (self, None, {}), 0, sparse=self.sparse)
        self._inbound_nodes.append((None, output, {}))  # ``self.output``
        self._output_shape = TensorShape(list(self.batch_shape))

    def call(self, inputs):
        return inputs


class Reshape(Layer):
    """Reshapes each example to ``target_shape`` (the batch dimension is kept)."""

    compute_output_shape = _traced_output_shape

    def __init__(self, target_shape, **kwargs):
        super().__init__(**kwargs)
        self.target_shape = tuple(int(d) for d in target_shape)

    def call(self, inputs):
        inputs.shape  # noqa: B018 - Keras 3 reads it first: a list has none (AttributeError)
        x = to_tensor(inputs)
        batch = x.shape.dims[0] if x.shape.rank else None
        lead = [-1] if batch is None or -1 in self.target_shape else [batch]
        if lead == [-1] and -1 in self.target_shape:
            lead = [shape_ops.shape(x)[0]]
            return shape_ops.reshape(x, concat_ops.concat(
                [lead, list(self.target_shape)], axis=0))
        return shape_ops.reshape(x, lead + list(self.target_shape))


class Lambda(Layer):
    """Wraps a function of the inputs as a layer (it has no weights)."""

    compute_output_shape = _traced_output_shape

    def __init__(self, function, output_shape=None, mask=None, arguments=None, **kwargs):
        super().__init__(**kwargs)
        self.function = function
        self.arguments = dict(arguments or {})
        self.mask = mask
        self.supports_masking = mask is not None  # as Keras 3: else the mask ends here
        import inspect
        try:
            self._fn_takes_mask = "mask" in inspect.signature(function).parameters
        except (TypeError, ValueError):
            self._fn_takes_mask = False

    def call(self, inputs, mask=None):
        if self._fn_takes_mask:
            return self.function(inputs, mask=mask, **self.arguments)
        return self.function(inputs, **self.arguments)

    def compute_mask(self, inputs, mask=None):
        """``mask`` given to the layer: called with (inputs, mask) if callable, else itself."""
        return self.mask(inputs, mask) if callable(self.mask) else self.mask


class Activation(Layer):

    _supports_masking = True  # passes its input's mask on (Keras 3)
    compute_output_shape = _traced_output_shape

    def __init__(self, activation, **kwargs):
        super().__init__(**kwargs)
        self.activation = get_activation(activation)

    def call(self, inputs):
        return self.activation(to_tensor(inputs))


class LeakyReLU(Layer):
    """x for x > 0, ``negative_slope * x`` otherwise (Keras 3; ``alpha=`` is its deprecated
    name, with Keras 3's warning)."""

    compute_output_shape = _traced_output_shape

    def __init__(self, negative_slope=0.3, **kwargs):
        if "alpha" in kwargs:
            import warnings
            negative_slope = kwargs.pop("alpha")
            warnings.warn("Argument `alpha` is deprecated. Use `negative_slope` instead.",
                          stacklevel=2)
        super().__init__(**kwargs)
        if negative_slope is None or negative_slope < 0:
            raise ValueError("The negative_slope value of a Leaky ReLU layer cannot be None or "
                             f"negative value. Expected a float. Received: negative_slope="
                             f"{negative_slope}")
        self.negative_slope = negative_slope

    def call(self, inputs):
        from ..ops import indexing_ops
        x = to_tensor(inputs)
        slope = math_ops.cast(float(self.negative_slope), x.dtype)
        return indexing_ops.where(math_ops.greater(x, 0), x, x * slope)


def _pair(v):
    return (int(v), int(v)) if isinstance(v, int) else tuple(int(x) for x in v)


class Conv2D(Layer):
    """2-D convolution over NHWC images: ``activation(conv2d(x, kernel) + bias)``."""

    compute_output_shape = _traced_output_shape

    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid", activation=None,
                 use_bias=True, kernel_initializer="glorot_uniform", bias_initializer="zeros",
                 data_format=None, **kwargs):
        super().__init__(**kwargs)
        if data_format not in (None, "channels_last"):
            raise NotImplementedError("tfgraph_edu's Conv2D implements channels_last only.")
        self.filters = int(filters)
        self.kernel_size = _pair(kernel_size)
        self.strides = _pair(strides)
        self.padding = padding.upper()
        self.activation = get_activation(activation)
        self.use_bias = use_bias
        self._initializers = (kernel_initializer, bias_initializer)
        self.input_spec = InputSpec(min_ndim=4)

    def build(self, input_shape):
        channels = TensorShape(input_shape).dims[-1]
        self.input_spec = InputSpec(min_ndim=4, axes={-1: channels})
        self._kernel = self.add_weight(shape=self.kernel_size + (channels, self.filters),
                                      initializer=self._initializers[0], name="kernel")
        self.bias = (self.add_weight(shape=(self.filters,),
                                     initializer=self._initializers[1], name="bias")
                     if self.use_bias else None)
        self.built = True

    @property
    def kernel(self):
        """Keras 3 keeps it as ``_kernel`` (the name checkpoints show)."""
        return self._kernel

    def call(self, inputs):
        x = nn_ops.conv2d(to_tensor(inputs), self.kernel, self.strides, self.padding)
        if self.bias is not None:
            x = x + self.bias
        return self.activation(x)


class MaxPooling2D(Layer):
    """Max over ``pool_size`` windows (strides default to the pool size)."""

    compute_output_shape = _traced_output_shape

    def __init__(self, pool_size=(2, 2), strides=None, padding="valid", data_format=None,
                 **kwargs):
        super().__init__(**kwargs)
        self.pool_size = _pair(pool_size)
        self.strides = _pair(strides) if strides is not None else self.pool_size
        self.padding = padding.upper()
        self.input_spec = InputSpec(ndim=4)

    def call(self, inputs):
        return nn_ops.max_pool2d(to_tensor(inputs), self.pool_size, self.strides, self.padding)


class Masking(Layer):
    """Masks the steps whose features all equal ``mask_value`` (Keras 3): they become 0 and
    the output's ``_keras_mask`` is False there."""

    _supports_masking = True
    compute_output_shape = _traced_output_shape

    def __init__(self, mask_value=0.0, **kwargs):
        super().__init__(**kwargs)
        self.mask_value = mask_value

    def compute_mask(self, inputs, mask=None):
        return reduction_ops.reduce_any(
            math_ops.not_equal(to_tensor(inputs), self.mask_value), axis=-1)

    def call(self, inputs):
        x = to_tensor(inputs)
        keep = reduction_ops.reduce_any(math_ops.not_equal(x, self.mask_value), axis=-1,
                                        keepdims=True)
        out = indexing_ops.where(keep, x, creation_ops.zeros_like(x))
        out._keras_mask = shape_ops.squeeze(keep, axis=[-1])
        return out


class GlobalAveragePooling1D(Layer):
    """The mean over the steps axis; with a time-step mask, over the unmasked steps only
    (Keras 3), and the mask ends here."""

    _supports_masking = True
    compute_output_shape = _traced_output_shape

    def __init__(self, data_format=None, keepdims=False, **kwargs):
        super().__init__(**kwargs)
        self.data_format = data_format or "channels_last"
        if self.data_format not in ("channels_last", "channels_first"):
            raise ValueError("The `data_format` argument must be one of {'channels_first', "
                             f"'channels_last'}}. Received: data_format={data_format}")
        self.keepdims = bool(keepdims)
        self.input_spec = InputSpec(ndim=3)

    def call(self, inputs, mask=None):
        x = to_tensor(inputs)
        steps = 1 if self.data_format == "channels_last" else 2
        if mask is None:
            return reduction_ops.reduce_mean(x, axis=steps, keepdims=self.keepdims)
        m = shape_ops.expand_dims(math_ops.cast(mask, x.dtype),
                                  2 if self.data_format == "channels_last" else 1)
        return (reduction_ops.reduce_sum(x * m, axis=steps, keepdims=self.keepdims)
                / reduction_ops.reduce_sum(m, axis=steps, keepdims=self.keepdims))

    def compute_mask(self, inputs, mask=None):
        return None


class BatchNormalization(Layer):
    """Normalises over the batch while training (updating moving statistics), and with the
    moving statistics otherwise; Keras's defaults: momentum 0.99, epsilon 0.001."""

    _supports_masking = True  # passes its input's mask on (Keras 3)

    compute_output_shape = _traced_output_shape

    def __init__(self, axis=-1, momentum=0.99, epsilon=1e-3, center=True, scale=True,
                 **kwargs):
        super().__init__(**kwargs)
        self.axis = axis
        self.momentum = float(momentum)
        self.epsilon = float(epsilon)
        self.center, self.scale = center, scale

    def build(self, input_shape):
        shape = TensorShape(input_shape)
        if self.axis not in (-1, shape.rank - 1):
            raise NotImplementedError("tfgraph_edu's BatchNormalization normalises the last "
                                      "axis only.")
        n = shape.dims[-1]
        self.input_spec = InputSpec(ndim=shape.rank, axes={self.axis: n})
        self.gamma = (self.add_weight(shape=(n,), initializer="ones", name="gamma")
                      if self.scale else None)
        self.beta = (self.add_weight(shape=(n,), initializer="zeros", name="beta")
                     if self.center else None)
        self.moving_mean = self.add_weight(shape=(n,), initializer="zeros",
                                           name="moving_mean", trainable=False)
        self.moving_variance = self.add_weight(shape=(n,), initializer="ones",
                                               name="moving_variance", trainable=False)
        self.built = True

    def call(self, inputs, training=None, mask=None):
        x = to_tensor(inputs)
        axes = list(range(x.shape.rank - 1))
        if training and mask is not None:  # Keras 3 takes the batch moments of the unmasked
            raise NotImplementedError(  # steps only
                "tfgraph_edu's BatchNormalization does not train on masked inputs yet (Keras 3 "
                "leaves masked steps out of the batch statistics).")
        if training:
            mean = reduction_ops.reduce_mean(x, axis=axes)
            var = reduction_ops.reduce_mean(math_ops.square(x - mean), axis=axes)
            m = self.momentum
            self.moving_mean.assign(self.moving_mean * m + mean * (1.0 - m))
            self.moving_variance.assign(self.moving_variance * m + var * (1.0 - m))
        else:
            mean, var = self.moving_mean, self.moving_variance
        y = (x - mean) / math_ops.sqrt(var + self.epsilon)
        if self.gamma is not None:
            y = y * self.gamma
        if self.beta is not None:
            y = y + self.beta
        return y


def count(shape) -> int:
    return math.prod(shape)
