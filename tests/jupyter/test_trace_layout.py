"""The %%trace panels fit the notebook: in real JupyterLab and Jupyter Notebook 7, at a wide
(1400 px) and a narrow (1000 px) window, every panel lies inside its cell's output, no panel
clips its content (code scrolls sideways in its own box), every column of the concrete
functions table and every timing cell shows whole, the static graph is scaled to the cell's
width, a signature takes at most two lines, and the panels stack in one column when the cell
is narrower than ``panels.ONE_COLUMN_BELOW``.  Stored pictures (the index's first one, a
show_graph output, a %%trace output) show in a notebook not trusted yet.  Screenshots in
tests/jupyter/artifacts/.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tfgraph_edu.jupyter import panels

from .test_browser import (
    ARTIFACTS,
    CHROMIUM,
    FLAGS,
    IMAGE_TEXT_PX,
    _js_errors,
    _kernel_ready,
    _no_news,
    _notebook,
    _rect,
    _run_all,
    _serve,
)

pytestmark = pytest.mark.browser

# a function with long generated lines, a loop, a branch, a variable and four traces
BODY = (
    "@tf.function\n"
    "def train_step(x, w, lr=0.1, extra=None):\n"
    "    with tf.name_scope('layer'):\n"
    "        y = tf.nn.relu(tf.matmul(x, w) * 2.0 + tf.reduce_mean(x, axis=1, keepdims=True))\n"
    "    for i in tf.range(3):\n"
    "        y = y + tf.cast(i, tf.float32) * lr\n"
    "    if tf.reduce_sum(y) > 0:\n"
    "        y = y * 2.0\n"
    "    return y\n\n"
    "w = tf.Variable([[1.0, 2.0], [3.0, 4.0]])\n"
    "train_step(tf.constant([[1.0, 2.0]]), w)\n"
    "train_step(tf.constant([[1.0, 2.0]]), w)\n"
    "train_step(tf.constant([[1.0, 2.0], [3.0, 4.0]]), w)\n"
    "train_step(tf.constant([[1.0, 2.0]]), w, lr=0.05)\n"
    "train_step(tf.constant([[1.0, 2.0]]), w, 0.05, [tf.constant(1.0), 2])"
)
LANGS = {"en": "", "zh-Hant": " --lang zh-Hant"}


def _cells(lang: str) -> list[str]:
    return ["%load_ext tfgraph_edu\nimport tfgraph_edu as tf",
            f"%%trace -n 3{LANGS[lang]}\n" + BODY]


@pytest.fixture(params=["jupyterlab", "notebook"])
def app_server(request, tmp_path):
    for lang in LANGS:
        _notebook(tmp_path / f"layout_{lang}.ipynb", _cells(lang))
    yield from _serve(tmp_path, request.param)


# every measurement of one %%trace output, made in the page (the graph an <img> of its SVG)
MEASURE = """() => {
  const trace = document.querySelector('.tfg-trace');
  const out = trace.closest('.jp-OutputArea-output') || trace.parentElement;
  const cell = trace.closest('.jp-Cell');
  const box = e => { const r = e.getBoundingClientRect();
                     return {l: r.left, t: r.top, r: r.right, b: r.bottom}; };
  const panels = [...trace.querySelectorAll('.tfg-panel')].map(p => ({
      title: p.querySelector('h4').textContent, box: box(p),
      clipped: p.scrollWidth - p.clientWidth, clippedV: p.scrollHeight - p.clientHeight}));
  // a cell of a table shows whole: its text fits its width
  const cut = [...trace.querySelectorAll('td, th')]
      .filter(c => c.scrollWidth > c.clientWidth + 1).map(c => c.textContent);
  const concrete = trace.querySelector('table.tfg-concrete');
  const heads = [...concrete.querySelectorAll('th')].map(th => ({text: th.textContent,
                                                                  box: box(th)}));
  const sig = [...concrete.querySelectorAll('tr td:nth-child(2) code')].map(c => {
      const lh = parseFloat(getComputedStyle(c).lineHeight) || 16;
      return Math.round(c.getBoundingClientRect().height / lh); });
  const graph = trace.querySelector('.tfg-graph');
  const img = graph.querySelector('img');
  const scrolls = [...trace.querySelectorAll('.tfg-scroll')].map(s => ({
      overflow: getComputedStyle(s).overflowX, wider: s.scrollWidth > s.clientWidth}));
  const graphScrolls = getComputedStyle(graph).overflowX === 'auto';
  return {out: box(out), cell: box(cell), trace: box(trace), panels, cut, heads, sig,
          graph: box(graph), img: box(img), scrolls, graphScrolls,
          imgScale: img.getBoundingClientRect().width / img.naturalWidth,
          minText: (IMAGE_TEXT_PX)(img), grid: trace.querySelector('.tfg-grid').clientWidth};
}""".replace("IMAGE_TEXT_PX", IMAGE_TEXT_PX)


def _dismiss_dialog(page, shot) -> None:
    """A dialog of Jupyter's own (seen once under load in Notebook 7, over the Run menu) is
    photographed for a person to read, then answered with its default button."""
    page.wait_for_timeout(500)
    dialog = page.locator(".jp-Dialog")
    if dialog.count():
        page.screenshot(path=str(shot))
        print("dialog:", dialog.first.inner_text()[:200])
        dialog.locator(".jp-Dialog-button.jp-mod-accept").first.click()


def _within(inner, outer, slack=1.5) -> bool:
    return (inner["l"] >= outer["l"] - slack and inner["r"] <= outer["r"] + slack)


@pytest.mark.parametrize("width", [1400, 1000])
@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
def test_trace_panels_fit_the_cell(app_server, width, lang):
    from playwright.sync_api import sync_playwright
    app, url, token = app_server
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        page = browser.new_page(viewport={"width": width, "height": 900})
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(f"pageerror: {exc}\n{exc.stack or ''}"))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        path = "lab/tree" if app == "jupyterlab" else "notebooks"
        page.goto(f"{url}/{path}/layout_{lang}.ipynb?token={token}")
        tag = f"{app}_{lang}_{width}"
        _kernel_ready(page, app, ARTIFACTS / f"layout_{tag}_no_kernel.png")
        _dismiss_dialog(page, ARTIFACTS / f"layout_{tag}_dialog.png")
        _run_all(page, ".tfg-trace .tfg-concrete", ARTIFACTS / f"layout_{tag}_failed.png")
        _no_news(page)
        page.wait_for_timeout(500)
        m = page.evaluate(MEASURE)
        trace = page.locator(".tfg-trace").first
        trace.scroll_into_view_if_needed()
        page.screenshot(path=str(ARTIFACTS / f"layout_{tag}_graph.png"))
        page.locator(".tfg-trace .tfg-grid > .tfg-panel:nth-child(2)").first.evaluate(
            "e => e.scrollIntoView({block: 'start'})")
        page.screenshot(path=str(ARTIFACTS / f"layout_{tag}_code.png"))
        page.locator(".tfg-trace table.tfg-concrete").first.evaluate(
            "e => e.scrollIntoView({block: 'start'})")
        page.screenshot(path=str(ARTIFACTS / f"layout_{tag}_tables.png"))
        # the "full size" switch shows the graph at its natural size, its pane scrolling
        page.locator(".tfg-trace .tfg-full-label").first.click()
        full = page.evaluate("() => { const i = document.querySelector('.tfg-trace .tfg-graph "
                             "img'); return i.getBoundingClientRect().width / i.naturalWidth; }")
        page.locator(".tfg-trace .tfg-graph").first.evaluate(
            "e => e.scrollIntoView({block: 'start'})")
        page.screenshot(path=str(ARTIFACTS / f"layout_{tag}_full_size.png"))
        browser.close()
    assert abs(full - 1) < 0.01, full
    print(tag, {k: m[k] for k in ("out", "trace", "graph", "img", "sig", "minText", "grid",
                                   "imgScale")})
    assert _within(m["trace"], m["out"]) and _within(m["trace"], m["cell"]), m
    for panel in m["panels"]:
        assert _within(panel["box"], m["out"]), panel
        assert panel["clipped"] <= 1, panel  # nothing cut at a panel's edge
    assert not m["cut"], m["cut"]  # "fastest … sl": no table cell shows part of its text
    # every column of the concrete functions table, the last ("calls") included
    assert len(m["heads"]) == 4
    for head in m["heads"]:
        assert _within(head["box"], m["trace"]), head
    # the graph scaled to the width of its pane, down to MIN_SCALE of its natural size (its
    # text stays readable); below that its pane scrolls sideways
    assert _within(m["graph"], m["trace"]), m
    assert _within(m["img"], m["graph"]) or m["graphScrolls"], m
    assert m["imgScale"] >= panels.MIN_SCALE - 0.01, m
    # code scrolls sideways in its own box
    assert m["scrolls"] and all(s["overflow"] == "auto" for s in m["scrolls"])
    # a signature in one or two lines (three when the cell is narrower than 700 px), broken
    # only between arguments
    assert all(n <= (2 if m["grid"] >= 700 else 3) for n in m["sig"]), m["sig"]
    source, code = (next(p["box"] for p in m["panels"] if p["title"] == t)
                    for t in (("Python source", "AutoGraph code") if lang == "en" else
                              ("Python 原始碼", "AutoGraph 轉換後的程式碼")))
    if m["grid"] < panels.ONE_COLUMN_BELOW:  # one column: code below source
        assert code["t"] >= source["b"] - 1, (source, code)
    else:  # side by side
        assert abs(code["t"] - source["t"]) < 2 and code["l"] >= source["r"], (source, code)
    assert not _js_errors(errors), errors


def _stored(path: Path, source: str, bundle: dict) -> None:
    """A notebook of one code cell ``source`` whose stored output is ``bundle``, written to
    disk and never opened: not trusted."""
    import nbformat
    cell = nbformat.v4.new_code_cell(source, execution_count=1)
    cell.outputs = [nbformat.v4.new_output("execute_result", data=bundle, execution_count=1)]
    nb = nbformat.v4.new_notebook(cells=[cell])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    nbformat.write(nb, path)


def _branch_and_loop():
    import tfgraph_edu as tf

    @tf.function
    def f(x):
        if tf.reduce_sum(x) > 0:
            x = x * 2.0
        for _ in tf.range(3):
            x = x + 1.0
        return x

    f(tf.constant([1.0, 2.0]))
    return f


def _write_untrusted(tmp_path: Path, case: str) -> None:
    """``case``.ipynb as a learner gets it, never opened (not trusted): the index (a fresh
    copy), a tutorial's stored ``show_graph(f, lang="zh-Hans")`` output, a stored ``%%trace``
    output (both of an If and a tf.range loop)."""
    if case == "index":
        shutil.copy(Path(__file__).parents[2] / "notebooks" / "index.ipynb", tmp_path)
    elif case == "show_graph_zh_hans":
        from tfgraph_edu.viz import show_graph
        _stored(tmp_path / f"{case}.ipynb", "show_graph(f)",
                show_graph(_branch_and_loop(), lang="zh-Hans")._repr_mimebundle_())
    else:
        from tfgraph_edu.jupyter.magics import TraceResult
        f = _branch_and_loop()
        html = panels.function_panels(f, "f", "en", ["source", "code", "graph", "concrete"],
                                      True, None)
        _stored(tmp_path / f"{case}.ipynb", "%%trace\n...",
                TraceResult([("f", f, None, html)], "en", None)._repr_mimebundle_())


# per notebook: where its picture is, words of the drawing that must not show as raw text
# (what the sanitiser leaves of inline SVG), words that must show
UNTRUSTED = {
    "index": (".jp-OutputArea-output img", ("cluster_cond", "StatelessIf", "float32 (2,)"),
              ("control flow",)),
    "show_graph_zh_hans": (".jp-OutputArea-output img", (
        "cluster_cond", "StatelessIf", "float32 (2,)", "input (placeholder)"),
        ("输入（占位符）", "运算")),  # the zh-Hans legend
    "trace": (".tfg-trace .tfg-graph img", ("cluster_cond", "StatelessIf", "float32 (2,)"),
              ("Concrete functions", "Python source")),
}


@pytest.fixture(params=[(app, case) for app in ("jupyterlab", "notebook") for case in UNTRUSTED],
                ids=lambda p: "-".join(p))
def untrusted_server(request, tmp_path):
    app, case = request.param
    _write_untrusted(tmp_path, case)
    for served in _serve(tmp_path, app):
        yield (*served, case)


def test_a_stored_picture_shows_in_a_notebook_not_yet_trusted(untrusted_server):
    """The index's first picture, a tutorial's stored show_graph output (zh-Hans) and a
    stored %%trace output, in a notebook not trusted yet, before anything runs: the picture
    shows as a picture (the sanitiser keeps a data-URL image, not inline SVG), decoded and
    at a readable size, and none of the drawing's words leak out as raw text."""
    from playwright.sync_api import sync_playwright
    app, url, token, case = untrusted_server
    where, leaked, shown = UNTRUSTED[case]
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        path = "lab/tree" if app == "jupyterlab" else "notebooks"
        page.goto(f"{url}/{path}/{case}.ipynb?token={token}")
        page.wait_for_selector(".jp-Notebook .jp-OutputArea-output", timeout=60_000)
        _no_news(page)
        out = page.locator(".jp-OutputArea-output").first
        img = page.locator(where).first
        img.wait_for(timeout=30_000)
        page.wait_for_function("i => i.complete && i.naturalWidth > 0", arg=img.element_handle(),
                               timeout=30_000)
        img.scroll_into_view_if_needed()
        page.screenshot(path=str(ARTIFACTS / f"untrusted_{case}_{app}.png"))
        natural = img.evaluate("i => [i.naturalWidth, i.naturalHeight]")
        visible = img.evaluate("i => i.checkVisibility({opacityProperty: true, "
                               "visibilityProperty: true})")
        box = _rect(img)
        text = out.inner_text()
        legend_keys = out.locator(".tfg-legend span").evaluate_all(
            "ks => ks.map(k => [k.getBoundingClientRect().width, getComputedStyle(k)"
            ".backgroundColor])")
        browser.close()
    assert natural[0] > 300 and natural[1] > 300, natural  # the drawing itself, decoded
    assert visible and box["r"] - box["l"] > 300, box  # shown, at a readable size
    for word in leaked:
        assert word not in text, (word, text[:200])
    for word in shown:
        assert word in text, (word, text[:300])
    # the legend's keys keep their size and colours (inline styles survive the sanitiser)
    assert legend_keys and all(w >= 9 for w, _ in legend_keys), legend_keys
    assert any(c not in ("rgba(0, 0, 0, 0)", "rgb(255, 255, 255)") for _, c in legend_keys)
