"""Names are checked where TensorFlow checks them: ``tf.name_scope`` and ``name=`` of an op
inside a graph, with TF's ValueError raised through the user's line; ``Graph.verify``
refuses any graph holding a name TF would refuse."""

from __future__ import annotations

import string

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tfgraph_edu as tf

FIRST = set(string.ascii_letters + string.digits + ".")
REST = FIRST | set("_-/>\\")


def tf_accepts(name: str, nested: bool, scope: bool = False) -> bool:
    """TF's rule, written out by hand (independent of the code under test)."""
    if not nested and (not name or name[0] not in FIRST):
        return False
    if scope and len(name) > 1 and name.endswith("/") and name[0] not in FIRST:
        return False  # an absolute scope: its name starts the names of the nodes in it
    return all(c in REST for c in name)


def test_bad_root_scope_name_is_tfs_error_at_the_users_line():
    @tf.function
    def f(x):
        with tf.name_scope("my scope"):  # the user's line
            return x + 1

    with pytest.raises(ValueError) as info:
        f(tf.constant(1))
    message = str(info.value)
    assert message.endswith("'my scope' is not a valid root scope name. A root scope name has "
                            "to match the following pattern: "
                            "^[A-Za-z0-9.][A-Za-z0-9_.\\\\/>-]*$"), message
    line = f.python_function.__code__.co_firstlineno + 2
    assert f'File "{__file__}", line {line}' in message, message
    assert 'with tf.name_scope("my scope"):' in message


def test_bad_nested_scope_and_op_names():
    @tf.function
    def nested(x):
        with tf.name_scope("outer"):
            with tf.name_scope("_fine-inside"):
                y = tf.add(x, 1, name="_also.fine")
            return tf.add(y, 1, name="not fine!")

    with pytest.raises(ValueError, match=r"'not fine!' is not a valid scope name\. A scope "
                                         r"name has to match the following pattern"):
        nested(tf.constant(1))

    @tf.function
    def root_op(x):
        return tf.add(x, 1, name="_leading")

    with pytest.raises(ValueError, match="'_leading' is not a valid root scope name"):
        root_op(tf.constant(1))


def test_every_allowed_character_is_accepted_and_kept():
    @tf.function
    def f(x):
        with tf.name_scope("A.z-0"):
            with tf.name_scope("_x>y\\z"):
                return tf.multiply(x, 2, name=".9a_b-c>d\\e")

    f(tf.constant(1))
    names = [op.name for op in f.concrete_functions[0].graph.operations]
    assert "A.z-0/_x>y\\z/.9a_b-c>d\\e" in names


def test_argument_names_and_dict_keys_become_valid_placeholder_names():
    @tf.function
    def f(größe, d):
        return größe + d["a b\n'c"]

    out = f(tf.constant(1.0), {"a b\n'c": tf.constant(2.0)})
    assert float(out) == 3.0
    graph = f.concrete_functions[0].graph
    graph.verify()
    for op in graph.operations:
        assert tf_accepts(op.name, nested=False), op.name


def test_verify_refuses_a_graph_holding_a_bad_name():
    @tf.function
    def f(x):
        return x * 2.0

    graph = f.get_concrete_function(tf.constant(1.0)).graph
    graph.verify()
    for bad in ["a b", "x\n", "", "_x", "é", "a\x00", "q'uote", "a" * 19999 + "!"]:
        op = graph.operations[-1]
        old, op.name = op.name, bad
        try:
            with pytest.raises(ValueError, match="is not a valid node name"):
                graph.verify()
        finally:
            op.name = old
    graph.verify()


HOSTILE_CHARS = st.sampled_from(list("aZ09._-/>\\ \n\r\t\x00'\"#()=;:,é名\u2028\u202e{}[]$!"))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.text(HOSTILE_CHARS, min_size=1, max_size=12), nested=st.booleans(),
       as_op=st.booleans())
def test_names_are_accepted_exactly_when_tf_accepts_them(name, nested, as_op):
    def body(x):
        if as_op:
            return tf.identity(x, name=name)
        with tf.name_scope(name):
            return tf.identity(x)

    @tf.function
    def f(x):
        if nested:
            with tf.name_scope("outer"):
                return body(x)
        return body(x)

    if tf_accepts(name, nested, scope=not as_op):
        f(tf.constant(1.0))
        graph = f.concrete_functions[0].graph
        graph.verify()
        prefix = "outer/" if nested else ""
        if not as_op and name.endswith("/"):
            want = name[:-1]  # an absolute scope
        else:
            want = prefix + name
        assert any(op.name.startswith(want) for op in graph.operations)
    else:
        with pytest.raises(ValueError, match="is not a valid (root )?scope name"):
            f(tf.constant(1.0))
