// Page-side measurements of the graph viewer, shared by benchmarks/viewer_in_browser.py and
// tests/jupyter/test_browser.py: what the learner sees (text sizes, what covers what) and
// how long frames take while panning and zooming.

window.tfgSight = (host) => {
  const canvas = host.querySelector(".tfg-canvas");
  const c = canvas.getBoundingClientRect();
  const overlap = (r) => r.right > c.left && r.left < c.right && r.bottom > c.top && r.top < c.bottom;
  let minText = Infinity, texts = 0, minBox = Infinity;
  for (const t of canvas.querySelectorAll("svg text")) {
    if (!t.checkVisibility() || !t.textContent.trim()) continue;
    const r = t.getBoundingClientRect();
    if (!overlap(r)) continue;
    texts += 1;
    const px = parseFloat(t.getAttribute("font-size") || "14") * t.getScreenCTM().a;
    minText = Math.min(minText, px);
    minBox = Math.min(minBox, r.height);
  }
  const svg = canvas.querySelector("svg");
  const g = svg && svg.querySelector("g.graph");
  const gr = g ? g.getBoundingClientRect() : null;
  const whole = !!gr && gr.left >= c.left - 2 && gr.right <= c.right + 2 && gr.top >= c.top - 2 &&
    gr.bottom <= c.bottom + 2;
  const scale = svg ? svg.getBoundingClientRect().width / parseFloat(svg.getAttribute("width")) : 0;
  const rect = (e) => { const r = e.getBoundingClientRect(); return { l: r.left, t: r.top, r: r.right, b: r.bottom }; };
  return { minText: texts ? minText : 0, minBox: texts ? minBox : 0, texts, whole, scale,
           minimap: !!host.querySelector(".tfg-minimap.tfg-shown"),
           canvas: rect(canvas), hint: rect(host.querySelector(".tfg-hint")),
           graph: gr ? { l: gr.left, t: gr.top, r: gr.right, b: gr.bottom } : null };
};

// one synthetic drag step or wheel notch per animation frame; the times between frames (ms)
window.tfgFrames = (host, kind, n) => new Promise((done) => {
  const canvas = host.querySelector(".tfg-canvas");
  const c = canvas.getBoundingClientRect();
  let x = c.left + c.width / 2, y = c.top + c.height / 2;
  const times = [];
  window.tfgScales = [];
  let i = 0, last = null;
  if (kind === "pan") {
    canvas.dispatchEvent(new MouseEvent("mousedown", { clientX: x, clientY: y, button: 0, bubbles: true }));
  }
  const step = (now) => {
    if (last !== null) {
      times.push(now - last);
      (window.tfgScales = window.tfgScales || []).push(host.tfgView ? host.tfgView.s : 0);
    }
    last = now;
    if (i >= n) {
      if (kind === "pan") window.dispatchEvent(new MouseEvent("mouseup", { clientX: x, clientY: y, bubbles: true }));
      done(times);
      return;
    }
    if (kind === "pan") {
      // a wide circle: new parts of the drawing come into view all the time
      x += 25 * Math.cos(i / 12);
      y += 25 * Math.sin(i / 12) - 4;
      window.dispatchEvent(new MouseEvent("mousemove", { clientX: x, clientY: y, bubbles: true }));
    } else {
      const out = i < n / 2;
      canvas.dispatchEvent(new WheelEvent("wheel", { clientX: x + 100 * Math.sin(i / 9), clientY: y,
        deltaY: out ? 60 : -60, bubbles: true, cancelable: true }));
    }
    i += 1;
    requestAnimationFrame(step);
  };
  requestAnimationFrame(step);
});

// The outline of every node and frame on screen, by title (a frame's is "cluster_<name>"):
// [left, top, right, bottom].
window.tfgBoxes = (host) => {
  const out = {};
  for (const g of host.querySelectorAll("g.node, g.cluster")) {
    const t = g.querySelector(":scope > title"), s = g.querySelector("path, polygon, ellipse");
    if (!t || !s) continue;
    const r = s.getBoundingClientRect();
    out[t.textContent] = [r.left, r.top, r.right, r.bottom];
  }
  return out;
};

// The edges drawn through another node's outline (more than 2 px inside it), as
// [tail, head, node]: each edge's path sampled at 60 points on screen.
window.tfgCrossings = (host) => {
  const boxes = Object.entries(window.tfgBoxes(host)).filter(([t]) => !t.startsWith("cluster_"));
  const out = [];
  for (const e of host.querySelectorAll("g.edge")) {
    const title = e.querySelector(":scope > title"), p = e.querySelector("path");
    if (!title || !p) continue;
    const [tail, head] = title.textContent.split("->");
    const m = p.getScreenCTM(), n = p.getTotalLength(), pts = [];
    for (let i = 0; i <= 60; i++) {
      const q = p.getPointAtLength((n * i) / 60);
      pts.push([m.a * q.x + m.c * q.y + m.e, m.b * q.x + m.d * q.y + m.f]);
    }
    for (const [t, [l, top, r, b]] of boxes) {
      if (t === tail || t === head) continue;
      if (pts.some(([x, y]) => x > l + 2 && x < r - 2 && y > top + 2 && y < b - 2)) {
        out.push([tail, head, t]);
        break;
      }
    }
  }
  return out;
};
