"""``keras.saving.register_keras_serializable`` and ``load_model`` of a subclassed model (the
modules guide saves one).  Expected values recorded once from TensorFlow 2.21.0 + Keras 3
running the same program: the registered name, the new model's name and weight count, equal
outputs after loading, and the TypeError for a class that is not registered."""

import numpy as np
import pytest

import tfgraph_edu as tf

keras = tf.keras


@keras.saving.register_keras_serializable(package="Guide")
class Two(tf.keras.Model):
    def __init__(self, name=None, **kwargs):
        super().__init__(**kwargs)
        self.d1 = tf.keras.layers.Dense(3)
        self.d2 = tf.keras.layers.Dense(2)

    def call(self, x):
        return self.d2(self.d1(x))


class NotRegistered(tf.keras.Model):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.d1 = tf.keras.layers.Dense(3)

    def call(self, x):
        return self.d1(x)


def test_a_registered_subclassed_model_loads_with_its_weights(tmp_path):
    assert keras.saving.get_registered_name(Two) == "Guide>Two"  # TF 2.21
    model = Two(name="the_model")
    x = tf.constant([[2.0, 2.0, 2.0]])
    before = model(x).numpy()
    model.save(str(tmp_path / "m.keras"))
    loaded = tf.keras.models.load_model(str(tmp_path / "m.keras"))
    assert type(loaded) is Two
    assert len(loaded.variables) == 4  # TF 2.21: 4
    np.testing.assert_allclose(loaded(x).numpy(), before)  # TF 2.21: equal


def test_a_class_not_registered_is_a_type_error(tmp_path):
    model = NotRegistered()
    model(tf.constant([[2.0, 2.0, 2.0]]))
    model.save(str(tmp_path / "u.keras"))
    with pytest.raises(TypeError, match="Could not locate class 'NotRegistered'. Make sure "
                                        "custom classes and functions are decorated"):
        tf.keras.models.load_model(str(tmp_path / "u.keras"))
