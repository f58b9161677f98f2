"""``fit`` on float64 data (NumPy arrays or a Dataset), then on float32 data, as Keras 3:
NumPy floats are cast to ``floatx()``; a Dataset of other dtypes traces the step again."""

from __future__ import annotations

import numpy as np

import tfgraph_edu as tf


def _model():
    m = tf.keras.Sequential([tf.keras.Input((1,)),
                             tf.keras.layers.Dense(1, kernel_initializer="ones")])
    m.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse", metrics=["mae"])
    return m


def _history(h):
    return {k: np.array(v) for k, v in h.history.items()}


def test_fit_float64_then_float32_arrays_and_datasets():
    x = np.linspace(0, 1, 16).reshape(-1, 1)
    y = 3 * x + 1
    m = _model()
    h1 = m.fit(x, y, epochs=2, verbose=0, batch_size=8, shuffle=False)
    h2 = m.fit(x.astype(np.float32), y.astype(np.float32), epochs=2, verbose=0, batch_size=8,
               shuffle=False)
    ds64 = tf.data.Dataset.from_tensor_slices((x, y)).batch(8)
    ds32 = tf.data.Dataset.from_tensor_slices((x.astype(np.float32), y.astype(np.float32))
                                              ).batch(8)
    h3 = m.fit(ds64, epochs=1, verbose=0)
    h4 = m.fit(ds32, epochs=1, verbose=0)
    # recorded from TF 2.21 (Keras 3), the same calls
    expected = [
        {"loss": [3.542337, 1.138519], "mae": [1.823519, 0.9819]},
        {"loss": [0.419381, 0.204152], "mae": [0.538381, 0.372325]},
        {"loss": [0.13805332779884338], "mae": [0.3168782889842987]},
        {"loss": [0.11533403396606445], "mae": [0.29795852303504944]},
    ]
    for h, want in zip((h1, h2, h3, h4), expected):
        got = _history(h)
        for k, v in want.items():
            np.testing.assert_allclose(got[k], v, rtol=2e-5)
    assert [w.dtype.name for w in m.weights] == ["float32", "float32"]
    np.testing.assert_allclose([w.numpy().ravel()[0] for w in m.weights],
                               [2.0370028018951416, 1.5052001476287842], rtol=2e-5)
    assert m.predict(x[:2], verbose=0).dtype == np.float32
    np.testing.assert_allclose(m.evaluate(ds64, verbose=0),
                               [0.08814609795808792, 0.25679922103881836], rtol=2e-5)
