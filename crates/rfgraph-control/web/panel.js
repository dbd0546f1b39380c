// The side panel of one block: its parameters (settable ones editable),
// counters, items-per-call histogram, readings, and a form that sends a
// message to any of its message inputs (awaiting the reply, or not).
"use strict";
RF.panel = (function () {
  let current = null, timer = null;

  function base(name) {
    return `/api/flowgraphs/${encodeURIComponent(RF.fg)}/blocks/${encodeURIComponent(name)}`;
  }

  function close() {
    current = null;
    clearInterval(timer);
    document.getElementById("panel").hidden = true;
    RF.graph.select(-1);
    setTimeout(RF.graph.fit, 0);
  }

  async function open(info) {
    current = info.name;
    const wasHidden = document.getElementById("panel").hidden;
    document.getElementById("panel").hidden = false;
    // The graph's card just got narrower.
    if (wasHidden) setTimeout(RF.graph.fit, 0);
    document.getElementById("panel-title").textContent = info.name;
    const body = document.getElementById("panel-body");
    body.replaceChildren(RF.el("div", { class: "hint", text: info.type_name }));
    const params = RF.el("div", { id: "panel-params" });
    const stats = RF.el("div", { id: "panel-stats" });
    const hist = RF.el("div", { id: "panel-hist" });
    const readings = RF.el("div", { id: "panel-readings" });
    body.append(
      RF.el("h3", { text: "Parameters" }), params,
      RF.el("h3", { text: "Statistics" }), stats,
      RF.el("h3", { text: "Items per work call" }), hist);
    if ((info.readings || []).length) body.append(RF.el("h3", { text: "Readings" }), readings);
    if ((info.message_inputs || []).length) body.append(RF.el("h3", { text: "Send a message" }), messageForm(info));
    body.append(RF.el("h3", { text: "Ports" }), ports(info));
    clearInterval(timer);
    await refresh(info, true);
    timer = setInterval(() => { if (current === info.name) refresh(info, false); }, 1000);
  }

  async function refresh(info, first) {
    let d;
    try { d = await RF.api("GET", base(info.name)); } catch (e) { RF.showError(e.message); return; }
    if (current !== info.name) return;
    if (first) renderParams(info, d.params || []);
    else updateParams(d.params || []);
    renderStats(d.stats || {});
    renderHist((d.stats || {}).items_per_call_log2 || []);
    const rs = (info.readings || []).filter((r) => !(info.display && (r === "frame" || r === "display")));
    if (rs.length) {
      const box = document.getElementById("panel-readings");
      const out = RF.el("table", { class: "kv" });
      for (const r of rs) {
        let v;
        try { v = RF.plain((await RF.api("GET", base(info.name) + "/readings/" + encodeURIComponent(r))).value); } catch (e) { v = "(" + e.message + ")"; }
        out.append(RF.el("tr", {}, RF.el("th", { text: r }), RF.el("td", {}, RF.renderValue(v))));
      }
      box.replaceChildren(out);
    }
  }

  function renderParams(info, params) {
    const box = document.getElementById("panel-params");
    if (!params.length) { box.replaceChildren(RF.el("div", { class: "hint", text: "none" })); return; }
    const t = RF.el("table", { class: "kv" });
    for (const p of params) {
      const range = [p.min !== null && p.min !== undefined ? (p.min_inclusive ? "≥ " : "> ") + p.min : null,
        p.max !== null && p.max !== undefined ? (p.max_inclusive ? "≤ " : "< ") + p.max : null].filter(Boolean).join(", ");
      const valueCell = RF.el("td", { "data-param": p.name });
      valueCell.textContent = RF.short(RF.plain(p.value));
      const row = RF.el("tr", { title: p.doc || "" },
        RF.el("th", { text: p.name }), valueCell,
        RF.el("td", { class: "hint", text: [p.type, p.unit, range].filter(Boolean).join(" · ") }));
      if (p.settable) {
        const input = RF.el("input", { class: "param-input", "data-set-param": p.name, value: RF.short(RF.plain(p.value)) });
        const status = RF.el("span", { class: "hint" });
        const set = async () => {
          let v = input.value.trim();
          let body;
          try { body = JSON.parse(v); } catch (e) { body = v; }
          try {
            const r = await RF.api("PUT", base(info.name) + "/params/" + encodeURIComponent(p.name), body);
            valueCell.textContent = RF.short(RF.plain(r.value));
            status.className = "okmsg"; status.textContent = "set";
          } catch (e) { status.className = "err"; status.textContent = e.message; }
        };
        input.addEventListener("keydown", (e) => { if (e.key === "Enter") set(); });
        row.append(RF.el("td", {}, input, RF.el("button", { class: "small", onclick: set, text: "set" }), status));
      }
      t.append(row);
    }
    box.replaceChildren(t);
  }

  function updateParams(params) {
    for (const p of params) {
      const cell = document.querySelector(`#panel-params td[data-param="${CSS.escape(p.name)}"]`);
      if (cell) cell.textContent = RF.short(RF.plain(p.value));
    }
  }

  function renderStats(s) {
    const rows = [["work calls", s.work_calls], ["items consumed", s.items_consumed], ["items produced", s.items_produced],
      ["messages handled", s.messages_handled], ["time in work", RF.si((s.work_ns || 0) / 1e9, "s")],
      ["context switches", (s.voluntary_context_switches || 0) + " / " + (s.involuntary_context_switches || 0) + " (vol./invol.)"],
      ["blocks sharing its thread", s.blocks_sharing_thread], ["worst timer lateness", RF.si((s.timer_late_max_ns || 0) / 1e9, "s")]];
    for (const [k, v] of Object.entries(s.counters || {})) rows.push([k, v]);
    document.getElementById("panel-stats").replaceChildren(RF.el("table", { class: "kv" },
      rows.map(([k, v]) => RF.el("tr", {}, RF.el("th", { text: k }), RF.el("td", { class: "num", text: typeof v === "number" ? v.toLocaleString() : String(v) })))));
  }

  function renderHist(h) {
    let last = 0;
    h.forEach((c, i) => { if (c > 0) last = i; });
    const shown = h.slice(0, Math.max(last + 1, 2));
    const max = Math.max(1, ...shown);
    const label = (k) => k === 0 ? "0" : RF.si(Math.pow(2, k - 1));
    const bars = RF.el("div", { class: "hist" }, shown.map((c, k) =>
      RF.el("div", { style: `height:${(100 * Math.log1p(c) / Math.log1p(max)).toFixed(1)}%`, title: `${label(k)}–${RF.si(Math.pow(2, k))} items: ${c} calls` })));
    document.getElementById("panel-hist").replaceChildren(bars,
      RF.el("div", { class: "hist-axis" }, RF.el("span", { text: label(0) }), RF.el("span", { text: "items per call (log₂ buckets, log height)" }), RF.el("span", { text: label(shown.length - 1) })));
  }

  function messageForm(info) {
    const port = RF.el("select", {}, info.message_inputs.map((p) => RF.el("option", { value: p, text: p })));
    const text = RF.el("textarea", { rows: 3, placeholder: '1000000   or   {"freq": 1e6}   or   {"type":"f64","value":2.5}' });
    const out = RF.el("pre", { hidden: true });
    const send = (kind) => async () => {
      let body;
      try { body = JSON.parse(text.value || "null"); } catch (e) { body = text.value; }
      try {
        const r = await RF.api("POST", base(info.name) + "/" + kind + "/" + encodeURIComponent(port.value), body);
        out.textContent = kind === "call" ? "reply: " + JSON.stringify(RF.plain(r.reply)) : "posted";
        out.className = "";
      } catch (e) { out.textContent = e.message; out.className = "err"; }
      out.hidden = false;
    };
    return RF.el("div", {}, RF.el("div", { class: "row" }, "input ", port), text,
      RF.el("button", { onclick: send("call"), text: "Call (await reply)" }), " ",
      RF.el("button", { onclick: send("post"), text: "Post" }),
      RF.el("div", { class: "hint", text: "The body is JSON: a plain number, string, list or object, or a tagged PMT." }), out);
  }

  function ports(info) {
    const rows = [];
    for (const p of info.inputs || []) rows.push(["in " + p.name, p.item]);
    for (const p of info.outputs || []) rows.push(["out " + p.name, p.item]);
    for (const p of info.message_inputs || []) rows.push(["msg in " + p, ""]);
    for (const p of info.message_outputs || []) rows.push(["msg out " + p, ""]);
    return RF.el("table", { class: "kv" }, rows.map(([a, b]) => RF.el("tr", {}, RF.el("th", { text: a }), RF.el("td", { text: b }))));
  }

  return { open, close };
})();
