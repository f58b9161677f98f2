"""``tf.keras``: a small Keras subset on tfgraph_edu (layer 10, models)."""

from types import SimpleNamespace

from . import (  # noqa: F401
    backend,
    callbacks,
    constraints,
    datasets,
    initializers,
    losses,
    metrics,
    mixed_precision,
    optimizers,
    regularizers,
    utils,
)
from . import saving as _saving_module  # loaded first: `saving` below stays the namespace
from .call_context import InputSpec
from .core_layers import (
    Activation,
    BatchNormalization,
    Conv2D,
    GlobalAveragePooling1D,
    InputLayer,
    Lambda,
    LeakyReLU,
    Masking,
    MaxPooling2D,
    Reshape,
)
from .embedding import Embedding
from .functional import Input, KerasTensor  # noqa: F401
from .layers import ACTIVATIONS, Dense, Dropout, Flatten, Layer
from .metrics import Metric  # noqa: F401
from .models import Model, Sequential  # noqa: F401
from .models import load_model as _load_model
from .preprocessing import NAMESPACE as preprocessing  # noqa: F401
from .rnn_layers import LSTM, RNN, LSTMCell
from .tf_api_names import TF_NAMES, missing
from .variables import Variable  # noqa: F401


class _Namespace(SimpleNamespace):
    """``tf.keras.layers`` and ``tf.keras.activations``: a name TF 2.21 has and tfgraph_edu
    lacks fails saying so."""

    def __init__(self, label, **names):
        super().__init__(**names)
        object.__setattr__(self, "_label", label)

    def __getattr__(self, name):
        raise missing(object.__getattribute__(self, "_label"), name)


def __getattr__(name):
    raise missing("keras", name)


layers = _Namespace("layers", Layer=Layer, Dense=Dense, Flatten=Flatten, Dropout=Dropout,
                         InputLayer=InputLayer, Input=Input, Reshape=Reshape, Lambda=Lambda,
                         Activation=Activation, Conv2D=Conv2D, MaxPooling2D=MaxPooling2D,
                         MaxPool2D=MaxPooling2D, BatchNormalization=BatchNormalization,
                         LSTMCell=LSTMCell, RNN=RNN, LSTM=LSTM, InputSpec=InputSpec,
                         Embedding=Embedding, GlobalAveragePooling1D=GlobalAveragePooling1D,
                         GlobalAvgPool1D=GlobalAveragePooling1D, Masking=Masking,
                         LeakyReLU=LeakyReLU)
activations = _Namespace("activations", **{k: v for k, v in ACTIVATIONS.items()
                                 if isinstance(k, str) and k != "linear"},
                              linear=ACTIVATIONS["linear"])


def _get_activation(identifier):
    """``tf.keras.activations.get``: a callable as is, None as ``linear``, a name looked up."""
    if identifier is None:
        return activations.linear
    if callable(identifier):
        return identifier
    if isinstance(identifier, str):
        if identifier in ACTIVATIONS:
            return getattr(activations, identifier)
        if identifier in TF_NAMES["activations"]:
            raise missing("activations", identifier)
    raise ValueError(f"Could not interpret activation function identifier: {identifier}")


activations.get = _get_activation
saving = _Namespace("saving",
                    register_keras_serializable=_saving_module.register_keras_serializable,
                    get_registered_name=_saving_module.get_registered_name,
                    get_registered_object=_saving_module.get_registered_object,
                    load_model=_load_model)
