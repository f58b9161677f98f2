"""Edge routes around boxes, in this process (layer 8).

An edge's route from one node to another that keeps off a few obstacle boxes: the shortest
path through the obstacles' corners (each corner pushed ``margin`` points out) over the
segments that cross no obstacle, its corners rounded, written as Graphviz writes an edge's
``pos`` (cubic Bézier control points, ``e,x,y``: the arrow's tip on the head's outline).
:mod:`.stable` uses it for the edges a toggle changed, with the nodes near each edge as the
obstacles; a Graphviz run per edge cost ten times as much (mostly starting the program).
Coordinates in points, y up, boxes as (x0, y0, x1, y1).
"""

from __future__ import annotations

import numpy as np

__all__ = ["route"]

MARGIN = 6.0  # points kept between a route and an obstacle's box
ROUND = 8.0  # points: how far a corner's rounding reaches along each of its legs
ARROW = 10.0  # points: the length of an arrowhead of arrowsize 1


def _blocked(a: np.ndarray, b: np.ndarray, rects: np.ndarray) -> np.ndarray:
    """Per segment ``a[k] -> b[k]``: whether it passes through the inside of any of ``rects``
    (slab test, on the pairs whose boxes overlap; touching an outline is not passing
    through)."""
    out = np.zeros(len(a), dtype=bool)
    if not len(rects) or not len(a):
        return out
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    seg, box = np.nonzero((lo[:, None, 0] < rects[None, :, 2])
                          & (hi[:, None, 0] > rects[None, :, 0])
                          & (lo[:, None, 1] < rects[None, :, 3])
                          & (hi[:, None, 1] > rects[None, :, 1]))
    if not len(seg):
        return out
    p, d, r = a[seg], b[seg] - a[seg], rects[box]
    t_lo, t_hi = np.zeros(len(seg)), np.ones(len(seg))
    for axis in (0, 1):
        low, high = r[:, axis] + 0.01, r[:, axis + 2] - 0.01
        q, e = p[:, axis], d[:, axis]
        flat = e == 0
        with np.errstate(divide="ignore", invalid="ignore"):
            t0, t1 = (low - q) / e, (high - q) / e
        inside = (q > low) & (q < high)
        t_lo = np.maximum(t_lo, np.where(flat, np.where(inside, -np.inf, np.inf),
                                         np.minimum(t0, t1)))
        t_hi = np.minimum(t_hi, np.where(flat, np.where(inside, np.inf, -np.inf),
                                         np.maximum(t0, t1)))
    out[seg[t_lo < t_hi]] = True
    return out


def _outline(node, start, towards, ellipse: bool) -> np.ndarray:
    """Where the ray from ``start`` (a point in ``node``: x, y, width, height) towards
    ``towards`` leaves the node's outline (its box, or the ellipse in it, from its centre)."""
    x, y, w, h = (float(v) for v in node)
    if ellipse:
        start = np.array([x, y])
    d = np.asarray(towards, dtype=float) - start
    if not d.any() or w <= 0 or h <= 0:
        return np.asarray(start, dtype=float)
    if ellipse:
        t = 1.0 / np.sqrt((d[0] / (w / 2)) ** 2 + (d[1] / (h / 2)) ** 2)
    else:
        t = np.inf
        for k, (lo, hi) in enumerate(((x - w / 2, x + w / 2), (y - h / 2, y + h / 2))):
            if d[k]:
                t = min(t, ((hi if d[k] > 0 else lo) - start[k]) / d[k])
    return start + min(max(t, 0.0), 1.0) * d


def _path(start: np.ndarray, end: np.ndarray, rects: np.ndarray, margin: float):
    """The shortest polyline from ``start`` to ``end`` through the corners of ``rects`` pushed
    ``margin`` out, crossing no rect; None when there is none."""
    corners = np.concatenate([np.stack([rects[:, 0] - margin, rects[:, 1] - margin], 1),
                              np.stack([rects[:, 0] - margin, rects[:, 3] + margin], 1),
                              np.stack([rects[:, 2] + margin, rects[:, 1] - margin], 1),
                              np.stack([rects[:, 2] + margin, rects[:, 3] + margin], 1)]) \
        if len(rects) else np.zeros((0, 2))
    if len(corners):  # a corner inside another obstacle (or its margin) is no way through
        x, y = corners[:, 0][:, None], corners[:, 1][:, None]
        buried = ((x > rects[:, 0] - margin + 0.5) & (x < rects[:, 2] + margin - 0.5)
                  & (y > rects[:, 1] - margin + 0.5) & (y < rects[:, 3] + margin - 0.5))
        corners = corners[~buried.any(axis=1)]
    keep = margin - 1.0  # a way between corners keeps nearly the margin off every box
    walls = rects + [-keep, -keep, keep, keep]
    if not _blocked(start[None], end[None], walls)[0]:
        return np.array([start, end])  # the straight way is free
    points = np.concatenate([[start], [end], corners])
    n = len(points)
    # what sees what (one test of all pairs), then A* from the start (0) to the end (1)
    i, j = np.triu_indices(n, 1)
    free = ~_blocked(points[i], points[j], walls)
    step = np.full((n, n), np.inf)
    length = np.hypot(*(points[i[free]] - points[j[free]]).T)
    step[i[free], j[free]] = step[j[free], i[free]] = length
    to_end = np.hypot(*(points - end).T)
    dist = np.full(n, np.inf)
    dist[0] = 0.0
    back = np.full(n, -1)
    closed = np.zeros(n, dtype=bool)
    for _ in range(n):
        k = int(np.argmin(np.where(closed, np.inf, dist + to_end)))
        if not np.isfinite(dist[k]) or k == 1:
            break
        closed[k] = True
        better = dist[k] + step[k] < dist
        dist[better], back[better] = dist[k] + step[k][better], k
    if not np.isfinite(dist[1]):
        return None
    out, k = [1], 1
    while k != 0:
        k = int(back[k])
        out.append(k)
    return points[out[::-1]]


def _spline(points: np.ndarray) -> list[np.ndarray]:
    """Cubic Bézier control points (3n + 1) for a polyline with its corners rounded: each
    corner a curve reaching ``ROUND`` points (at most half a leg) along both of its legs."""
    out = [points[0]]
    at = points[0]
    for k in range(1, len(points) - 1):
        c, before, after = points[k], points[k - 1], points[k + 1]
        u, v = c - before, after - c
        lu, lv = np.hypot(*u), np.hypot(*v)
        r = min(ROUND, lu / 2, lv / 2)
        if r <= 0:
            continue
        s, e = c - u / lu * r, c + v / lv * r
        out += [at + (s - at) / 3, at + 2 * (s - at) / 3, s,
                s + 2 * (c - s) / 3, e + 2 * (c - e) / 3, e]
        at = e
    end = points[-1]
    out += [at + (end - at) / 3, at + 2 * (end - at) / 3, end]
    return out


def route(tail: tuple, head: tuple, obstacles: np.ndarray, *, margin: float = MARGIN,
          arrow: float = ARROW, shift: float = 0.0,
          ellipses: tuple[bool, bool] = (False, False)) -> str | None:
    """A Graphviz ``pos`` for an edge from the node ``tail`` to the node ``head`` (each as
    (x, y, width, height)) around ``obstacles`` (rows x0, y0, x1, y1; not the ends), its
    arrowhead ``arrow`` points long; None when the obstacles leave no way.  ``shift``: points
    sideways to start and end at (edges between the same two nodes drawn apart);
    ``ellipses``: whether the tail's and head's outlines are ellipses."""
    a = np.array(tail[:2], dtype=float) + [shift, 0.0]
    b = np.array(head[:2], dtype=float) + [shift, 0.0]
    rects = np.asarray(obstacles, dtype=float).reshape(-1, 4)
    path = _path(a, b, rects, margin)
    if path is None:
        return None
    path[0] = _outline(tail, a, path[1], ellipses[0])
    tip = _outline(head, b, path[-2], ellipses[1])
    leg = tip - path[-2]
    size = np.hypot(*leg)
    if size <= arrow + 1.0:  # too short for an arrowhead after its last corner
        return None
    path[-1] = tip - leg / size * arrow
    points = _spline(path)
    return f"e,{tip[0]:.2f},{tip[1]:.2f} " + " ".join(f"{x:.2f},{y:.2f}" for x, y in points)
