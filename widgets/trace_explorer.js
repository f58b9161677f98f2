// Trace explorer for tfgraph_edu: a timeline of a tf.function's calls and traces.
// Every word comes from the `words` table (en, zh-Hant, zh-Hans); %%trace's timing runs
// are only counted, greyed, in the header.

function fill(text, values) {
  return text.replace(/\{(\w+)\}/g, (m, k) => (k in values ? String(values[k]) : m));
}

function render({ model, el }) {
  el.classList.add("tfg-explorer");
  const head = document.createElement("div");
  head.className = "tfg-explorer-head";
  const timing = document.createElement("span");
  timing.className = "tfg-explorer-timing";
  const list = document.createElement("ol");
  list.className = "tfg-timeline";
  el.append(head, list);

  function draw() {
    const w = model.get("words") || {};
    const events = model.get("events") || [];
    const traces = events.filter((e) => e.kind === "trace").length;
    const calls = events.filter((e) => e.kind === "call").length;
    head.textContent = fill(w.explorer_head || "{name}: {calls} calls, {traces} traces",
      { name: model.get("name"), calls, traces });
    const n = model.get("timing_runs") || 0;
    timing.textContent = n ? " " + fill(w.explorer_timing || "(+ {n} timing runs, not counted)", { n }) : "";
    head.append(timing);
    list.replaceChildren();
    for (const e of events) {
      const li = document.createElement("li");
      if (e.kind === "trace") {
        li.className = "tfg-trace-event";
        li.textContent = fill(w.trace_event || "trace #{index} ({ms} ms): {reason} — {signature}", e);
      } else {
        li.className = e.traced ? "tfg-call-event tfg-traced" : "tfg-call-event";
        li.textContent = fill(w.call_event || "call {index} → concrete function #{concrete}", e) +
          (e.traced ? (w.traced_mark || " (traced)") : "");
      }
      list.append(li);
    }
  }
  draw();
  model.on("change:events", draw);
  model.on("change:timing_runs", draw);
}

export default { render };
