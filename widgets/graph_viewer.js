// Graph viewer for tfgraph_edu (anywidget front end; plain ES module, no CDN).
// Shows the graph's SVG with pan and zoom; a click on a node shows its details;
// a click on a scope cluster (or a collapsed scope box) collapses/expands it.

function el_(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function nodeName(g, model) {
  const title = g.querySelector("title");
  if (!title) return null;
  const key = title.textContent;
  const ids = model.get("node_ids") || {};
  return ids[key] !== undefined ? ids[key] : key;
}

function render({ model, el }) {
  el.classList.add("tfg-viewer");
  const bar = el_("div", "tfg-toolbar");
  const title = el_("span", "tfg-title");
  const select = el_("select", "tfg-select");
  const optLabel = el_("label", "tfg-opt");
  const opt = el_("input");
  opt.type = "checkbox";
  optLabel.append(opt, document.createTextNode(" optimised"));
  const stepBtn = el_("button", "tfg-step", "step ▶");
  const resetBtn = el_("button", "tfg-reset", "fit");
  bar.append(title, select, optLabel, stepBtn, resetBtn);
  const main = el_("div", "tfg-main");
  const canvas = el_("div", "tfg-canvas");
  const details = el_("div", "tfg-details");
  main.append(canvas, details);
  el.append(bar, main);

  let scale = 1, tx = 0, ty = 0, drag = null;
  const apply = () => {
    const svg = canvas.querySelector("svg");
    if (svg) svg.style.transform = `translate(${tx}px, ${ty}px) scale(${scale})`;
  };

  function showDetails() {
    const name = model.get("selected");
    const info = (model.get("nodes") || {})[name];
    details.replaceChildren();
    if (!info) {
      details.append(el_("p", "tfg-hint", "Click a node to see its details."));
      const report = model.get("report") || [];
      if (report.length) {
        details.append(el_("div", "tfg-label", `optimiser: ${report.length} changes`));
        const ul = el_("ul", "tfg-report");
        for (const r of report) ul.append(el_("li", "", `${r.pass}: ${r.action} ${r.node} — ${r.why}`));
        details.append(ul);
      }
      return;
    }
    details.append(el_("h4", "tfg-node-name", name), el_("div", "tfg-node-type", info.type));
    const values = model.get("step_values") || {};
    const section = (label, items) => {
      if (!items.length) return;
      details.append(el_("div", "tfg-label", label));
      const ul = el_("ul");
      for (const it of items) ul.append(el_("li", "", it));
      details.append(ul);
    };
    section("inputs", info.inputs.map((t) => `${t.name}: ${t.dtype} ${t.shape}`));
    section("outputs", info.outputs.map((t) => {
      const v = values[t.name];
      return `${t.name}: ${t.dtype} ${t.shape}` + (v !== undefined ? ` = ${v}` : "");
    }));
    section("control inputs", info.control_inputs.map((c) => "^" + c));
    section("attrs", Object.entries(info.attrs).map(([k, v]) => `${k} = ${v}`));
    const report = model.get("report") || [];
    const touched = report.filter((r) => r.node === name || r.by === name);
    section("optimiser", touched.map((r) => `${r.pass}: ${r.action} ${r.node} — ${r.why}`));
    if (info.source) {
      details.append(el_("div", "tfg-label", "created by"));
      details.append(el_("div", "tfg-source",
        `${info.source.file}:${info.source.line} in ${info.source.function}`));
      if (info.source.text) details.append(el_("pre", "tfg-source-line", info.source.text));
    }
  }

  function markSteps() {
    const order = model.get("step_order") || [];
    const done = new Set(order.slice(0, model.get("step")));
    for (const g of canvas.querySelectorAll("g.node")) {
      g.classList.toggle("tfg-done", done.has(nodeName(g, model)));
    }
    stepBtn.textContent = order.length
      ? `step ▶ ${model.get("step")}/${order.length}` : "step ▶";
    // show each value on its edge once execution has reached the edge's source
    const values = model.get("step_values") || {};
    for (const g of canvas.querySelectorAll("g.edge")) {
      const title = g.querySelector("title");
      const text = g.querySelector("text");
      if (!title || !text) continue;
      if (text.dataset.label === undefined) text.dataset.label = text.textContent;
      const src = title.textContent.split("->")[0];
      const ids = model.get("node_ids") || {};
      const op = ids[src] !== undefined ? ids[src] : src;
      const v = values[op + ":0"];
      text.textContent = done.has(op) && v !== undefined
        ? `${text.dataset.label} = ${v}` : text.dataset.label;
      g.classList.toggle("tfg-done", done.has(op));
    }
  }

  function drawSvg() {
    const svgText = model.get("svg");
    if (svgText) {
      canvas.innerHTML = svgText;  // graphviz output of escaped labels: no scripts
    } else {
      canvas.replaceChildren(el_("pre", "tfg-dot", model.get("dot")));
    }
    for (const g of canvas.querySelectorAll("g.node")) {
      g.addEventListener("click", (ev) => {
        ev.stopPropagation();
        const name = nodeName(g, model);
        if ((model.get("collapsed") || []).includes(name)) {
          model.send({ type: "toggle_scope", scope: name });
          return;
        }
        for (const s of canvas.querySelectorAll("g.node.tfg-selected")) {
          s.classList.remove("tfg-selected");
        }
        g.classList.add("tfg-selected");
        model.set("selected", name);
        model.save_changes();
        showDetails();
      });
    }
    for (const g of canvas.querySelectorAll("g.cluster")) {
      g.addEventListener("dblclick", (ev) => {
        ev.stopPropagation();
        const scope = (model.get("cluster_ids") || {})[g.querySelector("title").textContent];
        if (scope) model.send({ type: "toggle_scope", scope });
      });
    }
    apply();
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

  title.textContent = model.get("title");
  opt.checked = model.get("optimized");
  fillSelect();
  drawSvg();
  showDetails();

  select.addEventListener("change", () => {
    model.set("concrete_index", parseInt(select.value, 10));
    model.save_changes();
  });
  opt.addEventListener("change", () => {
    model.set("optimized", opt.checked);
    model.save_changes();
  });
  stepBtn.addEventListener("click", () => model.send({ type: "step" }));
  resetBtn.addEventListener("click", () => { scale = 1; tx = 0; ty = 0; apply(); });
  canvas.addEventListener("wheel", (ev) => {
    ev.preventDefault();
    scale = Math.min(8, Math.max(0.1, scale * (ev.deltaY < 0 ? 1.1 : 1 / 1.1)));
    apply();
  }, { passive: false });
  canvas.addEventListener("mousedown", (ev) => { drag = [ev.clientX - tx, ev.clientY - ty]; });
  window.addEventListener("mouseup", () => { drag = null; });
  canvas.addEventListener("mousemove", (ev) => {
    if (!drag) return;
    tx = ev.clientX - drag[0];
    ty = ev.clientY - drag[1];
    apply();
  });

  model.on("change:svg", drawSvg);
  model.on("change:functions", fillSelect);
  model.on("change:selected", showDetails);
  model.on("change:step", () => { markSteps(); showDetails(); });
  model.on("change:step_values", showDetails);
  model.on("change:optimized", () => { opt.checked = model.get("optimized"); });
  model.on("change:report", showDetails);
}

export default { render };
