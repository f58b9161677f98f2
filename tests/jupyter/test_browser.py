"""A real JupyterLab in a real browser: run a notebook with the graph viewer, click a node.

Starts JupyterLab on loopback, drives Debian's Chromium (/usr/bin/chromium) with
Playwright for Python (no browser download), runs the notebook, clicks the Relu
node of the graph viewer and checks the details panel shows it; the screenshot is
saved in the test's output folder.
"""

from __future__ import annotations

import json
import os
import secrets
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]

pytestmark = pytest.mark.browser


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _notebook(path: Path) -> None:
    cells = [
        "import tfgraph_edu as tf\nfrom tfgraph_edu.jupyter.widgets import GraphViewer",
        "@tf.function\ndef f(x):\n    return tf.nn.relu(x * 2.0)\n\nf(tf.constant([1.0, -1.0]))",
        "viewer = GraphViewer(f)\nviewer",
    ]
    nb = {"cells": [{"cell_type": "code", "execution_count": None, "id": f"c{i}",
                     "metadata": {}, "outputs": [], "source": src}
                    for i, src in enumerate(cells)],
          "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python",
                                      "name": "python3"}},
          "nbformat": 4, "nbformat_minor": 5}
    path.write_text(json.dumps(nb))


@pytest.fixture
def lab(tmp_path):
    if not os.path.exists(CHROMIUM):
        pytest.fail("Debian's Chromium is missing: `make test` installs it (apt-get install "
                    "chromium); run it as root or install chromium by hand.")
    _notebook(tmp_path / "viewer.ipynb")
    port, token = _free_port(), secrets.token_hex(16)
    env = dict(os.environ, JUPYTER_PLATFORM_DIRS="1")
    proc = subprocess.Popen(
        [sys.executable, "-m", "jupyterlab", "--no-browser", "--ServerApp.ip=127.0.0.1",
         f"--ServerApp.port={port}", f"--IdentityProvider.token={token}",
         f"--ServerApp.root_dir={tmp_path}", "--LabApp.news_url=",
         "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
         "--LabApp.extension_manager=readonly"]
        + (["--allow-root"] if os.geteuid() == 0 else []),
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env)
    url = f"http://127.0.0.1:{port}"
    deadline = time.time() + 60
    while time.time() < deadline and proc.poll() is None:
        try:
            urllib.request.urlopen(f"{url}/api/status?token={token}", timeout=2)
            break
        except OSError:
            time.sleep(0.5)
    else:
        proc.kill()
        pytest.fail("JupyterLab did not start:\n" + proc.stdout.read().decode(errors="replace"))
    try:
        yield url, token, tmp_path
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


def test_graph_viewer_in_jupyterlab(lab):
    from playwright.sync_api import sync_playwright
    url, token, out = lab
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.goto(f"{url}/lab/tree/viewer.ipynb?token={token}")
        page.wait_for_selector(".jp-Notebook", timeout=60_000)
        page.get_by_text("| Idle").first.wait_for(timeout=90_000)  # the kernel is ready
        for attempt in range(3):
            page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
            page.locator(".lm-Menu-itemLabel", has_text="Run All Cells").first.click()
            try:
                page.wait_for_selector(".tfg-viewer g.node", timeout=60_000)
                break
            except Exception:
                if attempt == 2:
                    page.screenshot(path=str(out / "failed.png"), full_page=True)
                    raise
        relu = page.locator(".tfg-viewer g.node", has=page.locator("title", has_text="Relu"))
        relu.first.click()
        page.wait_for_selector(".tfg-viewer .tfg-node-name", timeout=10_000)
        name = page.locator(".tfg-viewer .tfg-node-name").first.inner_text()
        kind = page.locator(".tfg-viewer .tfg-node-type").first.inner_text()
        shot = out / "graph_viewer.png"
        page.screenshot(path=str(shot), full_page=True)
        browser.close()
    assert name == "Relu" and kind == "Relu"
    assert shot.stat().st_size > 10_000
