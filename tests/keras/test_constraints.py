"""``tf.keras.constraints``: each constraint's projection, config and lookup; expected values
recorded from TF 2.21."""

from __future__ import annotations

import numpy as np
import pytest

import tfgraph_edu as tf

C = tf.keras.constraints
W = [[3.0, 0.5], [4.0, 0.5]]


def _close(a, b):
    np.testing.assert_allclose(np.asarray(a), b, rtol=1e-6, atol=1e-7)


def test_projections():
    _close(C.MaxNorm(max_value=2, axis=0)(tf.constant(W)),
           [[1.2000000476837158, 0.49999991059303284], [1.600000023841858, 0.49999991059303284]])
    _close(C.MaxNorm(max_value=2, axis=1)(tf.constant(W)),
           [[1.972787857055664, 0.32879796624183655], [1.984555721282959, 0.24806946516036987]])
    out = C.NonNeg()(tf.constant([-1.0, 0.0, 2.0])).numpy()
    assert out.tolist() == [0.0, 0.0, 2.0] and not np.signbit(out[0])  # 0.0, not -0.0
    _close(C.UnitNorm(axis=0)(tf.constant(W)),
           [[0.6000000238418579, 0.7071066498756409], [0.800000011920929, 0.7071066498756409]])
    small = tf.constant([[3.0, 0.1], [4.0, 0.1]])
    _close(C.MinMaxNorm(min_value=0.5, max_value=1.0, rate=1.0, axis=0)(small),
           [[0.6000000238418579, 0.3535531163215637], [0.800000011920929, 0.3535531163215637]])
    _close(C.MinMaxNorm(min_value=0.5, max_value=1.0, rate=0.5, axis=0)(small),
           [[1.8000000715255737, 0.22677652537822723],
            [2.4000000953674316, 0.22677652537822723]])


def test_projection_inside_a_function():
    f = tf.function(lambda w: C.MaxNorm(max_value=2, axis=0)(w))
    _close(f(tf.constant(W)), [[1.2000000476837158, 0.49999991059303284],
                               [1.600000023841858, 0.49999991059303284]])


def test_configs_lookup_and_serialization():
    assert C.MaxNorm(3, axis=[0, 1]).get_config() == {"max_value": 3, "axis": [0, 1]}
    assert C.MinMaxNorm().get_config() == {"min_value": 0.0, "max_value": 1.0, "rate": 1.0,
                                           "axis": 0}
    assert C.UnitNorm().get_config() == {"axis": 0} and C.NonNeg().get_config() == {}
    assert type(C.get("non_neg")).__name__ == "NonNeg"
    assert type(C.get("max_norm")).__name__ == "MaxNorm" and C.get(None) is None
    assert C.serialize(C.MaxNorm(max_value=2, axis=0)) == {
        "module": "keras.constraints", "class_name": "MaxNorm",
        "config": {"max_value": 2, "axis": 0}, "registered_name": None}
    back = C.deserialize(C.serialize(C.UnitNorm(axis=1)))
    assert type(back).__name__ == "UnitNorm" and back.axis == 1
    assert C.max_norm is C.MaxNorm and C.non_neg is C.NonNeg
    w = tf.constant(W)
    assert C.Constraint()(w) is w
    with pytest.raises(ValueError, match="Could not interpret constraint identifier: nope"):
        C.get("nope")


def test_the_course_import_line():
    # eat_tensorflow2_in_30_days 5-5 imports it beside layers and regularizers
    from tfgraph_edu.keras import constraints, layers, regularizers  # noqa: F401
    assert constraints is C
