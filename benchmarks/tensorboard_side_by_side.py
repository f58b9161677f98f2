"""TensorBoard's graph dashboard and tfgraph_edu's viewer, side by side in Chromium (issue 24).

Four functions a learner meets, one source text each, run once with ``tf`` bound to real
TensorFlow and once to tfgraph_edu: an ``if`` and a ``tf.range`` loop, a linear-regression
step with a tape, an MLP train step (Keras, SGD), a chain of 5,000 multiplications.

- TensorFlow's side (the check-tf venv, ``.venv-tf``): each function's graph is written with
  ``tf.summary.graph`` into its own run of a log directory; TensorBoard serves it and its graph
  dashboard is opened in headless Chromium (Playwright, 1400 x 900), the run picked from the
  Run menu as a learner does.
- tfgraph_edu's side (the project's ``.venv``): the same cells in JupyterLab, each ending with
  ``GraphViewer(f)`` (the helpers of tests/jupyter/test_browser.py start the server and run
  the notebook).

Measured on both, per function: time from asking for the graph (picking the run; running
the viewer's cell) until it is drawn; at first sight the smallest text on screen (font size x
zoom), texts under 9 px, nodes with a readable label; whether loop and branch bodies are
drawn in place; the top-level groups of the tape's functions, and, for the MLP step with
every group open, the group each gradient op is drawn in (TensorBoard's groups are the parts
of the op's name; ours are frames on screen); what the details pane says of
an op (source line, dtype, shape); the fit, zoom, search, legend and minimap controls; on the
5,000-op chain the time to open its big group and the median frame while panning and
zooming the opened drawing (TensorBoard's series node is tried each way a learner has: the
"+" its hover shows, a double-click, "Ungroup this series of nodes" in its info card; each
on a fresh load, until the drawing or TensorBoard's error); JavaScript errors.  Prints a
markdown table, one row per point, with who wins and why from those figures; screenshots go
to benchmarks/artifacts/ (gitignored).

    make bench-tensorboard        # or, from the repository's root:
    .venv/bin/python benchmarks/tensorboard_side_by_side.py

Either venv may start it: the part that needs TensorFlow runs in ``.venv-tf`` (made by
``make check-tf``; ``TFGRAPH_TF_PYTHON`` names another interpreter), the browser part in
``.venv`` (Playwright, JupyterLab).  TensorFlow never enters the product's venv.
"""

from __future__ import annotations

import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

try:  # run as a script (benchmarks/ on sys.path) or imported from the repository's root
    from _mlp_step import SOURCE as MLP_SOURCE
except ImportError:
    from benchmarks._mlp_step import SOURCE as MLP_SOURCE

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = Path(__file__).parent / "artifacts"
JS = (Path(__file__).with_name("_side_by_side.js")).read_text()
READABLE_PX = 9.0
FRAME_BUDGET_MS = 33.0
EXPAND_LIMIT_S = 300  # s a try to open the chain's series may take

# The four functions, one source text for both sides; each defines `f` and its `args`.
FUNCTIONS = {
    "if_loop": ("an `if` + `tf.range` loop", """\
@tf.function
def f(x):
    with tf.name_scope('layer'):
        x = tf.nn.relu(x * 2.0)
    if tf.reduce_sum(x) > 0:
        x = x * 2.0
    for i in tf.range(3):
        x = x + tf.cast(i, tf.float32)
    return x

args = (tf.constant([1.0, -1.0]),)
result = f(*args)
"""),
    "linreg": ("a linear-regression step with a tape", """\
w = tf.Variable(tf.zeros([3, 1]), name='w')
b = tf.Variable(0.0, name='b')

@tf.function
def f(x, y):
    with tf.GradientTape() as tape:
        pred = tf.matmul(x, w) + b
        loss = tf.reduce_mean(tf.square(pred - y))
    dw, db = tape.gradient(loss, [w, b])
    w.assign_sub(0.1 * dw)
    b.assign_sub(0.1 * db)
    return loss

args = (tf.constant(np.ones((8, 3), 'float32')), tf.constant(np.ones((8, 1), 'float32')))
result = f(*args)
"""),
    "mlp": ("an MLP train step (Keras, SGD)", MLP_SOURCE),
    "chain": ("a 5,000-op chain", """\
@tf.function(autograph=False)
def f(x):
    for _ in range(5000):
        x = x * 1.0001
    return x

args = (tf.constant(1.0),)
result = f(*args)
"""),
}
# the op whose details are read, in the linear-regression step, and the words that show
# its source line
DETAIL_OP = "Square"
DETAIL_SOURCE = "tf.square(pred - y)"


# -- TensorFlow's side (runs in the check-tf venv) ------------------------------------------

def write_logs(logdir: Path) -> None:
    """Each function's graph as its own TensorBoard run (AutoGraph reads the source from a
    file, as from a learner's module)."""
    import numpy as np
    import tensorflow as tf
    for name, (_, src) in FUNCTIONS.items():
        path = logdir / "sources" / f"{name}.py"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(src)
        ns = {"tf": tf, "np": np}
        exec(compile(src, str(path), "exec"), ns)  # noqa: S102 - our own source text
        graph = ns["f"].get_concrete_function(*ns["args"]).graph
        writer = tf.summary.create_file_writer(str(logdir / name))
        with writer.as_default():
            tf.summary.graph(graph)
        writer.flush()
        print(f"{name}: {len(graph.get_operations())} ops written", flush=True)


# -- the browser side (runs in the project's venv) ------------------------------------------

def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def tf_python() -> str:
    for candidate in (os.environ.get("TFGRAPH_TF_PYTHON"), ROOT / ".venv-tf/bin/python",
                      ROOT.parent / "main/.venv-tf/bin/python"):
        if candidate and Path(candidate).exists():
            return str(candidate)
    sys.exit("needs the check-tf venv: run `make check-tf` first (it makes .venv-tf with "
             "TensorFlow and TensorBoard), or name its python in TFGRAPH_TF_PYTHON")


def start_tensorboard(logdir: Path):
    tb = str(Path(tf_python()).with_name("tensorboard"))
    port = _free_port()
    proc = subprocess.Popen([tb, "--logdir", str(logdir), "--port", str(port),
                             "--host", "127.0.0.1", "--reload_interval", "0"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    import urllib.request
    deadline = time.time() + 180
    while time.time() < deadline and proc.poll() is None:
        try:
            with urllib.request.urlopen(f"{url}/data/plugin/graphs/info", timeout=2) as r:
                if len(json.loads(r.read())) == len(FUNCTIONS):
                    return proc, url
        except OSError:
            pass
        time.sleep(1)
    proc.kill()
    sys.exit("TensorBoard did not start (or did not list the four runs) within 3 minutes")


def _frames(page, expr: str, kind: str, n: int = 120) -> dict:
    times = page.evaluate(f"([k, n]) => {expr}", [kind, n])
    times = times[5:]  # the first frames include the handler's set-up
    return {"median": statistics.median(times), "p90": sorted(times)[int(0.9 * len(times))],
            "n": len(times)}


def _centre_offset(rect: dict, pane: dict) -> float:
    return max(abs((rect["l"] + rect["r"]) / 2 - (pane["l"] + pane["r"]) / 2),
               abs((rect["t"] + rect["b"]) / 2 - (pane["t"] + pane["b"]) / 2))


def _shot(page, name: str) -> str:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / name
    page.screenshot(path=str(path))
    return str(path.relative_to(ROOT))


def _wait_settled(page, count_expr: str, timeout: float = 120.0) -> float:
    """Seconds until ``count_expr`` (a node count) is above zero and has not changed for
    0.5 s; the time of its last change is returned (the drawing's end)."""
    start = time.perf_counter()
    last, changed = -1, start
    while time.perf_counter() - start < timeout:
        n = page.evaluate(f"() => {count_expr}")
        now = time.perf_counter()
        if n != last:
            last, changed = n, now
        elif n > 0 and now - changed >= 0.5:
            return changed - start
        page.wait_for_timeout(50)
    raise TimeoutError(f"{count_expr} did not settle in {timeout:.0f} s (last {last})")


def measure_tensorboard(p, url: str) -> dict:
    browser = p.chromium.launch(executable_path="/usr/bin/chromium", headless=True,
                                args=["--no-sandbox", "--disable-gpu"])
    page = browser.new_page(viewport={"width": 1400, "height": 900}, bypass_csp=True)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    out: dict = {"errors": errors}
    start = time.perf_counter()
    page.goto(f"{url}/#graphs")
    page.wait_for_selector("g.node", timeout=120_000)
    page.evaluate(JS)
    out["page_s"] = time.perf_counter() - start + _wait_settled(page, "sbs.tb.nodes()")
    shown = page.evaluate("() => sbs.deepAll('paper-dropdown-menu')[0].value")  # the run shown
    # every run is timed from picking it in the Run menu: start from another one
    order = list(FUNCTIONS)
    if shown in order:
        order.remove(shown)
        order.append(shown)
    for name in order:
        res: dict = {}
        out[name] = res
        names = "[...sbs.tb.svg().querySelectorAll('g.node')].map(g => g.dataset.name).join()"
        before = page.evaluate(f"() => {names}")
        page.locator("paper-dropdown-menu").first.click()
        page.wait_for_timeout(300)
        start = time.perf_counter()
        page.locator("paper-item", has_text=name).first.click()  # as _tb_pick_run, timed
        # drawn: other nodes than the last run's are on screen, and their count has settled
        try:
            page.wait_for_function(f"(b) => {names} !== b", arg=before, timeout=300_000)
        except Exception:
            _shot(page, f"tensorboard_{name}_failed.png")
            raise
        res["open_s"] = time.perf_counter() - start + _wait_settled(page, "sbs.tb.nodes()")
        page.wait_for_timeout(300)
        res["sight"] = page.evaluate("() => sbs.tb.sight()")
        res["top"] = page.evaluate(
            "() => [...sbs.tb.svg().querySelectorAll('g.node.meta')].filter(g => "
            "g.checkVisibility()).map(g => g.getAttribute('data-name'))")
        res["shot"] = _shot(page, f"tensorboard_{name}.png")
        if name == "if_loop":
            # the loop and the branch: op nodes in the main graph, their bodies in the
            # "Functions" column (library functions), not inside them
            res["while_class"] = page.evaluate(
                "() => { const g = sbs.tb.node('while'); return g && g.getAttribute('class'); }")
            res["cond_class"] = page.evaluate(
                "() => { const g = sbs.tb.node('cond'); return g && g.getAttribute('class'); }")
            res["library"] = page.evaluate(
                "() => [...sbs.tb.svg().querySelectorAll('g.node')].map(g => "
                "g.getAttribute('data-name')).filter(n => /^(__function_library|while_|cond_)/"
                ".test(n || ''))")
        if name == "linreg":
            page.locator(f"g.node[data-name='{DETAIL_OP}'] > .nodeshape").first.click(
                force=True)
            page.wait_for_timeout(800)
            res["details"] = page.evaluate("() => sbs.tb.info()")
            res["details_shot"] = _shot(page, "tensorboard_details.png")
        if name == "mlp":
            res.update(_tb_search(page))
    out["controls"] = page.evaluate(
        "() => ({ fit: sbs.deepAll('#fit, [title*=\"Fit\" i], paper-button').some(b => "
        "/fit to screen/i.test(b.textContent)), search: sbs.deepAll('tf-graph-node-search')"
        ".length > 0, legend: sbs.deepAll('.legend-holder').some(e => e.checkVisibility()), "
        "minimap: sbs.deepAll('tf-graph-minimap').some(e => e.checkVisibility()), "
        "zoomButtons: false })")
    out["errors_before_chain"] = len(errors)
    out["chain"].update(_tb_chain(page, errors))
    browser.close()
    return out


def _tb_search(page) -> dict:
    """TensorBoard's search: a regular expression, its matches listed; picking one."""
    box = page.locator("tf-graph-node-search input").first
    box.fill("MatMul")
    page.wait_for_timeout(1200)
    items = page.locator("tf-graph-node-search #search-match")
    listed = [items.nth(i).inner_text().strip() for i in range(items.count())]
    res: dict = {"search_listed": len(listed), "search_names": listed[:6]}
    box.fill("^gradient_tape/")
    page.wait_for_timeout(1200)
    res["grad_names"] = [items.nth(i).inner_text().strip() for i in range(items.count())]
    box.fill("MatMul")
    page.wait_for_timeout(1200)
    if items.count():
        items.first.click(force=True)
        page.wait_for_timeout(1500)
        res["search_pick"] = page.evaluate(
            "() => { const s = sbs.tb.svg(); const g = s.querySelector('g.node.selected') ||"
            " s.querySelector('g.node.highlighted'); if (!g) return null;"
            " return { name: g.getAttribute('data-name'), rect: sbs.box(g), pane: sbs.box(s) }; }")
        res["search_shot"] = _shot(page, "tensorboard_search.png")
    box.fill("")
    box.press("Escape")
    page.wait_for_timeout(500)
    return res


# TensorBoard's own events, seen on its scene element: a node picked, a group opened or closed
_TB_EVENTS = """() => { window.tbEvents = []; const scene = sbs.deepAll('tf-graph-scene')[0];
  for (const t of ['node-select', 'node-toggle-expand', 'node-toggle-seriesgroup'])
    scene.addEventListener(t, () => window.tbEvents.push(t)); }"""


def _tb_pick_run(page, name: str) -> None:
    page.locator("paper-dropdown-menu").first.click()
    page.wait_for_timeout(300)
    page.locator("paper-item", has_text=name).first.click()


def _tb_open_series(page, series: str, errors: list[str], how: str) -> dict:
    """One way a learner has to open the series node ``series``, on a freshly loaded chain:
    ``plus`` (point at the node, click the "+" its hover shows), ``double-click`` (on the
    node), ``ungroup`` (pick the node, "Ungroup this series of nodes" in its info card).
    Done when more nodes than the folded drawing's are on screen and settled; failed when
    TensorBoard raises an error, when the action fired nothing (within 3 s), or after
    ``EXPAND_LIMIT_S``."""
    page.reload()
    page.wait_for_selector("g.node", timeout=120_000)
    page.evaluate(JS)
    if page.evaluate("() => sbs.deepAll('paper-dropdown-menu')[0].value") != "chain":
        _tb_pick_run(page, "chain")
    page.wait_for_function("(s) => sbs.tb.node(s)", arg=series, timeout=300_000)
    _wait_settled(page, "sbs.tb.nodes()")
    before = page.evaluate("() => sbs.tb.nodes()")
    page.evaluate(_TB_EVENTS)
    shape = page.evaluate("(s) => sbs.box(sbs.tb.node(s).querySelector('.nodecolortarget'))",
                          series)
    x, y = (shape["l"] + shape["r"]) / 2, (shape["t"] + shape["b"]) / 2
    page.mouse.move(x, y)  # hovering shows the node's "+"
    page.wait_for_timeout(500)
    seen = len(errors)
    res: dict = {"how": how}
    start = time.perf_counter()
    if how == "plus":
        plus = page.evaluate("(s) => sbs.box(sbs.tb.node(s).querySelector('.buttoncontainer'))",
                             series)
        px, py = (plus["l"] + plus["r"]) / 2, (plus["t"] + plus["b"]) / 2
        # what a click there meets (TensorBoard's page is in shadow roots)
        res["hit"] = page.evaluate(
            "([x, y]) => { const e = sbs.deepAll('tf-graph-scene')[0].shadowRoot"
            ".elementFromPoint(x, y); if (!e) return ''; const c = e.getAttribute('class');"
            " return e.tagName.toLowerCase() + (c ? '.' + c : ''); }", [px, py])
        page.mouse.click(px, py)
    elif how == "double-click":
        page.mouse.dblclick(x, y)
    else:
        page.mouse.click(x, y)
        page.wait_for_timeout(800)
        start = time.perf_counter()
        page.locator("tf-node-info paper-button", has_text="Ungroup this series").first.click()
    while True:
        waited = time.perf_counter() - start
        n = page.evaluate("() => sbs.tb.nodes()")
        fired = page.evaluate("() => window.tbEvents.filter(e => e !== 'node-select')")
        if n > before:
            res["s"] = waited + _wait_settled(page, "sbs.tb.nodes()", 600)
            res["nodes"] = page.evaluate("() => sbs.tb.nodes()")
            return res
        if len(errors) > seen:
            res["error"] = errors[seen].split("\n")[0].removeprefix("ERROR ")
            res["error_s"] = waited
            res["nodes"] = n
            return res
        if not fired and waited > 3:
            res["error"] = "nothing happened (no expand event)"
            return res
        if waited > EXPAND_LIMIT_S:
            res["error"] = f"not drawn within {EXPAND_LIMIT_S} s"
            return res
        page.wait_for_timeout(250)


def _tries_note(tries: list[dict]) -> str:
    """How each try to open TensorBoard's series ended, in words."""
    def one(t: dict) -> str:
        if "s" in t:
            return f"{t['how']}: drawn in {t['s']:.1f} s"
        said = f"{t['how']}: {t['error']}"
        if "error_s" in t:
            return said + f" after {t['error_s']:.1f} s, {t['nodes']} nodes drawn"
        if t.get("hit"):
            said += f" (a click on the '+' lands on the `{t['hit'].rstrip('.')}` behind it)"
        return said
    return "; ".join(one(t) for t in tries)


def _tb_chain(page, errors: list[str]) -> dict:
    """Open the chain's series node each way a learner has (the "+" on it, a double-click,
    "Ungroup" in its info card); when one draws the series, pan and zoom that drawing."""
    res: dict = {}
    series = page.evaluate(
        "() => [...sbs.tb.svg().querySelectorAll('g.node')].map(g => g.getAttribute('data-name'))"
        ".filter(n => n && /^mul.*\\[/.test(n))")  # the series node, "mul_[1-4999]"
    res["groups"] = series
    res["expand_s"] = None
    if not series:
        return res
    res["tries"] = []
    for how in ("plus", "double-click", "ungroup"):
        tried = _tb_open_series(page, series[0], errors, how)
        res["tries"].append(tried)
        print(f"   TensorBoard, {how}: {tried}", flush=True)
        res["open_shot" if "s" in tried else f"shot_{how}"] = _shot(
            page, f"tensorboard_chain_{how.replace('-', '')}.png")
        if "s" in tried:
            res["expand_s"], res["nodes_open"] = tried["s"], tried["nodes"]
            res["sight_open"] = page.evaluate("() => sbs.tb.sight()")
            for kind in ("pan", "zoom"):
                res[kind] = _frames(page, "sbs.tb.frames(k, n)", kind)
            return res
    return res


def _notebook_cells() -> list[str]:
    cells = ["%load_ext tfgraph_edu\nimport numpy as np\nimport tfgraph_edu as tf\n"
             "from tfgraph_edu.jupyter.widgets import GraphViewer"]
    for name, (_, src) in FUNCTIONS.items():
        cells.append(src + f"fn_{name} = f")
    cells.append("print('traced')")
    cells += [f"GraphViewer(fn_{name})" for name in FUNCTIONS]
    # the MLP step with every group open, to see which frame each gradient op is drawn in
    cells.append("mlp_open = GraphViewer(fn_mlp)\nfor scope in list(mlp_open.collapsed):\n"
                 "    mlp_open.toggle(scope)\nmlp_open")
    return cells


def measure_ours(p, tmp: Path) -> dict:
    from tests.jupyter import test_browser as tb
    proc, url, token = tb._server(tmp, "jupyterlab")  # noqa: SLF001 - shared test helpers
    try:
        tb._notebook(tmp / "side.ipynb", _notebook_cells())  # noqa: SLF001
        browser, page, errors = tb._open(p, "jupyterlab", url, token, "side.ipynb",  # noqa: SLF001
                                         size=(1400, 900))
        tb._run_all(page, ".jp-OutputArea-output:has-text('traced')",  # noqa: SLF001
                    ARTIFACTS / "ours_failed.png")
        tb._no_news(page)  # noqa: SLF001
        page.locator(".tfg-viewer").nth(len(FUNCTIONS)).locator("g.node").first.wait_for(
            timeout=300_000)
        page.evaluate(JS)
        out: dict = {"errors": errors}
        first_viewer = 2 + len(FUNCTIONS)  # the cell index of the first GraphViewer(...)
        for k, name in enumerate(FUNCTIONS):
            res: dict = {}
            out[name] = res
            cell = page.locator(".jp-Notebook .jp-Cell").nth(first_viewer + k)
            cell.scroll_into_view_if_needed()
            # run the viewer's cell again: from Shift+Enter to its new drawing settled
            page.evaluate("(k) => document.querySelectorAll('.tfg-viewer')[k].dataset.old = 1", k)
            cell.locator(".jp-InputArea-editor").click()
            start = time.perf_counter()
            page.keyboard.press("Shift+Enter")
            fresh = (f"document.querySelectorAll('.jp-Notebook .jp-Cell')[{first_viewer + k}]"
                     ".querySelector('.tfg-viewer:not([data-old])')")
            page.wait_for_function(f"() => {{ const v = {fresh}; return v && "
                                   "v.querySelector('g.node'); }", timeout=300_000)
            res["open_s"] = time.perf_counter() - start + _wait_settled(
                page, f"{fresh}.querySelectorAll('g.node').length")
            viewer = page.locator(".tfg-viewer").nth(k)
            # the viewer's top at the window's top, as a learner scrolls to read it
            viewer.evaluate("v => v.scrollIntoView({block: 'start'})")
            page.wait_for_timeout(500)
            res["sight"] = page.evaluate("(k) => sbs.ours.sight(k)", k)
            res["top"] = page.evaluate(
                "(k) => [...sbs.ours.host(k).querySelectorAll('.tfg-canvas svg g.graph > "
                "g.cluster > title, .tfg-canvas svg g.graph > g.node.tfg-box > title')]"
                ".map(t => t.textContent)", k)
            res["shot"] = _shot(page, f"tfgraph_edu_{name}.png")
            if name == "if_loop":
                res["in_place"] = {
                    f"{op}/{b}": tb._inside(i, o)  # noqa: SLF001
                    if (i := tb._titled(page, "cluster", f"cluster_{op}/{b}"))  # noqa: SLF001
                    and (o := tb._titled(page, "cluster", f"cluster_{op}")) else False  # noqa: SLF001
                    for op, bodies in (("while", ("cond", "body")), ("cond", ("then", "else")))
                    for b in bodies}
            if name == "linreg":
                res.update(_ours_details(page, viewer, k))
            if name == "mlp":
                res.update(_ours_search(page, viewer, k))
                res["grad_homes"] = page.evaluate(f"() => sbs.ours.gradHomes({len(FUNCTIONS)})")
            if name == "chain":
                res.update(_ours_chain(page, viewer, k))
        out["controls"] = page.evaluate(
            "() => { const v = sbs.ours.host(0); const q = (s) => !!v.querySelector(s);"
            " return { fit: q('.tfg-fit'), search: q('.tfg-search'), legend: q('.tfg-legend'),"
            " minimap: [...document.querySelectorAll('.tfg-viewer .tfg-minimap')].length > 0,"
            " zoomButtons: q('.tfg-zoom-in') && q('.tfg-zoom-out') }; }")
        out["minimap_shown"] = page.evaluate(
            f"() => [...document.querySelectorAll('.tfg-viewer')].slice(0, {len(FUNCTIONS)})"
            ".map(v => !!v.querySelector('.tfg-minimap.tfg-shown'))")
        out["errors"] = tb._js_errors(errors)  # noqa: SLF001
        browser.close()
        return out
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


def _ours_details(page, viewer, k: int) -> dict:
    search = viewer.locator(".tfg-search")
    search.fill(f"{DETAIL_OP}$")
    search.press("Enter")
    details = viewer.locator(".tfg-details")
    details.locator(".tfg-node-type", has_text=DETAIL_OP).wait_for(timeout=30_000)
    page.wait_for_timeout(500)
    return {"details": details.inner_text(), "details_shot": _shot(page, "tfgraph_edu_details.png")}


def _ours_search(page, viewer, k: int) -> dict:
    search = viewer.locator(".tfg-search")
    search.fill("MatMul")
    search.press("Enter")
    page.wait_for_timeout(1500)
    matches = viewer.locator(".tfg-match")
    listed = [matches.nth(i).inner_text().strip() for i in range(matches.count())]
    res: dict = {"search_listed": len(listed), "search_names": listed[:6]}
    res["search_pick"] = page.evaluate(
        "(k) => { const v = sbs.ours.host(k); const g = v.querySelector('g.node.tfg-selected')"
        " || v.querySelector('g.node.tfg-match-now'); if (!g) return null;"
        " return { name: g.querySelector('title').textContent, rect: sbs.box(g),"
        " pane: sbs.box(v.querySelector('.tfg-canvas')) }; }", k)
    res["search_shot"] = _shot(page, "tfgraph_edu_search.png")
    search.fill("^gradient_tape/")
    search.press("Enter")
    page.wait_for_timeout(1500)
    res["grad_names"] = [matches.nth(i).inner_text().strip() for i in range(matches.count())]
    viewer.locator(".tfg-fit").click()
    return res


def _ours_chain(page, viewer, k: int) -> dict:
    res: dict = {}
    count = f"sbs.ours.host({k}).querySelectorAll('g.node').length"
    res["groups"] = page.evaluate(
        "(k) => [...sbs.ours.host(k).querySelectorAll('g.node.tfg-box > title')]"
        ".map(t => t.textContent)", k)
    before = page.evaluate(f"() => {count}")
    box = page.evaluate(
        "(k) => { for (const g of sbs.ours.host(k).querySelectorAll('g.node.tfg-box')) {"
        " if (g.querySelector('title').textContent.includes('mul')) { const r ="
        " g.getBoundingClientRect(); return {x: (r.left + r.right) / 2, y: (r.top + r.bottom) / 2};"
        " } } return null; }", k)
    if box is None:
        res["expand_s"] = None
        return res
    start = time.perf_counter()
    page.mouse.dblclick(box["x"], box["y"])
    page.wait_for_function(f"() => {count} !== {before} && !sbs.ours.host({k})"
                           ".querySelector('.tfg-busy.tfg-shown')", timeout=600_000)
    res["expand_s"] = time.perf_counter() - start + _wait_settled(page, count, 600)
    res["nodes_open"] = page.evaluate(f"() => {count}")
    res["sight_open"] = page.evaluate("(k) => sbs.ours.sight(k)", k)
    res["open_shot"] = _shot(page, "tfgraph_edu_chain_opened.png")
    for kind in ("pan", "zoom"):
        res[kind] = _frames(page, f"sbs.ours.frames({k}, k, n)", kind)
    return res


# -- the table ------------------------------------------------------------------------------

def _verdict(tb_score: float, ours_score: float, why_tb: str, why_ours: str,
             tie: str = "tie") -> str:
    if abs(tb_score - ours_score) < 1e-9:
        return f"{tie}"
    return f"**TensorBoard**: {why_tb}" if tb_score > ours_score else f"**tfgraph_edu**: {why_ours}"


def _tb_homes(names: list[str]) -> dict:
    """TensorBoard's group of each op: its name without the last part (its hierarchy is the
    op names' parts, so ``gradient_tape/sequential/dense/MatMul/MatMul`` is in
    ``gradient_tape/sequential/dense/MatMul``, under the top-level ``gradient_tape``)."""
    return {n: n.rsplit("/", 1)[0] if "/" in n else "" for n in names}


def _nested(homes: dict) -> tuple[int, int]:
    """(gradient ops whose group is inside a forward scope, gradient ops): a group is a
    forward one when its outermost part is not a tape's (``gradient_tape``, ``cluster_`` of
    ours stripped)."""
    def forward(group: str) -> bool:
        head = group.removeprefix("cluster_").split("/", 1)[0]
        return bool(head) and not head.startswith("gradient_tape")
    return sum(forward(g) for g in homes.values()), len(homes)


def _sight_cell(res: dict) -> str:
    s = res["sight"]
    return (f"{s['minText']:.1f} px smallest, {s['small']}/{s['texts']} texts < 9 px, "
            f"{s['readable']}/{s['nodes']} nodes readable, open {res['open_s']:.1f} s")


def _details_facts(text: str) -> dict:
    import re
    return {"source line": DETAIL_SOURCE in text,
            "dtype": bool(re.search(r"float32|DT_FLOAT", text)),
            "shape": bool(re.search(r"8\s*[×x,]\s*1|\(8, 1\)|\[8,\s*1\]", text))}


def table(tb: dict, ours: dict) -> str:
    rows = []
    names = list(FUNCTIONS)
    # first sight
    tb_min = min(tb[n]["sight"]["minText"] for n in names)
    our_min = min(ours[n]["sight"]["minText"] for n in names)
    tb_small = sum(tb[n]["sight"]["small"] for n in names)
    our_small = sum(ours[n]["sight"]["small"] for n in names)
    tb_read = sum(tb[n]["sight"]["readable"] for n in names)
    our_read = sum(ours[n]["sight"]["readable"] for n in names)
    cell = lambda side: "<br>".join(f"{n}: {_sight_cell(side[n])}" for n in names)  # noqa: E731
    score_tb = (tb_min >= READABLE_PX - 0.05) + (tb_small < our_small) + (tb_read > our_read)
    score_us = (our_min >= READABLE_PX - 0.05) + (our_small < tb_small) + (our_read > tb_read)
    rows.append(("first sight", cell(tb), cell(ours), _verdict(
        score_tb, score_us,
        f"smallest text {tb_min:.1f} px against {our_min:.1f}; {tb_small} texts under 9 px "
        f"against {our_small}; {tb_read} readable nodes against {our_read}",
        f"smallest text {our_min:.1f} px against {tb_min:.1f}; {our_small} texts under 9 px "
        f"against {tb_small}; {our_read} readable nodes against {tb_read}")))
    # control flow
    t = tb["if_loop"]
    tb_cf = (f"`while` node class `{t.get('while_class')}`, `cond` `{t.get('cond_class')}`; "
             f"bodies drawn apart in the Functions column: {', '.join(t.get('library') or [])}")
    placed = ours["if_loop"].get("in_place", {})
    our_cf = "bodies inside their op's frame: " + ", ".join(
        f"{k} {'yes' if v else 'NO'}" for k, v in placed.items())
    tb_in = 0  # a leaf op node is not expandable into its body
    us_in = sum(placed.values())
    rows.append(("control flow", tb_cf, our_cf, _verdict(
        tb_in, us_in, "", f"{us_in}/4 bodies drawn in place, TensorBoard 0/4 (they sit in a "
        "separate column, linked by name only)")))
    # grouping
    tbm, usm = tb["mlp"], ours["mlp"]
    tb_in, tb_n = _nested(_tb_homes(tbm.get("grad_names", [])))
    us_in, us_n = _nested(usm.get("grad_homes", {}))
    mirror = sum(1 for x in tbm.get("grad_names", []) if "/sequential/" in x or "/dense" in x)
    tb_g = (f"top-level groups (MLP): {', '.join(tbm['top'])}; "
            f"`^gradient_tape/` lists {len(tbm.get('grad_names', []))}; drawn inside the "
            f"group of their forward scope: {tb_in}/{tb_n} (groups follow the names: every "
            f"one under `gradient_tape`, {mirror} in its copy of the layer scopes)")
    us_g = (f"top-level groups (MLP): {', '.join(usm['top'])}; "
            f"`^gradient_tape/` lists {len(usm.get('grad_names', []))}; drawn inside the "
            f"frame of their forward scope: {us_in}/{us_n} (a `gradient` frame in "
            "`sequential/dense`, `sequential/dense_1`, the loss; names unchanged)")
    rows.append(("grouping", tb_g, us_g, _verdict(
        tb_in / max(tb_n, 1), us_in / max(us_n, 1),
        f"{tb_in}/{tb_n} gradient ops inside their forward scope against {us_in}/{us_n}",
        f"{us_in}/{us_n} gradient ops drawn inside their forward scope against "
        f"{tb_in}/{tb_n}: folding a layer folds its gradients")))
    # details
    tf_facts = _details_facts(tb["linreg"].get("details", ""))
    us_facts = _details_facts(ours["linreg"].get("details", ""))
    fmt = lambda f: ", ".join(f"{k} {'yes' if v else 'no'}" for k, v in f.items())  # noqa: E731
    rows.append((f"details (`{DETAIL_OP}` of the regression step)", fmt(tf_facts),
                 fmt(us_facts), _verdict(
                     sum(tf_facts.values()), sum(us_facts.values()),
                     "more of source line, dtype and shape", "more of source line, dtype and "
                     "shape: " + ", ".join(k for k, v in us_facts.items()
                                           if v and not tf_facts[k]))))
    # fit/zoom/search/legend/minimap
    def ctl(side):
        c = side["controls"]
        pick = side["mlp"].get("search_pick")
        off = f"{_centre_offset(pick['rect'], pick['pane']):.0f} px from the pane's centre" \
            if pick else "no node picked"
        return (", ".join(f"{k} {'yes' if v else 'no'}" for k, v in c.items())
                + f"; `MatMul` search lists {side['mlp'].get('search_listed', 0)}, the picked "
                f"node {off}"), sum(bool(v) for v in c.values())
    tb_c, tb_n = ctl(tb)
    us_c, us_n = ctl(ours)
    mm = ours.get("minimap_shown", [])
    us_c += f"; minimap shown at open in {sum(mm)}/{len(mm)} viewers"
    rows.append(("fit/zoom/search/legend/minimap", tb_c, us_c, _verdict(
        tb_n, us_n, f"{tb_n} of the 5 controls against {us_n}",
        f"{us_n} of the 5 controls against {tb_n}")))
    # large graphs
    def big(side):
        c = side["chain"]
        head = f"open {c['open_s']:.1f} s; groups {', '.join(c['groups'][:3])}; "
        if c.get("expand_s") is None:
            note = ("not opened: " + _tries_note(c["tries"]) if c.get("tries")
                    else c.get("expand_note", "big group not found"))
            return head + note, float("inf"), float("inf")
        pan, zoom = c["pan"]["median"], c["zoom"]["median"]
        if c.get("tries"):
            head += _tries_note(c["tries"]) + "; "
        return (head + f"opening the big group {c['expand_s']:.1f} s -> {c['nodes_open']} "
                f"nodes drawn; median frame on that view: pan {pan:.0f} ms, zoom {zoom:.0f} ms "
                "(budget 33)"), c["expand_s"], max(pan, zoom)
    tb_b, tb_e, tb_f = big(tb)
    us_b, us_e, us_f = big(ours)
    score_tb = (tb_e < us_e) + (tb_f < us_f)
    score_us = (us_e < tb_e) + (us_f < tb_f)
    def said(v: float, unit: str) -> str:
        if v == float("inf"):
            return "never (not opened)" if unit == "s" else "none (nothing opened)"
        return f"{v:.1f} {unit}"
    rows.append(("large graphs (5,000-op chain)", tb_b, us_b, _verdict(
        score_tb, score_us, f"opens its group in {said(tb_e, 's')} against "
        f"{said(us_e, 's')}, frames {said(tb_f, 'ms')} against {said(us_f, 'ms')}",
        f"opens its group in {said(us_e, 's')} against {said(tb_e, 's')}, frames "
        f"{said(us_f, 'ms')} against {said(tb_f, 'ms')}; not the same drawing: ours opens "
        "the series page by page", tie=f"split: group {said(tb_e, 's')} / {said(us_e, 's')}, "
        f"frames {said(tb_f, 'ms')} / {said(us_f, 'ms')}")))
    # polish
    def pol(side):
        cut = sum(side[n]["sight"]["cut"] for n in names)
        late = len(side["errors"]) - side.get("errors_before_chain", len(side["errors"]))
        during = f" ({late} while opening the chain's series)" if late else ""
        return (f"{len(side['errors'])} JS errors{during}; {cut} labels cut with '…' at first "
                "sight; "
                f"{sum(side[n]['sight']['small'] for n in names)} texts under 9 px"), \
            len(side["errors"]) + cut
    tb_p, tb_bad = pol(tb)
    us_p, us_bad = pol(ours)
    rows.append(("polish", tb_p, us_p, _verdict(
        -tb_bad, -us_bad, f"{tb_bad} flaws counted against {us_bad}",
        f"{us_bad} flaws counted against {tb_bad}")))
    lines = ["| point | TensorBoard 2.21 | tfgraph_edu | who wins and why |",
             "|---|---|---|---|"]
    lines += [f"| {a} | {b} | {c} | {d} |" for a, b, c, d in rows]
    return "\n".join(lines)


def _save(side: str, figures: dict) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / f"{side}.json").write_text(json.dumps(figures, indent=1, default=str))


def main() -> None:
    if "--table" in sys.argv:  # the table again, from the figures of the last runs
        tb, ours = (json.loads((ARTIFACTS / f"{s}.json").read_text())
                    for s in ("tensorboard", "tfgraph_edu"))
        print(table(tb, ours))
        return
    if "--write-logs" in sys.argv:
        write_logs(Path(sys.argv[sys.argv.index("--write-logs") + 1]))
        return
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:  # started in the TF venv: the browser part runs in the project's
        venv = ROOT / ".venv/bin/python"
        if not venv.exists():
            venv = ROOT.parent / "main/.venv/bin/python"
        env = dict(os.environ, TFGRAPH_TF_PYTHON=sys.executable,
                   PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
        os.execve(str(venv), [str(venv), __file__, *sys.argv[1:]], env)
    sys.path.insert(0, str(ROOT))
    # one side only, its raw figures printed (to look at one tool, or to debug)
    only = sys.argv[sys.argv.index("--only") + 1] if "--only" in sys.argv else None
    tb = ours = None
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        logdir = tmp / "logs"
        env = dict(os.environ, PYTHONPATH=str(ROOT), TF_CPP_MIN_LOG_LEVEL="2")
        print("-- writing the four graphs with TensorFlow", flush=True)
        if only != "tfgraph_edu":
            subprocess.run([tf_python(), __file__, "--write-logs", str(logdir)], check=True,
                           env=env)
        proc, url = start_tensorboard(logdir) if only != "tfgraph_edu" else (None, None)
        try:
            with sync_playwright() as p:
                if proc:
                    print(f"-- TensorBoard at {url}", flush=True)
                    tb = measure_tensorboard(p, url)
                    _save("tensorboard", tb)
                if only != "tensorboard":
                    print("-- tfgraph_edu in JupyterLab", flush=True)
                    (tmp / "lab").mkdir()
                    ours = measure_ours(p, tmp / "lab")
                    _save("tfgraph_edu", ours)
        finally:
            if proc:
                proc.terminate()
                proc.wait(timeout=30)
    if only:
        print(json.dumps(tb if only == "tensorboard" else ours, indent=1, default=str))
        return
    print()
    print(table(tb, ours))
    print(f"\nscreenshots and raw figures: {ARTIFACTS.relative_to(ROOT)}/")


if __name__ == "__main__":
    main()
