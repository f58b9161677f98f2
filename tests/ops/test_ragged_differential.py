"""About a hundred ragged tensor expressions (indexing, ops, reductions, conversions,
printing, errors) print exactly what TF 2.21 printed for them: tests/fixtures/ragged/
tf_2_21.txt was recorded by running tests/fixtures/ragged/cases.py under real TensorFlow."""

from pathlib import Path

import tfgraph_edu as tf

from ..fixtures.ragged.cases import run

HERE = Path(__file__).resolve().parents[1] / "fixtures" / "ragged"


def test_ragged_expressions_print_as_tf():
    want = (HERE / "tf_2_21.txt").read_text().rstrip("\n").split("\n")
    got = "\n".join(run(tf)).split("\n")
    diffs = [(w, g) for w, g in zip(want, got) if w != g]
    assert len(want) == len(got) and not diffs, diffs[:5]
