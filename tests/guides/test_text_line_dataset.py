"""``tf.data.TextLineDataset`` (the customization basics and data guides read a CSV file they
write) and strings from ``as_numpy_iterator`` (bytes, as TF gives them).  Every expected value
was recorded once from TensorFlow 2.21.0 running the same program."""

import gzip

import pytest

import tfgraph_edu as tf


@pytest.fixture
def files(tmp_path):
    (tmp_path / "a.csv").write_bytes(b"x,y\n1,2\r\n3,4\n\n5,6")
    with gzip.open(tmp_path / "b.gz", "wb") as f:
        f.write(b"g1\ng2\n")
    return tmp_path


def test_lines_without_their_endings(files):
    ds = tf.data.TextLineDataset(str(files / "a.csv"))
    assert repr(ds) == ("<TextLineDatasetV2 element_spec=TensorSpec(shape=(), "
                        "dtype=tf.string, name=None)>")
    lines = list(ds.as_numpy_iterator())
    assert lines == [b"x,y", b"1,2", b"3,4", b"", b"5,6"]
    assert all(type(x) is bytes for x in lines)  # TF 2.21: bytes, not numpy.bytes_
    assert int(ds.cardinality()) == -2
    assert [t.numpy() for t in ds.take(2)] == [b"x,y", b"1,2"]


def test_several_files_and_gzip(files):
    both = tf.data.TextLineDataset([str(files / "a.csv"), str(files / "a.csv")])
    assert [t.numpy() for t in both.skip(4).take(3)] == [b"5,6", b"x,y", b"1,2"]
    gz = tf.data.TextLineDataset([str(files / "b.gz")], compression_type="GZIP")
    assert list(gz.as_numpy_iterator()) == [b"g1", b"g2"]


def test_a_missing_file_fails_when_read(files):
    ds = tf.data.TextLineDataset(str(files / "nope.txt"))  # no error yet, as in TF
    with pytest.raises(tf.errors.NotFoundError):
        list(ds)


def test_string_slices_as_numpy_are_bytes():
    out = list(tf.data.Dataset.from_tensor_slices(["a", "bc"]).as_numpy_iterator())
    assert out == [b"a", b"bc"] and repr(out) == "[b'a', b'bc']"  # TF 2.21's repr
