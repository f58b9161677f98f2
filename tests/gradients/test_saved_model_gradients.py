"""Functions of a loaded SavedModel called under a tape are differentiated like tf.functions;
a custom gradient that the loading process does not have raises TF's LookupError."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

import tfgraph_edu as tf


@tf.custom_gradient
def clip_gradients(y):
    def backward(dy):
        return tf.minimum(dy, 0.5)
    return y, backward


class MyModule(tf.Module):
    def __init__(self):
        self.w = tf.Variable(3.0)

    @tf.function(input_signature=[tf.TensorSpec(None)])
    def call_custom_grad(self, x):
        return clip_gradients(x)

    @tf.function(input_signature=[tf.TensorSpec([None])])
    def weighted(self, x):
        return tf.reduce_sum(self.w * x * x)


@pytest.fixture
def saved(tmp_path):
    model = MyModule()
    model.call_custom_grad(tf.constant(1.0))
    model.weighted(tf.constant([1.0]))
    path = str(tmp_path / "saved_model")
    tf.saved_model.save(model, path)
    return path


def test_loaded_function_gradients_for_inputs_and_variables(saved):
    loaded = tf.saved_model.load(saved)
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = loaded.weighted(x)
    gx, gw = tape.gradient(y, [x, loaded.trainable_variables[0]])
    assert gx.numpy().tolist() == [6.0, 12.0] and float(gw) == 5.0


def test_custom_gradient_of_a_loaded_function_in_the_same_process(saved):
    v = tf.Variable(2.0)
    loaded = tf.saved_model.load(saved)
    with tf.GradientTape() as tape:
        output = loaded.call_custom_grad(v * v)
    assert float(tape.gradient(output, v)) == 0.5 * 2 * 2.0


def test_custom_gradient_missing_in_a_fresh_process_raises_lookup_error(saved):
    script = (
        "import tfgraph_edu as tf\n"
        f"loaded = tf.saved_model.load({saved!r})\n"
        "v = tf.Variable(2.0)\n"
        "with tf.GradientTape() as t:\n"
        "    out = loaded.call_custom_grad(v * v)\n"
        "try:\n"
        "    t.gradient(out, v)\n"
        "except LookupError as e:\n"
        "    print('LookupError:', e)\n")
    env = dict(os.environ, PYTHONPATH=os.getcwd())
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         timeout=120, env=env)
    assert "LookupError: No gradient defined for operation" in out.stdout, out.stderr
    assert "(op type: IdentityN)" in out.stdout
