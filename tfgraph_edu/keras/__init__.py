"""``tf.keras``: a small Keras subset on tfgraph_edu (layer 10, models)."""

from types import SimpleNamespace

from . import backend, callbacks, datasets, losses, metrics, optimizers  # noqa: F401
from .call_context import InputSpec
from .core_layers import (
    Activation,
    BatchNormalization,
    Conv2D,
    InputLayer,
    Lambda,
    MaxPooling2D,
    Reshape,
)
from .functional import Input, KerasTensor  # noqa: F401
from .layers import ACTIVATIONS, Dense, Dropout, Flatten, Layer
from .models import Model, Sequential  # noqa: F401
from .rnn_layers import LSTM, RNN, LSTMCell
from .variables import Variable  # noqa: F401

layers = SimpleNamespace(Layer=Layer, Dense=Dense, Flatten=Flatten, Dropout=Dropout,
                         InputLayer=InputLayer, Input=Input, Reshape=Reshape, Lambda=Lambda,
                         Activation=Activation, Conv2D=Conv2D, MaxPooling2D=MaxPooling2D,
                         MaxPool2D=MaxPooling2D, BatchNormalization=BatchNormalization,
                         LSTMCell=LSTMCell, RNN=RNN, LSTM=LSTM, InputSpec=InputSpec)
activations = SimpleNamespace(**{k: v for k, v in ACTIVATIONS.items()
                                 if isinstance(k, str) and k != "linear"},
                              linear=ACTIVATIONS["linear"])
