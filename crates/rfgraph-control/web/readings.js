// The readings of every block that has some (a decoder's station name, a
// tracker's aircraft, a probe's level), polled once a second and shown
// generically: a value as text, a map as a table of fields, a list of maps
// as a table with a row each.
"use strict";
RF.readings = (function () {
  let timer = null, boxes = [];

  function setup(d) {
    clearInterval(timer);
    const area = document.getElementById("reading-area");
    area.replaceChildren();
    boxes = [];
    for (const b of d.blocks) {
      const names = (b.readings || []).filter((r) => !(b.display && (r === "display" || r === "frame")));
      if (!names.length) continue;
      const body = RF.el("div");
      area.append(RF.el("div", { class: "readings-block", "data-readings": b.name }, RF.el("h4", { text: b.name }), body));
      boxes.push({ block: b.name, names, body });
    }
    document.getElementById("readings").hidden = boxes.length === 0;
    if (boxes.length) { poll(); timer = setInterval(poll, 1000); }
  }

  async function poll() {
    for (const box of boxes) {
      const table = RF.el("table", { class: "kv" });
      for (const r of box.names) {
        let v;
        try {
          const res = await RF.api("GET", `/api/flowgraphs/${encodeURIComponent(RF.fg)}/blocks/${encodeURIComponent(box.block)}/readings/${encodeURIComponent(r)}`);
          v = RF.plain(res.value);
        } catch (e) { v = "–"; }
        table.append(RF.el("tr", { "data-reading": r }, RF.el("th", { text: r }), RF.el("td", {}, RF.renderValue(v))));
      }
      box.body.replaceChildren(table);
    }
  }

  function stop() { clearInterval(timer); }

  return { setup, stop };
})();
