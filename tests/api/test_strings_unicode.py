"""tf.strings.unicode_encode / unicode_transcode, and unicode_decode / unicode_split's
``errors``, ``replacement_char`` and encodings, against TensorFlow 2.21: every value and
message below was printed by TF 2.21 (run once)."""

from __future__ import annotations

import pytest

import tfgraph_edu as tf

IAE = tf.errors.InvalidArgumentError


def _list(t):
    return t.numpy().tolist()


def test_unicode_encode():
    r = tf.strings.unicode_encode([104, 105, 26085], "UTF-8")
    assert r.shape == () and r.numpy() == b"hi\xe6\x97\xa5"
    assert _list(tf.strings.unicode_encode(tf.constant([[104, 105], [26085, 33]]), "UTF-8")) \
        == [b"hi", b"\xe6\x97\xa5!"]
    assert _list(tf.strings.unicode_encode(tf.constant([[[104, 105]], [[106, 107]]]),
                                           "UTF-8")) == [[b"hi"], [b"jk"]]
    assert tf.strings.unicode_encode([104, 26085], "UTF-16-BE").numpy() == b"\x00he\xe5"
    # bad code points: replaced (U+FFFD or the given char), dropped, or refused
    assert tf.strings.unicode_encode([104, 0x110000], "UTF-8").numpy() == b"h\xef\xbf\xbd"
    assert tf.strings.unicode_encode([104, 0xD800, -1], "UTF-8",
                                     replacement_char=63).numpy() == b"h??"
    assert tf.strings.unicode_encode([104, 0x110000], "UTF-8", errors="ignore").numpy() == b"h"
    with pytest.raises(IAE, match="Code point is out of range for Unicode, or is a surrogate."):
        tf.strings.unicode_encode([104, 0x110000], "UTF-8", errors="strict")
    with pytest.raises(IAE, match=r"cannot compute UnicodeEncode as input #0\(zero-based\) was "
                       "expected to be a int32 tensor but is a float tensor"):
        tf.strings.unicode_encode([], "UTF-8")


def test_unicode_encode_in_function():
    f = tf.function(lambda x: tf.strings.unicode_encode(x, "UTF-8"))
    assert f(tf.constant([104, 105])).numpy() == b"hi"
    assert _list(f(tf.constant([[104, 105], [106, 107]]))) == [b"hi", b"jk"]
    ops = [n.op for n in f.get_concrete_function(
        tf.TensorSpec([2, 2], tf.int32)).graph.as_graph_def().node]
    assert "UnicodeEncode" in ops


def test_unicode_transcode():
    assert _list(tf.strings.unicode_transcode(["héllo", "日本"], "UTF-8", "UTF-16-BE")) == [
        b"\x00h\x00\xe9\x00l\x00l\x00o", b"e\xe5g,"]
    assert tf.strings.unicode_transcode("abc", "UTF-8", "UTF-32-BE").numpy() == \
        b"\x00\x00\x00a\x00\x00\x00b\x00\x00\x00c"
    assert _list(tf.strings.unicode_transcode([b"a\xffb"], "UTF-8", "UTF-8")) == [
        b"a\xef\xbf\xbdb"]
    assert _list(tf.strings.unicode_transcode([b"a\xffb"], "UTF-8", "UTF-8",
                                              errors="ignore")) == [b"ab"]
    assert tf.strings.unicode_transcode(b"a\xe6\x97\xffb", "UTF-8", "UTF-8",
                                        replacement_char=63).numpy() == b"a??b"
    assert tf.strings.unicode_transcode(b"a\x02\xef\xbf\xbd", "UTF-8", "UTF-8",
                                        replace_control_characters=True).numpy() == \
        b"a\xef\xbf\xbd\xef\xbf\xbd"
    assert tf.strings.unicode_transcode(b"a\xe9", "ISO-8859-1", "UTF-8").numpy() == b"a\xc3\xa9"
    with pytest.raises(IAE, match="Invalid formatting on input string"):
        tf.strings.unicode_transcode([b"a\xffb"], "UTF-8", "UTF-8", errors="strict")


def test_unicode_transcode_in_function():
    f = tf.function(lambda x: tf.strings.unicode_transcode(x, "UTF-8", "UTF-16-BE"))
    assert _list(f(tf.constant(["hé"]))) == [b"\x00h\x00\xe9"]
    g = tf.function(lambda x: tf.strings.unicode_transcode(x, "UTF-8", "UTF-16-LE"))
    with pytest.raises(ValueError, match="Attr 'output_encoding' of 'UnicodeTranscode' Op passed "
                       "string 'UTF-16-LE' not in: \"UTF-8\", \"UTF-16-BE\", \"UTF-32-BE\"."):
        g(tf.constant(["hé"]))


def test_unicode_decode_and_split_errors():
    assert _list(tf.strings.unicode_decode(b"a\xffb", "UTF-8")) == [97, 65533, 98]
    assert _list(tf.strings.unicode_decode(b"a\xffb\xe6\x97", "UTF-8", errors="ignore")) == [
        97, 98]
    assert _list(tf.strings.unicode_decode(b"a\xffb\xe6\x97", "UTF-8",
                                           replacement_char=63)) == [97, 63, 98, 63]
    with pytest.raises(IAE, match="Invalid formatting on input string"):
        tf.strings.unicode_decode(b"a\xffb", "UTF-8", errors="strict")
    # a real U+FFFD stays; a control character becomes the replacement
    assert _list(tf.strings.unicode_decode(b"a\x01b\xef\xbf\xbd", "UTF-8",
                                           replace_control_characters=True,
                                           replacement_char=42)) == [97, 42, 98, 65533]
    # an encoded surrogate is three bad bytes
    assert _list(tf.strings.unicode_decode(b"\xf0\x9f\x98\x80\xed\xa0\x80x", "UTF-8")) == [
        128512, 65533, 65533, 65533, 120]
    assert _list(tf.strings.unicode_decode("hé", "UTF-16-BE")) == [26819, 65533]
    assert _list(tf.strings.unicode_split(b"a\xffb", "UTF-8")) == [b"a", b"\xef\xbf\xbd", b"b"]
    assert _list(tf.strings.unicode_split(b"x\xe6\x97", "UTF-8", replacement_char=63)) == [
        b"x", b"?"]
    assert _list(tf.strings.unicode_split("日本", "UTF-16-BE")) == [
        b"\xe6\x97", b"\xa5\xe6", b"\x9c\xac"]
