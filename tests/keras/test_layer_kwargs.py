"""Layer keyword arguments as Keras 3 in TF 2.21 reads them: an unknown one is Keras 3's
ValueError (message printed by TF 2.21), a Keras option tfgraph_edu lacks is refused by name
instead of being dropped in silence."""

from __future__ import annotations

import pytest

import tfgraph_edu as tf


def test_unknown_keyword_is_keras_valueerror():
    with pytest.raises(ValueError) as e:
        tf.keras.layers.Dense(3, foo=1)
    assert str(e.value) == "Unrecognized keyword arguments passed to Dense: {'foo': 1}"
    with pytest.raises(ValueError) as e:
        tf.keras.layers.Layer(foo=1)
    assert str(e.value) == "Unrecognized keyword arguments passed to Layer: {'foo': 1}"
    with pytest.raises(ValueError, match=r"passed to Dense: \{'dynamic': True\}"):
        tf.keras.layers.Dense(3, dynamic=True)


def test_unimplemented_options_refused_none_accepted():
    with pytest.raises(NotImplementedError,
                       match=r"does not implement Conv2D\(kernel_regularizer=...\)"):
        tf.keras.layers.Conv2D(3, 3, kernel_regularizer="l2")
    with pytest.raises(NotImplementedError, match=r"Dense\(kernel_constraint=...\)"):
        tf.keras.layers.Dense(3, kernel_constraint="non_neg")
    tf.keras.layers.Dense(3, kernel_regularizer=None, autocast=True)  # as Keras 3: fine


def test_input_dim_warns_like_input_shape():
    with pytest.warns(UserWarning, match="Do not pass an `input_shape`/`input_dim`"):
        tf.keras.layers.Dense(3, input_dim=4)
