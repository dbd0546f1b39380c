// A flowgraph's GUI variables as widgets (GNU Radio Companion's Qt GUI
// range, chooser, entry, check box and push button), laid out on a grid
// by their `gui_hint` (and tab), and the displays placed on the same grid.
// Moving a widget sets the variable through the control port's
// `variables` route, which updates every block setting that depends on it.
"use strict";
RF.widgets = (function () {
  function path(name) {
    return `/api/flowgraphs/${encodeURIComponent(RF.fg)}/variables/${encodeURIComponent(name)}`;
  }

  async function set(name, value, status) {
    try {
      const r = await RF.api("PUT", path(name), value);
      if (status) {
        const failed = (r.failed || []).length;
        status.className = failed ? "err" : "hint";
        status.textContent = failed ? "failed: " + r.failed.map((f) => typeof f === "string" ? f : JSON.stringify(f)).join("; ")
          : (r.deferred && r.deferred.length ? "deferred" : "");
      }
      return r;
    } catch (e) {
      if (status) { status.className = "err"; status.textContent = e.message; }
      RF.showError(e.message);
    }
  }

  function num(v) { const x = parseFloat(v); return isFinite(x) ? x : 0; }

  function range(v, w, status) {
    const style = w.style || "counter_slider";
    const box = RF.el("div", { class: "row" });
    const slider = RF.el("input", { type: "range", min: w.start, max: w.stop, step: w.step || "any", value: num(v.value), "data-variable": v.name });
    const counter = RF.el("input", { type: "number", min: w.start, max: w.stop, step: w.step || "any", value: num(v.value), style: "width:110px", "data-variable-counter": v.name });
    let pending = null, busy = false;
    const push = async (x) => {
      pending = x;
      if (busy) return;
      busy = true;
      while (pending !== null) { const y = pending; pending = null; await set(v.name, y, status); }
      busy = false;
    };
    slider.addEventListener("input", () => { counter.value = slider.value; push(num(slider.value)); });
    counter.addEventListener("change", () => { slider.value = counter.value; push(num(counter.value)); });
    if (style.includes("slider")) box.append(slider);
    if (style.includes("counter") || style.startsWith("eng") || !style.includes("slider")) box.append(counter);
    if (w.orient && /vertical/i.test(w.orient)) box.classList.add("vertical");
    return box;
  }

  function chooser(v, w, status) {
    const opts = w.options || [];
    const labels = (w.labels || []).map((l, i) => l || String(opts[i]));
    const current = () => opts.findIndex((o) => String(o) === String(v.value));
    const style = w.style || "combo_box";
    const box = RF.el("div", { class: "row" + (w.orient && /vertical|ver/i.test(w.orient) ? " vertical" : "") });
    if (style === "combo_box") {
      const sel = RF.el("select", { "data-variable": v.name, onchange: () => set(v.name, String(opts[sel.selectedIndex]), status) },
        opts.map((o, i) => RF.el("option", { text: labels[i] || String(o) })));
      sel.selectedIndex = Math.max(0, current());
      box.append(sel);
    } else if (style === "radio_buttons") {
      opts.forEach((o, i) => {
        const r = RF.el("input", { type: "radio", name: "w-" + v.name, checked: i === current(), onchange: () => set(v.name, String(o), status) });
        box.append(RF.el("label", {}, r, " ", labels[i]));
      });
    } else {
      const buttons = opts.map((o, i) => RF.el("button", { class: i === current() ? "on" : "", text: labels[i],
        onclick: async () => { buttons.forEach((b, k) => b.classList.toggle("on", k === i)); await set(v.name, String(o), status); } }));
      box.append(buttons);
    }
    return box;
  }

  function entry(v, w, status) {
    const input = RF.el("input", { value: v.value === null ? "" : String(v.value), "data-variable": v.name, style: "width:100%" });
    input.addEventListener("keydown", (e) => { if (e.key === "Enter") set(v.name, input.value, status); });
    input.addEventListener("change", () => set(v.name, input.value, status));
    return input;
  }

  function checkBox(v, w, status) {
    const on = String(v.value) === String(w.true) || v.value === "True" || v.value === "true";
    const c = RF.el("input", { type: "checkbox", checked: on, "data-variable": v.name });
    c.addEventListener("change", () => set(v.name, String(c.checked ? w.true : w.false), status));
    return RF.el("label", {}, c, " ", v.label || v.name);
  }

  function pushButton(v, w, status) {
    const b = RF.el("button", { text: v.label || v.name, "data-variable": v.name });
    b.addEventListener("mousedown", () => set(v.name, String(w.pressed), status));
    b.addEventListener("mouseup", () => set(v.name, String(w.released), status));
    return b;
  }

  const makers = { range, chooser, entry, check_box: checkBox, push_button: pushButton };

  /** One widget card for variable `v`. */
  function card(v) {
    const w = v.widget || { kind: "entry" };
    const status = RF.el("div", { class: "hint" });
    const make = makers[w.kind] || entry;
    const title = (w.kind === "check_box" || w.kind === "push_button") ? null : RF.el("label", { class: "title", text: v.label || v.name });
    return RF.el("div", { class: "widget", "data-widget": v.name }, title, make(v, w, status), status);
  }

  /** Given the [start, span] of every item along one axis, a function
   *  giving an item's CSS grid line range with the tracks no item covers
   *  left out. */
  function compress(list) {
    const used = new Set();
    for (const [start, span] of list) for (let t = start; t < start + Math.max(1, span || 1); t++) used.add(t);
    const before = (t) => { let n = 0; for (const u of used) if (u < t) n++; return n; };
    return (start, span) => {
      const end = start + Math.max(1, span || 1);
      return `${before(start) + 1} / span ${Math.max(1, before(end) - before(start))}`;
    };
  }

  /** Places `items` ([{el, hint}]) on grids, one per tab. */
  function layout(area, items) {
    const tabs = new Map();
    for (const it of items) {
      const h = it.hint || {};
      const key = h.tab ? `${h.tab}@${h.tab_index || 0}` : "";
      if (!tabs.has(key)) tabs.set(key, []);
      tabs.get(key).push(it);
    }
    area.replaceChildren();
    const keys = [...tabs.keys()].sort();
    const grids = new Map();
    for (const k of keys) {
      const grid = RF.el("div", { class: "grid", "data-tab": k });
      // Without hints, as many columns as fit; with them, the hints' grid.
      if (!tabs.get(k).some((it) => it.hint && Number.isInteger(it.hint.row))) {
        grid.style.gridTemplateColumns = `repeat(auto-fill, minmax(${area.id === "display-area" ? 420 : 240}px, 1fr))`;
      }
      const placed = tabs.get(k).filter((it) => it.hint && Number.isInteger(it.hint.row) && Number.isInteger(it.hint.col));
      // Rows and columns nothing starts in collapse, as in Qt's grid.
      const rows = compress(placed.map((it) => [it.hint.row, it.hint.row_span]));
      const cols = compress(placed.map((it) => [it.hint.col, it.hint.col_span]));
      for (const it of tabs.get(k)) {
        const h = it.hint;
        if (placed.includes(it)) {
          it.el.style.gridRow = rows(h.row, h.row_span);
          it.el.style.gridColumn = cols(h.col, h.col_span);
        }
        grid.append(it.el);
      }
      grids.set(k, grid);
    }
    if (keys.length > 1 || (keys.length === 1 && keys[0] !== "")) {
      const bar = RF.el("div", { class: "tabs" });
      const show = (k) => { grids.forEach((g, kk) => { g.hidden = kk !== k; }); bar.querySelectorAll("button").forEach((b) => b.classList.toggle("active", b.dataset.key === k)); };
      for (const k of keys) bar.append(RF.el("button", { "data-key": k, text: k ? k.replace(/@(\d+)$/, " $1") : "main", onclick: () => show(k) }));
      area.append(bar);
      keys.forEach((k) => area.append(grids.get(k)));
      show(keys[0]);
    } else {
      keys.forEach((k) => area.append(grids.get(k)));
    }
  }

  /** Loads the variables and draws their widgets. */
  async function load() {
    let vars = [];
    try { vars = await RF.api("GET", `/api/flowgraphs/${encodeURIComponent(RF.fg)}/variables`); } catch (e) { vars = []; }
    const area = document.getElementById("widget-area");
    const items = (vars || []).map((v) => ({ el: card(v), hint: v.widget && v.widget.gui_hint }));
    document.getElementById("widgets").hidden = items.length === 0;
    layout(area, items);
  }

  return { load, layout };
})();
