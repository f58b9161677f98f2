"""A SavedModel written by real TensorFlow 2.21 (tests/fixtures/real_tf/loop_module) in the
graph viewer, in real JupyterLab and Chromium: its signature drawn with the traced function's
While and If bodies in place, each inside its op's cluster, inside the call's cluster; a
click on a node of the loop body fills the details pane with its op type, dtype and where it
is.  Screenshots in tests/jupyter/artifacts/real_*.png."""

from __future__ import annotations

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
        assert _inside(_rect(viewer.locator(".tfg-canvas svg g.graph")),
                       _rect(viewer.locator(".tfg-canvas")))
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
