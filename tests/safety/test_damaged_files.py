"""Damaged files: hypothesis flips random bytes of, zeroes runs of bytes in and truncates
every file of a saved model, a checkpoint, a ``.keras`` file and a ``save_weights`` file.
Each load either gives back exactly what was saved (the damage hit bytes nothing reads) or
raises the documented error - ``tf.errors.DataLossError`` for damage (``SavedModelError`` is also
documented for a SavedModel folder) - naming the file.  No other exception may escape, and
no load may return other values: the expected values are the arrays the test saved.

The counts (variants tried, clean errors, exact loads, wrong loads: always 0) are printed
at the end of the module (``pytest -s``)."""

from __future__ import annotations

import collections
import shutil
import tempfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tfgraph_edu as tf

WORK = Path(tempfile.mkdtemp(prefix="tfgraph_edu_damage_"))
COUNT: collections.Counter = collections.Counter()
DataLossError = tf.errors.DataLossError
SavedModelError = tf.saved_model.SavedModelError

# what every file holds; expected values are computed from these with numpy
V = np.array([1.5, -2.0, 3.25], np.float32)
W = np.arange(6, dtype=np.int32).reshape(2, 3) - 2
X = np.array([1.0, 2.0, -3.0], np.float32)
F_OF_X = X * np.float32(3.0) + V
KERNEL = np.array([[0.5, -1.0], [2.0, 0.25], [-0.75, 1.0]], np.float32)
BIAS = np.array([0.125, -0.5], np.float32)

FLIP = st.tuples(st.just("flip"), st.floats(0, 1, exclude_max=True), st.integers(1, 255))
CUT = st.tuples(st.just("cut"), st.floats(0, 1, exclude_max=True), st.just(0))
ZEROS = st.tuples(st.just("zeros"), st.floats(0, 1, exclude_max=True), st.integers(1, 64))
DAMAGE = st.one_of(FLIP, FLIP, CUT, ZEROS)  # a byte flipped, a truncation, a run of zeros
SETTINGS = settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))


class _Model(tf.Module):
    def __init__(self):
        super().__init__()
        self.v = tf.Variable(V)
        self.w = tf.Variable(W)

    @tf.function(input_signature=[tf.TensorSpec([3], tf.float32)])
    def f(self, x):
        return x * 3.0 + self.v


def _files_under(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file())


def _damage(files: list[Path], which: int, how) -> tuple[Path, bytes]:
    """Damage one file in place; returns it and its good bytes (to put back)."""
    kind, where, xor = how
    path = files[which % len(files)]
    good = path.read_bytes()
    i = int(where * len(good))
    if kind == "flip":
        path.write_bytes(good[:i] + bytes([good[i] ^ xor]) + good[i + 1:])
    elif kind == "zeros":  # a block lost on disk (xor: its length)
        path.write_bytes(good[:i] + bytes(len(good[i:i + xor])) + good[i + xor:])
    else:
        path.write_bytes(good[:int(where * len(good))])
    return path, good


def _outcome(fmt: str, load, check, allowed, path: Path) -> None:
    """Run ``load``; a value must pass ``check`` exactly, an error must be ``allowed``."""
    COUNT[fmt, "tried"] += 1
    try:
        value = load()
    except allowed as exc:
        COUNT[fmt, "clean error"] += 1
        text = str(exc)
        assert path.name in text, f"the error names the damaged file: {text}"
        return
    try:
        check(value)
    except AssertionError:
        COUNT[fmt, "WRONG"] += 1
        raise
    COUNT[fmt, "exact"] += 1


# -- SavedModel ------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def saved_model():
    folder = WORK / "saved_model"
    tf.saved_model.save(_Model(), folder)
    return folder


def _check_loaded(loaded):
    values = sorted((v.numpy() for v in loaded.variables), key=lambda a: a.dtype.str)
    np.testing.assert_array_equal(values[0], V)
    assert values[0].dtype == V.dtype and values[1].dtype == W.dtype
    np.testing.assert_array_equal(values[1], W)
    out = loaded.f(tf.constant(X)).numpy()
    assert out.dtype == F_OF_X.dtype
    np.testing.assert_array_equal(out, F_OF_X)


def _check_variable_v(value):
    assert value.dtype == V.dtype
    np.testing.assert_array_equal(value, V)


@SETTINGS
@given(which=st.integers(0, 100), how=DAMAGE)
def test_damaged_saved_models_load_exactly_or_raise(saved_model, which, how):
    files = _files_under(saved_model)
    path, good = _damage(files, which, how)
    try:
        _outcome("SavedModel", lambda: tf.saved_model.load(saved_model), _check_loaded,
                 (DataLossError, SavedModelError), path)
        # TF's users read variables/ as a checkpoint; that reader is checked too
        _outcome("SavedModel variables/", lambda: tf.train.load_variable(
            str(saved_model / "variables" / "variables"), "v/.ATTRIBUTES/VARIABLE_VALUE"),
            _check_variable_v, DataLossError, path)
    finally:
        path.write_bytes(good)


def test_an_edited_manifest_is_data_loss_until_sealed_again(saved_model, tmp_path):
    folder = tmp_path / "m"
    shutil.copytree(saved_model, folder)
    text = (folder / "saved_model.json").read_text()
    edited = text.replace('"trainable": true', '"trainable": false')
    (folder / "saved_model.json").write_text(edited)
    with pytest.raises(DataLossError, match=r"saved_model.json does not match its checksum in "
                                            r"fingerprint.json: the file is damaged or was "
                                            r"written partly; save it again"):
        tf.saved_model.load(folder)
    (folder / "fingerprint.json").unlink()
    with pytest.raises(SavedModelError, match="has no fingerprint.json"):
        tf.saved_model.load(folder)


# -- checkpoints -----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def checkpoint():
    prefix = str(WORK / "ckpt" / "c")
    tf.train.Checkpoint(v=tf.Variable(V), w=tf.Variable(W)).write(prefix)
    return prefix


def _restore(prefix):
    v, w = tf.Variable(np.zeros_like(V)), tf.Variable(np.zeros_like(W))
    tf.train.Checkpoint(v=v, w=w).restore(prefix)
    return v.numpy(), w.numpy()


def _check_restored(values):
    v, w = values
    np.testing.assert_array_equal(v, V)
    np.testing.assert_array_equal(w, W)
    assert v.dtype == V.dtype and w.dtype == W.dtype


def _check_listed(listing):
    assert dict(listing) == {"_CHECKPOINTABLE_OBJECT_GRAPH": [],
                             "v/.ATTRIBUTES/VARIABLE_VALUE": [3],
                             "w/.ATTRIBUTES/VARIABLE_VALUE": [2, 3]}


@SETTINGS
@given(which=st.integers(0, 100), how=DAMAGE)
def test_damaged_checkpoints_restore_exactly_or_raise_data_loss(checkpoint, which, how):
    files = _files_under(Path(checkpoint).parent)
    path, good = _damage(files, which, how)
    try:
        _outcome("checkpoint restore", lambda: _restore(checkpoint), _check_restored,
                 DataLossError, path)
        _outcome("checkpoint load_variable", lambda: tf.train.load_variable(
            checkpoint, "v/.ATTRIBUTES/VARIABLE_VALUE"), _check_variable_v, DataLossError, path)
        _outcome("checkpoint list_variables", lambda: tf.train.list_variables(checkpoint),
                 _check_listed, DataLossError, path)
    finally:
        path.write_bytes(good)


def test_a_damaged_checkpoint_names_the_file_and_the_fix(checkpoint, tmp_path):
    prefix = str(tmp_path / "c")
    for suffix in (".index", ".data-00000-of-00001"):
        shutil.copy(checkpoint + suffix, prefix + suffix)
    data = Path(prefix + ".data-00000-of-00001")
    data.write_bytes(data.read_bytes()[:-1])
    with pytest.raises(DataLossError, match=r"c.data-00000-of-00001 .*the file is damaged or "
                                            r"was written partly; save"):
        _restore(prefix)


# -- Keras files -----------------------------------------------------------------------------

def _keras_model():
    model = tf.keras.Sequential([tf.keras.layers.Dense(2)])
    model.build((None, 3))
    model.layers[0].kernel.assign(KERNEL)
    model.layers[0].bias.assign(BIAS)
    return model


@pytest.fixture(scope="module")
def keras_files():
    folder = WORK / "keras"
    folder.mkdir()
    model = _keras_model()
    model.save(str(folder / "m.keras"))
    model.save_weights(str(folder / "m.weights.h5"))
    return folder


def _check_weights(values):
    kernel, bias = values
    np.testing.assert_array_equal(kernel, KERNEL)
    np.testing.assert_array_equal(bias, BIAS)
    assert kernel.dtype == KERNEL.dtype and bias.dtype == BIAS.dtype


def _load_keras(path):
    model = tf.keras.models.load_model(str(path))
    return [v.numpy() for v in model.variables]


def _load_weights(path):
    model = tf.keras.Sequential([tf.keras.layers.Dense(2)])
    model.build((None, 3))
    model.load_weights(str(path))
    return [v.numpy() for v in model.variables]


@SETTINGS
@given(which=st.integers(0, 1), how=DAMAGE)
def test_damaged_keras_files_load_exactly_or_raise_data_loss(keras_files, which, how):
    files = [keras_files / "m.keras", keras_files / "m.weights.h5"]
    path, good = _damage(files, which, how)
    try:
        load = _load_keras if path.suffix == ".keras" else _load_weights
        _outcome(path.suffix, lambda: load(path), _check_weights, DataLossError, path)
    finally:
        path.write_bytes(good)


def test_every_byte_of_a_weights_file_is_covered(keras_files, tmp_path):
    """Exhaustive, not sampled: each single byte of a save_weights file flipped."""
    good = (keras_files / "m.weights.h5").read_bytes()
    path = tmp_path / "w.weights.h5"
    for i in range(len(good)):
        path.write_bytes(good[:i] + bytes([good[i] ^ 0x01]) + good[i + 1:])
        _outcome("weights file (every byte)", lambda: _load_weights(path), _check_weights,
                 DataLossError, path)


@pytest.fixture(scope="module", autouse=True)
def _report():
    yield
    formats = sorted({fmt for fmt, _ in COUNT})
    print("\ndamaged files: variants tried / clean errors / exact loads / wrong loads")
    for fmt in formats:
        print(f"  {fmt}: {COUNT[fmt, 'tried']} / {COUNT[fmt, 'clean error']} / "
              f"{COUNT[fmt, 'exact']} / {COUNT[fmt, 'WRONG']}")
    total = {k: sum(n for (_, kk), n in COUNT.items() if kk == k)
             for k in ("tried", "clean error", "exact", "WRONG")}
    print(f"  total: {total['tried']} / {total['clean error']} / {total['exact']} / "
          f"{total['WRONG']}")
    shutil.rmtree(WORK, ignore_errors=True)
    assert total["WRONG"] == 0
