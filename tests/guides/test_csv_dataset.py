"""``tf.data.experimental.CsvDataset`` (the data guide, issue 25).

Every expected text and value was recorded once from TensorFlow 2.21's run."""

import pytest

import tfgraph_edu as tf


@pytest.fixture
def missing(tmp_path):
    path = tmp_path / "missing.csv"
    path.write_text("1,2,3,4\n,2,3,4\n1,,3,4\n1,2,,4\n1,2,3,\n,,,\n")
    return str(path)


def test_defaults_fill_empty_fields(missing):
    ds = tf.data.experimental.CsvDataset(missing, [999, 999, 999, 999])
    assert repr(ds) == ("<CsvDatasetV2 element_spec=(" + ", ".join(
        ["TensorSpec(shape=(), dtype=tf.int32, name=None)"] * 4) + ")>")
    rows = [x.numpy().tolist() for x in ds.map(lambda *items: tf.stack(items))]
    assert rows == [[1, 2, 3, 4], [999, 2, 3, 4], [1, 999, 3, 4], [1, 2, 999, 4],
                    [1, 2, 3, 999], [999, 999, 999, 999]]
    picked = tf.data.experimental.CsvDataset(missing, [999, 999], select_cols=[1, 3])
    assert [x.numpy().tolist() for x in picked.map(lambda *items: tf.stack(items))] == [
        [2, 4], [2, 4], [999, 4], [2, 4], [2, 999], [999, 999]]


def test_header_quotes_required_fields_and_missing_file(tmp_path, missing):
    path = tmp_path / "h.csv"
    path.write_text('a,b\n1.5,"x,y"\n2,z\n')
    ds = tf.data.experimental.CsvDataset(str(path), [tf.float32, tf.string], header=True)
    assert repr(ds.element_spec) == ("(TensorSpec(shape=(), dtype=tf.float32, name=None), "
                                     "TensorSpec(shape=(), dtype=tf.string, name=None))")
    assert [(float(a.numpy()), b.numpy()) for a, b in ds] == [(1.5, b"x,y"), (2.0, b"z")]
    required = tf.data.experimental.CsvDataset(missing, [tf.int32, 999, 999, 999])
    with pytest.raises(tf.errors.InvalidArgumentError) as info:  # TF: on the second record
        list(required)
    assert "Field 0 is required but missing in record!" in str(info.value)
    with pytest.raises(tf.errors.NotFoundError):  # TF: when iterated
        list(tf.data.experimental.CsvDataset(str(tmp_path / "nope.csv"), [1]))
