"""A SavedModel written by real TensorFlow 2.21 (tests/fixtures/real_tf/loop_module) in the
graph viewer, in real JupyterLab and Chromium: its signature drawn with the traced function's
While and If bodies in place, each inside its op's cluster, inside the call's cluster; a
click on a node of the loop body fills the details pane with its op type, dtype and where it
is.  Screenshots in tests/jupyter/artifacts/real_*.png."""

from __future__ import annotations

import base64
import re
from pathlib import Path

import pytest

from tests.jupyter.test_browser import (
    ARTIFACTS,
    _inside,
    _js_errors,
    _no_news,
    _notebook,
    _open,
    _rect,
    _run_all,
    _serve,
    _titled,
)

pytestmark = pytest.mark.browser
pytest.importorskip("tensorboard", reason="the tf-files extra is not installed")

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "real_tf" / "loop_module"
CELLS = [
    "from tfgraph_edu.viz import open_graph\nfrom tfgraph_edu.jupyter.widgets import GraphViewer",
    f"g = open_graph({str(FIXTURE)!r})\ng",
    "GraphViewer(g)",
]


@pytest.fixture
def lab_with_notebook(tmp_path):
    _notebook(tmp_path / "real.ipynb", CELLS)
    yield from _serve(tmp_path, "jupyterlab")


def test_real_saved_model_in_the_viewer(lab_with_notebook):
    from playwright.sync_api import sync_playwright
    app, url, token = lab_with_notebook
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as p:
        browser, page, errors = _open(p, app, url, token, "real.ipynb")
        page.set_viewport_size({"width": 1400, "height": 900})
        _run_all(page, ".tfg-viewer g.node", ARTIFACTS / "real_failed.png")
        _no_news(page)
        viewer = page.locator(".tfg-viewer").first
        viewer.scroll_into_view_if_needed()
        page.wait_for_timeout(500)
        # the whole graph at a readable size, or its inputs with a minimap (the viewer's rule)
        assert _inside(_rect(viewer.locator(".tfg-canvas svg g.graph")),
                       _rect(viewer.locator(".tfg-canvas"))) or \
            viewer.locator(".tfg-minimap").is_visible()
        call = "StatefulPartitionedCall"
        outer = _titled(page, "cluster", f"cluster_{call}")
        for op, bodies in (("while", ("cond", "body")), ("cond", ("then", "else"))):
            op_cluster = _titled(page, "cluster", f"cluster_{call}/f/{op}")
            assert op_cluster and outer and _inside(op_cluster, outer), op
            for b in bodies:
                inner = _titled(page, "cluster", f"cluster_{call}/f/{op}/{b}")
                assert inner and _inside(inner, op_cluster), (op, b)
        page.screenshot(path=str(ARTIFACTS / "real_saved_model.png"))
        search = viewer.locator(".tfg-search")
        search.fill(f"{call}/f/while/body/mul")
        search.press("Enter")
        details = viewer.locator(".tfg-details")
        details.locator(".tfg-node-name", has_text="mul").wait_for(timeout=10_000)
        text = details.inner_text()
        assert "Mul" in text and "float32" in text and "while_body" in text
        page.screenshot(path=str(ARTIFACTS / "real_saved_model_details.png"))
        assert _js_errors(errors) == []
        browser.close()


def test_side_by_side_in_chromium():
    """Our cond function beside TF's GraphDef of it, rendered by Chromium at 1400x900: two
    pictures in one row, each with its If branches drawn in place, and the diff table."""
    from playwright.sync_api import sync_playwright

    import tfgraph_edu as tf
    from tests.jupyter.test_browser import CHROMIUM, FLAGS
    from tfgraph_edu.viz import open_graph, side_by_side
    from tfgraph_edu.viz.render import dot_available
    if not dot_available():
        pytest.skip("Graphviz's dot is not installed")

    @tf.function
    def cond_fn(x):
        if tf.reduce_sum(x) > 0:
            return x * x
        return -x

    cf = cond_fn.get_concrete_function(tf.TensorSpec([None], tf.float32))
    shown = side_by_side(cf, open_graph(FIXTURE.parent / "cond_graph.pb"))
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.set_content(f"<html><body>{shown.html()}</body></html>")
        pictures = page.locator(".tfg-side-by-side img")  # each drawing an <img> of its SVG
        assert pictures.count() == 2
        left, right = _rect(pictures.nth(0)), _rect(pictures.nth(1))
        assert left["r"] <= right["l"] + 1  # side by side, not stacked
        assert min(left["b"] - left["t"], right["b"] - right["t"]) > 100
        for i in range(2):  # both draw the If with its branches inside
            src = pictures.nth(i).get_attribute("src")
            svg = base64.b64decode(src.split("base64,", 1)[1]).decode("utf-8")
            titles = set(re.findall(r'<g id="clust\d+" class="cluster">\s*<title>([^<]*)</title>',
                                    svg))
            assert {"cluster_cond", "cluster_cond/then", "cluster_cond/else"} <= titles, titles
        page.screenshot(path=str(ARTIFACTS / "real_side_by_side.png"), full_page=True)
        browser.close()
