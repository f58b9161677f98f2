"""Panels and widgets speak the notebook's language when none is given: the tutorials'
code cells are the same in notebooks/en, zh-Hant and zh-Hans, so the folder decides
(as it does for the exercises' checks); $TFGRAPH_EDU_LANG and an explicit language win."""

import pytest

import tfgraph_edu as tf
from tfgraph_edu import labels
from tfgraph_edu.jupyter.widgets import GraphViewer, TraceExplorer


@pytest.fixture
def relu():
    @tf.function
    def relu(x):
        return tf.maximum(x, 0.0)

    relu(tf.constant([1.0, -1.0]))
    return relu


@pytest.mark.parametrize("folder", ["zh-Hant", "zh-Hans", "en", "somewhere"])
def test_the_folder_decides(folder, relu, tmp_path, monkeypatch):
    monkeypatch.delenv("TFGRAPH_EDU_LANG", raising=False)
    (tmp_path / folder).mkdir()
    monkeypatch.chdir(tmp_path / folder)
    want = folder if folder in labels.LANGUAGES else "en"
    assert labels.default_language() == want
    assert GraphViewer(relu).words == labels.table(want)
    assert TraceExplorer(relu).words == labels.table(want)
    assert GraphViewer(relu, lang="en").words == labels.table("en")  # explicit wins


def test_the_environment_overrides_the_folder(relu, tmp_path, monkeypatch):
    (tmp_path / "zh-Hant").mkdir()
    monkeypatch.chdir(tmp_path / "zh-Hant")
    monkeypatch.setenv("TFGRAPH_EDU_LANG", "zh-Hans")
    assert GraphViewer(relu).words == labels.table("zh-Hans")
    assert labels.table("zh-Hans") != labels.table("en")
