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


def test_the_folders_are_exchanged_in_one_step_where_the_system_can(tmp_path):
    from tfgraph_edu import _files
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    (a / "x").write_text("a")
    (b / "x").write_text("b")
    if not _files._exchange(str(a), str(b)):
        pytest.skip("this system or file system has no renameat2(RENAME_EXCHANGE)")
    assert (a / "x").read_text() == "b" and (b / "x").read_text() == "a"


def test_overwriting_without_an_atomic_exchange_still_replaces_the_model(tmp_path,
                                                                          monkeypatch):
    from tfgraph_edu import _files
    monkeypatch.setattr(_files, "_exchange", lambda a, b: False)  # as on macOS, Windows
    folder = tmp_path / "m"
    tf.saved_model.save(_M(np.array([1.0, 2.0], np.float32)), folder)
    new = np.array([3.0, 4.0], np.float32)
    tf.saved_model.save(_M(new), folder)
    np.testing.assert_array_equal(_value(folder), new)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m"]
