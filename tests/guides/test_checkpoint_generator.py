"""A tf.random.Generator tracked by a tf.train.Checkpoint (guide random_numbers, issue 25):
its state variable is saved under TF's key and restoring it replays the stream."""

import numpy as np

import tfgraph_edu as tf


def test_generator_state_saved_under_tfs_key_and_restored(tmp_path):
    g = tf.random.Generator.from_seed(1)
    cp = tf.train.Checkpoint(generator=g)
    g.normal([])
    path = cp.write(str(tmp_path / "ckpt"))
    # recorded from TF 2.21: the key list of this checkpoint
    assert tf.train.list_variables(path) == [
        ("_CHECKPOINTABLE_OBJECT_GRAPH", []),
        ("generator/_state_var/.ATTRIBUTES/VARIABLE_VALUE", [3])]
    saved_state = g.state.numpy().tolist()
    assert saved_state == [257, 0, 0]  # TF 2.21: one normal draw moves the counter by 256
    after_save = [float(g.normal([]).numpy()) for _ in range(2)]
    assert g.state.numpy().tolist() != saved_state
    cp.restore(path)
    assert g.state.numpy().tolist() == saved_state
    assert [float(g.normal([]).numpy()) for _ in range(2)] == after_save


def test_generator_restored_into_another_generator(tmp_path):
    g = tf.random.Generator.from_seed(1)
    g.normal([4])
    path = tf.train.Checkpoint(my_generator=g).save(str(tmp_path / "s"))
    expected = g.normal([3]).numpy()
    other = tf.random.Generator.from_seed(99)
    tf.train.Checkpoint(my_generator=other).restore(path).assert_existing_objects_matched()
    np.testing.assert_array_equal(other.normal([3]).numpy(), expected)
