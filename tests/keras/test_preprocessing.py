"""``tf.keras.preprocessing`` and ``tf.keras.utils.pad_sequences``; expected values recorded
from TF 2.21 with Keras 3 (the same calls run under real TensorFlow)."""

import numpy as np
import pytest

import tfgraph_edu as tf


def test_pad_sequences_as_tf():
    ps = tf.keras.preprocessing.sequence.pad_sequences
    assert tf.keras.utils.pad_sequences is ps
    seqs = [[1, 2, 3], [4, 5], [6]]
    # recorded from TF 2.21
    out = ps(seqs)
    assert out.dtype == np.int32 and out.tolist() == [[1, 2, 3], [0, 4, 5], [0, 0, 6]]
    assert ps(seqs, maxlen=2).tolist() == [[2, 3], [4, 5], [0, 6]]
    assert ps(seqs, padding="post", truncating="post", maxlen=2, value=-1).tolist() == \
        [[1, 2], [4, 5], [6, -1]]
    f = ps([[1.5, 2], [3]], dtype="float32")
    assert f.dtype == np.float32 and f.tolist() == [[1.5, 2.0], [0.0, 3.0]]
    assert ps([[1, 2], [3]], maxlen=4).tolist() == [[0, 0, 1, 2], [0, 0, 0, 3]]
    assert ps([[1, 2], []]).tolist() == [[1, 2], [0, 0]]
    s = ps([["a", "bb"], ["c"]], dtype=object, value="")
    assert s.dtype == object and s.tolist() == [["a", "bb"], ["", "c"]]
    m = ps([np.array([[1, 2], [3, 4]]), np.array([[5, 6]])])
    assert m.shape == (2, 2, 2) and m.tolist() == [[[1, 2], [3, 4]], [[0, 0], [5, 6]]]


def test_pad_sequences_errors_as_tf():
    ps = tf.keras.utils.pad_sequences
    # recorded from TF 2.21
    with pytest.raises(ValueError, match='Padding type "mid" not understood'):
        ps([[1, 2], [3]], padding="mid")
    with pytest.raises(ValueError, match='Truncating type "mid" not understood'):
        ps([[1, 2], [3]], truncating="mid", maxlen=1)
    with pytest.raises(ValueError, match="invalid literal for int"):
        ps([["a", "bb"], ["c"]])
    with pytest.raises(ValueError, match="zero-size array"):
        ps([])


def test_image_data_generator_and_missing_names():
    gen = tf.keras.preprocessing.image.ImageDataGenerator(rescale=1. / 255, rotation_range=20)
    assert gen.rescale == 1. / 255 and gen.rotation_range == 20
    with pytest.raises(NotImplementedError, match="flow_from_directory"):
        gen.flow_from_directory("photos")
    # TF 2.21's Keras has these; tfgraph_edu says it lacks them
    with pytest.raises(AttributeError, match="TF 2.21 has tf.keras.preprocessing.text."
                                             "Tokenizer"):
        _ = tf.keras.preprocessing.text.Tokenizer
    with pytest.raises(AttributeError, match="TF 2.21 has tf.keras.preprocessing."
                                             "timeseries_dataset_from_array"):
        _ = tf.keras.preprocessing.timeseries_dataset_from_array
    with pytest.raises(AttributeError, match="has no attribute 'nothing'$"):
        _ = tf.keras.preprocessing.sequence.nothing


def test_the_namespace_holds_its_modules_only():
    # as in TF 2.21: pad_sequences lives in .sequence (and keras.utils), not at the top
    assert sorted(n for n in dir(tf.keras.preprocessing) if not n.startswith("_")) == [
        "image", "sequence", "text"]
    with pytest.raises(AttributeError, match="has no attribute 'pad_sequences'$"):
        _ = tf.keras.preprocessing.pad_sequences
