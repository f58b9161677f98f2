"""``as_graph_def()`` of a traced function as TF 2.21 builds it (issue 26): the If's
Identity nodes, the function library, ``_user_specified_name``, versions, the printout's
attr order.  Every expected value was recorded once from TF 2.21.0's run of the same
function (the intro_to_graphs guide's ``simple_relu``) in the check-tf venv."""

from __future__ import annotations

import tfgraph_edu as tf


@tf.function
def simple_relu(x):
    if tf.greater(x, 0):
        return x
    else:
        return 0


def _graph_def():
    return simple_relu.get_concrete_function(tf.TensorSpec([], tf.int32)).graph.as_graph_def()


def test_the_graph_has_tfs_nodes_with_the_ifs_identities():
    gd = _graph_def()
    # TF 2.21: [n.op for n in gd.node], [n.name for n in gd.node]
    assert [n.op for n in gd.node] == ["Placeholder", "Const", "Greater", "StatelessIf",
                                       "Identity", "Identity", "Identity"]
    assert [n.name for n in gd.node] == ["x", "Greater/y", "Greater", "cond", "cond/Identity",
                                         "cond/Identity_1", "Identity"]
    assert gd.node[0].attr["_user_specified_name"] == "x"
    assert sorted(gd.node[3].attr) == ["Tcond", "Tin", "Tout", "_lower_using_switch_merge",
                                       "_read_only_resource_inputs", "else_branch",
                                       "output_shapes", "then_branch"]


def test_the_library_holds_the_branches_as_tf_names_them():
    gd = _graph_def()
    assert (gd.versions.producer, gd.versions.min_consumer) == (2474, 12)
    funcs = {f.signature.name.rsplit("_", 1)[0]: f for f in gd.library.function}
    assert [f.signature.name.rsplit("_", 1)[0] for f in gd.library.function] == [
        "cond_false", "cond_true"]  # sorted by name, as TF's library
    then = funcs["cond_true"]
    assert [a.name for a in then.signature.output_arg] == ["cond_identity", "cond_identity_1"]
    assert then.ret == {"cond_identity": "cond/Identity:output:0",
                        "cond_identity_1": "cond/Identity_1:output:0"}
    assert [n.op for n in then.node_def] == ["Const", "Identity", "Identity"]
    assert sorted(then.arg_attr[0]) == ["_output_shapes", "_user_specified_name"]
    assert then.arg_attr[0]["_user_specified_name"] == "x"
    assert then.attr["_construction_context"] == "kEagerRuntime"
    # the else branch's placeholder for x, which it does not use, has no name (TF: the same)
    assert sorted(funcs["cond_false"].arg_attr[0]) == ["_output_shapes"]


def test_the_printout_lists_attrs_in_tfs_order():
    text = str(_graph_def())
    keys = [line.strip() for line in text.splitlines() if line.strip().startswith('key: "')]
    # TF 2.21: the first twelve attr keys print(graph_def) shows
    assert keys[:12] == ['key: "shape"', 'key: "dtype"', 'key: "_user_specified_name"',
                         'key: "value"', 'key: "dtype"', 'key: "T"', 'key: "then_branch"',
                         'key: "output_shapes"', 'key: "else_branch"',
                         'key: "_read_only_resource_inputs"', 'key: "_lower_using_switch_merge"',
                         'key: "Tout"']
    assert text.rstrip().endswith("versions {\n  producer: 2474\n  min_consumer: 12\n}")
    assert "library {\n  function {\n    signature {\n" in text
