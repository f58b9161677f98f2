// Trace explorer for tfgraph_edu: a timeline of a tf.function's calls and traces.

function render({ model, el }) {
  el.classList.add("tfg-explorer");
  const head = document.createElement("div");
  head.className = "tfg-explorer-head";
  const list = document.createElement("ol");
  list.className = "tfg-timeline";
  el.append(head, list);

  function draw() {
    const events = model.get("events") || [];
    const traces = events.filter((e) => e.kind === "trace").length;
    const calls = events.filter((e) => e.kind === "call").length;
    head.textContent = `${model.get("name")}: ${calls} calls, ${traces} traces`;
    list.replaceChildren();
    for (const e of events) {
      const li = document.createElement("li");
      if (e.kind === "trace") {
        li.className = "tfg-trace-event";
        li.textContent = `trace #${e.index} (${e.ms} ms): ${e.reason} — ${e.signature}`;
      } else {
        li.className = e.traced ? "tfg-call-event tfg-traced" : "tfg-call-event";
        li.textContent = `call ${e.index} → concrete function #${e.concrete}` +
          (e.traced ? " (traced)" : "");
      }
      list.append(li);
    }
  }
  draw();
  model.on("change:events", draw);
}

export default { render };
