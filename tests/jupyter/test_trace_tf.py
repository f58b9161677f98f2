"""``%%trace --tf`` with real TensorFlow (jupyter/real_tf.py, jupyter/tf_panels.py): run in the
check-tf venv (``make check-tf``); elsewhere skipped, as TensorFlow is never a dependency.

Each cell runs through a real IPython InteractiveShell.  What TensorFlow's panel must show is
asked of TensorFlow's own objects at test time (its concrete functions' signatures, the op
types of its GraphDefs), or recorded from a run of TensorFlow 2.21 where said.
"""

from __future__ import annotations

import html as html_lib
import os
import re
from collections import Counter

import pytest

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
real_tf = pytest.importorskip("tensorflow", reason="TensorFlow is not installed")

from IPython.core.interactiveshell import InteractiveShell  # noqa: E402

from tfgraph_edu.formats.live import is_tf_object  # noqa: E402
from tfgraph_edu.function.polymorphic import Function  # noqa: E402

from .test_panel_languages import ALLOWED, english_words  # noqa: E402


@pytest.fixture(scope="module")
def shell():
    ip = InteractiveShell.instance()
    ip.run_line_magic("load_ext", "tfgraph_edu")
    ip.run_cell("import tfgraph_edu as tf\nv = tf.Variable(1.0)\nlog = []", store_history=True)
    return ip


def _run(shell, cell, capfd):
    capfd.readouterr()
    result = shell.run_cell(cell, store_history=True)
    out, err = capfd.readouterr()
    assert result.success and "Traceback" not in out + err, out + err
    return shell.user_ns["r"], out + err


def _tf_part(page: str) -> str:
    """TensorFlow's panels of a %%trace page (from the first TF title on)."""
    return page[page.index('<div class="tfg-fn tfg-tf-fn">'):]


def _signature(cf) -> str:
    return html_lib.escape(" ".join(str(cf.pretty_printed_signature(verbose=False)).split()))


def _only_tf_cell(page: str) -> str:
    """The text of the first row's "only in TensorFlow" cell of the diff table."""
    m = re.search(r'<td class="tfg-only-tf"><code>(.*?)</code>', page)
    return html_lib.unescape(m.group(1))


COND_AND_LOOP = """%%trace --tf -n 3 -o r
@tf.function
def f(x):
    if tf.reduce_sum(x) > 0:
        y = x * x
    else:
        y = -x
    for i in tf.range(3):
        y = y + tf.cast(i, tf.float32)
    tf.print("y is", y)
    return y
v.assign_add(1.0)
log.append("ran")
print("ours", f(tf.constant([1.0, 2.0])).numpy())
f(tf.constant([1.0, 2.0, 3.0]))"""


def test_cond_and_range_loop_beside_tensorflow(shell, capfd):
    before = {k: id(v) for k, v in shell.user_ns.items() if not k.startswith("_")}
    r, printed = _run(shell, COND_AND_LOOP, capfd)
    page = r._repr_mimebundle_()["text/html"]
    run = r.tf
    tf_f = run.functions["f"]
    # TF's own concrete functions, each signature as TF prints it, in TF's panel
    cfs = tf_f.function._list_all_concrete_functions()
    assert len(cfs) == 2 and tf_f.concrete == list(cfs)
    tf_page = _tf_part(page)
    for cf in cfs:
        assert _signature(cf) in tf_page
    # recorded from TF 2.21: the second call's signature has shape (3,)
    assert "TensorSpec(shape=(3,), dtype=tf.float32" in html_lib.unescape(tf_page)
    # the op types read from TF are TF's (its GraphDef of the last trace), and the diff's
    # "only in TensorFlow" cell lists what TF's graph has beyond ours
    gd = cfs[-1].graph.as_graph_def()
    tf_types = Counter(n.op for n in gd.node)
    assert Counter(op.type for op in tf_f.graph.operations) == tf_types
    ours = shell.user_ns["f"].concrete_functions[-1].graph
    only_tf = tf_types - Counter(op.type for op in ours.operations)
    assert "StatelessWhile" in tf_types and "StatelessIf" in tf_types  # TF's own answer
    if only_tf:
        cell = _only_tf_cell(tf_page)
        for t in only_tf:
            assert t in cell
    assert f"<td>{sum(tf_types.values())}</td>" in tf_page  # TF's op count, top graph
    # TF's run printed "y is [4 7]" (tf.print, recorded from TF 2.21) into its own panel,
    # not into the cell's output, which has our print once
    assert "y is [4 7]" in run.output and "ours [4. 7.]" in run.output
    assert printed.count("y is [4 7]") == 1 and printed.count("ours [4. 7.]") == 1
    assert "y is [4 7]" in tf_page
    # TF's timing, in its panel beside ours
    eager, graph = tf_f.timings
    assert len(eager.runs) == len(graph.runs) == 3
    assert tf_page.count("<td>TensorFlow</td>") == 2 and tf_page.count("<td>tfgraph_edu</td>") == 2
    # the notebook: only our run's doing (v once, log once), nothing of TensorFlow's
    ns = shell.user_ns
    assert float(ns["v"].numpy()) == 2.0 and ns["log"] == ["ran"]
    assert isinstance(ns["f"], Function) and ns["tf"].__name__ == "tfgraph_edu"
    assert not [k for k, v in ns.items() if is_tf_object(v)]
    after = {k: id(v) for k, v in ns.items() if not k.startswith("_")}
    assert {k for k in after if after[k] != before.get(k)} == {"f", "r"}  # what the cell binds


KERAS_STEP = """%%trace --tf -n 3 --lang {lang} -o r
model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
opt = tf.keras.optimizers.SGD(0.1)
@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((model(x) - y) ** 2)
    grads = tape.gradient(loss, model.trainable_variables)
    opt.apply_gradients(zip(grads, model.trainable_variables))
    return loss
train_step(tf.ones([4, 2]), tf.zeros([4, 1]))"""


@pytest.mark.parametrize("lang", ["en", "zh-Hant", "zh-Hans"])
def test_keras_gradient_tape_step_beside_tensorflow(shell, capfd, lang):
    r, _ = _run(shell, KERAS_STEP.format(lang=lang), capfd)
    page = r._repr_mimebundle_()["text/html"]
    tf_page = _tf_part(page)
    tf_step = r.tf.functions["train_step"]
    cfs = tf_step.function._list_all_concrete_functions()
    assert cfs and tf_step.concrete == list(cfs)
    assert _signature(cfs[-1]) in tf_page
    gd = cfs[-1].graph.as_graph_def()
    tf_types = Counter(n.op for n in gd.node)
    assert Counter(op.type for op in tf_step.graph.operations) == tf_types
    assert {"MatMul", "AssignSubVariableOp"} <= set(tf_types)  # TF's own answer
    assert r.tf.error is None and r.tf.value.startswith("<tf.Tensor: shape=(), dtype=float32")
    assert len(tf_step.timings[1].runs) == 3
    ns = shell.user_ns
    assert not [k for k, v in ns.items() if is_tf_object(v)]
    assert type(ns["model"]).__module__.startswith("tfgraph_edu")
    if lang != "en":  # TF's panels speak the learner's language too
        words = set(english_words(tf_page)) - ALLOWED
        assert words <= {"tfgraph_edu", "Grappler", "TensorFlow", "Keras"}, words
