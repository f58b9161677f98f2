"""Every retrace reason the engine gives has its words in zh-Hant and zh-Hans: each reason is
made by real tf.function calls (not written here by hand), then translated; and every reason
string written in function/trace_key.py and function/polymorphic.py is one of those made."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import tfgraph_edu as tf
from tfgraph_edu import labels

ROOT = Path(tf.__file__).parent


class Box:
    pass


def _reasons() -> list[str]:
    """The reasons of the traces of a few functions, one per kind the engine knows."""
    out = []

    @tf.function
    def f(x, n=1, extra=None):
        return x * 2

    f(tf.constant([1.0]))                                   # first call
    f(tf.constant([1.0, 2.0]))                              # a new shape
    f(tf.constant([1, 2]))                                  # a new dtype
    f(tf.constant([1.0]), n=2)                              # a Python value changed
    f(tf.constant([1.0]), 2, [tf.constant(1.0), 3])         # a list where None was
    f(tf.constant([1.0]), 2, Box())                         # an object where a list was
    out += [e.reason for e in f.events.traces]

    @tf.function
    def g(a, b):
        return a + b

    g(1, 2)
    g(3, 4)
    g(1, 4)  # each value seen before, not together
    out += [e.reason for e in g.events.traces]

    @tf.function
    def h(**kwargs):
        return sum(kwargs.values())

    h(a=tf.constant(1.0))
    h(a=tf.constant(1.0), b=tf.constant(1.0))  # an argument not given before
    out += [e.reason for e in h.events.traces]

    made = []

    @tf.function
    def k(x):
        if not made:
            made.append(tf.Variable(1.0))
        return x * made[0]

    k(tf.constant(1.0))  # creates a variable: TF traces a second time
    out += [e.reason for e in k.events.traces]

    @tf.function
    def v(w):
        return w * 2.0

    v(tf.Variable([1.0, 2.0], trainable=False))
    v(tf.constant([1.0, 2.0]))  # a tensor where a variable was
    out += [e.reason for e in v.events.traces]
    return out


REASONS = _reasons()
PROSE = re.compile(r"\b(?!tf\b|None\b|Python\b|TensorFlow\b|list\b|tuple\b|dict\b|id\b|Box\b)"
                   r"[A-Za-z]{2,}\b")


def _prose(text: str) -> list[str]:
    """English words in ``text``, leaving out names (tf.Variable, dtypes, argument names)."""
    text = re.sub(r"tf\.\w+|\b(?:float|int|bool)\d*\b|\b[a-z]\b|\bextra\b", " ", text)
    return PROSE.findall(text)


@pytest.mark.parametrize("lang", ["zh-Hant", "zh-Hans"])
def test_every_reason_the_engine_gives_is_translated(lang):
    kinds = {"first call", "shape (2,)", "dtype", "changed from", "was not given before",
             "last call", "combination", "created tf.Variables", "variable of shape",
             "a list of 2", "object (id"}
    assert all(any(k in r for r in REASONS) for k in kinds), REASONS  # each kind was made
    for reason in REASONS:
        said = labels.reason(reason, lang)
        assert _prose(said) == [], (reason, said)
    # the check finds English where some is left
    assert _prose(labels.reason("argument x: a brand new thing", lang))


def _reason_texts(path: Path, function: str) -> list[str]:
    """The literal parts of the reason strings written in ``function`` of ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    node = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)
                and n.name == function)
    node.body = [b for b in node.body if not (isinstance(b, ast.Expr)  # not the docstring
                                              and isinstance(b.value, ast.Constant))]
    texts = []
    for n in ast.walk(node):
        if isinstance(n, ast.JoinedStr):
            parts = [v.value for v in n.values if isinstance(v, ast.Constant)]
            texts.append("".join(parts))
        elif isinstance(n, ast.Constant) and isinstance(n.value, str) and " " in n.value:
            texts.append(n.value)
    return [t for t in texts if re.search(r"[a-z]{3,} [a-z]{3,}", t)]


def test_every_reason_written_in_the_engine_is_one_the_test_makes():
    written = (_reason_texts(ROOT / "function" / "trace_key.py", "reason")
               + [t for t in _reason_texts(ROOT / "function" / "polymorphic.py", "_trace")
                  if "traced" in t])
    assert len(written) >= 8, written
    made = " ; ".join(REASONS)
    for text in written:
        words = [w for w in re.split(r"[^A-Za-z]+", text) if len(w) > 2]
        assert all(w in made for w in words), (text, "no test call makes this reason")
