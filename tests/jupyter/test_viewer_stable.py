"""Opening and folding scopes in the viewer's front end keeps the drawing readable and in
place, in Chromium: the MLP train step of benchmarks/viewer_in_browser.py, toggled by
double-clicks on its boxes and frames, laid out again in the kernel (viz/stable.py) and handed
to the page through the stand-in model (no Jupyter server).  Geometry on screen, not speed (the
kernel's time per toggle is printed by the benchmark): no edge runs through a node's box after
any toggle; the toggled thing's top middle stays put (the view pans sideways only to show an
opened frame, or a folded box the pane's edge cut, whole when it fits the pane); the other
nodes move in at most 3 x 2 blocks, each alike to the pixel; folding back what was just opened
puts every node back; a fold that is not an undo gives back the height its opening took (no
empty band).  Screenshots at 1400 x 900 in tests/jupyter/artifacts/stable_*.png."""

from __future__ import annotations

import pytest

from tests.jupyter.test_browser import ARTIFACTS
from tfgraph_edu import viz

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not viz.dot_available(), reason="Graphviz is not installed")]


def test_toggling_scopes_keeps_the_drawing_in_place_and_readable():
    import tfgraph_edu as tf
    tf.keras.backend.clear_session()  # the names a fresh kernel gives: sequential, sgd, ...
    _toggle_and_check()


def test_toggling_scopes_with_other_names_keeps_edges_off_the_boxes():
    """With the names a busy kernel gives (sequential_12, sgd_8), dot's fresh drawing fanned
    the four edges sequential_12 -> sgd_8 out through the loss scope's box (issue 24): the
    first drawing, and folding back to it, keep every edge off the boxes."""
    import tfgraph_edu as tf
    tf.keras.backend.clear_session()
    for _ in range(12):
        tf.keras.Sequential([tf.keras.layers.Dense(2)])
    for _ in range(8):
        tf.keras.optimizers.SGD(0.1)
    _toggle_and_check()


def _toggle_and_check():
    from playwright.sync_api import sync_playwright

    from benchmarks.viewer_in_browser import (
        mlp_scopes,
        mlp_train_step,
        page_with_viewer,
        stable_layout,
    )
    fn = mlp_train_step()
    model, loss = mlp_scopes(fn)  # sequential_1, ... when the process made a model before
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as p:
        browser, page = page_with_viewer(p)
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        back = stable_layout(page, fn, [model, model])
        shots = [ARTIFACTS / f"stable_{n}.png" for n in
                 ("before", "sequential_open", "loss_open", "sequential_folded", "loss_folded")]
        steps = stable_layout(page, fn, [model, loss, model, loss], shots)
        browser.close()
    assert not errors, errors
    for s in back + steps:
        assert s["crossings"] == [], (s["step"], s["scope"], s["crossings"])
        # the toggled thing's top stays at its height; the view pans sideways only to show an
        # opened frame (or a folded box the pane's edge cut) whole, and shows it whole when it
        # fits
        assert abs(s["pan"][1]) < 2.0, (s["step"], s["scope"], s["pan"])
        assert abs(s["pan"][0]) < 2.0 or s["whole"], (s["step"], s["pan"])
        if s["step"] == "open" and s["fits"]:
            assert s["whole"], s["scope"]
        assert 1 <= len(s["shifts"]) <= 6 and s["relative"] <= 1.0, (s["scope"], s["shifts"])
    # opened, then folded back: every node where it was before (less the view's pans)
    opened, folded = back
    assert folded["undo"]
    px, py = (opened["pan"][0] + folded["pan"][0], opened["pan"][1] + folded["pan"][1])
    assert all(abs(folded["positions"][t][0] - px - opened["before"][t][0]) < 1 and
               abs(folded["positions"][t][1] - py - opened["before"][t][1]) < 1
               for t in opened["before"]), (opened["before"], folded["positions"])
    # two opened, then folded in the same order: neither fold undoes the last toggle, both
    # give back the height their opening took; the first fold pulls what was below it up
    first_fold, second_fold = steps[2], steps[3]
    assert not first_fold["undo"] and not second_fold["undo"]
    assert first_fold["gap"] <= 2.0 and second_fold["gap"] <= 2.0, (first_fold["gap"],
                                                                    second_fold["gap"])
    assert any(dy < -100 for _, dy, _ in first_fold["shifts"]), first_fold["shifts"]
    # above what was folded nothing moved
    assert all(dy <= 1 for _, dy, _ in first_fold["shifts"]), first_fold["shifts"]
