"""tf.nest against TensorFlow 2.21: every expected value and message below is what TF 2.21
printed for the same call (not what tfgraph_edu gives)."""

from __future__ import annotations

import collections

import pytest

import tfgraph_edu as tf

P = collections.namedtuple("P", "x y")


def test_flatten_and_pack_sequence_as():
    assert tf.nest.flatten({"b": [1, (2, 3)], "a": None, "c": "str"}) == [None, 1, 2, 3, "str"]
    assert tf.nest.flatten(5) == [5] and tf.nest.flatten(None) == [None]
    assert tf.nest.flatten(P(1, [2, 3])) == [1, 2, 3] and tf.nest.flatten([]) == []
    assert tf.nest.flatten({1: "a", 0: "b"}) == ["b", "a"]
    packed = tf.nest.pack_sequence_as({"b": [0, 0], "a": 0}, [1, 2, 3])
    assert packed == {"b": [2, 3], "a": 1} and list(packed) == ["b", "a"]  # its own key order
    assert tf.nest.pack_sequence_as(P(0, (0, 0)), ["a", "b", "c"]) == P("a", ("b", "c"))
    assert tf.nest.pack_sequence_as(0, [7]) == 7
    with pytest.raises(ValueError, match=r"^Could not pack sequence. Structure had 2 atoms, but "
                       r"flat_sequence had 3 items.  Structure: \[0, 0\], flat_sequence: "
                       r"\[1, 2, 3\].$"):
        tf.nest.pack_sequence_as([0, 0], [1, 2, 3])
    with pytest.raises(ValueError, match="However the input is a sequence"):
        tf.nest.pack_sequence_as(0, [1, 2])
    with pytest.raises(TypeError, match="^Attempted to pack value:\n  5\ninto a structure, but "
                       "found incompatible type `<class 'int'>` instead.$"):
        tf.nest.pack_sequence_as([0], 5)


def test_map_structure_and_is_nested():
    add = tf.nest.map_structure(lambda a, b: a + b, {"x": 1, "y": [2]}, {"y": [20], "x": 10})
    assert add == {"x": 11, "y": [22]}
    assert tf.nest.map_structure(lambda a: a * 2, (1, [2, {"k": 3}])) == (2, [4, {"k": 6}])
    assert tf.nest.map_structure(lambda a, b: a + b, [1, 2], (1, 2), check_types=False) == [2, 4]
    with pytest.raises(TypeError, match="don't have the same sequence type"):
        tf.nest.map_structure(lambda a, b: a + b, [1, 2], (1, 2))
    assert [tf.nest.is_nested(x) for x in ([1], "ab", {"a": 1}, None)] == [
        True, False, True, False]


def test_assert_same_structure_messages():
    with pytest.raises(ValueError) as err:
        tf.nest.assert_same_structure([1, 2], [3])
    assert str(err.value) == (
        "The two structures don't have the same nested structure.\n\nFirst structure: "
        "type=list str=[1, 2]\n\nSecond structure: type=list str=[3]\n\nMore specifically: The "
        "two structures don't have the same number of elements. First structure: type=list "
        "str=[1, 2]. Second structure: type=list str=[3]\nEntire first structure:\n[., .]\n"
        "Entire second structure:\n[.]")
    with pytest.raises(ValueError) as err:
        tf.nest.assert_same_structure([1, 2], [[3], [4], 5])
    assert 'More specifically: Substructure "type=list str=[3]" is a sequence, while ' \
        'substructure "type=int str=1" is not\nEntire first structure:\n[., .]\nEntire ' \
        'second structure:\n[[.], [.], .]' in str(err.value)
    with pytest.raises(ValueError, match="The two dictionaries don't have the same set of keys. "
                       r"First structure has keys type=list str=\['a'\], while second structure "
                       r"has keys type=list str=\['a', 'b'\]"):
        tf.nest.assert_same_structure({"a": 1}, {"a": 1, "b": 2})
    with pytest.raises(TypeError, match="has type list, while second structure type=tuple"):
        tf.nest.assert_same_structure([1, 2], (3, 4))
    tf.nest.assert_same_structure({"a": 1}, {"b": 1}, check_types=False)
    tf.nest.assert_same_structure(P(1, 2), P(3, 4))
    tf.nest.assert_same_structure(1, "abc")
