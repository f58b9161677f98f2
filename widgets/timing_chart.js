// Timing comparison for tfgraph_edu: one bar per timing (eager, graph, graph as traced) with
// the median and the spread, the speed-up of each graph bar over eager, and an honest note
// when the difference is within the noise.  Words from the `words` table.

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
    const eager = results.find((r) => r.label === "eager");
    for (const r of results) {
      const row = document.createElement("div");
      row.className = "tfg-timing-row";
      const kind = r.label === "eager" ? "eager" : r.label === "graph" ? "graph" : "raw";
      const bar = span(`tfg-timing-bar ${kind}`, "");
      bar.style.width = `${Math.max(2, Math.round(260 * r.median / longest))}px`;
      let text = ` ${fmt(r.median)} (${fmt(r.fastest)} … ${fmt(r.slowest)}, ${r.runs} ` +
        `${w.runs || "runs"})`;
      if (eager && r !== eager && r.median > 0) {
        text += ` · ${w.speedup || "speed-up"} ${(eager.median / r.median).toFixed(2)}×`;
      }
      row.append(span("tfg-timing-label", r.text || r.label), bar, span("tfg-timing-num", text));
      el.append(row);
    }
    if (model.get("within_noise")) {
      el.append(span("tfg-timing-note", w.within_noise || "within noise"));
    }
  }
  draw();
  model.on("change:results", draw);
}

export default { render };
