// Graph viewer for tfgraph_edu (anywidget front end; plain ES module, no CDN, no library).
//
// The graph's SVG (drawn by Graphviz in the kernel) is shown through its viewBox: opening
// fits the whole graph into the pane; drag pans, the wheel zooms around the cursor, "fit"
// fits again, the search box zooms to an op.  A click on an op (at any depth, inside
// branches and loop bodies too) shows its details; a double-click on a frame collapses it,
// on a grey box opens it.  Step mode walks the ops in the order they ran - into the branch
// taken and through every loop iteration - and shows the values in the details pane.
// Every word comes from the `words` table (en, zh-Hant, zh-Hans).

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
  const fitBtn = el_("button", "tfg-fit");
  const zoomIn = el_("button", "tfg-zoom-in", "+");
  const zoomOut = el_("button", "tfg-zoom-out", "−");
  const svgBtn = el_("button", "tfg-export-svg");
  const pngBtn = el_("button", "tfg-export-png");
  bar.append(title, select, optLabel, search, fitBtn, zoomOut, zoomIn, svgBtn, pngBtn);

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
  const canvas = el_("div", "tfg-canvas");
  const legendBox = el_("div", "tfg-legend");
  const hint = el_("div", "tfg-hint");
  const message = el_("div", "tfg-message");
  const side = el_("div", "tfg-side");
  const details = el_("div", "tfg-details");
  side.append(details, legendBox);
  main.append(canvas, side);
  el.append(bar, stepBar, main);

  function words() {
    optText.textContent = " " + w("optimised_toggle");
    search.placeholder = w("search");
    fitBtn.textContent = w("fit");
    zoomIn.title = w("zoom_in");
    zoomOut.title = w("zoom_out");
    svgBtn.textContent = "⤓ " + w("export_svg");
    pngBtn.textContent = "⤓ " + w("export_png");
    backBtn.textContent = w("step_back");
    stepBtn.textContent = w("step");
    endBtn.textContent = w("run_all");
    hint.textContent = w("hint");
  }

  // -- view box: fit, pan, zoom -------------------------------------------------------------
  let svg = null, full = null, vb = null, touched = false;
  const setBox = () => {
    if (svg && vb) svg.setAttribute("viewBox", `${vb.x} ${vb.y} ${vb.w} ${vb.h}`);
  };
  function fit() {
    if (!svg || !full) return;
    vb = { ...full };
    setBox();
  }
  function toSvgPoint(clientX, clientY) {
    const m = svg.getScreenCTM();
    if (!m) return null;
    const p = new DOMPoint(clientX, clientY).matrixTransform(m.inverse());
    return { x: p.x, y: p.y };
  }
  function zoomAt(factor, clientX, clientY) {
    if (!svg || !vb) return;
    touched = true;
    const r = canvas.getBoundingClientRect();
    const p = toSvgPoint(clientX ?? r.left + r.width / 2, clientY ?? r.top + r.height / 2);
    if (!p) return;
    const nw = Math.min(full.w * 4, Math.max(20, vb.w / factor));
    const k = nw / vb.w;
    vb = { x: p.x - (p.x - vb.x) * k, y: p.y - (p.y - vb.y) * k, w: nw, h: vb.h * k };
    setBox();
  }
  function zoomTo(g) {
    if (!svg || !g) return;
    touched = true;
    const r = g.getBoundingClientRect();
    const a = toSvgPoint(r.left, r.top), b = toSvgPoint(r.right, r.bottom);
    if (!a || !b) return;
    const c = canvas.getBoundingClientRect();
    const margin = 60;
    const w0 = Math.min(full.w, Math.max(b.x - a.x + 2 * margin, 480));
    const h0 = Math.min(full.h, Math.max(b.y - a.y + 2 * margin, 320));
    const scale = Math.max(w0 / c.width, h0 / c.height);
    const nw = c.width * scale, nh = c.height * scale;
    vb = { x: (a.x + b.x) / 2 - nw / 2, y: (a.y + b.y) / 2 - nh / 2, w: nw, h: nh };
    setBox();
  }
  let drag = null, moved = false;
  canvas.addEventListener("wheel", (ev) => {
    ev.preventDefault();
    zoomAt(ev.deltaY < 0 ? 1.15 : 1 / 1.15, ev.clientX, ev.clientY);
  }, { passive: false });
  canvas.addEventListener("mousedown", (ev) => {
    if (ev.button !== 0) return;
    drag = { x: ev.clientX, y: ev.clientY, vb: { ...vb } };
    moved = false;
  });
  const onUp = () => { drag = null; canvas.classList.remove("tfg-dragging"); };
  const onMove = (ev) => {
    if (!drag || !svg || !vb) return;
    const dx = ev.clientX - drag.x, dy = ev.clientY - drag.y;
    if (!moved && Math.abs(dx) + Math.abs(dy) < 4) return;
    moved = true;
    touched = true;
    canvas.classList.add("tfg-dragging");
    const m = svg.getScreenCTM();
    const k = m ? 1 / m.a : 1;
    vb = { ...drag.vb, x: drag.vb.x - dx * k, y: drag.vb.y - dy * k };
    setBox();
  };
  window.addEventListener("mouseup", onUp);
  window.addEventListener("mousemove", onMove);
  const resize = new ResizeObserver(() => { if (!touched) fit(); });
  resize.observe(canvas);

  // -- names ----------------------------------------------------------------------------------
  const idOf = (g) => {
    const t = g.querySelector(":scope > title");
    if (!t) return null;
    const ids = J("node_ids");
    return ids[t.textContent] !== undefined ? ids[t.textContent] : t.textContent;
  };
  let byId = new Map();  // node id -> its <g>
  function visibleNode(id) {
    // the node drawn for `id`: itself, or the box / op it is folded into
    const folded = J("folded")[id];
    if (folded !== undefined && byId.has(folded)) return byId.get(folded);
    let path = id;
    while (path) {
      if (byId.has(path)) return byId.get(path);
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
    section(w("control_inputs"), info.control_inputs.map((c) => "^" + c));
    section(w("attrs"), Object.entries(info.attrs).map(([k, v]) => `${k} = ${v}`));
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
        for (const s of canvas.querySelectorAll("g.node.tfg-selected")) s.classList.remove("tfg-selected");
        g.classList.add("tfg-selected");
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
  function drawSvg() {
    const svgText = model.get("svg");
    if (svgText) {
      canvas.innerHTML = svgText;  // graphviz output of escaped labels: no scripts
    } else {
      canvas.replaceChildren(el_("pre", "tfg-dot", model.get("dot")));
    }
    canvas.append(hint, message);
    svg = canvas.querySelector("svg");
    byId = new Map();
    if (svg) {
      const box = (svg.getAttribute("viewBox") || "0 0 100 100").split(/[ ,]+/).map(Number);
      full = { x: box[0], y: box[1], w: box[2], h: box[3] };
      svg.removeAttribute("width");
      svg.removeAttribute("height");
      svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
      const keep = vb && touched;
      if (!keep) fit(); else setBox();
    }
    const collapsed = new Set(model.get("collapsed") || []);
    for (const g of canvas.querySelectorAll("g.node")) {
      const name = idOf(g);
      byId.set(name, g);
      if (collapsed.has(name)) g.classList.add("tfg-box");
      g.addEventListener("click", (ev) => {
        ev.stopPropagation();
        if (moved) return;
        for (const s of canvas.querySelectorAll("g.node.tfg-selected")) s.classList.remove("tfg-selected");
        g.classList.add("tfg-selected");
        model.set("selected", name);
        model.save_changes();
        showDetails();
      });
      g.addEventListener("dblclick", (ev) => {
        ev.stopPropagation();
        if (collapsed.has(name)) model.send({ type: "toggle_scope", scope: name });
      });
    }
    for (const g of canvas.querySelectorAll("g.cluster")) {
      g.addEventListener("dblclick", (ev) => {
        ev.stopPropagation();
        const t = g.querySelector(":scope > title");
        const scope = t && J("cluster_ids")[t.textContent];
        if (scope) model.send({ type: "toggle_scope", scope });
      });
    }
    const sel = model.get("selected");
    if (sel && byId.has(sel)) byId.get(sel).classList.add("tfg-selected");
    markSteps();
  }

  function fillSelect() {
    select.replaceChildren();
    (model.get("functions") || []).forEach((sig, i) => {
      const o = el_("option", "", `#${i + 1} ${sig}`);
      o.value = String(i);
      select.append(o);
    });
    select.value = String(model.get("concrete_index"));
  }

  // -- search and export -----------------------------------------------------------------------
  function find(query) {
    const q = query.trim().toLowerCase();
    message.textContent = "";
    if (!q) return;
    const nodes = Object.keys(J("nodes"));
    const hit = nodes.find((n) => n.toLowerCase() === q) ||
      nodes.find((n) => n.toLowerCase().split("/").pop() === q) ||
      nodes.find((n) => n.toLowerCase().includes(q));
    const g = hit && visibleNode(hit);
    if (!g) {
      message.textContent = w("no_match");
      return;
    }
    zoomTo(g);
    for (const s of canvas.querySelectorAll("g.node.tfg-selected")) s.classList.remove("tfg-selected");
    g.classList.add("tfg-selected");
    model.set("selected", hit);
    model.save_changes();
    showDetails();
  }
  function svgForExport() {
    const copy = svg.cloneNode(true);
    copy.setAttribute("viewBox", `${full.x} ${full.y} ${full.w} ${full.h}`);
    copy.setAttribute("width", String(full.w));
    copy.setAttribute("height", String(full.h));
    copy.setAttribute("xmlns", "http://www.w3.org/2000/svg");
    return new XMLSerializer().serializeToString(copy);
  }
  function download(blob, name) {
    const a = el_("a");
    a.href = URL.createObjectURL(blob);
    a.download = name;
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  }
  svgBtn.addEventListener("click", () => {
    if (svg) download(new Blob([svgForExport()], { type: "image/svg+xml" }), `${model.get("title")}.svg`);
  });
  pngBtn.addEventListener("click", () => {
    if (!svg) return;
    const img = new Image();
    const url = URL.createObjectURL(new Blob([svgForExport()], { type: "image/svg+xml" }));
    img.onload = () => {
      const scale = Math.min(2, 8000 / Math.max(full.w, full.h));
      const c = document.createElement("canvas");
      c.width = Math.max(1, Math.round(full.w * scale));
      c.height = Math.max(1, Math.round(full.h * scale));
      const ctx = c.getContext("2d");
      ctx.fillStyle = "#fff";
      ctx.fillRect(0, 0, c.width, c.height);
      ctx.drawImage(img, 0, 0, c.width, c.height);
      URL.revokeObjectURL(url);
      c.toBlob((b) => b && download(b, `${model.get("title")}.png`));
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
    model.set("concrete_index", parseInt(select.value, 10));
    model.save_changes();
  });
  opt.addEventListener("change", () => {
    touched = false;
    model.set("optimized", opt.checked);
    model.save_changes();
  });
  search.addEventListener("keydown", (ev) => { if (ev.key === "Enter") find(search.value); });
  search.addEventListener("change", () => find(search.value));
  fitBtn.addEventListener("click", () => { touched = false; fit(); });
  zoomIn.addEventListener("click", () => zoomAt(1.4));
  zoomOut.addEventListener("click", () => zoomAt(1 / 1.4));
  stepBtn.addEventListener("click", () => model.send({ type: "step", by: 1 }));
  backBtn.addEventListener("click", () => model.send({ type: "step", by: -1 }));
  endBtn.addEventListener("click", () => model.send({ type: "step", to: 1e9 }));
  slider.addEventListener("input", () => model.send({ type: "step", to: parseInt(slider.value, 10) }));

  model.on("change:svg", drawSvg);
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
    resize.disconnect();
  };
}

export default { render };
