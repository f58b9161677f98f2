"""tf.train.Checkpoint restored before its variables exist: TensorFlow's deferred restoration
(the values wait and are assigned when the variables are created), never fresh weights.

Every expected value below was recorded by running the same snippet under TensorFlow 2.21.0
with Keras 3.15.1 (``/work/venv-tf``); where the checkpoint keys differ (Keras 3 keys a
Sequential's layers under ``_functional/_operations``), only the behaviour is compared."""

from __future__ import annotations

import numpy as np
import pytest

import tfgraph_edu as tf


class _LazyModule(tf.Module):
    """A variable made on the first call, as the modules guide's lazy layers do."""

    def __init__(self):
        super().__init__()
        self.w = None

    @tf.function
    def __call__(self, x):
        if self.w is None:
            self.w = tf.Variable(tf.zeros([3]))
        return x * self.w


class _Bare(tf.Module):
    pass


def _saved_module(tmp_path, **deps):
    a = _Bare()
    a.w = tf.Variable([1.0, 2.0, 3.0])
    return tf.train.Checkpoint(**{k: a for k in deps} or {"mod": a}).write(
        str(tmp_path / "m"))


def test_a_keras_model_built_after_restore_gets_the_saved_weights(tmp_path):
    # TF 2.21: assert_consumed() before the build raises AssertionError "Unresolved object
    # in checkpoint ..."; assert_existing_objects_matched() passes; after model(x) the
    # weights equal the saved ones ("equal: True") and assert_consumed() passes.
    tf.random.set_seed(1)
    m = tf.keras.Sequential([tf.keras.layers.Dense(2)])
    m(np.ones((1, 3), np.float32))
    path = tf.train.Checkpoint(model=m).save(str(tmp_path / "c"))
    m2 = tf.keras.Sequential([tf.keras.layers.Dense(2)])
    status = tf.train.Checkpoint(model=m2).restore(path)
    with pytest.raises(AssertionError, match="Unresolved object in checkpoint"):
        status.assert_consumed()
    status.assert_existing_objects_matched()
    m2(np.ones((1, 3), np.float32))
    assert len(m2.weights) == 2
    for a, b in zip(m.weights, m2.weights):
        np.testing.assert_array_equal(a.numpy(), b.numpy())
    status.assert_consumed()


def test_predict_and_fit_build_a_restored_model_with_the_saved_weights(tmp_path):
    # TF 2.21: predict of the restored, unbuilt model equals the saved model's predict;
    # after one identical epoch of SGD on both, the kernels are equal again
    tf.random.set_seed(2)
    x = np.random.default_rng(0).random((4, 3))
    y = np.zeros((4, 1))
    m = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(1)])
    path = tf.train.Checkpoint(model=m).write(str(tmp_path / "p"))
    fresh = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    tf.train.Checkpoint(model=fresh).restore(path)
    np.testing.assert_allclose(fresh.predict(x, verbose=0), m.predict(x, verbose=0),
                               rtol=1e-6)
    again = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    tf.train.Checkpoint(model=again).restore(path)
    for model in (m, again):
        model.compile(tf.keras.optimizers.SGD(0.1), "mse")
        model.fit(x, y, epochs=1, batch_size=4, shuffle=False, verbose=0)
    np.testing.assert_allclose(again.layers[0].kernel.numpy(), m.layers[0].kernel.numpy(),
                               rtol=1e-6)


def test_a_module_making_its_variable_in_a_traced_call_gets_the_saved_value(tmp_path):
    # TF 2.21: module call: [1. 2. 3.]
    path = _saved_module(tmp_path)
    b = _LazyModule()
    tf.train.Checkpoint(mod=b).restore(path)
    np.testing.assert_array_equal(b(tf.ones([3])).numpy(), [1.0, 2.0, 3.0])


def test_a_variable_of_another_shape_is_refused_when_it_is_created(tmp_path):
    # TF 2.21: ValueError "Received incompatible tensor with shape (3,) when attempting to
    # restore variable with shape (4,) and name Variable:0." at the assignment
    path = _saved_module(tmp_path)
    b = _Bare()
    tf.train.Checkpoint(mod=b).restore(path)
    with pytest.raises(ValueError, match=r"incompatible tensor with shape \(3,\)"):
        b.w = tf.Variable(tf.zeros([4]))


def test_root_modules_and_nested_modules_defer_too(tmp_path):
    # TF 2.21: root form [1. 2. 3.]; nested created then attached: 5.0; nested attached
    # then created: 5.0
    a = _Bare()
    a.w = tf.Variable([1.0, 2.0, 3.0])
    path = tf.train.Checkpoint(root=a).write(str(tmp_path / "r"))
    b = _Bare()
    tf.train.Checkpoint(root=b).restore(path)
    b.w = tf.Variable(tf.zeros([3]))
    np.testing.assert_array_equal(b.w.numpy(), [1.0, 2.0, 3.0])

    outer = _Bare()
    outer.sub = _Bare()
    outer.sub.v = tf.Variable(5.0)
    path = tf.train.Checkpoint(x=outer).write(str(tmp_path / "n"))
    created_first = _Bare()
    tf.train.Checkpoint(x=created_first).restore(path)
    sub = _Bare()
    sub.v = tf.Variable(0.0)
    created_first.sub = sub
    assert created_first.sub.v.numpy() == 5.0
    attached_first = _Bare()
    tf.train.Checkpoint(x=attached_first).restore(path)
    sub = _Bare()
    attached_first.sub = sub
    sub.v = tf.Variable(0.0)
    assert attached_first.sub.v.numpy() == 5.0


def test_optimizer_slots_of_weights_made_after_restore_come_back(tmp_path):
    # TF 2.21: after restoring model and Adam into an unbuilt model, one more identical
    # epoch on both gives equal kernels (TF printed [0.01565592 1.2123797 0.23401965] twice)
    tf.random.set_seed(3)
    x = np.random.default_rng(0).random((4, 3)).astype(np.float32)
    y = np.ones((4, 1), np.float32)
    m = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    opt = tf.keras.optimizers.Adam(0.1)
    m.compile(opt, "mse")
    m.fit(x, y, epochs=2, batch_size=4, shuffle=False, verbose=0)
    path = tf.train.Checkpoint(model=m, optimizer=opt).write(str(tmp_path / "s"))
    m2 = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    opt2 = tf.keras.optimizers.Adam(0.1)
    tf.train.Checkpoint(model=m2, optimizer=opt2).restore(path)
    m2.compile(opt2, "mse")
    for model in (m, m2):
        model.fit(x, y, epochs=1, batch_size=4, shuffle=False, verbose=0)
    np.testing.assert_allclose(m2.layers[0].kernel.numpy(), m.layers[0].kernel.numpy(),
                               rtol=1e-6)


def test_a_module_whose_values_never_come_can_still_be_collected(tmp_path):
    # not a TF observation: the values waiting on a module must not keep it alive
    import gc
    import weakref

    path = _saved_module(tmp_path)
    b = _Bare()
    status = tf.train.Checkpoint(mod=b).restore(path)
    ref = weakref.ref(b)
    del b
    gc.collect()
    assert ref() is None
    with pytest.raises(AssertionError):  # the value never found its variable
        status.assert_consumed()
