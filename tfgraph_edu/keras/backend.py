"""``tf.keras.backend``: clear_session resets the layer-name counters (layer 10)."""

from __future__ import annotations


def clear_session():
    """Forget the names handed out so far: the next Dense is ``dense`` again."""
    from . import functional, variables
    from .layers import Layer
    Layer._counts.clear()
    functional._COUNTS.clear()
    variables._AUTO_NAMES.clear()


def __getattr__(name):
    from .tf_api_names import missing
    raise missing("backend", name)
