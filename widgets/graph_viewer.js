// Graph viewer for tfgraph_edu (anywidget front end; plain ES module, no CDN, no library).
//
// The graph's SVG (drawn by Graphviz in the kernel) sits at its natural size in one "stage"
// element moved by a CSS transform (translate + scale): panning and zooming change only that
// transform, batched to one per animation frame, and read no layout.  Text is shown only
// where it renders at 9 px or more (op names first, then edge labels and constants as the
// learner zooms in); hovering an op or an edge shows its words at any zoom.  Opening shows
// the whole graph when it fits at a readable size, else the inputs at a readable size with
// a minimap (click or drag on it to move the view).  A click on an op (at any depth) shows its
// details; a double-click on a frame folds it, on a grey box opens it, keeping the toggled
// node where it was on screen while the kernel lays the graph out again.  Search takes a
// regular expression and steps through every match.  Step mode walks the ops in the order
// they ran and shows the values in the details pane.  Every word comes from the `words`
// table (en, zh-Hant, zh-Hans).

const MIN_PX = 9;  // no text is drawn smaller than this (screen pixels)
const OP_FONT = 10;  // Graphviz font size of op names: decides the opening zoom
const MINOR_FONT = 8;  // constants and other minor nodes: shown from where this reads
const MAX_SCALE = 4;
const BIG = 1500;  // nodes: from here on, off-screen elements are culled, and below the
                   // zoom where op names are readable the drawing is painted on a canvas

function el_(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function fill(text, values) {
  return String(text).replace(/\{(\w+)\}/g, (m, k) => (k in values ? String(values[k]) : m));
}

function render({ model, el }) {
  const w = (key) => (model.get("words") || {})[key] || key;
  // big maps (nodes, node_ids, cluster_ids, folded) arrive as JSON text: parsed once each
  const parsed = new Map();
  const J = (key) => {
    const v = model.get(key);
    if (typeof v !== "string") return v || {};
    const hit = parsed.get(key);
    if (hit && hit.text === v) return hit.value;
    const value = JSON.parse(v);
    parsed.set(key, { text: v, value });
    return value;
  };
  el.classList.add("tfg-viewer");

  // -- toolbar --------------------------------------------------------------------------
  const bar = el_("div", "tfg-toolbar");
  const title = el_("span", "tfg-title");
  const select = el_("select", "tfg-select");
  const optLabel = el_("label", "tfg-opt");
  const opt = el_("input");
  opt.type = "checkbox";
  const optText = el_("span");
  optLabel.append(opt, optText);
  const search = el_("input", "tfg-search");
  search.type = "search";
  const prevBtn = el_("button", "tfg-prev", "▲");
  const nextBtn = el_("button", "tfg-next", "▼");
  const matchInfo = el_("span", "tfg-match-info");
  const fitBtn = el_("button", "tfg-fit");
  const zoomIn = el_("button", "tfg-zoom-in", "+");
  const zoomOut = el_("button", "tfg-zoom-out", "−");
  const svgBtn = el_("button", "tfg-export-svg");
  const pngBtn = el_("button", "tfg-export-png");
  bar.append(title, select, optLabel, search, prevBtn, nextBtn, matchInfo, fitBtn, zoomOut,
    zoomIn, svgBtn, pngBtn);

  const stepBar = el_("div", "tfg-stepbar");
  const backBtn = el_("button", "tfg-step-back");
  const stepBtn = el_("button", "tfg-step");
  const endBtn = el_("button", "tfg-run-all");
  const slider = el_("input", "tfg-slider");
  slider.type = "range";
  slider.min = "0";
  slider.value = "0";
  const stepInfo = el_("span", "tfg-step-info");
  stepBar.append(backBtn, stepBtn, endBtn, slider, stepInfo);

  const main = el_("div", "tfg-main");
  const left = el_("div", "tfg-left");
  const canvas = el_("div", "tfg-canvas");
  const stage = el_("div", "tfg-stage");
  const overview = el_("canvas", "tfg-overview");
  const marker = el_("div", "tfg-marker");
  const tip = el_("div", "tfg-tip");
  const hint = el_("div", "tfg-hint");
  const message = el_("div", "tfg-message");
  const busy = el_("div", "tfg-busy");
  canvas.append(stage, overview, marker, tip, message, busy);
  left.append(canvas, hint);
  const side = el_("div", "tfg-side");
  const matches = el_("ul", "tfg-matches");
  const details = el_("div", "tfg-details");
  const mini = el_("div", "tfg-minimap");
  // a bitmap, drawn once: an <img> of the SVG would be drawn again under every move of the
  // view's rectangle (seconds per frame for 10,000 nodes)
  const miniImg = el_("canvas", "tfg-minimap-img");
  const miniBox = el_("div", "tfg-minimap-view");
  mini.append(miniImg, miniBox);
  const legendBox = el_("div", "tfg-legend");
  side.append(matches, details, mini, legendBox);
  main.append(left, side);
  el.append(bar, stepBar, main);

  function words() {
    optText.textContent = " " + w("optimised_toggle");
    search.placeholder = w("search");
    search.title = w("search_regex");
    prevBtn.title = w("previous_match");
    nextBtn.title = w("next_match");
    fitBtn.textContent = w("fit");
    zoomIn.title = w("zoom_in");
    zoomOut.title = w("zoom_out");
    svgBtn.textContent = "⤓ " + w("export_svg");
    pngBtn.textContent = "⤓ " + w("export_png");
    backBtn.textContent = w("step_back");
    stepBtn.textContent = w("step");
    endBtn.textContent = w("run_all");
    hint.textContent = w("hint");
    mini.title = w("minimap");
    busy.textContent = w("laying_out");
  }

  // -- the view: screen = drawing * s + (x, y), in the canvas' pixels ---------------------
  // `full` is the drawing's size in its own units (1 unit = 1 px at s = 1); `pane` the
  // canvas' size, read on resize only.  Nothing in the pan/zoom path reads layout.
  let svg = null, full = null, touched = false;
  const view = { x: 0, y: 0, s: 1 };
  el.tfgView = view;  // read by the benchmark's frame log
  const pane = { w: 0, h: 0 };  // 0 until the viewer is on the page and has a size
  let frame = 0, idle = 0, hidden = new Set(), fontSizes = [], shownScale = 1;
  const requestPaint = () => { if (!frame) frame = requestAnimationFrame(paint); };
  function paint() {
    frame = 0;
    if (!svg) return;
    const still = !canvas.classList.contains("tfg-moving");
    // a big drawing zoomed out is painted on a canvas; while the learner moves, the canvas is
    // entered at once but left only when still (the DOM comes back once, not every frame)
    let far = big && view.s < readable();
    if (big && !still && !far && canvas.classList.contains("tfg-far-out")) far = true;
    if (far && !ensureShapes()) far = false;
    if (far !== canvas.classList.contains("tfg-far-out")) canvas.classList.toggle("tfg-far-out", far);
    if (far) {
      paintCanvas(still);
    } else {
      stage.style.transform = `translate(${view.x}px, ${view.y}px) scale(${view.s})`;
      shownScale = view.s;
      cull(still && !!el.tfgShown);  // the first view: what is in view first, the rest after
    }
    // progressive detail: one class per font size drawn too small, toggled only when crossed,
    // and only when the view is still (a toggle restyles every text of the drawing)
    if (still) {
      for (const f of fontSizes) {
        const small = f * view.s < MIN_PX;
        if (small !== hidden.has(f)) {
          canvas.classList.toggle(`tfg-small-${f.replace(".", "_")}`, small);
          if (small) hidden.add(f); else hidden.delete(f);
        }
      }
      const minor = view.s * MINOR_FONT < MIN_PX;
      if (minor !== canvas.classList.contains("tfg-far")) canvas.classList.toggle("tfg-far", minor);
    }
    placeMarker();
    placeMiniBox();
    if (pane.w && !el.tfgShown) {
      el.tfgShown = true;  // the first view is painted (read by the benchmark)
      // work left for later (the minimap of a big drawing) starts once that frame is out
      if (afterShown) { const job = afterShown; afterShown = null; requestAnimationFrame(() => { miniJob = setTimeout(job, 0); }); }
    }
  }
  function moving() {
    // while the learner pans or zooms the stage is its own layer; crisp again when idle
    canvas.classList.add("tfg-moving");
    clearTimeout(idle);
    idle = setTimeout(() => { canvas.classList.remove("tfg-moving"); requestPaint(); }, 250);
  }
  const fitScale = () => full ? Math.min(pane.w / full.w, pane.h / full.h) : 1;
  const minScale = () => Math.min(0.5 * fitScale(), 0.2);
  function centreOn(px, py, s) {
    view.s = s;
    view.x = pane.w / 2 - px * s;
    view.y = pane.h / 2 - py * s;
    requestPaint();
  }
  function fit() {
    if (!full) return;
    const s = Math.min(fitScale(), 1.5);  // a small graph is not blown up past 15 px text
    centreOn(full.w / 2, full.h / 2, s);
  }
  const readable = () => MIN_PX / OP_FONT;
  function fitsReadable() { return !!full && fitScale() >= readable(); }
  function boxOf(g) {
    // a node's (or frame's) box in drawing units; one layout read, on demand only
    const i = indexOf.get(g);
    if (i !== undefined && boxes) {
      return { x: boxes[4 * i], y: boxes[4 * i + 1], w: boxes[4 * i + 2] - boxes[4 * i],
               h: boxes[4 * i + 3] - boxes[4 * i + 1] };
    }
    const r = g.getBoundingClientRect(), c = stage.getBoundingClientRect();
    const k = shownScale;  // the scale on screen now (a new one may wait for its frame)
    return { x: (r.left - c.left) / k, y: (r.top - c.top) / k, w: r.width / k, h: r.height / k };
  }
  function inputs() {
    const found = [];
    for (const [id, i] of nodeIndex) {
      // the function's own inputs, not those of the branches and bodies inside it
      const cls = info_[i].cls, ours = /(^| )tfg-op( |$)/.test(cls);
      const info = ours ? null : J("nodes")[id];
      if (ours ? /(^| )tfg-input( |$)/.test(cls) && !/(^| )tfg-port( |$)/.test(cls)
        : info && info.type === "Placeholder" && !info.inside) found.push(gAt(i));
    }
    return found;
  }
  function openView() {
    // the whole graph when it fits at a readable size; else the inputs at a readable size
    if (!full || !pane.w) return;
    if (fitsReadable()) { fit(); return; }
    const s = Math.max(readable(), 1);
    const ins = inputs();
    let cx = full.w / 2, top = 0;
    if (ins.length) {
      const boxes = ins.map(boxOf);
      const l = Math.min(...boxes.map((b) => b.x)), r = Math.max(...boxes.map((b) => b.x + b.w));
      cx = (l + r) / 2;
      top = Math.max(0, Math.min(...boxes.map((b) => b.y)) - 24);
    }
    const half = pane.w / 2 / s;
    cx = Math.max(half, Math.min(full.w - half, cx));
    if (full.w * s <= pane.w) cx = full.w / 2;
    view.s = s;
    view.x = pane.w / 2 - cx * s;
    view.y = -top * s + 8;
    requestPaint();
  }
  function zoomAt(factor, sx, sy) {
    if (!svg) return;
    touched = true;
    moving();
    const px = sx ?? pane.w / 2, py = sy ?? pane.h / 2;
    const s = Math.min(MAX_SCALE, Math.max(minScale(), view.s * factor));
    const k = s / view.s;
    view.x = px - (px - view.x) * k;
    view.y = py - (py - view.y) * k;
    view.s = s;
    requestPaint();
  }
  function show(g, zoom) {
    // centre node `g`, at a readable zoom at least
    if (!svg || !g) return;
    touched = true;
    const b = boxOf(g);
    let s = view.s;
    if (zoom) s = Math.max(s, 1.25);
    s = Math.min(s, Math.max(view.s, 0.9 * Math.min(pane.w / b.w, pane.h / b.h)));
    centreOn(b.x + b.w / 2, b.y + b.h / 2, s);
  }
  let drag = null, moved = false, canvasRect = null;
  const local = (ev) => ({ x: ev.clientX - canvasRect.left, y: ev.clientY - canvasRect.top });
  // the canvas' place on the page, read when the pointer comes in (not per event: a read
  // after a style change forces a layout of the whole drawing)
  const where = () => { canvasRect = canvas.getBoundingClientRect(); };
  canvas.addEventListener("mouseenter", where);
  window.addEventListener("scroll", where, { capture: true, passive: true });
  canvas.addEventListener("wheel", (ev) => {
    ev.preventDefault();
    if (!canvasRect) where();
    const p = local(ev);
    zoomAt(Math.exp(-Math.max(-300, Math.min(300, ev.deltaY)) / 600), p.x, p.y);
  }, { passive: false });
  canvas.addEventListener("mousedown", (ev) => {
    if (ev.button !== 0) return;
    drag = { x: ev.clientX, y: ev.clientY, vx: view.x, vy: view.y };
    moved = false;
  });
  const onUp = () => { drag = null; miniDrag = false; canvas.classList.remove("tfg-dragging"); };
  const onMove = (ev) => {
    if (miniDrag) { miniGo(ev); return; }
    if (!drag || !svg) return;
    const dx = ev.clientX - drag.x, dy = ev.clientY - drag.y;
    if (!moved && Math.abs(dx) + Math.abs(dy) < 4) return;
    moved = true;
    touched = true;
    moving();
    canvas.classList.add("tfg-dragging");
    view.x = drag.vx + dx;
    view.y = drag.vy + dy;
    requestPaint();
  };
  window.addEventListener("mouseup", onUp);
  window.addEventListener("mousemove", onMove);
  const resize = new ResizeObserver(() => {
    const r = canvas.getBoundingClientRect();
    canvasRect = r;
    if (r.width < 2 || r.height < 2) return;
    const old = { ...pane };
    pane.w = r.width;
    pane.h = r.height;
    if (!touched || !old.w) openView();
    else { view.x += (pane.w - old.w) / 2; view.y += (pane.h - old.h) / 2; requestPaint(); }
    if (svg) drawMinimap(model.get("svg"));
  });
  resize.observe(canvas);

  // -- big graphs: made near the view only, culled, a bitmap when zoomed far out -----------
  // A big drawing's SVG is not parsed whole: its nodes, edges and frames are cut out of the
  // text, their boxes (drawing units) read from the text's numbers, and each <g> is made only
  // when it first comes near the view; elements far from the view are taken out of rendering
  // (display: none), in batches: only when the view leaves the area culled for last time.
  let big = false, items = [], itemText = null, info_ = [], boxes = null, indexOf = new Map();
  let out = null, culledFor = null, layerG = null, nodeIndex = new Map();
  const SVGNS = "http://www.w3.org/2000/svg";
  const unescape = (t) => t.indexOf("&") < 0 ? t : t.replace(/&(#x[0-9a-f]+|#\d+|lt|gt|amp|quot|apos);/gi, (m, e) =>
    e[0] === "#" ? String.fromCodePoint(e[1] === "x" || e[1] === "X" ? parseInt(e.slice(2), 16)
      : parseInt(e.slice(1), 10))
      : { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" }[e.toLowerCase()]);
  const ITEM = /<g id="(node|edge|clust)\d+" class="([^"]*)">\s*<title>([^<]*)<\/title>[\s\S]*?<\/g>/g;
  const KIND = { clust: 0, edge: 1, node: 2 };
  function cutItems(text) {
    // [skeleton text, item texts, item infos]; null when the text is not cut as expected
    const texts = [], infos = [];
    let first = -1, last = -1;
    ITEM.lastIndex = 0;
    for (let m; (m = ITEM.exec(text));) {
      if (first < 0) first = m.index;
      last = m.index + m[0].length;
      texts.push(m[0]);
      infos.push({ kind: KIND[m[1]], cls: unescape(m[2]), title: unescape(m[3]) });
    }
    if (first < 0 || infos.filter((it) => it.kind === 2).length < BIG) return null;
    return [text.slice(0, first) + text.slice(last), texts, infos];
  }
  function boxOfText(s, t, i) {
    // the box of the numbers in an item's points="..." and d="..." values, and its ellipse
    // (texts sit inside their shapes, or near their edge): one pass over the characters
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity, p = 0;
    for (;;) {
      const a = s.indexOf('points="', p), d = s.indexOf(' d="', p);
      if (a < 0 && d < 0) break;
      const start = a < 0 || (d >= 0 && d < a) ? d + 4 : a + 8;
      const end = s.indexOf('"', start);
      let num = 0, frac = 0, neg = false, inNum = false, dot = false, isX = true, x = 0;
      for (let k = start; k <= end; k++) {
        const c = k < end ? s.charCodeAt(k) : 32;
        if (c >= 48 && c <= 57) {
          inNum = true;
          if (dot) { frac /= 10; num += (c - 48) * frac; } else num = num * 10 + (c - 48);
        } else if (c === 46) {
          dot = true; frac = 1; inNum = true;
        } else if (c === 45 && !inNum) {
          neg = true;
        } else {
          if (inNum) {
            const v = neg ? -num : num;
            if (isX) x = v;
            else {
              if (x < x0) x0 = x; if (x > x1) x1 = x; if (v < y0) y0 = v; if (v > y1) y1 = v;
            }
            isX = !isX;
          }
          num = 0; neg = c === 45; inNum = false; dot = false;
        }
      }
      p = end + 1;
    }
    const e = s.indexOf("<ellipse");
    if (e >= 0) {
      const m = /cx="([^"]+)" cy="([^"]+)" rx="([^"]+)" ry="([^"]+)"/.exec(s.slice(e, s.indexOf(">", e)));
      if (m) {
        const cx = +m[1], cy = +m[2], rx = +m[3], ry = +m[4];
        x0 = Math.min(x0, cx - rx); x1 = Math.max(x1, cx + rx);
        y0 = Math.min(y0, cy - ry); y1 = Math.max(y1, cy + ry);
      }
    }
    if (x0 === Infinity) { x0 = y0 = x1 = y1 = 0; }
    boxes[4 * i] = t.a * x0 + t.e;
    boxes[4 * i + 1] = t.d * y0 + t.f;
    boxes[4 * i + 2] = t.a * x1 + t.e;
    boxes[4 * i + 3] = t.d * y1 + t.f;
  }
  function boxesFromText(t) {
    boxes = new Float32Array(itemText.length * 4);
    itemText.forEach((text, i) => boxOfText(text, t, i));
  }
  function gAt(i) {
    // the <g> of item i, made now if it was not yet
    if (i === undefined) return null;
    if (!items[i]) materialize([i]);
    return items[i];
  }
  function materialize(list) {
    const tmp = document.createElementNS(SVGNS, "g");
    tmp.innerHTML = list.map((i) => itemText[i]).join("");
    const made = [...tmp.children];
    made.forEach((g, k) => {
      const i = list[k];
      items[i] = g;
      indexOf.set(g, i);
      decorate(i, g);
      if (out[i]) g.style.display = "none";
      layerG[info_[i].kind].append(g);
    });
  }
  const MAKE_PER_FRAME = 600;
  function cull(still) {
    if (!big || !boxes) return;
    const x0 = -view.x / view.s, y0 = -view.y / view.s;
    const x1 = x0 + pane.w / view.s, y1 = y0 + pane.h / view.s;
    const c = culledFor;
    if (c && x0 >= c[0] && y0 >= c[1] && x1 <= c[2] && y1 <= c[3] &&
        (!still || (x1 - x0) * (y1 - y0) > 0.1 * (c[2] - c[0]) * (c[3] - c[1]))) return;
    const mx = x1 - x0, my = y1 - y0;  // a pane around: fewer, bigger batches
    const region = [x0 - mx, y0 - my, x1 + mx, y1 + my];
    const [a0, b0, a1, b1] = region;
    const make = [];
    for (let i = 0; i < items.length; i++) {
      const hide = boxes[4 * i + 2] < a0 || boxes[4 * i] > a1 || boxes[4 * i + 3] < b0 ||
        boxes[4 * i + 1] > b1 ? 1 : 0;
      if (hide !== out[i]) {
        if (!hide && !items[i]) {
          // made in batches while moving (those in view first); all at once when still
          const inView = !(boxes[4 * i + 2] < x0 || boxes[4 * i] > x1 || boxes[4 * i + 3] < y0 ||
            boxes[4 * i + 1] > y1);
          if (!still && !inView && make.length >= MAKE_PER_FRAME) continue;
          out[i] = 0;
          make.push(i);
          continue;
        }
        out[i] = hide;
        if (items[i]) items[i].style.display = hide ? "none" : "";
      }
    }
    if (make.length) materialize(make);
    // not all made yet: the region is done again next frame
    culledFor = still || make.length < MAKE_PER_FRAME ? region : null;
    if (!culledFor) requestPaint();
  }
  // zoomed out, a big drawing is painted on a canvas from its shapes (read once from the SVG
  // text, after the first view is on screen), only those in view, with no text.
  // Far out (most of the drawing in view) each kind of shape in each colour is one path,
  // drawn with one call: frames, then edges, then nodes.
  let shapes = null, layers = null, graphT = { a: 1, d: 1, e: 0, f: 0 };
  const WHOLE_BELOW = 0.3;
  const SHAPE = /<(polygon|polyline|ellipse|path)\b([^>]*)>/g;
  const attr = (a, name) => { const m = a.match(new RegExp(`\\s${name}="([^"]*)"`)); return m ? m[1] : null; };
  let shapesMade = 0;
  function shapesOf(text) {
    const found = [];
    SHAPE.lastIndex = 0;
    for (let m; (m = SHAPE.exec(text));) {
      const tag = m[1], a = m[2];
      let path;
      if (tag === "ellipse") {
        path = new Path2D();
        path.ellipse(+attr(a, "cx"), +attr(a, "cy"), +attr(a, "rx"), +attr(a, "ry"), 0, 0, 2 * Math.PI);
      } else if (tag === "path") {
        path = new Path2D(attr(a, "d") || "");
      } else {
        const pts = (attr(a, "points") || "").trim().split(/\s+/);
        path = new Path2D("M" + pts.join("L") + (tag === "polygon" ? "Z" : ""));
      }
      const fill = attr(a, "fill"), stroke = attr(a, "stroke");
      found.push({ path, fill: fill && fill !== "none" && fill !== "transparent" ? fill : null,
                   stroke: stroke && stroke !== "none" && stroke !== "transparent" ? stroke : null,
                   dashed: !!attr(a, "stroke-dasharray") });
    }
    return found;
  }
  function ensureShapes(then) {
    // the shapes of a big drawing, read from its text: at once (returns whether there are
    // any), or in slices between frames, calling `then` when all are read
    if (!big || !itemText) return false;
    if (!layers && !shapes) { shapes = new Array(itemText.length); shapesMade = 0; }
    const mine = itemText;
    const slice = () => {
      if (itemText !== mine) return;  // a new drawing came meanwhile
      const stop = then ? Math.min(itemText.length, shapesMade + 2500) : itemText.length;
      for (; shapesMade < stop; shapesMade++) shapes[shapesMade] = shapesOf(itemText[shapesMade]);
      if (shapesMade < itemText.length) { miniJob = setTimeout(slice, 0); return; }
      if (!layers) {
        const byLook = new Map();
        info_.forEach((it, i) => {
          for (const p of shapes[i]) {
            const key = `${it.kind}|${p.fill}|${p.stroke}|${p.dashed}`;
            if (!byLook.has(key)) {
              byLook.set(key, { kind: it.kind, fill: p.fill, stroke: p.stroke, dashed: p.dashed,
                                path: new Path2D() });
            }
            byLook.get(key).path.addPath(p.path);
          }
        });
        layers = [...byLook.values()].sort((a, b) => a.kind - b.kind);
      }
      if (then) then();
    };
    if (layers) { if (then) then(); return true; }
    slice();
    return !!layers;
  }
  let whole = null;
  function wholeBitmap(s) {
    const dpr = window.devicePixelRatio || 1;
    const b = Math.min(Math.max(s, WHOLE_BELOW) * dpr, Math.sqrt(16e6 / (full.w * full.h)));
    const c = document.createElement("canvas");
    c.width = Math.max(1, Math.ceil(full.w * b));
    c.height = Math.max(1, Math.ceil(full.h * b));
    const ctx = c.getContext("2d");
    ctx.fillStyle = "#fff";
    ctx.fillRect(0, 0, c.width, c.height);
    ctx.setTransform(b * graphT.a, 0, 0, b * graphT.d, b * graphT.e, b * graphT.f);
    ctx.lineWidth = Math.max(1, 0.7 / b);
    for (const p of layers) {
      if (p.fill) { ctx.fillStyle = p.fill; ctx.fill(p.path); }
      if (p.stroke) {
        ctx.strokeStyle = p.stroke;
        ctx.setLineDash(p.dashed ? [4, 3] : []);
        ctx.stroke(p.path);
      }
    }
    // drawn at b device pixels per unit: s = b / dpr on screen; w, h in drawing units
    return { c, sc: b / dpr, w: c.width / b, h: c.height / b };
  }
  function paintCanvas(still) {
    const dpr = window.devicePixelRatio || 1;
    const wpx = Math.round(pane.w * dpr), hpx = Math.round(pane.h * dpr);
    if (overview.width !== wpx || overview.height !== hpx) {
      overview.width = wpx;
      overview.height = hpx;
      overview.style.width = `${pane.w}px`;
      overview.style.height = `${pane.h}px`;
    }
    const ctx = overview.getContext("2d");
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.fillStyle = "#fff";
    ctx.fillRect(0, 0, wpx, hpx);
    const s = view.s;
    ctx.setTransform(dpr * s * graphT.a, 0, 0, dpr * s * graphT.d, dpr * (view.x + s * graphT.e),
      dpr * (view.y + s * graphT.f));
    ctx.lineWidth = Math.max(1, 0.7 / s);
    const x0 = -view.x / s, y0 = -view.y / s, x1 = x0 + pane.w / s, y1 = y0 + pane.h / s;
    if (s < WHOLE_BELOW || !still) {
      // the whole drawing as one bitmap, made once (at the finest size a 16-megapixel bitmap
      // allows): a frame is one image drawn; shapes are drawn one by one only when still
      if (!whole) whole = wholeBitmap(s);
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.imageSmoothingEnabled = true;
      ctx.drawImage(whole.c, dpr * view.x, dpr * view.y, dpr * s * whole.w, dpr * s * whole.h);
      return;
    }
    for (let i = 0; i < shapes.length; i++) {
      if (boxes[4 * i + 2] < x0 || boxes[4 * i] > x1 || boxes[4 * i + 3] < y0 ||
          boxes[4 * i + 1] > y1) continue;
      for (const p of shapes[i]) {
        if (p.fill) { ctx.fillStyle = p.fill; ctx.fill(p.path); }
        if (p.stroke) {
          ctx.strokeStyle = p.stroke;
          ctx.setLineDash(p.dashed ? [4, 3] : []);
          ctx.stroke(p.path);
        }
      }
    }
  }

  // -- minimap: the drawing without its text, the view as a rectangle on it ----------------
  let miniUrl = null, miniDrag = false;
  const miniFrame = () => {
    const mw = mini.clientWidth || 280, mh = mini.clientHeight || 150;
    const m = Math.min(mw / full.w, mh / full.h);
    return { m, ox: (mw - full.w * m) / 2, oy: (mh - full.h * m) / 2 };
  };
  let miniGeom = null;
  function placeMiniBox() {
    if (!full || !miniGeom) return;
    const { m, ox, oy } = miniGeom;
    const x = (-view.x / view.s) * m + ox, y = (-view.y / view.s) * m + oy;
    miniBox.style.transform = `translate(${x}px, ${y}px)`;
    miniBox.style.width = `${Math.max(3, (pane.w / view.s) * m)}px`;
    miniBox.style.height = `${Math.max(3, (pane.h / view.s) * m)}px`;
  }
  let miniJob = 0, afterShown = null;
  function drawMinimap(svgText) {
    if (miniUrl) URL.revokeObjectURL(miniUrl);
    miniUrl = null;
    clearTimeout(miniJob);
    const wanted = !!svg && pane.w > 0 && !fitsReadable();
    mini.classList.toggle("tfg-shown", wanted);
    miniGeom = wanted ? miniFrame() : null;
    if (!wanted) return;
    placeMiniBox();
    const dpr = window.devicePixelRatio || 1;
    miniImg.width = Math.round(mini.clientWidth * dpr);
    miniImg.height = Math.round(mini.clientHeight * dpr);
    const ctx = miniImg.getContext("2d");
    const { m, ox, oy } = miniGeom;
    if (big) {  // from the shapes read from the text: no image of 10,000 nodes to decode
      const job = () => ensureShapes(() => {
        if (!miniGeom) return;
        ctx.setTransform(dpr * m * graphT.a, 0, 0, dpr * m * graphT.d, dpr * (ox + m * graphT.e),
          dpr * (oy + m * graphT.f));
        ctx.lineWidth = 1 / m;
        for (const p of layers) {
          if (p.fill) { ctx.fillStyle = p.fill; ctx.fill(p.path); }
          if (p.stroke) { ctx.strokeStyle = p.stroke; ctx.stroke(p.path); }
        }
        if (!whole) whole = wholeBitmap(WHOLE_BELOW);  // ready before the first zoom out
        el.tfgReady = true;
      });
      if (el.tfgShown) miniJob = setTimeout(job, 0); else afterShown = job;
      return;
    }
    // made after the first picture is on screen: the drawing without its text, as an image
    miniJob = setTimeout(() => {
      const bare = svgText.replace(/<text\b[^>]*>[^<]*<\/text>/g, "")
        .replace(/<svg\b/, '<svg xmlns="http://www.w3.org/2000/svg"')
        .replace(/(<svg\b[^>]*?)\sxmlns="http:\/\/www\.w3\.org\/2000\/svg"/, "$1");
      const url = URL.createObjectURL(new Blob([bare], { type: "image/svg+xml" }));
      miniUrl = url;
      const img = new Image();
      img.onload = () => {
        if (miniUrl !== url) return;
        ctx.drawImage(img, dpr * ox, dpr * oy, dpr * full.w * m, dpr * full.h * m);
        URL.revokeObjectURL(url);
        miniUrl = null;
      };
      img.src = url;
    }, 30);
  }
  function miniGo(ev) {
    if (!miniGeom) return;
    const r = mini.getBoundingClientRect();
    const { m, ox, oy } = miniGeom;
    touched = true;
    moving();
    centreOn((ev.clientX - r.left - ox) / m, (ev.clientY - r.top - oy) / m, view.s);
  }
  mini.addEventListener("mousedown", (ev) => { ev.preventDefault(); miniDrag = true; miniGo(ev); });

  // -- pick marker: a ring in screen pixels around the picked node, pulsed when picked ------
  let marked = null;  // {x, y, w, h} in drawing units
  function placeMarker() {
    if (!marked) { marker.style.display = "none"; return; }
    marker.style.display = "block";
    const pad = 6;
    marker.style.transform =
      `translate(${marked.x * view.s + view.x - pad}px, ${marked.y * view.s + view.y - pad}px)`;
    marker.style.width = `${marked.w * view.s + 2 * pad}px`;
    marker.style.height = `${marked.h * view.s + 2 * pad}px`;
  }
  function mark(g, pulse) {
    for (const s of canvas.querySelectorAll(".tfg-selected")) s.classList.remove("tfg-selected");
    for (const s of canvas.querySelectorAll(".tfg-lit")) s.classList.remove("tfg-lit");
    marked = null;
    if (g) {
      g.classList.add("tfg-selected");
      const t = g.querySelector(":scope > title");
      for (const e of (t && edgesOf.get(t.textContent)) || []) gAt(e).classList.add("tfg-lit");
      marked = boxOf(g);
      if (pulse) {
        marker.classList.remove("tfg-pulse");
        void marker.offsetWidth;  // restart the animation
        marker.classList.add("tfg-pulse");
      }
    }
    requestPaint();
  }

  // -- hover: the words of an op or an edge at any zoom ------------------------------------
  // a gradient op hovered lights the forward op it differentiates (or the box it is folded in)
  let forwardLit = null;
  function lightForward(info) {
    if (forwardLit) forwardLit.classList.remove("tfg-forward-lit");
    forwardLit = info && info.forward ? visibleNode(info.forward) : null;
    if (forwardLit) forwardLit.classList.add("tfg-forward-lit");
  }
  function hover(ev) {
    const g = ev.target.closest && ev.target.closest("g.node, g.edge");
    if (!g || drag && moved) { tip.style.display = "none"; lightForward(null); return; }
    let text;
    if (g.classList.contains("node")) {
      const id = idOf(g), info = J("nodes")[id];
      const label = [...g.querySelectorAll("text")].map((t) => t.textContent).join(" ");
      text = info ? `${label}${info.name !== label ? "  (" + info.name + ")" : ""} · ${info.type}` +
        info.outputs.map((o) => `\n→ ${o.dtype} ${o.shape}`).join("") : label;
    } else {
      const t = g.querySelector(":scope > title");
      const label = [...g.querySelectorAll("text")].map((x) => x.textContent).join(" ");
      text = (t ? t.textContent.replace("->", " → ") : "") + (label ? `\n${label}` : "");
    }
    lightForward(g.classList.contains("node") ? J("nodes")[idOf(g)] : null);
    if (!canvasRect) canvasRect = canvas.getBoundingClientRect();
    tip.textContent = text;
    tip.style.display = "block";
    const p = local(ev);
    tip.style.transform = `translate(${Math.min(p.x + 14, pane.w - 260)}px, ${p.y + 14}px)`;
  }
  canvas.addEventListener("mouseover", (ev) => { if (!canvasRect) where(); hover(ev); });
  canvas.addEventListener("mouseleave", () => { tip.style.display = "none"; lightForward(null); });

  // -- names ----------------------------------------------------------------------------------
  const idOf = (g) => {
    const t = g.querySelector(":scope > title");
    if (!t) return null;
    const ids = J("node_ids");
    return ids[t.textContent] !== undefined ? ids[t.textContent] : t.textContent;
  };
  const idAt = (i) => {
    const ids = J("node_ids"), t = info_[i].title;
    return ids[t] !== undefined ? ids[t] : t;
  };
  let edgesOf = new Map();  // node title -> the indexes of its edges
  const nodeG = (id) => gAt(nodeIndex.get(id));
  function visibleNode(id) {
    // the node drawn for `id`: itself, or the box / op it is folded into
    const folded = J("folded")[id];
    if (folded !== undefined && nodeIndex.has(folded)) return nodeG(folded);
    let path = id;
    while (path) {
      if (nodeIndex.has(path)) return nodeG(path);
      const cut = path.lastIndexOf("/");
      if (cut < 0) break;
      path = path.slice(0, cut);
    }
    return null;
  }

  // -- details --------------------------------------------------------------------------------
  const section = (label, items) => {
    if (!items.length) return;
    details.append(el_("div", "tfg-label", label));
    const ul = el_("ul");
    for (const it of items) ul.append(typeof it === "string" ? el_("li", "", it) : it);
    details.append(ul);
  };
  function valueItem(t, v) {
    const li = el_("li", "tfg-value");
    li.append(el_("span", "", `${t.name}: ${t.dtype} ${t.shape}`));
    if (v === undefined) return li;
    const pre = el_("pre", "tfg-value-text", v.text || "");
    li.append(pre);
    if (v.min !== undefined) {
      li.append(el_("div", "tfg-value-stats",
        `shape (${(v.shape || []).join(", ")}) · min ${v.min.toPrecision(4)} · ` +
        `max ${v.max.toPrecision(4)} · mean ${v.mean.toPrecision(4)}`));
    }
    if (v.heat) {
      const grid = el_("div", "tfg-heat");
      grid.style.gridTemplateColumns = `repeat(${v.heat[0].length}, 8px)`;
      for (const row of v.heat) for (const x of row) {
        const c = el_("span");
        c.style.background = `rgb(${Math.round(255 - 200 * x)}, ${Math.round(255 - 120 * x)}, 255)`;
        grid.append(c);
      }
      li.append(grid);
    }
    return li;
  }
  function currentValues(name) {
    // the values of `name` at the latest step so far that ran it
    const order = model.get("step_order") || [];
    const outs = model.get("step_outputs") || [];
    const where = model.get("step_where") || [];
    for (let i = Math.min(model.get("step"), order.length) - 1; i >= 0; i--) {
      if (order[i] === name) return { values: outs[i] || {}, where: where[i] || "" };
    }
    return null;
  }
  function showDetails() {
    const name = model.get("selected");
    const info = J("nodes")[name];
    details.replaceChildren();
    if (!info) {
      if (name && (model.get("collapsed") || []).includes(name)) {
        details.append(el_("h4", "tfg-node-name", name));
        details.append(el_("p", "tfg-hint-text", fill(w("collapsed_box"), { n: "…" })));
        return;
      }
      details.append(el_("p", "tfg-hint-text", w("click_node")));
      const report = model.get("report") || [];
      if (report.length) {
        details.append(el_("div", "tfg-label",
          `${w("optimiser")}: ${fill(w("changes"), { n: report.length })}`));
        const ul = el_("ul", "tfg-report");
        for (const r of report) ul.append(el_("li", "", `${r.pass}: ${r.action} ${r.node} — ${r.why}`));
        details.append(ul);
      }
      return;
    }
    details.append(el_("h4", "tfg-node-name", info.name));
    details.append(el_("div", "tfg-node-type", info.type));
    if (info.tf_note) details.append(el_("p", "tfg-tf-note", w(info.tf_note)));
    if (info.inside) details.append(el_("div", "tfg-inside", `${w("inside")}: ${info.inside}`));
    details.append(el_("div", "tfg-function", `${w("in_function")}: ${info.function}`));
    const now = currentValues(name);
    section(w("inputs"), info.inputs.map((t) => `${t.name}: ${t.dtype} ${t.shape}`));
    if (now) {
      details.append(el_("div", "tfg-label tfg-where",
        now.where ? fill(w("values_at"), { i: whereText(now.where) }) : w("value")));
    }
    section(w("outputs"), info.outputs.map((t) => valueItem(t, now ? now.values[t.name] : undefined)));
    // an op that ran more than once (in a loop body): one button per run, to jump to it
    const order = model.get("step_order") || [];
    const where = model.get("step_where") || [];
    const runs = [];
    order.forEach((n, i) => { if (n === name) runs.push(i); });
    if (runs.length > 1) {
      details.append(el_("div", "tfg-label", w("iteration")));
      const row = el_("div", "tfg-iters");
      for (const i of runs.slice(0, 200)) {
        const b = el_("button", "tfg-iter", (where[i] || "").replace(/^.*: (\d+)(?: \([^()]*\))?$/, "$1"));
        b.title = whereText(where[i] || "");
        if (i === model.get("step") - 1) b.classList.add("tfg-iter-now");
        b.addEventListener("click", () => model.send({ type: "step", to: i + 1 }));
        row.append(b);
      }
      details.append(row);
    }
    section(w("control_inputs"), (info.control_inputs || []).map((c) => "^" + c));
    section(w("attrs"), Object.entries(info.attrs || {}).map(([k, v]) => `${k} = ${v}`));
    const report = model.get("report") || [];
    const touchedBy = report.filter((r) => r.node === info.name || r.by === info.name);
    section(w("optimiser"), touchedBy.map((r) => `${r.pass}: ${r.action} ${r.node} — ${r.why}`));
    if (info.source) {
      details.append(el_("div", "tfg-label", w("created_by")));
      details.append(el_("div", "tfg-source",
        `${info.source.file}, line ${info.source.line} (${info.source.function})`));
      if (info.source.text) details.append(el_("pre", "tfg-source-line", info.source.text));
    }
  }

  // -- step mode -------------------------------------------------------------------------------
  // "while: 3 · while_1: 2" (where a step ran) in words: "while iteration 3 · ..."
  const whereText = (where) => where.replace(/: (\d+)/g, ` ${w("iteration")} $1`);
  function markSteps() {
    const order = model.get("step_order") || [];
    const where = model.get("step_where") || [];
    const step = Math.min(model.get("step"), order.length);
    for (const g of canvas.querySelectorAll("g.tfg-done, g.tfg-current")) {
      g.classList.remove("tfg-done", "tfg-current");
    }
    for (let i = 0; i < step; i++) {
      const g = visibleNode(order[i]);
      if (g) g.classList.add("tfg-done");
    }
    slider.max = String(order.length);
    slider.value = String(step);
    slider.disabled = !order.length;
    if (step > 0) {
      const g = visibleNode(order[step - 1]);
      if (g) g.classList.add("tfg-current");
      stepInfo.textContent = `${step}/${order.length} · ${order[step - 1]}` +
        (where[step - 1] ? ` · ${whereText(where[step - 1])}` : "");
    } else {
      stepInfo.textContent = order.length ? `0/${order.length}` : "";
    }
  }
  function followStep() {
    const order = model.get("step_order") || [];
    const step = Math.min(model.get("step"), order.length);
    if (step > 0) {
      const name = order[step - 1];
      model.set("selected", name);
      model.save_changes();
      showDetails();
      const g = visibleNode(name);
      if (g) {
        mark(g, false);
        // the step's op off screen: bring it to the middle, at the same zoom
        const sx = marked.x * view.s + view.x, sy = marked.y * view.s + view.y;
        if (sx < 0 || sy < 0 || sx + marked.w * view.s > pane.w || sy + marked.h * view.s > pane.h) {
          show(g, false);
        }
      }
    }
  }

  // -- drawing ---------------------------------------------------------------------------------
  function drawLegend() {
    legendBox.replaceChildren(el_("div", "tfg-legend-title", w("legend")));
    for (const item of model.get("legend") || []) {
      const row = el_("div", "tfg-legend-row");
      const key = el_("span", `tfg-legend-key tfg-legend-${item.shape}`);
      if (item.fill) key.style.background = item.fill;
      key.style.borderColor = item.border;
      row.append(key, el_("span", "", item.text));
      legendBox.append(row);
    }
  }
  let anchor = null;  // {id, x, y}: where the toggled node was on screen, kept after a toggle
  function anchorOf(id) {
    // the <g> drawn for scope/node `id` now: a folded box, or the frame of the open scope
    if (nodeIndex.has(id)) return nodeG(id);
    const frames = J("cluster_ids");
    const i = info_.findIndex((it) => it.kind === 0 && frames[it.title] === id);
    return i < 0 ? null : gAt(i);
  }
  function toggle(id, g) {
    const b = boxOf(g);
    anchor = { id, x: (b.x + b.w / 2) * view.s + view.x, y: b.y * view.s + view.y };
    busy.classList.add("tfg-shown");
    model.send({ type: "toggle_scope", scope: id });
  }
  let collapsedNow = new Set(), minorTitles = new Set();
  function decorate(i, g) {
    // the viewer's own classes on an item's <g>, when it is made
    const it = info_[i];
    if (it.kind === 2) {
      const name = idAt(i);
      if (collapsedNow.has(name)) g.classList.add("tfg-box");
      else if (minorTitles.has(it.title)) g.classList.add("tfg-minor");
    } else if (it.kind === 1 && it.minor) {
      g.classList.add("tfg-minor-edge");
    }
  }
  function drawSvg() {
    const svgText = model.get("svg") || "";
    busy.classList.remove("tfg-shown");
    // a big drawing: its skeleton parsed, its items cut out of the text and made near the view
    const cut = svgText.length > 200 * BIG ? cutItems(svgText) : null;
    const holder = el_("div");
    if (svgText) {
      holder.innerHTML = cut ? cut[0] : svgText;  // graphviz output of escaped labels: no scripts
    } else {
      holder.append(el_("pre", "tfg-dot", model.get("dot")));
    }
    svg = holder.querySelector("svg");
    stage.replaceChildren();
    big = !!cut;
    indexOf = new Map();
    shapes = null;
    layers = null;
    whole = null;
    boxes = null;
    el.tfgReady = false;
    el.tfgShown = false;
    canvas.classList.remove("tfg-far-out");
    nodeIndex = new Map();
    edgesOf = new Map();
    marked = null;
    for (const f of hidden) canvas.classList.remove(`tfg-small-${f.replace(".", "_")}`);
    hidden = new Set();
    fontSizes = [];
    if (!svg) {
      full = null;
      items = [];
      info_ = [];
      mini.classList.remove("tfg-shown");
      stage.replaceChildren(...holder.childNodes);
      return;
    }
    const box = (svg.getAttribute("viewBox") || "0 0 100 100").split(/[ ,]+/).map(Number);
    full = { w: box[2], h: box[3] };
    svg.setAttribute("width", String(full.w));
    svg.setAttribute("height", String(full.h));
    fontSizes = [...new Set((svgText.match(/font-size="[\d.]+"/g) || [])
      .map((m) => m.slice(11, -1)))];
    let rules = "";
    for (const f of fontSizes) {
      rules += `.tfg-canvas.tfg-small-${f.replace(".", "_")} text[font-size="${f}"] ` +
        "{ display: none; }\n";
    }
    fontRules.textContent = rules;
    const root = svg.querySelector("g.graph");
    const m = root && root.transform.baseVal.consolidate();
    graphT = m ? m.matrix : { a: 1, d: 1, e: 0, f: 0 };
    if (big) {
      itemText = cut[1];
      info_ = cut[2];
      items = new Array(itemText.length).fill(null);
      out = new Uint8Array(items.length).fill(1);  // none made yet
      culledFor = null;
      layerG = [0, 1, 2].map(() => document.createElementNS(SVGNS, "g"));
      root.append(...layerG);
      boxesFromText(graphT);
    } else {
      itemText = null;
      items = [...svg.querySelectorAll("g.node, g.edge, g.cluster")];
      info_ = items.map((g) => {
        const t = g.querySelector(":scope > title");
        return { kind: g.classList.contains("cluster") ? 0 : g.classList.contains("edge") ? 1 : 2,
                 cls: g.getAttribute("class") || "", title: t ? t.textContent : "" };
      });
      items.forEach((g, i) => indexOf.set(g, i));
    }
    collapsedNow = new Set(model.get("collapsed") || []);
    minorTitles = new Set();
    const nodes = () => J("nodes"), titles = new Set();
    info_.forEach((it, i) => {
      if (it.kind !== 2) return;
      const name = idAt(i);
      nodeIndex.set(name, i);
      titles.add(it.title);
      if (collapsedNow.has(name)) return;
      // vizmodel's classes say it; a drawing without them (an older DOT): Const ops are minor
      const ours = /(^| )tfg-op( |$)/.test(it.cls);
      if (ours ? /(^| )tfg-minor( |$)/.test(it.cls) : (nodes()[name] || {}).type === "Const") {
        minorTitles.add(it.title);
      }
    });
    // edges: by the titles of their ends (highlighted with a picked node; minor with a minor end)
    const end = (t) => (titles.has(t) ? t : t.replace(/:[^:]*$/, ""));
    info_.forEach((it, i) => {
      if (it.kind !== 1) return;
      const at = it.title.indexOf("->");
      if (at < 0) return;
      for (const n of [end(it.title.slice(0, at)), end(it.title.slice(at + 2))]) {
        if (!edgesOf.has(n)) edgesOf.set(n, []);
        edgesOf.get(n).push(i);
        if (minorTitles.has(n)) it.minor = true;
      }
    });
    if (!big) {
      items.forEach((g, i) => decorate(i, g));
      stage.append(svg);
    }
    let toMark = null;
    if (anchor) {
      // keep the toggled node where it was on screen, at the same zoom
      const g = anchorOf(anchor.id);
      if (g) {
        const b = boxOf(g);
        view.x = anchor.x - (b.x + b.w / 2) * view.s;
        view.y = anchor.y - b.y * view.s;
        // an opened frame (or a folded box) that now runs past the pane's left or right edge,
        // but would fit in its width: the view pans sideways just enough to show it whole (the
        // drawing does not change; its top stays at the same height)
        const pad = 12, left = b.x * view.s + view.x, right = (b.x + b.w) * view.s + view.x;
        if (pane.w && right - left <= pane.w - 2 * pad) {
          if (left < pad) view.x += pad - left;
          else if (right > pane.w - pad) view.x -= right - (pane.w - pad);
        }
        toMark = g;
      }
      anchor = null;
      requestPaint();
    } else if (!touched) {
      openView();
    } else {
      requestPaint();
    }
    if (big) {
      cull(true);
      stage.append(svg);
    }
    if (toMark) mark(toMark, true);
    if (focusAfter) {
      const g = visibleNode(focusAfter);
      if (g && !unfoldTo(focusAfter, g)) { show(g, true); mark(g, true); }
    }
    drawMinimap(svgText);
    const sel = model.get("selected");
    if (sel && nodeIndex.has(sel)) mark(nodeG(sel), false);
    markSteps();
    showDetails();  // a box just opened is no longer "folded here"
  }
  // one delegated listener each (not one per node: a big graph has thousands)
  stage.addEventListener("click", (ev) => {
    const g = ev.target.closest("g.node");
    if (!g || moved) return;
    ev.stopPropagation();
    mark(g, false);
    model.set("selected", idOf(g));
    model.save_changes();
    showDetails();
  });
  stage.addEventListener("dblclick", (ev) => {
    const g = ev.target.closest("g.node, g.cluster");
    if (!g) return;
    ev.stopPropagation();
    if (g.classList.contains("node")) {
      const name = idOf(g);
      // a folded box opens; a "… N more" page box of an open fold shows its next members
      if ((model.get("collapsed") || []).includes(name) || g.classList.contains("tfg-more")) {
        toggle(name, g);
      }
    } else {
      const t = g.querySelector(":scope > title");
      const scope = t && J("cluster_ids")[t.textContent];
      if (scope) toggle(scope, g);
    }
  });
  const fontRules = el_("style");
  el.append(fontRules);

  function fillSelect() {
    select.replaceChildren();
    (model.get("functions") || []).forEach((sig, i) => {
      const o = el_("option", "", `#${i + 1} ${sig}`);
      o.value = String(i);
      select.append(o);
    });
    select.value = String(model.get("concrete_index"));
  }

  // -- search: a regular expression over the op names; every match, stepped through ----------
  let found = [], at = -1;
  function pattern(q) {
    try { return new RegExp(q, "i"); } catch (e) {
      return new RegExp(q.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "i");
    }
  }
  function find(query) {
    const q = query.trim();
    message.textContent = "";
    matches.replaceChildren();
    found = [];
    at = -1;
    matchInfo.textContent = "";
    if (!q) return;
    const re = pattern(q), nodes = J("nodes");
    const names = Object.keys(nodes);
    // exact names first, then the last part, then anywhere
    const rank = (n) => (n.toLowerCase() === q.toLowerCase() ? 0
      : n.split("/").pop().toLowerCase() === q.toLowerCase() ? 1 : 2);
    found = names.filter((n) => re.test(n) || re.test(nodes[n].type))
      .sort((a, b) => rank(a) - rank(b));
    if (!found.length) {
      message.textContent = w("no_match");
      return;
    }
    found.slice(0, 500).forEach((n, i) => {
      const li = el_("li", "tfg-match", n);
      li.title = nodes[n].type;
      li.addEventListener("click", () => goTo(i));
      matches.append(li);
    });
    goTo(0);
  }
  function goTo(i) {
    if (!found.length) return;
    at = (i + found.length) % found.length;
    const hit = found[at];
    matchInfo.textContent = fill(w("match_of"), { i: at + 1, n: found.length });
    matches.querySelectorAll(".tfg-match-now").forEach((x) => x.classList.remove("tfg-match-now"));
    const li = matches.children[at];
    if (li) { li.classList.add("tfg-match-now"); li.scrollIntoView({ block: "nearest" }); }
    const g = visibleNode(hit);
    model.set("selected", hit);
    model.save_changes();
    showDetails();
    if (!g) return;
    show(g, true);
    mark(g, true);
    unfoldTo(hit, g);
  }
  // a match folded into a scope or body box: open the box, then centre the match itself
  // (series boxes stay folded: thousands of ops would come out)
  let focusAfter = null, focusTries = 0;
  function unfoldTo(id, g) {
    const box = idOf(g);
    if (nodeG(id) === g || /\[\d+-\d+\]/.test(box) ||
        !(model.get("collapsed") || []).includes(box) || focusTries > 5) {
      focusAfter = null;
      focusTries = 0;
      return false;
    }
    focusAfter = id;
    focusTries += 1;
    toggle(box, g);
    return true;
  }
  // exports: the drawing as Graphviz wrote it (all of it, not only what is made or shown),
  // capped at EXPORT_SIDE pixels a side and EXPORT_AREA pixels in all; a capped export says so
  const EXPORT_SIDE = 8192, EXPORT_AREA = 40e6;
  function exportScale(want) {
    return Math.min(want, EXPORT_SIDE / Math.max(full.w, full.h),
      Math.sqrt(EXPORT_AREA / (full.w * full.h)));
  }
  function svgForExport(scale) {
    const w = Math.max(1, Math.round(full.w * scale)), h = Math.max(1, Math.round(full.h * scale));
    let text = model.get("svg") || "";
    text = text.replace(/<svg\b[^>]*>/, (tag) => {
      let t = tag.replace(/\s(width|height)="[^"]*"/g, "");
      if (!/\sviewBox=/.test(t)) t = t.replace("<svg", `<svg viewBox="0 0 ${full.w} ${full.h}"`);
      if (!/\sxmlns=/.test(t)) t = t.replace("<svg", '<svg xmlns="http://www.w3.org/2000/svg"');
      return t.replace("<svg", `<svg width="${w}" height="${h}"`);
    });
    return { text, w, h };
  }
  function exported(kind, w, h, scale) {
    el.tfgLastExport = { kind, w, h, scale };
    if (scale >= 1) return;
    const pct = Math.max(1, Math.round(100 * scale));
    message.textContent = fill(w_(kind === "png" ? "export_scaled" : "export_svg_scaled"),
      { w: w_w(w), h: w_w(h), pct });
    clearTimeout(messageJob);
    messageJob = setTimeout(() => { message.textContent = ""; }, 10000);
  }
  const w_ = w, w_w = (n) => n.toLocaleString("en-US");
  let messageJob = 0;
  function download(blob, name) {
    const a = el_("a");
    a.href = URL.createObjectURL(blob);
    a.download = name;
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  }
  svgBtn.addEventListener("click", () => {
    if (!svg) return;
    const scale = exportScale(1);
    const out = svgForExport(scale);
    download(new Blob([out.text], { type: "image/svg+xml" }), `${model.get("title")}.svg`);
    exported("svg", out.w, out.h, scale);
  });
  pngBtn.addEventListener("click", () => {
    if (!svg) return;
    const scale = exportScale(2);  // twice the drawing's size when that fits: crisp text
    const out = svgForExport(scale);
    const img = new Image();
    const url = URL.createObjectURL(new Blob([out.text], { type: "image/svg+xml" }));
    img.onload = () => {
      const c = document.createElement("canvas");
      c.width = out.w;
      c.height = out.h;
      const ctx = c.getContext("2d");
      ctx.fillStyle = "#fff";
      ctx.fillRect(0, 0, c.width, c.height);
      ctx.drawImage(img, 0, 0, c.width, c.height);
      URL.revokeObjectURL(url);
      c.toBlob((b) => b && download(b, `${model.get("title")}.png`));
      exported("png", out.w, out.h, scale / 2);
    };
    img.src = url;
  });

  // -- wiring ----------------------------------------------------------------------------------
  title.textContent = model.get("title");
  opt.checked = model.get("optimized");
  words();
  drawLegend();
  fillSelect();
  drawSvg();
  showDetails();

  select.addEventListener("change", () => {
    touched = false;
    busy.classList.add("tfg-shown");
    model.set("concrete_index", parseInt(select.value, 10));
    model.save_changes();
  });
  opt.addEventListener("change", () => {
    touched = false;
    busy.classList.add("tfg-shown");
    model.set("optimized", opt.checked);
    model.save_changes();
  });
  let lastQuery = null;
  search.addEventListener("keydown", (ev) => {
    if (ev.key !== "Enter") return;
    if (found.length && search.value.trim() === lastQuery) goTo(at + (ev.shiftKey ? -1 : 1));
    else { lastQuery = search.value.trim(); find(search.value); }
  });
  prevBtn.addEventListener("click", () => goTo(at - 1));
  nextBtn.addEventListener("click", () => goTo(at + 1));
  fitBtn.addEventListener("click", () => { touched = false; fit(); });
  zoomIn.addEventListener("click", () => zoomAt(1.4));
  zoomOut.addEventListener("click", () => zoomAt(1 / 1.4));
  stepBtn.addEventListener("click", () => model.send({ type: "step", by: 1 }));
  backBtn.addEventListener("click", () => model.send({ type: "step", by: -1 }));
  endBtn.addEventListener("click", () => model.send({ type: "step", to: 1e9 }));
  slider.addEventListener("input", () => model.send({ type: "step", to: parseInt(slider.value, 10) }));

  model.on("change:svg", drawSvg);
  model.on("change:busy", () => busy.classList.toggle("tfg-shown", !!model.get("busy")));
  model.on("change:functions", fillSelect);
  model.on("change:selected", showDetails);
  model.on("change:legend", drawLegend);
  model.on("change:words", () => { words(); drawLegend(); showDetails(); });
  model.on("change:step", () => { markSteps(); followStep(); });
  model.on("change:step_order", () => { markSteps(); followStep(); });
  model.on("change:optimized", () => { opt.checked = model.get("optimized"); });
  model.on("change:report", showDetails);

  return () => {
    window.removeEventListener("mouseup", onUp);
    window.removeEventListener("mousemove", onMove);
    window.removeEventListener("scroll", where, { capture: true });
    resize.disconnect();
    clearTimeout(idle);
    if (frame) cancelAnimationFrame(frame);
    if (miniUrl) URL.revokeObjectURL(miniUrl);
    clearTimeout(miniJob);
  };
}

export default { render };
