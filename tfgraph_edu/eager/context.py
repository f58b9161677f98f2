"""Execution settings: ``tf.config.run_functions_eagerly`` and ``tf.init_scope`` (layer 4)."""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar, Token

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


_EAGER_SCOPE: ContextVar = ContextVar("tfgraph_edu_eager_name_scope", default="")


def eager_name_scope() -> str:
    """The eager name scope open now (``"a/b/"``, or ``""``): eager variables' names start
    with it, as in TensorFlow."""
    return _EAGER_SCOPE.get()


class name_scope:  # noqa: N801 - TensorFlow's name
    """``tf.name_scope``: in a graph, prefixes the names of ops built in the body (made
    unique); eagerly, the scopes nest (not made unique) and name the variables made inside.
    A name ending in ``/`` is absolute.  The object can be entered again (``tf.Module``
    keeps one as its ``name_scope``)."""

    def __init__(self, name: str):
        self._name = name
        self._exits: list = []

    @property
    def name(self) -> str:
        return self._name

    def __enter__(self):
        name = self._name
        interp = _core.interpreter()
        graph = getattr(interp, "graph", None)
        if interp.executing_eagerly or graph is None:
            old = _EAGER_SCOPE.get()
            if not name:
                scope = ""
            elif name.endswith("/"):
                scope = name
            else:
                scope = f"{old}{name}/"
            self._exits.append(_EAGER_SCOPE.set(scope))
            return scope
        cm = graph.name_scope(name)
        scope = cm.__enter__()
        self._exits.append(cm)
        return scope

    def __exit__(self, *exc):
        top = self._exits.pop()
        if isinstance(top, Token):
            _EAGER_SCOPE.reset(top)
            return False
        return top.__exit__(*exc)


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
