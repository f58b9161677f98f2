// Timing comparison for tfgraph_edu: eager vs graph medians as bars, with the spread.

function fmt(s) {
  const units = [["s", 1], ["ms", 1e3], ["µs", 1e6], ["ns", 1e9]];
  for (const [u, k] of units) if (s * k >= 1) return `${(s * k).toPrecision(3)} ${u}`;
  return `${(s * 1e9).toPrecision(3)} ns`;
}

function render({ model, el }) {
  el.classList.add("tfg-timing");
  function draw() {
    el.replaceChildren();
    const results = model.get("results") || [];
    const longest = Math.max(...results.map((r) => r.median), 1e-12);
    const head = document.createElement("div");
    head.className = "tfg-timing-head";
    head.textContent = model.get("name");
    el.append(head);
    for (const r of results) {
      const row = document.createElement("div");
      row.className = "tfg-timing-row";
      const label = document.createElement("span");
      label.className = "tfg-timing-label";
      label.textContent = r.label;
      const bar = document.createElement("span");
      bar.className = `tfg-timing-bar ${r.label.startsWith("graph (raw") ? "raw" : r.label}`;
      bar.style.width = `${Math.max(2, Math.round(260 * r.median / longest))}px`;
      const num = document.createElement("span");
      num.textContent = ` ${fmt(r.median)} (${fmt(r.fastest)} … ${fmt(r.slowest)},` +
        ` ${r.runs} runs)`;
      row.append(label, bar, num);
      el.append(row);
    }
    if (results.length === 2 && results[1].median > 0) {
      const p = document.createElement("div");
      p.textContent = `speed-up: ${(results[0].median / results[1].median).toFixed(2)}×`;
      el.append(p);
    }
  }
  draw();
  model.on("change:results", draw);
}

export default { render };
