"""tf.train.load_checkpoint and lists on a Checkpoint (guide checkpoint, issue 25).
Expected values recorded from TF 2.21 running the same programs."""

import numpy as np
import pytest

import tfgraph_edu as tf


class Net(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.l1 = tf.keras.layers.Dense(5)

    def call(self, x):
        return self.l1(x)


def test_load_checkpoint_reader_keys_shapes_dtypes(tmp_path):
    net, opt = Net(), tf.keras.optimizers.Adam(0.1)
    ckpt = tf.train.Checkpoint(step=tf.Variable(1), optimizer=opt, net=net)
    for _ in range(3):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.abs(net(tf.ones([2, 1])) - 1.0))
        grads = tape.gradient(loss, net.trainable_variables)
        opt.apply_gradients(zip(grads, net.trainable_variables))
    manager = tf.train.CheckpointManager(ckpt, str(tmp_path / "tf_ckpts"), max_to_keep=3)
    manager.save()
    reader = tf.train.load_checkpoint(str(tmp_path / "tf_ckpts"))
    shape_from_key = reader.get_variable_to_shape_map()
    dtype_from_key = reader.get_variable_to_dtype_map()
    # recorded from TF 2.21 (the same program, the iterator left out)
    assert sorted(shape_from_key) == [
        "_CHECKPOINTABLE_OBJECT_GRAPH", "net/l1/_kernel/.ATTRIBUTES/VARIABLE_VALUE",
        "net/l1/bias/.ATTRIBUTES/VARIABLE_VALUE",
        "optimizer/_iterations/.ATTRIBUTES/VARIABLE_VALUE",
        "optimizer/_learning_rate/.ATTRIBUTES/VARIABLE_VALUE",
        "optimizer/_variables/2/.ATTRIBUTES/VARIABLE_VALUE",
        "optimizer/_variables/3/.ATTRIBUTES/VARIABLE_VALUE",
        "optimizer/_variables/4/.ATTRIBUTES/VARIABLE_VALUE",
        "optimizer/_variables/5/.ATTRIBUTES/VARIABLE_VALUE",
        "save_counter/.ATTRIBUTES/VARIABLE_VALUE", "step/.ATTRIBUTES/VARIABLE_VALUE"]
    key = "net/l1/bias/.ATTRIBUTES/VARIABLE_VALUE"
    assert shape_from_key[key] == [5] and dtype_from_key[key].name == "float32"
    assert shape_from_key["_CHECKPOINTABLE_OBJECT_GRAPH"] == []
    assert dtype_from_key["_CHECKPOINTABLE_OBJECT_GRAPH"] == tf.string
    assert dtype_from_key["optimizer/_iterations/.ATTRIBUTES/VARIABLE_VALUE"] == tf.int64
    np.testing.assert_array_equal(reader.get_tensor(key), net.l1.bias.numpy())
    step = reader.get_tensor("step/.ATTRIBUTES/VARIABLE_VALUE")
    assert isinstance(step, np.int32) and step == 1  # TF 2.21: a NumPy scalar, np.int32(1)
    assert reader.has_tensor("step/.ATTRIBUTES/VARIABLE_VALUE")
    assert not reader.has_tensor("net/l1/kernel/.ATTRIBUTES/VARIABLE_VALUE")
    with pytest.raises(KeyError, match="net/l1/kernel"):
        shape_from_key["net/l1/kernel/.ATTRIBUTES/VARIABLE_VALUE"]
    with pytest.raises(tf.errors.NotFoundError, match="Key net/l1/kernel/.ATTRIBUTES/"
                                                      "VARIABLE_VALUE not found in checkpoint"):
        reader.get_tensor("net/l1/kernel/.ATTRIBUTES/VARIABLE_VALUE")
    with pytest.raises(NotImplementedError, match="_CHECKPOINTABLE_OBJECT_GRAPH"):
        reader.get_tensor("_CHECKPOINTABLE_OBJECT_GRAPH")


def test_list_on_checkpoint_is_a_listwrapper_restored_when_filled(tmp_path):
    save = tf.train.Checkpoint()
    save.listed = [tf.Variable(1.)]
    save.listed.append(tf.Variable(2.))
    save.mapped = {"one": save.listed[0]}
    save.mapped["two"] = save.listed[1]
    save_path = save.save(str(tmp_path / "tf_list_example"))
    restore = tf.train.Checkpoint()
    v2 = tf.Variable(0.)
    restore.mapped = {"two": v2}
    restore.restore(save_path)
    assert v2.numpy() == 2.0
    restore.listed = []
    assert repr(restore.listed) == "ListWrapper([])"  # recorded from TF 2.21
    v1 = tf.Variable(0.)
    restore.listed.append(v1)  # restored now, from the restore above (TF 2.21: 1.0)
    assert v1.numpy() == 1.0


def test_listwrapper_from_keyword_and_extend(tmp_path):
    c = tf.train.Checkpoint(listed=[tf.Variable(3.)])
    assert repr(c.listed).startswith("ListWrapper([<tf.Variable")
    path = c.save(str(tmp_path / "x"))
    r = tf.train.Checkpoint(listed=[])
    r.restore(path)
    v = tf.Variable(0.)
    r.listed.extend([v])
    assert v.numpy() == 3.0  # recorded from TF 2.21
    r2 = tf.train.Checkpoint()
    r2.restore(path)
    r2.listed = [tf.Variable(0.)]
    assert r2.listed[0].numpy() == 3.0
