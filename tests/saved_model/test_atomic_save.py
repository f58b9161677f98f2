"""Saving over an existing SavedModel: the new folder is built beside the old one and
swapped in whole; what the user put in the folder stays, a failed save changes nothing."""

from __future__ import annotations

import numpy as np
import pytest

import tfgraph_edu as tf


class _M(tf.Module):
    def __init__(self, v):
        super().__init__()
        self.v = tf.Variable(v)

    @tf.function(input_signature=[tf.TensorSpec([2], tf.float32)])
    def f(self, x):
        return x + self.v


def _value(folder):
    return tf.saved_model.load(folder).variables[0].numpy()


def test_overwriting_swaps_the_folder_and_keeps_the_users_files(tmp_path):
    folder = tmp_path / "m"
    old, new = np.array([1.0, 2.0], np.float32), np.array([-4.0, 8.5], np.float32)
    tf.saved_model.save(_M(old), folder)
    (folder / "notes.txt").write_text("mine")
    (folder / "extra").mkdir()
    (folder / "extra" / "data.csv").write_text("1,2")
    tf.saved_model.save(_M(new), folder)
    np.testing.assert_array_equal(_value(folder), new)
    assert (folder / "notes.txt").read_text() == "mine"
    assert (folder / "extra" / "data.csv").read_text() == "1,2"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m"], "no staging folder is left"
    assert (folder / "fingerprint.json").exists()


def test_a_failed_save_leaves_the_old_model(tmp_path):
    folder = tmp_path / "m"
    old = np.array([1.0, 2.0], np.float32)
    tf.saved_model.save(_M(old), folder)
    with pytest.raises(ValueError, match="Nothing to save"):
        tf.saved_model.save(tf.Module(), folder)
    np.testing.assert_array_equal(_value(folder), old)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m"]


def test_saving_onto_a_file_is_refused(tmp_path):
    (tmp_path / "f").write_text("x")
    with pytest.raises(FileExistsError, match="it is a file, not a folder"):
        tf.saved_model.save(_M(np.zeros(2, np.float32)), tmp_path / "f")
    assert (tmp_path / "f").read_text() == "x"
