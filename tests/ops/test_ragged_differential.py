"""About a hundred ragged tensor expressions (indexing, ops, reductions, conversions,
printing, errors) print exactly what TF 2.21 printed for them: tests/fixtures/ragged/
tf_2_21.txt was recorded by running tests/fixtures/ragged/cases.py under real TensorFlow."""

from pathlib import Path

import numpy as np

import tfgraph_edu as tf

from ..fixtures.ragged.cases import run

HERE = Path(__file__).resolve().parents[1] / "fixtures" / "ragged"


def test_ragged_expressions_print_as_tf():
    want = (HERE / "tf_2_21.txt").read_text().rstrip("\n").split("\n")
    # TF prints a float32 element with NumPy's str, recorded under NumPy 2 ('1e+10'); NumPy 1
    # (the floor's) writes the same value '10000000000.0'
    want = [w.replace("1e+10", str(np.float32(1e10))) for w in want]
    got = "\n".join(run(tf)).split("\n")
    diffs = [(w, g) for w, g in zip(want, got) if w != g]
    assert len(want) == len(got) and not diffs, diffs[:5]
