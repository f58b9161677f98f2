"""``tf.linalg.svd`` gives TF 2.21's singular vectors, signs included, for real matrices of
fewer than 16 columns (TF's CPU kernel runs a Jacobi SVD there: ``ops/jacobi_svd.py``).
Every expected value is recorded from TF 2.21 (``tf.linalg.svd`` on the same matrices)."""

from __future__ import annotations

import numpy as np
import pytest

import tfgraph_edu as tf

A = np.array([[1., 2], [3, 4], [5, 6]], np.float32)  # eat_tensorflow2_in_30_days 4-2
W = np.array([[1., -2, 3], [0.5, 4, -1]], np.float64)
S = np.array([[2., -1, 0], [-1, 2, -1], [0, -1, 2.5]], np.float32)

# recorded from TF 2.21: (matrix, full_matrices) -> (s, u, v)
RECORDED = {
    ("A", False): ([9.525518417358398, 0.5142998695373535],
                   [[0.2298477441072464, -0.8834608197212219],
                    [0.5247448682785034, -0.24078290164470673],
                    [0.8196420669555664, 0.401896208524704]],
                   [[0.6196295619010925, 0.7848944664001465],
                    [0.7848944664001465, -0.6196295619010925]]),
    ("A", True): ([9.525518417358398, 0.5142998695373535],
                  [[0.2298477441072464, -0.8834608197212219, 0.4082486629486084],
                   [0.5247448682785034, -0.24078290164470673, -0.8164964318275452],
                   [0.8196420669555664, 0.401896208524704, 0.4082481265068054]],
                  [[0.6196295619010925, 0.7848944664001465],
                   [0.7848944664001465, -0.6196295619010925]]),
    ("W", False): ([5.123475382979798, 2.2360679774997894],
                   [[0.6507913734559685, 0.7592566023652965],
                    [-0.7592566023652965, 0.6507913734559685]],
                   [[0.052925612402496325, 0.4850712500726658],
                    [-0.8468097984399411, 0.4850712500726657],
                    [0.529256124024963, 0.7276068751089991]]),
    ("W", True): ([5.123475382979798, 2.2360679774997894],
                  [[0.6507913734559685, 0.7592566023652965],
                   [-0.7592566023652965, 0.6507913734559685]],
                  [[0.052925612402496325, 0.4850712500726658, -0.8728715609439697],
                   [-0.8468097984399411, 0.4850712500726657, 0.21821789023599236],
                   [0.529256124024963, 0.7276068751089991, 0.4364357804719846]]),
    ("S", False): ([3.5706677436828613, 2.242431163787842, 0.6869010925292969],
                   [[0.4218589663505554, -0.7170934677124023, 0.5548080801963806],
                    [-0.6626005172729492, 0.17384569346904755, 0.7285178303718567],
                    [0.6188663244247437, 0.67494797706604, 0.40180811285972595]],
                   [[0.4218589961528778, -0.7170934081077576, 0.5548080205917358],
                    [-0.6626005172729492, 0.17384570837020874, 0.7285178303718567],
                    [0.6188663244247437, 0.6749479174613953, 0.4018080532550812]]),
}
MATRICES = {"A": A, "W": W, "S": S}


@pytest.mark.parametrize("key", sorted(RECORDED, key=str))
@pytest.mark.parametrize("graph", [False, True])
def test_svd_matches_tf_signs_included(key, graph):
    name, full = key
    a = MATRICES[name]

    def run(x):
        return tf.linalg.svd(x, full_matrices=full)
    s, u, v = (tf.function(run) if graph else run)(tf.constant(a))
    want_s, want_u, want_v = RECORDED[key]
    tol = 2e-6 if a.dtype == np.float32 else 1e-12
    assert s.dtype.name == u.dtype.name == v.dtype.name == a.dtype.name
    np.testing.assert_allclose(s.numpy(), want_s, rtol=tol * 10, atol=tol * 10)
    np.testing.assert_allclose(u.numpy(), want_u, atol=tol * 10)
    np.testing.assert_allclose(v.numpy(), want_v, atol=tol * 10)
    # still a decomposition of a
    k = len(want_s)
    np.testing.assert_allclose(u.numpy()[:, :k] * s.numpy() @ v.numpy()[:, :k].T, a,
                               atol=tol * 100)


def test_a_batch_and_singular_values_only():
    batch = np.stack([A, A[::-1], -A])
    s, u, v = tf.linalg.svd(batch)
    np.testing.assert_allclose(u.numpy()[0], RECORDED[("A", False)][1], atol=2e-5)
    np.testing.assert_allclose(s.numpy(), np.linalg.svd(batch, compute_uv=False), rtol=2e-6)
    only = tf.linalg.svd(batch, compute_uv=False)
    np.testing.assert_allclose(only.numpy(), s.numpy(), rtol=2e-6)
    np.testing.assert_allclose(np.einsum("bik,bk,bjk->bij", u.numpy(), s.numpy(), v.numpy()),
                               batch, atol=1e-5)
