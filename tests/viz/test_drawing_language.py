"""The drawing's own words ("… N more", "N ops", "captured", the too-big message) come from
the label table in the learner's language, as the legend and the viewer's buttons do."""

from __future__ import annotations

import re

import pytest

import tfgraph_edu as tf
from tfgraph_edu import labels
from tfgraph_edu.viz import dot as vdot
from tfgraph_edu.viz import render

ENGLISH = re.compile(r"\b(more|ops?|open|next|captured|variable|argument)\b")


def _labels(dot: str) -> list[str]:
    return [t.replace("\\n", " ") for t in re.findall(r'label="([^"]*)"', dot)]


@pytest.fixture(scope="module")
def series_graph():
    def series(x):
        for _ in range(300):
            x = x * 1.0001
        return x
    return tf.function(series, autograph=False).get_concrete_function(tf.constant(0.0)).graph


@pytest.mark.parametrize("lang", ["zh-Hant", "zh-Hans"])
def test_folded_and_paged_boxes_speak_the_learners_language(series_graph, lang):
    folded = vdot.graph_to_dot(series_graph, collapse={"mul, mul_[1-299]"}, lang=lang)
    opened = vdot.graph_to_dot(series_graph, collapse=set(), lang=lang)  # page by page
    english = vdot.graph_to_dot(series_graph, collapse=set(), lang="en")
    assert "… 290 more 580 ops · open: next 50" in _labels(english)  # what en says
    assert labels.label("svg_more", lang, n="290") in opened, _labels(opened)
    assert labels.label("svg_ops_many", lang, n="580") in opened, _labels(opened)
    assert labels.label("svg_ops_many", lang, n="600") in folded, _labels(folded)
    for text in _labels(folded) + _labels(opened):
        assert not ENGLISH.search(text), text


def test_a_captured_value_is_named_in_the_learners_language():
    v = tf.Variable(1.0)

    @tf.function
    def f(x):
        return x * v

    graph = f.get_concrete_function(tf.constant(1.0)).graph
    en = " ".join(_labels(vdot.graph_to_dot(graph, lang="en")))
    hans = " ".join(_labels(vdot.graph_to_dot(graph, lang="zh-Hans")))
    assert re.search(r"\b(variable|captured)\b", en), en
    assert not ENGLISH.search(hans) and ("变量" in hans or "捕获" in hans), hans


@pytest.mark.parametrize("lang,words", [("en", "more than 1,000"), ("zh-Hant", "超過 1,000 個"),
                                        ("zh-Hans", "超过 1,000 个")])
def test_the_too_big_message_speaks_the_learners_language(lang, words):
    svg = render.too_big_svg(4103, 1000, lang)
    assert words in svg and "4,103" in svg and 'class="tfg-too-big"' in svg
