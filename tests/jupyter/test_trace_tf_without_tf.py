"""``%%trace --tf`` where real TensorFlow cannot be imported, and the second run's isolation
(jupyter/real_tf.py), without TensorFlow.

TensorFlow is hidden with ``sys.modules["tensorflow"] = None`` (an import then fails as it does
when TensorFlow is not installed), so these tests check the same path in the check-tf venv.
The isolation test runs the second run with tfgraph_edu itself standing in for TensorFlow:
what it checks - the notebook's names, values, variables and printed output untouched - does
not depend on which library runs the cell.
"""

from __future__ import annotations

import sys

import numpy as np
import pytest
from IPython.core.interactiveshell import InteractiveShell

import tfgraph_edu
from tfgraph_edu.jupyter import real_tf

from .test_panel_languages import english_words

CELL = """@tf.function
def f(x):
    if tf.reduce_sum(x) > 0:
        return x * x
    return -x
print("ours", f(tf.constant([1.0, 2.0])).numpy())"""


@pytest.fixture(scope="module")
def shell():
    ip = InteractiveShell.instance()
    ip.run_line_magic("load_ext", "tfgraph_edu")
    ip.run_cell("import tfgraph_edu as tf\nimport numpy as np", store_history=True)
    return ip


def _snapshot(ns):
    return {k: id(v) for k, v in ns.items() if not k.startswith("_")}


# words a reader must find in the sentence, per language (the sentence's own words)
SAYS_MISSING = {"en": "not installed", "zh-Hant": "沒有安裝", "zh-Hans": "没有安装"}


@pytest.mark.parametrize("lang", ["en", "zh-Hant", "zh-Hans"])
def test_without_tensorflow_one_sentence_in_the_learners_language(shell, lang, monkeypatch,
                                                                   capfd):
    monkeypatch.setitem(sys.modules, "tensorflow", None)
    capfd.readouterr()
    result = shell.run_cell(f"%%trace --tf --lang {lang} -n 2 -o r\n{CELL}", store_history=True)
    out, err = capfd.readouterr()
    assert result.success and "Traceback" not in out + err
    assert out.count("ours [1. 4.]") == 1  # the cell's own output, once
    r = shell.user_ns["r"]
    assert r.tf == "missing"
    html = r._repr_mimebundle_()["text/html"]
    (sentence,) = [p.split("</p>")[0] for p in html.split("<p") if "tensorflow-cpu" in p]
    assert SAYS_MISSING[lang] in sentence and "<code>pip install tensorflow-cpu</code>" in sentence
    assert "not installed" in r._repr_mimebundle_()["text/plain"].splitlines()[0]
    # the normal %%trace output is still there: f's panels, its concrete function, its timing
    assert '<div class="tfg-fn">f</div>' in html and "tfg-concrete" in html
    assert shell.user_ns["f"].experimental_get_tracing_count() == 1
    assert len(r.timings["f"][1].runs) == 2
    if lang != "en":
        words = english_words("<p" + sentence + "</p>")
        assert set(words) <= {"tfgraph_edu"}, words  # the product's name


def test_the_second_run_leaves_the_notebook_as_it_was(shell, capfd):
    shell.run_cell("""
v = tf.Variable(1.0)
history = []
arr = np.zeros(3)
count = 0
def helper():
    return tf.constant(2.0) + count
@tf.function
def g(x):
    return x + 1.0
g(tf.constant(1.0))
""", store_history=True)
    ns = shell.user_ns
    before, calls_g = _snapshot(ns), len(ns["g"].events.calls)
    capfd.readouterr()
    source = """v.assign_add(5.0)
history.append(1)
arr[0] = 7
count = count + 1
new_name = helper()
print("from the second run", float(new_name))
del history
g(tf.constant(1.0))
"""
    run = real_tf.run_cell(shell, source, 1, ["g"], {"g": ns["g"]}, 2, tfgraph_edu)
    out, err = capfd.readouterr()
    assert _snapshot(ns) == before  # no name added, removed or rebound
    assert float(ns["v"].numpy()) == 1.0 and ns["history"] == [] and ns["count"] == 0
    np.testing.assert_array_equal(ns["arr"], np.zeros(3))
    assert len(ns["g"].events.calls) == calls_g
    assert "from the second run 3.0" in run.output  # helper saw the run's count, not yours
    assert "from the second run" not in out + err
    assert run.error.startswith("NameError") and "(line 8)" in run.error
    # a tf.function of an earlier cell is left out, and named; tensors, variables, lists and
    # functions are the run's own copies
    assert "g" in run.left_out and not {"v", "history", "arr", "helper"} & set(run.left_out)
    assert run.functions["g"].note == ("tf_not_defined", "g")
