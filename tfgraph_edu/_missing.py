"""Honest errors for TensorFlow names tfgraph_edu does not implement (layer 0).

``_data/tf_names.json`` lists the public names of TensorFlow 2.21's namespaces (recorded
under real TensorFlow by ``benchmarks/against_tf/record_tf_names.py``).  Each namespace
module of tfgraph_edu ends with ``__getattr__ = module_getattr("math", __name__)``; Python
calls it only for a name the module does not define, and it raises:

- for a name TensorFlow has: ``AttributeError: tfgraph_edu does not implement tf.sort yet
  (TensorFlow 2.21 has it; see the README for what is implemented)``;
- for a name TensorFlow does not have either: TensorFlow's own message, ``module
  'tensorflow' has no attribute 'sortt'`` (``'tensorflow._api.v2.math'`` in a namespace).

A whole namespace TensorFlow has and tfgraph_edu does not (``tf.signal``, ``tf.queue``...)
is a :class:`Namespace` without attributes, whose every attribute says the same.
``hasattr(tf, name)`` stays False for an unimplemented name.  The file is read on the first
missing name only, so importing tfgraph_edu costs nothing more.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import json
import types
from pathlib import Path

__all__ = ["tf_names", "missing_error", "module_getattr", "Namespace", "TF_VERSION"]

TF_VERSION = "2.21.0"  # the TensorFlow version whose API tfgraph_edu follows (README)
_FILE = Path(__file__).with_name("_data") / "tf_names.json"


@functools.lru_cache(maxsize=1)
def _spaces() -> dict[str, frozenset]:
    data = json.loads(_FILE.read_text(encoding="utf-8"))
    return {k: frozenset(v) for k, v in data["namespaces"].items()}


def tf_names(namespace: str = "") -> frozenset:
    """The public names TensorFlow has in ``tf.<namespace>`` ("": ``tf`` itself)."""
    return _spaces().get(namespace, frozenset())


def _dotted(namespace: str, name: str) -> str:
    return f"{namespace}.{name}" if namespace else name


def missing_error(namespace: str, name: str) -> AttributeError:
    """The AttributeError for ``tf.<namespace>.<name>``, which no module here defines."""
    full = _dotted(namespace, name)
    if not name.startswith("_") and name in tf_names(namespace):
        return AttributeError(
            f"tfgraph_edu does not implement tf.{full} yet (TensorFlow "
            f"{TF_VERSION.rsplit('.', 1)[0]} has it; see the README for what is implemented)",
            name=name)
    module = "tensorflow" if not namespace else f"tensorflow._api.v2.{namespace}"
    return AttributeError(f"module '{module}' has no attribute '{name}'", name=name)


def _lookup(namespace: str, name: str):
    """A Namespace for a TensorFlow namespace, else the AttributeError to raise."""
    if not name.startswith("_") and _dotted(namespace, name) in _spaces():
        return _namespace(_dotted(namespace, name))
    raise missing_error(namespace, name)


def module_getattr(namespace: str, module_name: str):
    """The ``__getattr__`` of the module ``module_name`` that stands for ``tf.<namespace>``.

    A package's own submodule not imported yet is imported (``from pkg import sub`` asks
    ``__getattr__`` first), so it is never hidden behind a Namespace."""
    def __getattr__(name: str):
        if not name.startswith("__"):
            sub = f"{module_name}.{name}"
            parent = importlib.import_module(module_name)
            if hasattr(parent, "__path__") and importlib.util.find_spec(sub) is not None:
                return importlib.import_module(sub)
        if name.startswith("_"):  # private names: Python's own message
            raise AttributeError(f"module '{module_name}' has no attribute '{name}'", name=name)
        return _lookup(namespace, name)

    return __getattr__


@functools.cache
def _namespace(namespace: str) -> Namespace:
    return Namespace(namespace)  # one object per namespace: tf.sets is tf.sets


class Namespace(types.ModuleType):
    """``tf.<namespace>`` as a module object holding the given attributes (none: a namespace
    TensorFlow has and tfgraph_edu does not); every other attribute raises the
    AttributeError of :func:`missing_error`."""

    def __init__(self, namespace: str, **attrs):
        super().__init__(f"tfgraph_edu.{namespace}")
        self._namespace = namespace
        self.__dict__.update(attrs)

    def __getattr__(self, name: str):
        if name.startswith("_"):
            raise AttributeError(f"module '{self.__name__}' has no attribute '{name}'",
                                 name=name)
        return _lookup(self._namespace, name)

    def __dir__(self):
        return sorted(k for k in self.__dict__ if not k.startswith("_"))

    def __repr__(self):
        if not self.__dir__():
            return (f"<module 'tfgraph_edu.{self._namespace}': not implemented yet (TensorFlow "
                    f"has tf.{self._namespace})>")
        return f"<module 'tfgraph_edu.{self._namespace}'>"
