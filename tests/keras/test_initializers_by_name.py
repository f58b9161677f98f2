"""tf.keras.initializers and initializers by name in layers, against Keras 3 in TF 2.21.
Deterministic values and messages were printed by TF 2.21; the random initializers draw
other numbers than TF's, so their bounds and spreads are checked against Keras 3's
formulas (scale / fan, truncation at two standard deviations)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import tfgraph_edu as tf

init = tf.keras.initializers


def test_deterministic_initializers():
    # TF: [[2,0,0],[0,2,0]] and an int32 [3 3]
    assert init.Identity(2.0)((2, 3)).numpy().tolist() == [[2.0, 0.0, 0.0], [0.0, 2.0, 0.0]]
    c = init.Constant(3)((2,), dtype="int32")
    assert c.dtype == tf.int32 and c.numpy().tolist() == [3, 3]
    assert init.get("zeros")((2,)).numpy().tolist() == [0.0, 0.0]
    assert init.get("one")((1,)).numpy().tolist() == [1.0]
    assert init.get({"class_name": "Constant", "config": {"value": 2}}).value == 2


def test_get_by_name_and_errors():
    assert isinstance(init.get("Zeros"), init.Zeros)
    assert isinstance(init.get("he_normal"), init.HeNormal)
    assert isinstance(init.get("uniform"), init.RandomUniform)  # Keras 3's alias
    assert init.he_normal is init.HeNormal  # TF: the class
    for bad in ("nope", 5):
        with pytest.raises(ValueError, match=f"^Could not interpret initializer identifier: "
                                             f"{bad}$"):
            init.get(bad)


@pytest.mark.parametrize("name,scale,fan,dist", [
    ("he_normal", 2.0, "in", "tn"), ("he_uniform", 2.0, "in", "u"),
    ("glorot_normal", 1.0, "avg", "tn"), ("glorot_uniform", 1.0, "avg", "u"),
    ("lecun_normal", 1.0, "in", "tn"), ("lecun_uniform", 1.0, "in", "u")])
def test_variance_scaling_family_in_a_dense_layer(name, scale, fan, dist):
    tf.random.set_seed(7)
    d = tf.keras.layers.Dense(400, kernel_initializer=name)
    d(tf.ones([1, 300]))
    w = d.kernel.numpy()
    var = scale / (300 if fan == "in" else 350)
    if dist == "u":
        limit = math.sqrt(3 * var)
        assert np.abs(w).max() <= limit and np.abs(w).max() > 0.98 * limit
    else:  # truncated at 2 sigma of the widened normal; its spread is sqrt(var)
        sigma = math.sqrt(var) / 0.87962566103423978
        assert np.abs(w).max() <= 2 * sigma + 1e-6
    assert abs(w.std() - math.sqrt(var)) < 0.03 * math.sqrt(var)


def test_random_normal_uniform_truncated_defaults():
    tf.random.set_seed(3)
    n = init.RandomNormal()((200, 200)).numpy()
    assert abs(n.std() - 0.05) < 0.002 and abs(n.mean()) < 0.002
    u = init.RandomUniform()((200, 200)).numpy()
    assert u.min() >= -0.05 and u.max() <= 0.05
    t = init.TruncatedNormal(stddev=1.0)((200, 200)).numpy()
    assert np.abs(t).max() <= 2.0


def test_orthogonal_and_identity_errors():
    q = init.Orthogonal()((4, 3)).numpy()
    np.testing.assert_allclose(q.T @ q, np.eye(3), atol=1e-5)
    with pytest.raises(ValueError, match="Identity matrix initializer can only be used for 2D"):
        init.Identity()((2, 2, 2))
    with pytest.raises(ValueError, match="Argument `scale` must be positive float"):
        init.VarianceScaling(scale=0)


def test_missing_initializer_says_so():
    with pytest.raises(AttributeError, match="TF 2.21 has tf.keras.initializers.STFT"):
        getattr(init, "STFT")  # noqa: B009
