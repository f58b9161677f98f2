"""``tf.Module``: a named container of variables and sub-modules (layer 10, models).

Models sit above tf.function in the layers (they use it to trace training steps);
DESIGN.md's table stops at layer 9, so this package is the deliberate tenth layer.
"""

from __future__ import annotations

import functools
import weakref

from ..eager.context import name_scope as _name_scope
from ..eager.variables import Variable

# TensorFlow's deferred restoration: values a ``tf.train.Checkpoint`` restored for attributes
# a module did not have yet (variables made on the first call, layers built later).
# ``{module: {attribute: {checkpoint key: callback(value)}}}``, filled by
# ``train/checkpoint.py``; setting the attribute to something other than None runs them.
DEFERRED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


class AutoTrackable:
    """What checkpoints and SavedModels walk: an object whose attributes (also inside lists,
    tuples and dicts) hold its variables and sub-objects.  ``tf.Module`` is one; a Keras 3
    layer is another, but not a ``tf.Module`` (as in TF 2.21: ``issubclass(Layer,
    tf.Module)`` is False)."""

    def __setattr__(self, name, value):
        object.__setattr__(self, name, value)
        if DEFERRED and value is not None:
            waiting = DEFERRED.get(self)
            if waiting and name in waiting:
                callbacks = waiting.pop(name)
                if not waiting:
                    del DEFERRED[self]
                for callback in callbacks.values():
                    callback(value)

    def _walk(self, seen):
        """Keras's order: attributes in the order they were set, depth first."""
        for value in list(vars(self).values()):
            yield from _values(value, seen)


class Module(AutoTrackable):
    """Tracks the tf.Variables and Modules found in its attributes (also inside lists,
    tuples and dicts), as ``tf.Module`` does; what ``tf.saved_model.save`` saves."""

    def __init__(self, name=None):
        # tf.Module names itself after its class and does not number them (Keras layers
        # do: see Layer)
        self._name = _snake(type(self).__name__) if name is None else name
        with _name_scope(self._name) as scope:  # under the scopes open now (eagerly)
            self._scope_name = scope

    @property
    def name_scope(self):
        """This module's ``tf.name_scope`` (absolute: ``outer/inner/``), to enter with
        ``with`` as often as needed."""
        scope = getattr(self, "_scope_name", None) or f"{self.name}/"
        return _name_scope(scope)

    @staticmethod
    def with_name_scope(method):
        """Decorator: the method runs inside its module's ``name_scope``."""
        @functools.wraps(method)
        def wrapped(self, *args, **kwargs):
            with self.name_scope:
                return method(self, *args, **kwargs)
        return wrapped

    @property
    def name(self) -> str:
        return self._name

    def _flatten(self, predicate):
        """tf.Module's order: attributes sorted by name (dict keys sorted, lists in order);
        this module's own values first, then each sub-module's, in the order found."""
        return _flatten_module(self, predicate, {id(self)})

    @property
    def variables(self) -> tuple:
        return tuple(self._flatten(lambda v: isinstance(v, Variable)))

    @property
    def trainable_variables(self) -> tuple:
        return tuple(self._flatten(lambda v: isinstance(v, Variable) and v.trainable))

    @property
    def submodules(self) -> tuple:
        return tuple(self._flatten(lambda v: isinstance(v, Module)))


def _leaves(value):
    if isinstance(value, dict):
        for k in sorted(value, key=str):
            yield from _leaves(value[k])
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _leaves(v)
    else:
        yield value


def _flatten_module(module, predicate, seen):
    found = []
    for key in sorted(vars(module)):
        for leaf in _leaves(vars(module)[key]):
            if id(leaf) in seen:
                continue
            seen.add(id(leaf))
            if predicate(leaf):
                yield leaf
            if isinstance(leaf, Module):
                found.append(leaf)
    for sub in found:
        yield from _flatten_module(sub, predicate, seen)


def _values(value, seen):
    if id(value) in seen:
        return
    if isinstance(value, Variable):
        seen.add(id(value))
        yield value
    elif isinstance(value, AutoTrackable):
        seen.add(id(value))
        yield value
        yield from value._walk(seen)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _values(v, seen)
    elif isinstance(value, dict):
        for k in sorted(value, key=str):
            yield from _values(value[k], seen)


def _snake(name: str) -> str:
    """CamelCase to snake_case as TensorFlow does: an underscore before a capital that
    follows a lower-case letter or digit, or that starts a new word (``HTTPServer`` ->
    ``http_server``)."""
    out = []
    for i, ch in enumerate(name):
        if ch.isupper() and i:
            prev, nxt = name[i - 1], name[i + 1] if i + 1 < len(name) else ""
            if prev.islower() or prev.isdigit() or nxt.islower():
                out.append("_")
        out.append(ch.lower())
    return "".join(out)
