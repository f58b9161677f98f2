"""Saves killed midway: a child process saves a SavedModel, a checkpoint (``write`` and
``save``), a ``.keras`` file and a ``save_weights`` file over and over, each time with other
weights, and is killed with SIGKILL after a random delay.  After every kill each file must
hold one whole save - exactly the values of one generation - never a mix of two, and never
an error (an older save always existed).  The expected values are the arrays the child
saved, rebuilt here from the generation number."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest

import tfgraph_edu as tf

ROOT = Path(__file__).resolve().parents[2]
KILLS = 8
CHILD = textwrap.dedent("""
    import sys
    import numpy as np
    import tfgraph_edu as tf
    from tests.safety.test_interrupted_saves import values

    class M(tf.Module):
        def __init__(self, g):
            super().__init__()
            v, w = values(g)
            self.v, self.w = tf.Variable(v), tf.Variable(w)

        @tf.function(input_signature=[tf.TensorSpec([3], tf.float32)])
        def f(self, x):
            return x * 3.0 + self.v

    def save_all(folder, g):
        m = M(g)
        tf.saved_model.save(m, folder + "/model")
        ckpt = tf.train.Checkpoint(v=m.v, w=m.w)
        ckpt.write(folder + "/ckpt/c")
        ckpt.save(folder + "/numbered/n")
        k = tf.keras.Sequential([tf.keras.layers.Dense(3)])
        k.build((None, 3))
        k.layers[0].kernel.assign(np.outer(values(g)[0], values(g)[0]))
        k.layers[0].bias.assign(values(g)[0])
        k.save(folder + "/k.keras")
        k.save_weights(folder + "/k.weights.h5")

    folder, start = sys.argv[1], int(sys.argv[2])
    if start == 0:
        save_all(folder, 0)
        sys.exit(0)
    M(1).f.get_concrete_function()  # warm up before saying ready
    print("ready", flush=True)
    g = start
    while True:
        save_all(folder, g)
        print(g, flush=True)
        g += 1
""")


def values(g: int):
    """The variables of generation ``g``: every save writes other numbers."""
    v = np.array([1.5, -2.0, 3.25], np.float32) + np.float32(g)
    w = (np.arange(6, dtype=np.int32).reshape(2, 3) - 2) * (g + 1)
    return v, w


def _run(folder, start):
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONDONTWRITEBYTECODE="1")
    script = Path(folder) / "child.py"  # a file: AutoGraph reads the source of M.f
    script.write_text(CHILD)
    return subprocess.Popen([sys.executable, str(script), str(folder), str(start)],
                            cwd=str(ROOT), env=env, stdout=subprocess.PIPE, text=True)


def _generation(candidates, v, w=None) -> int:
    for g in candidates:
        gv, gw = values(g)
        if np.array_equal(v, gv) and v.dtype == gv.dtype and (
                w is None or (np.array_equal(w, gw) and w.dtype == gw.dtype)):
            return g
    raise AssertionError(f"values of no single save: v={v!r} w={w!r}")


def _check_folder(folder: Path, gens) -> dict:
    """The generation each file holds (each must hold exactly one)."""
    found = {}
    loaded = tf.saved_model.load(folder / "model")
    v, w = sorted((x.numpy() for x in loaded.variables), key=lambda a: a.dtype.str)
    found["SavedModel"] = g = _generation(gens, v, w)
    x = np.array([1.0, 2.0, -3.0], np.float32)
    np.testing.assert_array_equal(loaded.f(tf.constant(x)).numpy(),
                                  x * np.float32(3.0) + values(g)[0])
    for name, prefix in (("checkpoint", str(folder / "ckpt" / "c")),
                         ("numbered checkpoint", tf.train.latest_checkpoint(folder / "numbered"))):
        v, w = tf.Variable(np.zeros(3, np.float32)), tf.Variable(np.zeros((2, 3), np.int32))
        tf.train.Checkpoint(v=v, w=w).restore(prefix)
        found[name] = _generation(gens, v.numpy(), w.numpy())
    for name, load in ((".keras", lambda: tf.keras.models.load_model(str(folder / "k.keras"))),
                       ("weights", lambda: _weights(folder / "k.weights.h5"))):
        model = load()
        kernel, bias = (x.numpy() for x in model.variables)
        found[name] = g = _generation(gens, bias)
        np.testing.assert_array_equal(kernel, np.outer(values(g)[0], values(g)[0]))
    return found


def _weights(path):
    model = tf.keras.Sequential([tf.keras.layers.Dense(3)])
    model.build((None, 3))
    model.load_weights(str(path))
    return model


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_a_save_killed_at_a_random_moment_leaves_the_old_files_or_the_new(tmp_path):
    rng = random.Random()
    assert _run(tmp_path, 0).wait(timeout=120) == 0
    assert _check_folder(tmp_path, [0]) == dict.fromkeys(
        ["SavedModel", "checkpoint", "numbered checkpoint", ".keras", "weights"], 0)
    start, interrupted, finished, in_folder_save = 1, 0, 0, 0
    for _ in range(KILLS):
        child = _run(tmp_path, start)
        assert child.stdout.readline().strip() == "ready"
        time.sleep(rng.uniform(0.0, 0.4))
        child.send_signal(signal.SIGKILL)
        out, _ = child.communicate(timeout=60)
        done = [int(line) for line in out.split()]
        finished += len(done)
        last = start + len(done)  # the generation being saved when killed
        # each file holds one whole earlier save, or the one running when the kill came
        found = _check_folder(tmp_path, range(last + 1))
        interrupted += len(set(found.values())) > 1
        start = last + 1
        in_folder_save += any(p.name.startswith(".model.saving-") for p in tmp_path.iterdir())
    # a later save removes what the killed ones left (staging folders, temporary files)
    assert _run(tmp_path, 0).wait(timeout=120) == 0
    assert set(_check_folder(tmp_path, [0]).values()) == {0}
    left = [p.name for p in tmp_path.rglob(".*saving-*")]
    assert not left, left
    print(f"\nkilled saves: {KILLS} kills after {finished} whole saves; {interrupted} kills "
          f"came between two files, {in_folder_save} inside a SavedModel save; every file "
          "held exactly one save")
