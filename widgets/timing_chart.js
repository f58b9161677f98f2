// Timing comparison for tfgraph_edu: one bar per timing (eager, graph, graph as traced) with
// the median and the spread, and for each graph bar either its speed-up over eager or, when
// their runs overlap, that there is no clear difference (the kernel words it); then a note on
// what the timing did.  Words from the `words` table.

function fmt(s) {
  const units = [["s", 1], ["ms", 1e3], ["µs", 1e6], ["ns", 1e9]];
  for (const [u, k] of units) if (s * k >= 1) return `${(s * k).toPrecision(3)} ${u}`;
  return `${(s * 1e9).toPrecision(3)} ns`;
}

function span(cls, text) {
  const e = document.createElement("span");
  e.className = cls;
  e.textContent = text;
  return e;
}

function render({ model, el }) {
  el.classList.add("tfg-timing");
  function draw() {
    el.replaceChildren();
    const w = model.get("words") || {};
    const results = model.get("results") || [];
    const longest = Math.max(...results.map((r) => r.median), 1e-12);
    const head = document.createElement("div");
    head.className = "tfg-timing-head";
    head.textContent = model.get("name");
    el.append(head);
    for (const r of results) {
      const row = document.createElement("div");
      row.className = "tfg-timing-row";
      const kind = r.label === "eager" ? "eager" : r.label === "graph" ? "graph" : "raw";
      const bar = span(`tfg-timing-bar ${kind}`, "");
      bar.style.width = `${Math.max(2, Math.round(260 * r.median / longest))}px`;
      let text = ` ${fmt(r.median)} (${fmt(r.fastest)} … ${fmt(r.slowest)}, ${r.runs} ` +
        `${w.runs || "runs"})`;
      if (r.verdict) text += ` · ${r.verdict}`;  // a speed-up or no clear difference
      row.append(span("tfg-timing-label", r.text || r.label), bar, span("tfg-timing-num", text));
      el.append(row);
    }
    if (model.get("note")) el.append(span("tfg-timing-note", model.get("note")));
  }
  draw();
  model.on("change:results", draw);
  model.on("change:note", draw);
}

export default { render };
