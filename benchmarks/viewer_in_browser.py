"""The graph viewer in Chromium: how long big graphs take to open.

For each graph: the kernel side (GraphViewer: DOT text, Graphviz's SVG, node details, each
synced trait serialised as it is set) and
the browser side (the viewer's ES module rendering that state in Debian's Chromium, driven by
Playwright, until the graph is fitted in its pane), measured in one process.  The target is
under 2 s in all for a 10,000-op graph.  No Jupyter server: the widget's state is handed to
its front end through a minimal stand-in for the anywidget model.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np

import tfgraph_edu as tf
from tfgraph_edu.jupyter.widgets import GraphViewer

WIDGETS = Path(__file__).resolve().parents[1] / "widgets"
CHROMIUM = "/usr/bin/chromium"
STATE = ["title", "words", "legend", "functions", "concrete_index", "optimized", "collapsed",
         "svg", "dot", "nodes", "node_ids", "cluster_ids", "folded", "selected", "report",
         "step", "step_order", "step_where", "step_outputs"]

PAGE = """<!doctype html><html><head><meta charset="utf-8"><style>%s</style></head>
<body style="width:1400px"><div id="host"></div></body></html>"""

MODEL = """
window.openViewer = (state) => {
  const handlers = {};
  const model = { get: (k) => state[k], set: (k, v) => { state[k] = v; },
                  save_changes() {}, send() {}, on: (e, f) => { handlers[e] = f; } };
  const host = document.getElementById("host");
  host.replaceChildren();
  const start = performance.now();
  window.tfgRender({ model, el: host });
  return new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => {
    const g = host.querySelector("svg g.graph");
    const pane = host.querySelector(".tfg-canvas").getBoundingClientRect();
    const r = g ? g.getBoundingClientRect() : null;
    const inside = !!r && r.left >= pane.left - 2 && r.right <= pane.right + 2 &&
                   r.top >= pane.top - 2 && r.bottom <= pane.bottom + 2;
    done({ ms: performance.now() - start, nodes: host.querySelectorAll("g.node").length,
           inside });
  })));
};
"""


def graphs():
    def unrolled(x):
        for _ in range(2500):
            x = x * 1.0001 + 1.0
        return x

    def named(x):
        for i in range(2500):
            x = tf.add(tf.multiply(x, 1.0001, name=f"scale{i}"), 1.0, name=f"shift{i}")
        return x

    def layers(x):
        for i in range(50):
            with tf.name_scope(f"layer{i}"):
                for _ in range(50):
                    x = x * 1.0001 + 1.0
        return x

    yield "10,000 ops, like-named (series)", tf.function(unrolled, autograph=False), \
        (tf.constant(0.0),)
    yield "10,000 ops, unlike names (blocks)", tf.function(named, autograph=False), \
        (tf.constant(0.0),)
    yield "10,000 ops in 50 scopes", tf.function(layers, autograph=False), (tf.constant(0.0),)
    model = tf.keras.Sequential([tf.keras.layers.Dense(64, activation="relu"),
                                 tf.keras.layers.Dense(64, activation="relu"),
                                 tf.keras.layers.Dense(10)])
    model.compile(optimizer="adam",
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    rng = np.random.default_rng(0)
    model.fit(rng.random((64, 8), dtype=np.float32), rng.integers(0, 10, 64), epochs=1,
              verbose=0)
    yield "Keras train step (3 Dense, Adam)", model.train_function, None


def main() -> None:
    from playwright.sync_api import sync_playwright
    js = (WIDGETS / "graph_viewer.js").read_text().replace(
        "export default { render };", "window.tfgRender = render;")
    css = (WIDGETS / "graph_viewer.css").read_text()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                    args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page(viewport={"width": 1500, "height": 900})
        page.set_content(PAGE % css)
        page.add_script_tag(content=js + MODEL)
        small = tf.function(lambda x: x * 2.0)  # warm-up: imports, Graphviz, the page
        small(tf.constant(1.0))
        page.evaluate("(s) => window.openViewer(s)", GraphViewer(small).get_state(STATE))
        for label, fn, args in graphs():
            if args is not None:
                fn(*args)
            n = len(fn.concrete_functions[-1].graph.operations)
            start = time.perf_counter()
            viewer = GraphViewer(fn)  # serialises each synced trait as it is set
            kernel = time.perf_counter() - start
            state = json.loads(json.dumps(viewer.get_state(STATE)))  # what the page receives
            result = page.evaluate("(s) => window.openViewer(s)", state)
            total = kernel + result["ms"] / 1e3
            print(f"{label}: {n} ops -> {result['nodes']} nodes drawn; kernel {kernel:.2f} s, "
                  f"browser {result['ms'] / 1e3:.2f} s, total {total:.2f} s "
                  f"({total / 2.0:.2f} of the 2 s target); fitted inside the pane: "
                  f"{result['inside']}")
        browser.close()


if __name__ == "__main__":
    main()
