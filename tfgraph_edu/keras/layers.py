"""``tf.keras.layers``: Layer, Dense, Flatten, Dropout (layer 10, models)."""

from __future__ import annotations

import math
import warnings

import numpy as np

from .. import dtypes as _dt
from ..eager.context import init_scope, name_scope
from ..ops import math_ops, random_ops, shape_ops, sparse_ops
from ..ops.convert import is_tensor, to_tensor
from ..ops.sparse_ops import SparseTensor
from ..shapes import TensorShape
from . import initializers, regularizers
from .call_context import InputSpec, call_with_context, check_input_spec
from .dtype_policy import as_policy, autocast
from .module import AutoTrackable
from .variables import Variable, auto_name, keras_scope, path_for


def linear(x):
    """``tf.keras.activations.linear``: ``x`` unchanged."""
    return x


def elu(x, alpha=1.0):
    """x if x > 0 else alpha * (exp(x) - 1) (Keras 3: the Elu op, scaled for alpha != 1)."""
    from ..ops import indexing_ops, nn_ops
    out = nn_ops.elu(x)
    return out if alpha == 1 else indexing_ops.where(math_ops.greater(out, 0), out, alpha * out)


# TF's Selu kernel: scale * x for x > 0, scale * alpha * (exp(x) - 1) otherwise
_SELU_SCALE, _SELU_SCALE_ALPHA = 1.0507009873554805, 1.7580993408473766


def selu(x):
    """Scaled ELU with the constants of Klambauer et al. (TF's Selu kernel)."""
    from ..ops import indexing_ops
    x = to_tensor(x)
    negative = math_ops.cast(_SELU_SCALE_ALPHA, x.dtype) * (math_ops.exp(x) - 1)
    return indexing_ops.where(math_ops.greater(x, 0), math_ops.cast(_SELU_SCALE, x.dtype) * x,
                              negative)


def silu(x):
    """x * sigmoid(x) (Keras 3's ``silu``, also named ``swish``)."""
    x = to_tensor(x)
    return x * math_ops.sigmoid(x)


def softsign(x):
    """x / (1 + |x|)."""
    x = to_tensor(x)
    return x / (math_ops.abs(x) + 1)


def softplus(x):
    """log(1 + exp(x)) (the Softplus op)."""
    from ..ops import nn_ops
    return nn_ops.softplus(x)


def exponential(x):
    """exp(x)."""
    return math_ops.exp(x)


ACTIVATIONS = {
    None: linear, "linear": linear, "relu": math_ops.relu,
    "sigmoid": math_ops.sigmoid, "tanh": math_ops.tanh,
    "softmax": lambda x: math_ops.softmax(x),
    "elu": elu, "selu": selu, "silu": silu, "swish": silu, "softsign": softsign,
    "softplus": softplus, "exponential": exponential,
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


# Keras 3 options of its layers that tfgraph_edu does not implement: refused when given
# (a regularizer or constraint quietly dropped would train another model than TF's)
_UNIMPLEMENTED_OPTIONS = frozenset("""
    activity_regularizer kernel_regularizer bias_regularizer recurrent_regularizer
    kernel_constraint bias_constraint recurrent_constraint beta_regularizer gamma_regularizer
    beta_constraint gamma_constraint depthwise_regularizer pointwise_regularizer
    depthwise_constraint pointwise_constraint lora_rank lora_alpha quantization_config
""".split())


def _check_layer_kwargs(cls_name, kwargs):
    """Keras 3's Layer arguments: ``autocast`` and ``input_dim`` taken; an option Keras has
    and tfgraph_edu lacks, NotImplementedError; any other name, Keras 3's ValueError."""
    unknown = {}
    for key, value in kwargs.items():
        if key in ("autocast", "input_dim"):
            continue
        if key in _UNIMPLEMENTED_OPTIONS:
            if value is not None:
                raise NotImplementedError(f"tfgraph_edu does not implement {cls_name}({key}="
                                          "...) yet.")
            continue
        unknown[key] = value
    if unknown:
        raise ValueError(f"Unrecognized keyword arguments passed to {cls_name}: {unknown}")


def get_activation(name):
    if callable(name):
        return name
    try:
        return ACTIVATIONS[name]
    except KeyError:
        raise ValueError(f"Unknown activation function: '{name}'. Known: "
                         f"{', '.join(k for k in ACTIVATIONS if k)}") from None


class Layer(AutoTrackable):
    """Builds its weights on the first call (from the input's shape), then runs ``call``.

    As in Keras 3 it is not a ``tf.Module``: it tracks the Keras weights (``add_weight``,
    ``tf.keras.Variable``) and the layers set on it (also in lists and dicts); a raw
    ``tf.Variable`` or a ``tf.Module`` set on it is not tracked."""

    _counts: dict[str, int] = {}

    def __init__(self, trainable=True, name=None, dtype=None, input_shape=None, **kwargs):
        _check_layer_kwargs(type(self).__name__, kwargs)
        if input_shape is None and kwargs.get("input_dim") is not None:
            input_shape = (kwargs["input_dim"],)
        if name is None:  # Keras numbers its layers: dense, dense_1, ...
            base = keras_snake(type(self).__name__)
            n = Layer._counts.get(base, 0)
            Layer._counts[base] = n + 1
            name = base if n == 0 else f"{base}_{n}"
        self._name = name
        self.trainable = trainable
        # Keras 3's dtype policy: the dtype of the weights and the one computed in (the
        # global policy's by default: float32, or float32 weights computing in float16)
        self._dtype_policy = as_policy(dtype)
        self._layer_dtype = _dt.as_dtype(self._dtype_policy.compute_dtype)
        self.built = False
        self._inbound_nodes: list = []
        self._output_shape = None
        self._input_shape_arg = None if input_shape is None else tuple(input_shape)
        if input_shape is not None:
            warnings.warn("Do not pass an `input_shape`/`input_dim` argument to a layer. When "
                          "using Sequential models, prefer using an `Input(shape)` object as "
                          "the first layer in the model instead.", UserWarning, stacklevel=2)

    @property
    def name(self) -> str:
        return self._name

    @property
    def input(self):
        """The KerasTensor(s) of the layer's first functional-API call, as Keras 3."""
        return self._first_node(0, "input")

    @property
    def output(self):
        """The KerasTensor(s) its first functional-API call returned, as Keras 3."""
        return self._first_node(1, "output")

    def _first_node(self, index, what):
        if not self._inbound_nodes:
            raise AttributeError(f"The layer {self.name} has never been called and thus has "
                                 f"no defined {what}.")
        return self._inbound_nodes[0][index]

    def _tracked(self):
        """Keras 3's order: this layer's own trainable weights, its non-trainable ones, then
        each sub-layer's weights (sub-layers in the order they were set)."""
        own, subs = [], []

        def scan(value):
            if isinstance(value, Variable):
                own.append(value)
            elif isinstance(value, Layer):
                subs.append(value)
            elif isinstance(value, (list, tuple)):
                for v in value:
                    scan(v)
            elif isinstance(value, dict):
                for k in sorted(value, key=str):
                    scan(value[k])

        for value in list(vars(self).values()):
            scan(value)
        return own, subs

    def _all_weights(self, seen):
        own, subs = self._tracked()
        for v in [v for v in own if v._tape_watchable] + [v for v in own
                                                          if not v._tape_watchable]:
            if id(v) not in seen:
                seen.add(id(v))
                yield v
        for layer in subs:
            if id(layer) not in seen:
                seen.add(id(layer))
                yield from layer._all_weights(seen)

    def _sublayers(self, seen):
        for layer in self._tracked()[1]:
            if id(layer) not in seen:
                seen.add(id(layer))
                yield layer
                yield from layer._sublayers(seen)

    @property
    def variables(self) -> list:
        return list(self._all_weights(set()))

    @property
    def trainable_variables(self) -> list:
        return [v for v in self.variables if v.trainable]

    @property
    def non_trainable_variables(self) -> list:
        return [v for v in self.variables if not v.trainable]

    weights = variables
    trainable_weights = trainable_variables

    @property
    def losses(self) -> list:
        """The penalties of the trainable weights' regularizers, computed now (Keras 3)."""
        return [v._keras_regularizer(v) for v in self.trainable_weights
                if getattr(v, "_keras_regularizer", None) is not None]
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
        for item in self._all_weights(set()):
            item._trainable = value and item._tape_watchable
        for layer in self._sublayers(set()):
            layer.__dict__["_trainable"] = value

    @property
    def dtype(self) -> str:
        """The dtype of the layer's weights, as Keras 3 names it (``'float32'``)."""
        return self._dtype_policy.variable_dtype

    variable_dtype = dtype

    @property
    def compute_dtype(self) -> str:
        """The dtype the layer computes in (``'float16'`` under ``mixed_float16``)."""
        return self._dtype_policy.compute_dtype

    @property
    def dtype_policy(self):
        """The layer's ``DTypePolicy`` (printed ``<DTypePolicy "float32">``)."""
        return self._dtype_policy

    def _input_dtypes(self, count):
        """The dtype each input leaf is cast to if it is a float (the compute dtype)."""
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
            if isinstance(x, SparseTensor):  # float values cast as a dense input's are
                if x.dtype.is_floating and x.dtype is not dtype:
                    x = SparseTensor(x.indices, math_ops.cast(x.values, dtype), x.dense_shape)
                out.append(x)
                continue
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

    def add_weight(self, *args, shape=None, initializer=None, dtype=None, trainable=True,
                   autocast=True, regularizer=None, constraint=None, aggregation="none",
                   overwrite_with_gradient=False, name=None):
        """A new weight, tracked by the layer, as Keras 3's ``add_weight`` (up to three
        positional arguments: shape, initializer, dtype; a name given first is Keras 3's
        ValueError; ``initializer`` defaults to ``"glorot_uniform"`` for float weights and
        ``"zeros"`` otherwise)."""
        if args:
            if len(args) > 3:
                raise TypeError("add_weight() takes at most 3 positional arguments but "
                                f"{len(args)} were given.")
            if isinstance(args[0], str):
                raise ValueError(
                    "`name` must be passed as a keyword argument. Received: add_weight("
                    f"'{args[0]}', ...). Use: add_weight(shape=..., name='{args[0]}'). "
                    "(Keras 2 took the name first; Keras 3 takes the shape first.)")
            for what, given in (("shape", shape), ("initializer", initializer),
                                ("dtype", dtype))[:len(args)]:
                if given is not None:
                    raise ValueError(f"`{what}` was passed both positionally and as a "
                                     "keyword argument.")
            shape, initializer, dtype = (list(args) + [shape, initializer, dtype][len(args):])
        regularizer = regularizers.get(regularizer)
        with init_scope():  # weights are state: created once, outside any trace
            shape = [int(d) for d in (shape or ())]
            dtype = self.dtype if dtype is None else getattr(dtype, "name", dtype)
            if initializer is None:
                initializer = "glorot_uniform" if _dt.as_dtype(dtype).is_floating else "zeros"
            # a name ("he_normal"), an Initializer, or any callable (tf.random.normal)
            value = to_tensor(initializers.get(initializer)(shape, dtype=dtype))
            if name is None:
                name = auto_name("variable")
            variable = Variable(value, trainable=trainable, name=name,
                                path=path_for(name, self))
            variable._trainable = trainable and self.trainable  # a frozen layer's weight
            variable._autocast = bool(autocast)  # read as the compute dtype in a mixed call
            variable._constraint = constraint
            variable._keras_regularizer = regularizer
            return variable

    def __call__(self, inputs, *args, **kwargs):
        from .functional import is_symbolic, symbolic_call
        if kwargs.get("training", 0) is None:
            del kwargs["training"]
        if args:  # further positional arguments: tensors only, as in Keras 3
            if is_symbolic(inputs):
                raise NotImplementedError(
                    "tfgraph_edu's functional API passes one positional input to a layer: "
                    "pass several inputs as a list, or the others as keyword arguments.")
            kwargs["_positional"] = tuple(self._positional(a) for a in args)
        with keras_scope(self.name, self):  # weights made inside are under this layer's path
            if is_symbolic(inputs):  # functional API: record the call, compute shapes
                check_input_spec(self, inputs)
                return symbolic_call(self, inputs, kwargs)
            return self._call_eager_or_traced(inputs, kwargs)

    def _positional(self, value):
        if isinstance(value, np.ndarray | np.generic):
            value = to_tensor(np.asarray(value))
            if value.dtype.is_floating and value.dtype is not self._layer_dtype:
                value = math_ops.cast(value, self._layer_dtype)
            return value
        if value is None or is_tensor(value) or hasattr(value, "_as_tensor"):
            return value
        raise ValueError("Only input tensors may be passed as positional arguments. The "
                         "following argument value should be passed as a keyword argument: "
                         f"{value} (of type {type(value)})")

    def _call_eager_or_traced(self, inputs, kwargs, symbolic=None):
        kwargs = dict(kwargs)  # the caller's (a functional model's recorded call) stays as is
        inputs = self._standardize_inputs(inputs)
        check_input_spec(self, inputs)
        if not self.built:
            x = inputs if not isinstance(inputs, (list, tuple)) else inputs[0]
            shape = TensorShape(getattr(x, "shape", None) or to_tensor(x).shape)
            self._build_input_shape = shape  # Keras 3's build config: load_model rebuilds
            self.build(shape)
            self.built = True
            if symbolic is None:
                self._output_shape = self._shape_at_build(shape, getattr(x, "dtype", None))
        training = kwargs.pop("training", None)
        if _takes_training(self):
            kwargs["training"] = training
        previous_mask = kwargs.get("mask")
        if previous_mask is None:
            previous_mask = _mask_of(_flat_inputs(inputs)[0])
        if "mask" not in kwargs and _takes_arg(self, "mask"):
            kwargs["mask"] = _masks_like(inputs)  # Keras 3 passes the inputs' masks
        # a traced model's graph groups by layer, as in Keras (a graph's root scope may not
        # start with "_": a layer class named _Private groups under "private…")
        with name_scope(self.name.lstrip("_") or "layer"), autocast(self._dtype_policy):
            out = call_with_context(self, inputs, kwargs, symbolic)
        if self.supports_masking:
            _set_output_masks(self, inputs, out, previous_mask)
        elif previous_mask is not None:  # Keras 3's warning; the mask ends here
            warnings.warn(f"Layer '{self.name}' (of type {type(self).__name__}) was passed an "
                          "input with a mask attached to it. However, this layer does not "
                          "support masking and will therefore destroy the mask information. "
                          "Downstream layers will not see the mask.", stacklevel=2)
        return out

    # -- masks (Keras 3: a layer's output carries ``_keras_mask``) ----------------------------
    @property
    def supports_masking(self) -> bool:
        """Whether the layer computes an output mask (``compute_mask``): set by the layer, or
        True when its class defines its own ``compute_mask``."""
        own = getattr(self, "_supports_masking", None)  # the instance's, else the class's
        if own is not None:
            return own
        return type(self).compute_mask is not Layer.compute_mask

    @supports_masking.setter
    def supports_masking(self, value):
        self.__dict__["_supports_masking"] = bool(value)

    def compute_mask(self, inputs, previous_mask):
        """The output mask: by default the input's, passed on."""
        return previous_mask

    def _shape_at_build(self, input_shape, dtype):
        """What ``summary()`` shows for a layer built by an eager call: Keras 3 computes it
        from the build shape (the first call's batch size included) when the layer's class
        computes output shapes, and shows ``?`` for other layers (``None`` here)."""
        if type(self).compute_output_shape is _traced_output_shape:
            return TensorShape(_traced_output_shape(self, input_shape, dtype))
        try:
            return TensorShape(self.compute_output_shape(input_shape))
        except NotImplementedError:
            return None

    def compute_output_shape(self, input_shape):
        raise NotImplementedError(f"Layer {type(self).__name__} should implement `def "
                                  "compute_output_shape(self, input_shape)`.")

    def __repr__(self):
        return f"<{type(self).__name__} name={self.name}, built={self.built}>"

    def get_weights(self) -> list:
        """The weights' values as NumPy arrays, in ``weights`` order (Keras 3)."""
        return [np.array(v.numpy()) for v in self.weights]

    def set_weights(self, weights) -> None:
        """Assign NumPy values to the weights, in ``weights`` order, with Keras 3's checks."""
        mine = self.weights
        if len(weights) != len(mine):
            raise ValueError(f"You called `set_weights(weights)` on layer '{self.name}' with a "
                             f"weight list of length {len(weights)}, but the layer was "
                             f"expecting {len(mine)} weights.")
        for variable, value in zip(mine, weights):
            value = np.asarray(value)
            if tuple(variable.shape.as_list()) != value.shape:
                raise ValueError(f"Layer {self.name} weight shape "
                                 f"{tuple(variable.shape.as_list())} is not compatible with "
                                 f"provided weight shape {value.shape}.")
        for variable, value in zip(mine, weights):
            variable.assign(np.asarray(value))

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


def _traced_output_shape(layer, input_shape, dtype=None) -> tuple:
    """``compute_output_shape`` of the built-in layers: ``call`` traced once on a
    placeholder of ``input_shape`` (the layer built first if needed)."""
    from ..graph.graph import Graph
    from ..ops._core import using_interpreter
    from ..tracing.graph_builder import GraphBuilder
    shape = TensorShape(input_shape)
    if not layer.built:
        layer.build(shape)
        layer.built = True
    builder = GraphBuilder(Graph())
    with using_interpreter(builder):
        x = builder.placeholder(_dt.as_dtype(dtype or layer.compute_dtype), shape, "input")
        with autocast(layer.dtype_policy):
            out = layer.call(x, training=False) if _takes_training(layer) else layer.call(x)
    return tuple(out.shape.as_list())


def _takes_training(layer) -> bool:
    return _takes_arg(layer, "training")


_CALL_PARAMS: dict = {}  # call function -> the names of its parameters (or ())


def _takes_arg(layer, name) -> bool:
    call = getattr(layer.call, "__func__", layer.call)
    params = _CALL_PARAMS.get(call)
    if params is None:
        import inspect
        try:
            params = frozenset(inspect.signature(layer.call).parameters)
        except (TypeError, ValueError):
            params = frozenset()
        _CALL_PARAMS[call] = params
    return name in params


def _mask_of(x):
    return getattr(x, "_keras_mask", None) if is_tensor(x) else None


def _masks_like(inputs):
    """The masks of ``inputs`` (None where a tensor has none), in their structure."""
    if isinstance(inputs, (list, tuple)):
        return [_masks_like(x) for x in inputs]
    if isinstance(inputs, dict):
        return {k: _masks_like(v) for k, v in inputs.items()}
    return _mask_of(inputs)


def _set_output_masks(layer, inputs, outputs, previous_mask):
    """``compute_mask``'s masks put on the outputs that have none yet (Keras 3)."""
    flat = _flat_inputs(outputs)
    if all(_mask_of(o) is not None for o in flat):
        return
    masks = layer.compute_mask(inputs, previous_mask)
    if masks is None:
        return
    for o, m in zip(flat, _flat_inputs(masks)):
        if m is not None and is_tensor(o) and _mask_of(o) is None:
            try:
                o._keras_mask = m
            except AttributeError:  # a value that cannot carry one (a Variable)
                pass




class Dense(Layer):
    """``activation(inputs @ kernel + bias)``."""

    _supports_masking = True  # passes its input's mask on (Keras 3)

    compute_output_shape = _traced_output_shape

    def __init__(self, units, activation=None, use_bias=True,
                 kernel_initializer="glorot_uniform", bias_initializer="zeros",
                 kernel_regularizer=None, bias_regularizer=None, **kwargs):
        super().__init__(**kwargs)
        self._regularizers = (regularizers.get(kernel_regularizer),
                              regularizers.get(bias_regularizer))
        self.units = int(units)
        self.activation_name = activation
        self.activation = get_activation(activation)
        self.use_bias = use_bias
        self._initializers = (kernel_initializer, bias_initializer)
        self.input_spec = InputSpec(min_ndim=2)

    def build(self, input_shape):
        last = TensorShape(input_shape).dims[-1]
        self.input_spec = InputSpec(min_ndim=2, axes={-1: last})
        if last is None:
            raise ValueError(f"The last dimension of the inputs to Dense '{self.name}' must "
                             "be known.")
        self._kernel = self.add_weight(shape=(last, self.units),
                                      initializer=self._initializers[0], name="kernel",
                                      regularizer=self._regularizers[0])
        self.bias = (self.add_weight(shape=(self.units,),
                                     initializer=self._initializers[1], name="bias",
                                     regularizer=self._regularizers[1])
                     if self.use_bias else None)
        self.built = True

    @property
    def kernel(self):
        """Keras 3 keeps it as ``_kernel`` (the name checkpoints show)."""
        return self._kernel

    def call(self, inputs):
        if isinstance(inputs, SparseTensor):  # Keras 3: a sparse-dense product
            x = _sparse_matmul(inputs, self.kernel, self._layer_dtype)
        else:
            x = to_tensor(inputs)
            if x.dtype is not self._layer_dtype:  # integer inputs: Keras's matmul gives floats
                x = math_ops.cast(x, self._layer_dtype)
            x = math_ops.matmul(x, self.kernel)
        if self.bias is not None:
            x = x + self.bias
        return self.activation(x)


def _sparse_matmul(x, kernel, dtype):
    """A rank-2 SparseTensor times a dense kernel, its values in the compute dtype."""
    if x.shape.rank != 2:
        raise NotImplementedError("tfgraph_edu's Dense takes SparseTensor inputs of rank 2 "
                                  f"only (got rank {x.shape.rank}).")
    if x.dtype is not dtype:
        x = SparseTensor(x.indices, math_ops.cast(x.values, dtype), x.dense_shape)
    return sparse_ops.sparse_dense_matmul(x, kernel)


class Flatten(Layer):
    """Keeps the batch dimension, flattens the rest."""

    compute_output_shape = _traced_output_shape

    def __init__(self, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.input_spec = InputSpec(min_ndim=1)

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

    _supports_masking = True  # passes its input's mask on (Keras 3)

    compute_output_shape = _traced_output_shape

    def __init__(self, rate, seed=None, **kwargs):
        super().__init__(**kwargs)
        if not 0 <= rate < 1:
            raise ValueError(f"Invalid value received for argument `rate`: {rate}. Expected "
                             "a float value between 0 and 1.")
        self.rate = float(rate)
        self.seed = seed

    def call(self, inputs, training=None):
        if not training or self.rate == 0:
            return inputs  # unchanged, as Keras 3 (a list stays a list)
        x = to_tensor(inputs)
        keep = math_ops.cast(math_ops.greater_equal(
            random_ops.uniform(shape_ops.shape(x), seed=self.seed), self.rate), x.dtype)
        return x * keep / (1.0 - self.rate)
