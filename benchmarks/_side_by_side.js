// Page-side measurements for benchmarks/tensorboard_side_by_side.py, the same for TensorBoard's
// graph dashboard (Polymer, inside shadow roots) and for tfgraph_edu's viewer: what a learner
// sees in a pane (text sizes on screen, nodes readable there) and frame times while panning
// and zooming.  Passed to page.evaluate as one function (TensorBoard's page forbids inline
// scripts), which sets window.sbs.

() => {
  // every element matching `sel`, open shadow roots included
  const deepAll = (sel, root = document) => {
    const out = [];
    const walk = (r) => {
      out.push(...r.querySelectorAll(sel));
      for (const e of r.querySelectorAll("*")) if (e.shadowRoot) walk(e.shadowRoot);
    };
    walk(root);
    return out;
  };
  const box = (e) => { const r = e.getBoundingClientRect(); return { l: r.left, t: r.top, r: r.right, b: r.bottom }; };
  const meets = (r, c) => r.right > c.l && r.left < c.r && r.bottom > c.t && r.top < c.b;
  // the rendered size of an SVG text: its font size (CSS or attribute) times the zoom of its
  // user space on screen
  const px = (t) => parseFloat(getComputedStyle(t).fontSize) * Math.abs(t.getScreenCTM().a);
  const READABLE = 9;

  // what is shown inside the rectangle `pane` (clipped to the window): the smallest text,
  // how many texts, how many under 9 px, how many nodes have a label of at least 9 px,
  // labels cut with an ellipsis
  const sight = (svgs, nodeSel, pane) => {
    const c = { l: Math.max(pane.l, 0), t: Math.max(pane.t, 0),
                r: Math.min(pane.r, innerWidth), b: Math.min(pane.b, innerHeight) };
    let minText = Infinity, texts = 0, small = 0, cut = 0;
    for (const svg of svgs) {
      for (const t of svg.querySelectorAll("text")) {
        if (!t.textContent.trim() || !t.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
        if (!meets(t.getBoundingClientRect(), c)) continue;
        const s = px(t);
        if (!(s > 0)) continue;
        texts += 1;
        minText = Math.min(minText, s);
        if (s < READABLE - 0.05) small += 1;
        if (t.textContent.includes("…")) cut += 1;
      }
    }
    let nodes = 0, readable = 0;
    for (const svg of svgs) {
      for (const g of svg.querySelectorAll(nodeSel)) {
        if (!g.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
        const r = g.getBoundingClientRect();
        if (!meets(r, c) || r.width === 0) continue;
        nodes += 1;
        const labels = [...g.querySelectorAll("text")].filter((t) => t.textContent.trim() &&
          t.checkVisibility({ visibilityProperty: true, opacityProperty: true }));
        if (labels.length && px(labels[0]) >= READABLE - 0.05) readable += 1;
      }
    }
    return { minText: texts ? minText : 0, texts, small, cut, nodes, readable, pane: c };
  };

  // one synthetic drag step or wheel notch per animation frame on `target`; the times
  // between frames (ms).  `view: window` lets d3's zoom (TensorBoard) follow the drag.
  const frames = (target, kind, n) => new Promise((done) => {
    const c = target.getBoundingClientRect();
    let x = c.left + c.width / 2, y = c.top + c.height / 2;
    const times = [];
    let i = 0, last = null;
    const mouse = (type, on) => on.dispatchEvent(new MouseEvent(type, {
      clientX: x, clientY: y, button: 0, buttons: type === "mouseup" ? 0 : 1, bubbles: true,
      cancelable: true, view: window }));
    if (kind === "pan") mouse("mousedown", target);
    const step = (now) => {
      if (last !== null) times.push(now - last);
      last = now;
      if (i >= n) {
        if (kind === "pan") mouse("mouseup", window);
        done(times);
        return;
      }
      if (kind === "pan") {
        x += 25 * Math.cos(i / 12);
        y += 25 * Math.sin(i / 12) - 4;
        mouse("mousemove", window);
      } else {
        const out = i < n / 2;
        target.dispatchEvent(new WheelEvent("wheel", { clientX: x + 100 * Math.sin(i / 9), clientY: y,
          deltaY: out ? 60 : -60, bubbles: true, cancelable: true, view: window }));
      }
      i += 1;
      requestAnimationFrame(step);
    };
    requestAnimationFrame(step);
  });

  // TensorBoard: its scene's SVG, the rectangle of the drawing pane, the scene element
  const tbScene = () => deepAll("tf-graph-scene")[0];
  const tbSvg = () => { const s = tbScene(); return s && s.shadowRoot.querySelector("svg#svg"); };
  const tb = {
    svg: tbSvg,
    sight: () => { const svg = tbSvg(); return sight([svg], "g.node", box(svg)); },
    nodes: () => { const svg = tbSvg(); return svg ? svg.querySelectorAll("g.node").length : 0; },
    node: (name) => { const svg = tbSvg(); return svg && svg.querySelector(`g.node[data-name="${name}"]`); },
    frames: (kind, n) => frames(tbSvg(), kind, n),
    info: () => {
      const e = deepAll("tf-node-info")[0];
      if (!e || !e.shadowRoot) return "";
      return [...e.shadowRoot.children].filter((c) => c.tagName !== "STYLE").map((c) => c.innerText || "").join("\n");
    },
    has: (sel) => deepAll(sel).filter((e) => e.checkVisibility()).length,
  };
  // tfgraph_edu: viewer `n` of the page
  const ours = {
    host: (n) => document.querySelectorAll(".tfg-viewer")[n],
    sight: (n) => {
      const canvas = ours.host(n).querySelector(".tfg-canvas");
      return sight([canvas.querySelector("svg")], "g.node, g.cluster", box(canvas));
    },
    frames: (n, kind, k) => frames(ours.host(n).querySelector(".tfg-canvas"), kind, k),
    // each gradient op drawn in viewer `n` -> the title of the smallest frame around it (a
    // Graphviz drawing's clusters never overlap: that is the frame it is drawn in), read in
    // the drawing's own coordinates, so nodes hidden until zoomed in count too
    gradHomes: (n) => {
      const title = (g) => g.querySelector(":scope > title").textContent;
      const extent = (g) => {
        const s = g.querySelector("polygon, ellipse, path");
        if (!s) return null;
        if (s.tagName === "ellipse") {
          const [cx, cy, rx, ry] = ["cx", "cy", "rx", "ry"].map((k) => parseFloat(s.getAttribute(k)));
          return { l: cx - rx, t: cy - ry, r: cx + rx, b: cy + ry };
        }
        // a polygon's points, or the x,y pairs of a rounded box's path
        const text = s.getAttribute(s.tagName === "path" ? "d" : "points");
        const xy = text.match(/-?[\d.]+,-?[\d.]+/g).map((p) => p.split(",").map(Number));
        const xs = xy.map((p) => p[0]), ys = xy.map((p) => p[1]);
        return { l: Math.min(...xs), t: Math.min(...ys), r: Math.max(...xs), b: Math.max(...ys) };
      };
      const frames = [...ours.host(n).querySelectorAll("g.cluster")].map((g) => [title(g), extent(g)]).filter((f) => f[1]);
      const out = {};
      for (const g of ours.host(n).querySelectorAll("g.node.tfg-grad")) {
        const r = extent(g);
        if (!r) continue;
        let best = "", area = Infinity;
        for (const [t, f] of frames) {
          const a = (f.r - f.l) * (f.b - f.t);
          if (f.l <= r.l + 1 && f.t <= r.t + 1 && f.r >= r.r - 1 && f.b >= r.b - 1 && a < area) {
            best = t; area = a;
          }
        }
        out[title(g)] = best;
      }
      return out;
    },
  };
  window.sbs = { deepAll, box, sight, frames, tb, ours };
}
