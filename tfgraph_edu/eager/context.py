"""Execution settings: ``tf.config.run_functions_eagerly`` and ``tf.init_scope`` (layer 4)."""

from __future__ import annotations

from contextlib import contextmanager

from ..ops import _core

_RUN_EAGERLY = [False]


def run_functions_eagerly(run_eagerly: bool) -> None:
    """Make every tf.function run its Python code eagerly (for debugging), or stop doing so."""
    _RUN_EAGERLY[0] = bool(run_eagerly)


def functions_run_eagerly() -> bool:
    """Whether tf.functions currently run eagerly."""
    return _RUN_EAGERLY[0]


@contextmanager
def init_scope():
    """Leave the graph being traced: the body runs eagerly, once, at trace time.

    This is how code inside a tf.function creates state (variables, constants)
    that outlives the trace, as ``tf.init_scope`` does in TensorFlow.
    """
    with _core.using_interpreter(None):
        yield


@contextmanager
def name_scope(name: str):
    """``tf.name_scope``: prefixes the names of ops built in a graph; eagerly it does nothing."""
    interp = _core.interpreter()
    graph = getattr(interp, "graph", None)
    if interp.executing_eagerly or graph is None:
        yield name + "/" if name else ""
        return
    with graph.name_scope(name) as scope:
        yield scope


_WARNED_EXPERIMENTAL = [False]


def experimental_run_functions_eagerly(run_eagerly: bool) -> None:
    """The deprecated name of ``tf.config.run_functions_eagerly``; TensorFlow logs a
    deprecation warning the first time it is called, and so does this."""
    if not _WARNED_EXPERIMENTAL[0]:
        _WARNED_EXPERIMENTAL[0] = True
        import logging
        logging.getLogger("tensorflow").warning(
            "experimental_run_functions_eagerly (from tensorflow.python.eager.polymorphic_"
            "function.polymorphic_function) is deprecated and will be removed in a future "
            "version.\nInstructions for updating:\nUse `tf.config.run_functions_eagerly` "
            "instead of the experimental version.")
    run_functions_eagerly(run_eagerly)
