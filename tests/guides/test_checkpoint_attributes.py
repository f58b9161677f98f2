"""tf.train.Checkpoint attributes set after it is made, a variable saved through two paths
(a list and a dict holding it) restored through either, and the status objects' printed
class (the checkpoint guide).  Expected values recorded once from TensorFlow 2.21.0 running
the same program."""

import re

import tfgraph_edu as tf


def test_attributes_lists_and_dicts_restore_through_any_path(tmp_path):
    save = tf.train.Checkpoint()
    save.listed = [tf.Variable(1.)]
    save.listed.append(tf.Variable(2.))
    save.mapped = {"one": save.listed[0]}
    save.mapped["two"] = save.listed[1]
    path = save.save(str(tmp_path / "tf_list_example"))
    keys = sorted(k for k, _ in tf.train.list_variables(path))
    # TF 2.21: each variable once, under its first path
    assert keys == ["_CHECKPOINTABLE_OBJECT_GRAPH", "listed/0/.ATTRIBUTES/VARIABLE_VALUE",
                    "listed/1/.ATTRIBUTES/VARIABLE_VALUE",
                    "save_counter/.ATTRIBUTES/VARIABLE_VALUE"]
    restore = tf.train.Checkpoint()
    v2 = tf.Variable(0.)
    restore.mapped = {"two": v2}
    status = restore.restore(path)
    assert v2.numpy() == 2.0  # TF 2.21: 2.0
    assert re.fullmatch(r"<tensorflow\.python\.checkpoint\.checkpoint\.CheckpointLoadStatus "
                        r"object at 0x[0-9a-f]+>", repr(status))
    none = tf.train.Checkpoint().restore(None)
    assert "InitializationOnlyStatus object at" in repr(none)
