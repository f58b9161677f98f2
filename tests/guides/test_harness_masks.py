"""The guides harness (benchmarks/against_tf/guides.py): what it masks before comparing a
cell's output.  Random values may pick NumPy's layout but never hide a difference of shape,
and Keras's erased progress-bar updates leave nothing, as in a notebook."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

HARNESS = Path(__file__).resolve().parents[2] / "benchmarks" / "against_tf"
sys.path.insert(0, str(HARNESS))
import guides  # noqa: E402


def test_random_values_compare_whatever_layout_numpy_picks():
    small = np.array([54.111465, 57.628357, 61.14525, 64.66214, 68.17902, 71.695915,
                      75.21281, 78.72969, 82.24658, 85.76347], np.float32)
    wide = np.array([63.26178, 67.38464, 71.507515, 75.63038, 79.75325, 83.876114,
                     87.998985, 92.12186, 96.24472, 100.36759], np.float32)
    a, b = repr((np.arange(10), small)), repr((np.arange(10), wide))
    assert a.count("\n") != b.count("\n")  # NumPy laid them out differently (dtype= wraps)
    assert guides._masked(a, "random") == guides._masked(b, "random")
    # rows wrapped by the numbers' width (a 3-d tensor's rows)
    rows = repr(np.full((2, 3, 4), 0.5, np.float32))
    wrapped = repr(np.full((2, 3, 4), -12345.678, np.float32))
    assert guides._masked(rows, "random") == guides._masked(wrapped, "random")


def test_layout_masking_keeps_shapes_and_leaves_other_cells_exact():
    a = repr(np.zeros((2, 3), np.float32))
    b = repr(np.zeros((3, 2), np.float32))
    assert guides._masked(a, "random") != guides._masked(b, "random")
    assert guides._masked(repr(np.zeros(4)), "random") != guides._masked(repr(np.zeros(5)),
                                                                          "random")
    long_line = repr(np.arange(30.0))  # wrapped by NumPy: unmasked cells keep their lines
    assert guides._masked(long_line, None).count("\n") == long_line.count("\n") > 0
    assert guides._masked(long_line, "timing").count("\n") == long_line.count("\n")


def test_an_erased_progress_update_leaves_nothing_even_when_padded():
    # Keras pads an update with a space when the previous one was wider, then erases it
    # with backspaces counting only its text, and a carriage return (split as a line)
    padded = "2/2 ━━━━ 0s 56ms/step - loss: 11.0079 - mae: 11.0079 "
    text = ("Epoch 75/100\n\n1/2 ━━━━ 0s 439ms/step - loss: 11.9779" + "\b" * 36 + "\n"
            + padded + "\b" * (len(padded) - 2) + "\n"
            + "2/2 ━━━━ 1s 874ms/step - loss: 11.0079 - mae: 11.0079\nEpoch 76/100")
    assert guides._console(text) == (
        "Epoch 75/100\n2/2 ━━━━ 1s 874ms/step - loss: 11.0079 - mae: 11.0079\nEpoch 76/100")


def test_explained_differences_name_a_cell_and_a_reason():
    for (notebook, cell), reason in guides.EXPLAINED.items():
        assert isinstance(notebook, str) and isinstance(cell, int) and cell > 0
        assert "\n" not in reason and len(reason) > 40
