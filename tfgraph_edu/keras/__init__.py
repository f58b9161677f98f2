"""``tf.keras``: a small Keras subset on tfgraph_edu (layer 10, models)."""

from types import SimpleNamespace

from . import losses, optimizers  # noqa: F401
from .layers import Dense, Dropout, Flatten, Layer
from .models import Model, Sequential  # noqa: F401

layers = SimpleNamespace(Layer=Layer, Dense=Dense, Flatten=Flatten, Dropout=Dropout)
