"""The guides harness (benchmarks/against_tf/guides.py): a caught error printed by both sides
with other frames or another message is neither silent nor the same output."""

from __future__ import annotations

import sys
from pathlib import Path

HARNESS = Path(__file__).resolve().parents[2] / "benchmarks" / "against_tf"
sys.path.insert(0, str(HARNESS))
import guides  # noqa: E402

TF = ("Caught expected exception \n  <class 'Exception'>:\nTraceback (…)\n"
      "StagingError: in user code:\n\n" + '    File "<cell 43>", line 3, in f  *\n'
      "        if n > 0:\n" * 39 + "\n    RecursionError: maximum recursion depth exceeded")
OURS = ("Caught expected exception \n  <class 'Exception'>:\nTraceback (…)\n"
        'StagingError: in user code:\n\n    File "<cell 43>", line 3, in f  *\n'
        "        if n > 0:\n\n    RecursionError: maximum recursion depth exceeded: tf.function")


def _eq(a, b):
    return a == b


def test_same_caught_error_with_other_frames():
    assert guides._same_caught_error(TF, OURS, _eq) == "StagingError (RecursionError)"


def test_other_error_classes_or_other_text_before_are_not_the_same():
    assert guides._same_caught_error(TF, OURS.replace("RecursionError", "ValueError"), _eq) is None
    assert guides._same_caught_error(TF, OURS.replace("StagingError", "TypeError"), _eq) is None
    assert guides._same_caught_error(TF, "printed 3\n" + OURS, _eq) is None
    assert guides._same_caught_error("printed 3", "printed 4", _eq) is None


def test_body_function_numbers_and_random_choices_are_masked():
    assert guides._masked('name: "cond_true_30"\nname: "while_body_7"', None) == (
        'name: "cond_true_#"\nname: "while_body_#"')
    choices = guides.RANDOM_CHOICES[("customization/custom_training_walkthrough", 22)]
    tf_text = "Example 0 prediction: Gentoo (35.1%)\n"
    ours = "Example 0 prediction: Adélie (40.2%)\n"
    assert guides._masked(tf_text, "random", choices) == guides._masked(ours, "random", choices)
    assert guides._masked(tf_text, None, choices) != guides._masked(ours, None, choices)
