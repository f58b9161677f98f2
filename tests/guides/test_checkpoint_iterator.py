"""A tf.data iterator in a tf.train.Checkpoint: saved at its place in the dataset and put back
there by restore (the checkpoint guide saves one beside the model).  The expected values were
recorded once from TensorFlow 2.21.0 running the same program."""

import tfgraph_edu as tf


def test_an_iterator_is_saved_and_restored_at_its_place(tmp_path):
    it = iter(tf.data.Dataset.range(10))
    assert [int(next(it)), int(next(it))] == [0, 1]
    ckpt = tf.train.Checkpoint(step=tf.Variable(1), iterator=it)
    path = ckpt.save(str(tmp_path / "ck"))
    assert [int(next(it)), int(next(it))] == [2, 3]
    ckpt.restore(path)
    assert int(next(it)) == 2  # TF 2.21: 2
    keys = [k for k, _ in tf.train.list_variables(str(tmp_path))]
    assert "iterator/.ATTRIBUTES/ITERATOR_STATE" in keys


def test_elements_taken_inside_a_function_count_too(tmp_path):
    it = iter(tf.data.Dataset.range(10))
    ckpt = tf.train.Checkpoint(iterator=it)

    @tf.function
    def take():
        return next(it)

    assert [int(take()), int(take()), int(take())] == [0, 1, 2]
    path = ckpt.save(str(tmp_path / "ck"))
    assert int(next(it)) == 3
    ckpt.restore(path)
    assert int(next(it)) == 3  # TF 2.21: 3
