"""Edge routes made in this process (viz/routing.py): around the boxes in the way, from the
tail's outline to an arrowhead ending on the head's outline."""

from __future__ import annotations

import numpy as np

from tfgraph_edu.viz import routing
from tfgraph_edu.viz.stable import _controls, _hit_rows


def _parts(pos: str):
    tokens = pos.split()
    assert tokens[0].startswith("e,")
    tip = np.array([float(v) for v in tokens[0][2:].split(",")])
    return tip, _controls(pos)


def test_a_free_straight_way_is_a_straight_line_from_outline_to_outline():
    pos = routing.route((0.0, 100.0, 60.0, 20.0), (0.0, 0.0, 60.0, 20.0), np.zeros((0, 4)))
    tip, points = _parts(pos)
    assert len(points) == 4 and (len(points) - 1) % 3 == 0
    assert np.allclose(points[0], [0.0, 90.0]) and np.allclose(tip, [0.0, 10.0])
    # the arrowhead is ARROW points long: the line ends that far before the tip
    assert np.isclose(np.hypot(*(tip - points[-1])), routing.ARROW)


def test_a_box_in_the_way_is_gone_around_with_the_margin():
    wall = np.array([[-40.0, 40.0, 40.0, 60.0]])  # straight across the way down
    pos = routing.route((0.0, 100.0, 60.0, 20.0), (0.0, 0.0, 60.0, 20.0), wall)
    tip, points = _parts(pos)
    assert (len(points) - 1) % 3 == 0
    assert not len(_hit_rows(points, wall + [-4.0, -4.0, 4.0, 4.0]))  # keeps ~MARGIN off
    assert np.isclose(tip[1], 10.0) and -30.0 <= tip[0] <= 30.0  # on the head's top side
    assert points[0][1] <= 90.0 + 1e-6  # from the tail's outline


def test_no_way_out_gives_none():
    box = np.array([[-100.0, 80.0, 100.0, 85.0], [-100.0, 115.0, 100.0, 120.0],
                    [-100.0, 80.0, -90.0, 120.0], [90.0, 80.0, 100.0, 120.0]])  # a closed box
    assert routing.route((0.0, 100.0, 20.0, 10.0), (0.0, 0.0, 20.0, 10.0), box) is None


def test_an_ellipse_is_left_on_its_outline():
    pos = routing.route((0.0, 100.0, 60.0, 20.0), (0.0, 0.0, 60.0, 20.0), np.zeros((0, 4)),
                        ellipses=(True, True))
    tip, points = _parts(pos)
    assert np.allclose(points[0], [0.0, 90.0]) and np.allclose(tip, [0.0, 10.0])
    pos = routing.route((0.0, 0.0, 60.0, 20.0), (100.0, 100.0, 20.0, 20.0), np.zeros((0, 4)),
                        ellipses=(True, False))
    _, points = _parts(pos)
    x, y = points[0]
    assert abs((x / 30.0) ** 2 + (y / 10.0) ** 2 - 1.0) < 0.01  # on the ellipse, not its box
