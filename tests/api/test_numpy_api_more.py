"""More of tf.experimental.numpy: each case against the value TF 2.21 gave (recorded from
TF 2.21 by running the same lambdas in /work/main/.venv-tf with NumPy behaviour on), eagerly
and inside tf.function."""

import numpy as np
import pytest

import tfgraph_edu as tf
from tfgraph_edu._api import numpy_api

tnp = tf.experimental.numpy

m = tf.constant([[1, 2, 3], [4, 5, 6]])
v = tf.constant([3., 1., 2.])

CASES = {
    "atleast_1d": lambda: tnp.atleast_1d(5),
    "atleast_2d": lambda: tnp.atleast_2d([1, 2]),
    "atleast_3d": lambda: tnp.atleast_3d([1, 2]).shape.as_list(),
    "atleast_3d m": lambda: tnp.atleast_3d(m).shape.as_list(),
    "vstack": lambda: tnp.vstack([[1, 2], [3, 4]]),
    "hstack": lambda: tnp.hstack([[1, 2], [3.]]),
    "hstack2": lambda: tnp.hstack([m, m]),
    "dstack": lambda: tnp.dstack([[1, 2], [3, 4]]),
    "append": lambda: tnp.append(m, [7, 8]),
    "append ax": lambda: tnp.append(m, [[7, 8, 9]], axis=0),
    "tile": lambda: tnp.tile([1, 2], 2),
    "tile2": lambda: tnp.tile([1, 2], (2, 1)),
    "tile3": lambda: tnp.tile(m, 2),
    "flip": lambda: tnp.flip(m),
    "flip0": lambda: tnp.flip(m, 0),
    "fliplr": lambda: tnp.fliplr(m),
    "flipud": lambda: tnp.flipud(m),
    "roll": lambda: tnp.roll(m, 1),
    "roll ax": lambda: tnp.roll(m, -1, axis=1),
    "swapaxes": lambda: tnp.swapaxes(m, 0, 1),
    "moveaxis": lambda: tnp.moveaxis(tnp.zeros([2, 3, 4]), 0, -1).shape.as_list(),
    "moveaxis2": lambda: tnp.moveaxis(tnp.zeros([2, 3, 4]), [0, 1], [2, 0]).shape.as_list(),
    "sort": lambda: tnp.sort(v),
    "sort m": lambda: tnp.sort(tf.constant([[3, 1], [0, 2]]), axis=0),
    "sort none": lambda: tnp.sort(tf.constant([[3, 1], [0, 2]]), axis=None),
    "argsort": lambda: tnp.argsort(v),
    "take": lambda: tnp.take(m, [4, 0]),
    "take ax": lambda: tnp.take(m, [2, 0], axis=1),
    "split": lambda: tnp.split(tnp.arange(6), 3),
    "split idx": lambda: tnp.split(tnp.arange(6), [1, 4]),
    "outer": lambda: tnp.outer([1, 2], [3., 4.]),
    "inner": lambda: tnp.inner([1, 2], [3, 4]),
    "inner m": lambda: tnp.inner(m, m),
    "einsum": lambda: tnp.einsum("ij,kj->ik", m, m),
    "count_nonzero": lambda: tnp.count_nonzero([[0, 1], [2, 0]]),
    "count_nonzero ax": lambda: tnp.count_nonzero([[0, 1], [2, 0]], axis=0),
    "isnan": lambda: tnp.isnan([1., np.nan]),
    "isnan int": lambda: tnp.isnan([1, 2]),
    "log2": lambda: tnp.log2(8),
    "log10": lambda: tnp.log10(tf.constant([100., 1000.])),
    "around": lambda: tnp.around([0.5, 1.5, 2.5, 1.2345]),
    "around2": lambda: tnp.around([1.2345, 2.675], 2),
    "around int": lambda: tnp.around(m),
    "round": lambda: tnp.round(2.5),
    "fabs": lambda: tnp.fabs([-1, 2]),
    "positive": lambda: tnp.positive(m),
    "logical_xor": lambda: tnp.logical_xor([True, False], [True, True]),
    "meshgrid": lambda: tnp.meshgrid([1, 2, 3], [4, 5]),
    "meshgrid ij": lambda: tnp.meshgrid([1, 2, 3], [4, 5], indexing="ij"),
    "pad2": lambda: tnp.pad(m, [[0, 1], [2, 0]], "constant", constant_values=9),
    "average": lambda: tnp.average(m),
    "average w": lambda: tnp.average(m, axis=1, weights=[1, 0, 1]),
    "average w all": lambda: tnp.average([1., 2.], weights=[3., 1.]),
    "ptp": lambda: tnp.ptp(m),
    "ptp ax": lambda: tnp.ptp(m, axis=1),
    "diff": lambda: tnp.diff([1, 4, 9, 16]),
    "diff2": lambda: tnp.diff(m, axis=0),
    "diff n2": lambda: tnp.diff([1, 4, 9, 16], n=2),
    "diag v": lambda: tnp.diag([1, 2]),
    "diag m": lambda: tnp.diag(m),
    "trace": lambda: tnp.trace(tf.constant([[1, 2], [3, 4]])),
    "nonzero": lambda: tnp.nonzero([[0, 1], [2, 0]]),
    "isscalar": lambda: (tnp.isscalar(3), tnp.isscalar([3]), bool(tnp.isscalar(tf.constant(3)))),
    "iscomplexobj": lambda: (tnp.iscomplexobj(m), tnp.isrealobj(m)),
}

# recorded from TF 2.21
EXPECTED = {
    'atleast_1d': ('int64', [5]),
    'atleast_2d': ('int64', [[1, 2]]),
    'atleast_3d': [1, 2, 1],
    'atleast_3d m': [2, 3, 1],
    'vstack': ('int64', [[1, 2], [3, 4]]),
    'hstack': ('float64', [1.0, 2.0, 3.0]),
    'hstack2': ('int32', [[1, 2, 3, 1, 2, 3], [4, 5, 6, 4, 5, 6]]),
    'dstack': ('int64', [[[1, 3], [2, 4]]]),
    'append': ('int64', [1, 2, 3, 4, 5, 6, 7, 8]),
    'append ax': ('int32', [[1, 2, 3], [4, 5, 6], [7, 8, 9]]),
    'tile': ('int64', [1, 2, 1, 2]),
    'tile2': ('int64', [[1, 2], [1, 2]]),
    'tile3': ('int32', [[1, 2, 3, 1, 2, 3], [4, 5, 6, 4, 5, 6]]),
    'flip': ('int32', [[6, 5, 4], [3, 2, 1]]),
    'flip0': ('int32', [[4, 5, 6], [1, 2, 3]]),
    'fliplr': ('int32', [[3, 2, 1], [6, 5, 4]]),
    'flipud': ('int32', [[4, 5, 6], [1, 2, 3]]),
    'roll': ('int32', [[6, 1, 2], [3, 4, 5]]),
    'roll ax': ('int32', [[2, 3, 1], [5, 6, 4]]),
    'swapaxes': ('int32', [[1, 4], [2, 5], [3, 6]]),
    'moveaxis': [3, 4, 2],
    'moveaxis2': [3, 4, 2],
    'sort': ('float32', [1.0, 2.0, 3.0]),
    'sort m': ('int32', [[0, 1], [3, 2]]),
    'sort none': ('int32', [0, 1, 2, 3]),
    'argsort': ('int64', [1, 2, 0]),
    'take': ('int32', [5, 1]),
    'take ax': ('int32', [[3, 1], [6, 4]]),
    'split': [('int64', [0, 1]), ('int64', [2, 3]), ('int64', [4, 5])],
    'split idx': [('int64', [0]), ('int64', [1, 2, 3]), ('int64', [4, 5])],
    'outer': ('float64', [[3.0, 4.0], [6.0, 8.0]]),
    'inner': ('int64', 11),
    'inner m': ('int32', [[14, 32], [32, 77]]),
    'einsum': ('int32', [[14, 32], [32, 77]]),
    'count_nonzero': ('int64', 2),
    'count_nonzero ax': ('int64', [1, 1]),
    'isnan': ('bool', [False, True]),
    'isnan int': ('bool', [False, False]),
    'log2': ('float64', 3.0),
    'log10': ('float64', [2.0000000277735115, 3.000000041660267]),
    'around': ('float64', [0.0, 2.0, 2.0, 1.0]),
    'around2': ('float64', [1.23, 2.68]),
    'around int': ('int32', [[1, 2, 3], [4, 5, 6]]),
    'round': ('float64', 2.0),
    'fabs': ('int64', [1, 2]),
    'positive': ('int32', [[1, 2, 3], [4, 5, 6]]),
    'logical_xor': ('bool', [False, True]),
    'meshgrid': [('int64', [[1, 2, 3], [1, 2, 3]]), ('int64', [[4, 4, 4], [5, 5, 5]])],
    'meshgrid ij': [('int64', [[1, 1], [2, 2], [3, 3]]), ('int64', [[4, 5], [4, 5], [4, 5]])],
    'pad2': ('int32', [[9, 9, 1, 2, 3], [9, 9, 4, 5, 6], [9, 9, 9, 9, 9]]),
    'average': ('float64', 3.5),
    'average w': ('float64', [2.0, 5.0]),
    'average w all': ('float64', 1.25),
    'ptp': ('int32', 5),
    'ptp ax': ('int32', [2, 2]),
    'diff': ('int64', [3, 5, 7]),
    'diff2': ('int32', [[3, 3, 3]]),
    'diff n2': ('int64', [2, 2]),
    'diag v': ('int64', [[1, 0], [0, 2]]),
    'diag m': ('int32', [1, 5]),
    'trace': ('int32', 5),
    'nonzero': [('int64', [0, 1]), ('int64', [1, 0])],
    'isscalar': [True, False, True],
    'iscomplexobj': [False, True],
}


@pytest.fixture(autouse=True)
def numpy_on():
    tnp.experimental_enable_numpy_behavior()
    yield
    numpy_api._disable_numpy_behavior()


def _plain(r):
    if isinstance(r, list | tuple):
        return [_plain(x) for x in r]
    if isinstance(r, tf.TensorShape):
        return r.as_list()
    if hasattr(r, "numpy"):
        return (r.dtype.name, r.numpy().tolist())
    return r


def _check(got, want):
    if isinstance(want, tuple) and len(want) == 2 and isinstance(want[0], str):
        assert got[0] == want[0]
        np.testing.assert_allclose(np.asarray(got[1], dtype=float),
                                   np.asarray(want[1], dtype=float), rtol=1e-6)
    elif isinstance(want, list) and want and isinstance(want[0], tuple):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            _check(g, w)
    else:
        assert got == want


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_case_eagerly_and_in_function(name):
    want = EXPECTED[name]
    _check(_plain(CASES[name]()), want)
    if name in ("isscalar", "iscomplexobj") or name.startswith(("atleast_3d", "moveaxis")):
        return  # Python values, not tensors
    _check(_plain(tf.function(CASES[name])()), want)


def test_pad_width_as_tf_takes_it():
    # recorded from TF 2.21: a scalar pad_width is refused (paddings must be [rank, 2])
    with pytest.raises(tf.errors.InvalidArgumentError, match="paddings must be a matrix"):
        tnp.pad(m, 1, "constant")
