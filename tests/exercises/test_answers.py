"""Every exercise check of every tutorial against learners' answers (tests/exercises/
answers.py): each check rejects at least three wrong answers, every rejection says what is
wrong and carries a hint, in the notebook's language (no English words in the Chinese
feedback beyond code and names), and each check accepts at least two different right
answers.  The check cells are read from notebooks/src, so the checks tested are the ones
the learner runs.  ``pytest -s`` prints the counts per check."""

from __future__ import annotations

import ast
import itertools
import linecache
import re
from pathlib import Path

import jupytext
import numpy as np
import pytest

import tfgraph_edu as tf
from tfgraph_edu import exercises as ex

from .answers import ANSWERS

SRC = Path(__file__).resolve().parents[2] / "notebooks" / "src"
# words that are names in Chinese text too (products, libraries)
NAMES = {"Python", "TensorFlow", "AutoGraph", "NumPy", "tfgraph_edu", "API"}


def check_cells(stem: str) -> list[str]:
    """The check cells of a tutorial, in order: exercise cells calling ``ex.`` that are not
    reference solutions."""
    path = next(SRC.glob(f"{stem}_*.md"))
    cells = [c for c in jupytext.read(path).cells if c.cell_type == "code"]
    return [c.source for c in cells if "exercise" in c.metadata.get("tags", [])
            and "solution" not in c.metadata.get("tags", [])
            and re.search(r"^ex\.", c.source, re.M)]


def run_cell(source: str, ns: dict):
    """Run a cell as Jupyter does (its source kept in linecache, so AutoGraph can read it)
    and return the value of its last expression."""
    name = f"<cell-{next(_CELLS)}>"
    linecache.cache[name] = (len(source), None, source.splitlines(True), name)
    tree = ast.parse(source)
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    exec(compile(tree, name, "exec"), ns)
    return eval(compile(ast.Expression(last.value), name, "eval"), ns) if last else None


_CELLS = itertools.count()


def answer_feedback(stem: str, number: int, answer: str) -> ex.Feedback:
    case = ANSWERS[(stem, number)]
    ns = {"tf": tf, "ex": ex, "np": np}
    try:
        run_cell(case["setup"], ns)
        run_cell(answer, ns)
        return run_cell(check_cells(stem)[number - 1], ns)
    finally:
        tf.config.run_functions_eagerly(False)  # an answer may leave it on


def english_words(text: str, code: str) -> list[str]:
    """Words of English in ``text`` outside backtick-quoted code, other than identifiers of
    ``code`` (names the learner chose, such as an argument's) and NAMES."""
    prose = re.sub(r"`[^`]*`|\b[A-Za-z_]\w*(\.[A-Za-z_]\w*)+", " ", text)  # code, API names
    allowed = set(re.findall(r"[A-Za-z_]\w*", code)) | NAMES
    return [w for w in re.findall(r"[A-Za-z][A-Za-z_']+", prose) if w not in allowed]


CASES = [(stem, n, label, code) for (stem, n), case in ANSWERS.items()
         for label, code in case["wrong"].items()]
RIGHT = [(stem, n, label, code) for (stem, n), case in ANSWERS.items()
         for label, code in case["right"].items()]


@pytest.fixture(autouse=True)
def language_reset():
    yield
    ex.set_language(None)


def test_every_exercise_has_enough_answers():
    found = {(p.name[:2], n + 1) for p in sorted(SRC.glob("[0-9][0-9]_*.md"))
             for n in range(len(check_cells(p.name[:2])))}
    assert found == set(ANSWERS), found ^ set(ANSWERS)
    for key, case in ANSWERS.items():
        assert len(case["wrong"]) >= 3 and len(case["right"]) >= 2, key


@pytest.mark.parametrize("stem,number,label,answer", CASES,
                         ids=[f"{s}.{n}-{label}" for s, n, label, _ in CASES])
@pytest.mark.parametrize("lang", ["en", "zh-Hant", "zh-Hans"])
def test_a_wrong_answer_is_rejected_with_a_hint(stem, number, label, answer, lang):
    ex.set_language(lang)
    fb = answer_feedback(stem, number, answer)
    assert isinstance(fb, ex.Feedback)
    assert not fb.ok, f"accepted: {fb!r}"
    wrong = [text for good, text in fb.items if not good]
    assert wrong and fb.hints, repr(fb)
    if lang != "en":
        code = answer + check_cells(stem)[number - 1]
        found = [w for text in wrong + fb.hints for w in english_words(text, code)]
        assert found == [], repr(fb)


@pytest.mark.parametrize("stem,number,label,answer", RIGHT,
                         ids=[f"{s}.{n}-{label}" for s, n, label, _ in RIGHT])
def test_a_right_answer_is_accepted(stem, number, label, answer):
    ex.set_language("en")
    fb = answer_feedback(stem, number, answer)
    assert fb.ok, repr(fb)


def test_the_english_detector_finds_english():
    """The test above means something: prose is caught, code and names are not."""
    assert english_words("`f(x)` 得到 `2`，traced again", "f(x)") == ["traced", "again"]
    assert english_words("Python 參數 lr 從 0.1 變為 0.05", "step(x, lr)") == []
    assert english_words("`f` 不是 tf.function", "") == []
    assert english_words("not a tf.function", "") == ["not"]
