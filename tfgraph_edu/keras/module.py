"""``tf.Module``: a named container of variables and sub-modules (layer 10, models).

Models sit above tf.function in the layers (they use it to trace training steps);
DESIGN.md's table stops at layer 9, so this package is the deliberate tenth layer.
"""

from __future__ import annotations

from ..eager.variables import Variable


class Module:
    """Tracks the tf.Variables and Modules found in its attributes (also inside lists,
    tuples and dicts), as ``tf.Module`` does; what ``tf.saved_model.save`` saves."""

    _counts: dict[str, int] = {}

    def __init__(self, name=None):
        if name is None:
            base = _snake(type(self).__name__)
            n = Module._counts.get(base, 0)
            Module._counts[base] = n + 1
            name = base if n == 0 else f"{base}_{n}"
        self._name = name

    @property
    def name(self) -> str:
        return self._name

    def _walk(self, seen):
        for value in list(vars(self).values()):  # in the order they were set, as Keras
            yield from _values(value, seen)

    @property
    def variables(self) -> tuple:
        return tuple(v for v in self._walk(set()) if isinstance(v, Variable))

    @property
    def trainable_variables(self) -> tuple:
        return tuple(v for v in self.variables if v.trainable)

    @property
    def submodules(self) -> tuple:
        return tuple(v for v in self._walk(set()) if isinstance(v, Module))


def _values(value, seen):
    if id(value) in seen:
        return
    if isinstance(value, Variable):
        seen.add(id(value))
        yield value
    elif isinstance(value, Module):
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
    out = []
    for i, ch in enumerate(name):
        if ch.isupper() and i and not name[i - 1].isupper():
            out.append("_")
        out.append(ch.lower())
    return "".join(out)
