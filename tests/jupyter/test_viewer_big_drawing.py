"""A big drawing (more than 1,500 nodes, every op drawn) in the viewer's front end, in
Chromium: the viewer's ES module fed the widget's state through a stand-in model (as
benchmarks/viewer_in_browser.py does; no Jupyter server).  Geometry and behaviour, not speed
(speed is printed by the benchmark): only the part near the view is made into SVG elements;
the first view is readable, on the inputs, with the minimap; a searched op far away is made,
centred and ringed; a zoom out past the readable size paints the canvas and hides text by one
class; the PNG export of a drawing wider than 8,192 px is capped and says so in the learner's
language.  Screenshots in tests/jupyter/artifacts/big_*.png."""

from __future__ import annotations

import json

import pytest

import tfgraph_edu as tf
from tests.jupyter.test_browser import ARTIFACTS
from tfgraph_edu import viz

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not viz.dot_available(), reason="Graphviz is not installed")]


@pytest.fixture(scope="module")
def big_state():
    """The viewer's state (zh-Hans words) for 40 scoped chains of 10 × (mul, add) and their
    constants side by side: 1,602 nodes, all drawn (no folds, no pages), over 5,000 px wide."""
    from benchmarks.viewer_in_browser import STATE
    from tfgraph_edu.jupyter.widgets import GraphViewer
    from tfgraph_edu.viz.dot import graph_to_dot
    from tfgraph_edu.viz.render import to_svg

    def layers(x):
        ys = []
        for i in range(40):
            with tf.name_scope(f"branch{i}"):
                y = x
                for _ in range(10):
                    y = y * 1.0001 + 1.0
            ys.append(y)
        return tf.add_n(ys)

    fn = tf.function(layers, autograph=False)
    fn(tf.constant(0.0))
    viewer = GraphViewer(fn, lang="zh-Hans")
    viewer._quiet = True  # noqa: SLF001 - the drawing is made below, every op drawn
    viewer.collapsed = []
    folded: dict = {}
    dot = graph_to_dot(viewer.graph, collapse=set(), drawn=folded, paged=False, lang="zh-Hans")
    quick = dot.replace("{", "{ mclimit=0.01; nslimit=0.1; nslimit1=0.1; searchsize=5; "
                        "remincross=false;", 1)
    viewer.folded, viewer.dot, viewer.svg = folded, dot, to_svg(quick, limit=None)
    return json.loads(json.dumps(viewer.get_state(STATE)))


def test_a_big_drawing_is_made_near_the_view_and_stays_usable(big_state):
    from playwright.sync_api import sync_playwright

    from benchmarks.viewer_in_browser import MODEL, page_with_viewer
    drawn = big_state["svg"].count('class="node')
    assert drawn > 1500
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as p:
        browser, page = page_with_viewer(p)
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        assert page.evaluate("() => !!window.openViewer"), MODEL[:80]
        page.evaluate("(s) => { window.S = s; }", big_state)
        sight = page.evaluate("window.openViewer(window.S)")
        host = "document.getElementById('host')"
        # readable at first sight, on the inputs, with the minimap
        assert sight["texts"] > 0 and sight["minText"] >= 8.9, sight
        assert sight["minimap"] and not sight["whole"], sight
        # made near the view only: far fewer node elements than nodes drawn
        made = sight["nodes"]
        assert 0 < made < 0.7 * drawn, (made, drawn)
        page.wait_for_function(f"{host}.tfgReady === true", timeout=60_000)
        page.screenshot(path=str(ARTIFACTS / "big_open.png"))
        # a far op: found, made, centred and ringed
        page.fill(".tfg-search", "branch39/add_9$")
        page.press(".tfg-search", "Enter")
        page.wait_for_timeout(400)
        box = page.evaluate(
            "() => { for (const g of document.querySelectorAll('g.node')) {"
            " const t = g.querySelector(':scope > title');"
            " if (t && t.textContent === 'branch39/add_9') { const r = g.getBoundingClientRect();"
            " return {x: (r.left + r.right) / 2, y: (r.top + r.bottom) / 2, w: r.width}; } }"
            " return null; }")
        canvas = page.evaluate(f"(() => {{ const r = {host}.querySelector('.tfg-canvas')"
                               ".getBoundingClientRect(); return {x: (r.left + r.right) / 2,"
                               " y: (r.top + r.bottom) / 2}; })()")
        assert box is not None and box["w"] > 30, box
        assert abs(box["x"] - canvas["x"]) < 10 and abs(box["y"] - canvas["y"]) < 10, (box, canvas)
        assert page.locator(".tfg-marker").is_visible()
        page.screenshot(path=str(ARTIFACTS / "big_search.png"))
        # zoomed far out: the canvas is painted, the SVG stage hidden, text hidden by classes
        for _ in range(12):
            page.click(".tfg-zoom-out")
        page.wait_for_timeout(600)  # the gesture's end: detail is decided when still
        state = page.evaluate(f"(() => {{ const c = {host}.querySelector('.tfg-canvas');"
                              " return {far: c.classList.contains('tfg-far-out'),"
                              " small: [...c.classList].filter(k => k.startsWith('tfg-small-')),"
                              f" s: {host}.tfgView.s }}; }})()")
        assert state["far"] and state["small"], state
        page.screenshot(path=str(ARTIFACTS / "big_far.png"))
        # the PNG export is capped at 8,192 px a side, and says so in the learner's language
        with page.expect_download(timeout=120_000) as got:
            page.click(".tfg-export-png")
        png = ARTIFACTS / "big_export.png"
        got.value.save_as(png)
        head = png.read_bytes()[:24]
        width, height = int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")
        done = page.evaluate(f"{host}.tfgLastExport")
        assert head[:8] == b"\x89PNG\r\n\x1a\n" and (width, height) == (done["w"], done["h"])
        assert max(width, height) <= 8192 and width * height <= 40e6 and done["scale"] < 1, done
        said = page.inner_text(".tfg-message")
        assert "已导出为" in said and f"{width:,} × {height:,}" in said, said
        page.screenshot(path=str(ARTIFACTS / "big_export_message.png"))
        browser.close()
    assert not errors, errors
